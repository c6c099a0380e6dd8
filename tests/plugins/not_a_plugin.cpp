// A shared library without the plugin entry points.
extern "C" __attribute__((visibility("default"))) int not_a_hitmap_plugin() {
    return 1;
}
