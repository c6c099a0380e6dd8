#include "collector/plugins/plugin_loader.hpp"

#include "collector/plugins/plugin_file.hpp"
#include "engine/plugin/plugin_api.hpp"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace hitmap::plugins {

namespace {

using AbiVersionFn = std::uint32_t (*)();
using RegisterFn = void (*)(engine::PluginRegistrar&);

std::string dl_error() {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
}

// The whole load (dlopen, the entry points, the registration) tried in a child first: the
// dynamic loader trusts the file's dynamic section and symbol table, and a damaged or crafted one
// that passes the header check (plugin_file.hpp) can still crash it (a 176-byte ET_DYN with an
// empty PT_DYNAMIC does, with SIGSEGV) or bind an entry point to garbage (bytes flipped in the
// symbol table). The child dies instead of hitmap; a refusal is left for the real load to word.
// Plugins are loaded while the command line is parsed, before any thread starts, so the fork is
// safe. The plugin's static initialisers and registration run in the child too (plugin_api.hpp).
//
// The child reports that it got through by writing one byte to a pipe, not by its exit status: a
// sanitizer's runtime turns the crash into an ordinary exit (ThreadSanitizer 66, AddressSanitizer
// 1, the status a refusal would have), and the parent then crashed the same way. Its standard
// output and error go to /dev/null: that runtime's report, or a refusal the real load repeats.
template <typename Load> void try_in_child(const std::filesystem::path& path, const Load& load) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw PluginError(fmt::format("plugin {}: cannot make a pipe to try loading it: {}",
                                      path.string(), std::strerror(errno)));
    const pid_t child = ::fork();
    if (child < 0) {
        const int err = errno;
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        throw PluginError(fmt::format("plugin {}: cannot fork to try loading it: {}", path.string(),
                                      std::strerror(err)));
    }
    if (child == 0) {
        ::close(pipe_fds[0]);
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) {
            ::dup2(null, STDOUT_FILENO);
            ::dup2(null, STDERR_FILENO);
        }
        try {
            load();
        } catch (...) {
        }
        const char through = 1;
        const bool told = ::write(pipe_fds[1], &through, 1) == 1;
        ::_exit(told ? 0 : 1);
    }
    ::close(pipe_fds[1]);
    char through = 0;
    ssize_t got = 0;
    while ((got = ::read(pipe_fds[0], &through, 1)) < 0 && errno == EINTR) {
    }
    ::close(pipe_fds[0]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (got == 1)
        return;
    const std::string how = WIFSIGNALED(status)
                                ? std::string(strsignal(WTERMSIG(status)))
                                : fmt::format("exit status {}", WEXITSTATUS(status));
    throw PluginError(fmt::format("plugin {}: loading it crashed a trial process ({}): a "
                                  "damaged or foreign library",
                                  path.string(), how));
}

// dlopen, the ABI check and the registration, in this process; the library's handle.
void* load(const std::filesystem::path& path, const std::filesystem::path& file) {
    // RTLD_NOW: a plugin with an unresolved symbol fails here, not in the middle of a run.
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        throw PluginError(fmt::format("plugin {}: cannot load: {}", path.string(), dl_error()));
    auto fail = [&](const std::string& why) {
        dlclose(handle);
        throw PluginError(fmt::format("plugin {}: {}", path.string(), why));
    };
    const auto version = reinterpret_cast<AbiVersionFn>(dlsym(handle, "hitmap_plugin_abi_version"));
    const auto register_fn = reinterpret_cast<RegisterFn>(dlsym(handle, "hitmap_plugin_register"));
    if (!version || !register_fn)
        fail("not a hitmap plugin (it does not export hitmap_plugin_abi_version and "
             "hitmap_plugin_register; see HITMAP_PLUGIN in engine/plugin/plugin_api.hpp)");
    if (const std::uint32_t v = version(); v != engine::kPluginAbiVersion)
        fail(fmt::format("built for plugin ABI {}, this hitmap has ABI {}: rebuild it against "
                         "this hitmap's headers",
                         v, engine::kPluginAbiVersion));
    engine::PluginRegistrar registrar;
    try {
        register_fn(registrar);
    } catch (const std::exception& e) {
        // Not dlclose'd: what it registered before the failure points into it. The caller
        // exits with this error, before opening any database.
        throw PluginError(
            fmt::format("plugin {}: registration failed: {}", path.string(), e.what()));
    } catch (...) {
        // The ABI boundary: whatever a plugin throws is its failure, not std::terminate.
        throw PluginError(fmt::format("plugin {}: registration failed: it threw something that "
                                      "is not a std::exception",
                                      path.string()));
    }
    if (registrar.added().empty())
        fail("registered nothing");
    return handle;
}

} // namespace

void load_plugin(const std::filesystem::path& path) {
    check_plugin_file(path);
    // dlopen searches the library path for a bare name; the user named a file.
    const std::filesystem::path file = path.has_parent_path() ? path : "." / path;
    // The trial also unloads it: dlclose runs its destructors (DT_FINI_ARRAY), which the real
    // load runs only when hitmap exits (a flipped byte there crashed hitmap at exit, after its
    // work, under ThreadSanitizer's build of the example plugin).
    try_in_child(path, [&] { dlclose(load(path, file)); });
    load(path, file);
}

} // namespace hitmap::plugins
