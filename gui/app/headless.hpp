#pragma once
// The app's commands that need no display: `hitmap export` and `hitmap --screenshot` (and
// `--help`, `--version`, which need no window system at all).
namespace hitmap::gui {

// Before the QApplication: the offscreen platform unless QT_QPA_PLATFORM chooses one, and Qt's
// notes about it ("This plugin does not support propagateSizeHints()", no XDG_RUNTIME_DIR) kept
// off stderr, which is for the command's own one-line errors. Critical and fatal messages still
// go through, each as one line after `command` ("hitmap export: ...").
void prepare_headless(const char* command);

} // namespace hitmap::gui
