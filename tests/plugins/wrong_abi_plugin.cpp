// A plugin built for another ABI version: the loader must refuse it before calling its
// registration, which would otherwise add a workload.
#include <cstdint>
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) std::uint32_t hitmap_plugin_abi_version() {
    return 9999;
}

extern "C" __attribute__((visibility("default"))) void hitmap_plugin_register(void*) {
    std::abort(); // never called
}
