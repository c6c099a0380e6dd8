// libFuzzer target for the check a plugin file passes before dlopen maps it: whatever bytes a
// file holds (truncated, of another machine, with tables pointing anywhere), the check returns
// an answer without reading outside them, crashing or hitting UB.
#include "collector/plugins/plugin_file.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // An exact-size heap copy, so AddressSanitizer flags any read past the image's end.
    const std::vector<std::byte> image(reinterpret_cast<const std::byte*>(data),
                                       reinterpret_cast<const std::byte*>(data + size));
    (void)hitmap::plugins::plugin_image_problem(image);
    return 0;
}
