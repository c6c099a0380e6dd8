# Thin wrapper over CMake. `make run` and `make test` are the two commands in README.md.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# CI (.ci/run sets CI) treats compiler warnings as errors: the tree is -Wall -Wextra clean.
WERROR_FLAGS = $(if $(CI),-DHITMAP_WERROR=ON)
CTEST_FLAGS ?= --output-on-failure -j$(JOBS)
DB ?= hitmap.db

.PHONY: all deps configure build build-main test test-unit test-sanitizers run clean format

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja $(WERROR_FLAGS) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# What the main job runs, the CLI and the app, without the tests and benchmarks `make test`
# builds (CMake target hitmap-main).
build-main: configure
	@cmake --build $(BUILD) -j$(JOBS) --target hitmap-main

test: build
	@scripts/run-tests $(BUILD)

run: build-main
	@scripts/run-main $(BUILD) $(DB)

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) build-tsan build-asan
