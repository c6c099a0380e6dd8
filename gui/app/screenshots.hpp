#pragma once
// `hitmap --screenshot DIR [DB]`: renders the main views to PNG without a display and exits,
// for `make run` on headless machines and for the README.
#include <QSize>
#include <QString>
#include <QStringList>
#include <stdexcept>

namespace hitmap::gui {

// Why no pictures could be taken, in one line: no such file, a file the app cannot open (the
// store's reason: not SQLite, not a regular file, a newer schema), nothing to picture, a
// picture that cannot be written.
class ScreenshotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Pictures what the database holds, whatever made its runs (traced, sampled, simulated,
// imported): cacheline-table.png, line-detail.png, compare.png, scaling.png and layout.png of
// its best run with cacheline tables, compared with a run of another variant whose tables have
// the same source; locks.png and locks-compare.png of its best run with lock statistics.
// The window is `size` (the line detail alone: its width). Returns the files written into `dir`;
// throws ScreenshotError.
QStringList write_screenshots(const QString& db_path, const QString& dir,
                              QSize size = QSize(1400, 900));

} // namespace hitmap::gui
