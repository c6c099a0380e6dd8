#pragma once
// `hitmap --screenshot DIR [DB]`: renders the main views to PNG without a display and exits,
// for `make run` on headless machines and for the README.
#include <QString>
#include <QStringList>

namespace hitmap::gui {

class MainWindow;

// Waits (running the event loop) until the window's loader is idle, at most `timeout_ms`.
bool wait_until_idle(MainWindow& window, int timeout_ms = 30000);

// Writes cacheline-table.png, line-detail.png, compare.png, scaling.png and layout.png (and
// locks.png, locks-compare.png for res_counter runs) into `dir` and returns the files written;
// throws std::runtime_error with a one-line reason.
QStringList write_screenshots(const QString& db_path, const QString& dir);

} // namespace hitmap::gui
