#pragma once
// A shell script named perf that plays perf's part where the machine cannot (no PMU here): the
// probes' `record -- true`, perf record's control-fifo handshake and SIGINT ending for both
// `perf c2c record` and `perf lock record`, and the reports' texts. Each step is a shell snippet;
// the defaults are a perf that works.
#include <filesystem>
#include <fstream>
#include <string>

namespace hitmap::testing {

struct FakePerf {
    std::string probe = "exit 0";      // `c2c record ... -- true`
    std::string lock_probe = "exit 0"; // `lock record ... -- true`
    std::string on_sigint =            // perf record writes its data, then re-raises
        R"(trap 'echo "[ perf record: Captured and wrote 0.001 MB $out ]" >&2; trap - INT; kill -INT $$' INT)";
    std::string before_ack; // after reading "enable"; $1 is c2c or lock, $out the data file
    std::string after_ack;  // while "recording"
    std::string report = R"(cat "$input")";      // `c2c report --stdio`: by default the "data"
    std::string lock_report = R"(cat "$input")"; // `lock contention`, likewise
};

// Writes the script to `path` (executable). A recording's "data" is the argv it was given.
inline void write_fake_perf(const FakePerf& f, const std::filesystem::path& path) {
    std::ofstream(path) << R"(#!/bin/sh
out= ctl= ack= input=
for a in "$@"; do
  case "$a" in
    --output=*) out="${a#--output=}" ;;
    --input=*) input="${a#--input=}" ;;
    --control=fifo:*) f="${a#--control=fifo:}"; ctl="${f%%,*}"; ack="${f#*,}" ;;
  esac
done
case "$1 $2" in
"c2c record"|"lock record")
  printf '%s\n' "$@" > "$out"
  if [ -z "$ctl" ]; then
    if [ "$1" = c2c ]; then
)" << f.probe << "\n    else\n"
                        << f.lock_probe << "\n    fi\n  fi\n  " << f.on_sigint << R"(
  echo "Events disabled" >&2
  read -r command < "$ctl"
  [ "$command" = enable ] || exit 3
)" << f.before_ack << R"(
  echo "Events enabled" >&2
  echo ack > "$ack"
)" << f.after_ack << R"(
  while :; do sleep 0.05; done ;;
"c2c report")
  [ -f "$input" ] || { echo "failed to open $input" >&2; exit 1; }
)" << f.report << R"(
  exit 0 ;;
"lock contention")
  [ -f "$input" ] || { echo "failed to open $input" >&2; exit 1; }
)" << f.lock_report << R"(
  exit 0 ;;
esac
echo "unexpected: $*" >&2
exit 9
)";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

} // namespace hitmap::testing
