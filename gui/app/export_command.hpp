#pragma once
// `hitmap export --db X [--runs A,B | --workload W] --format html|pdf -o FILE`: the app's
// report export without a window, for CI artifacts and reports people send each other.
#include <QStringList>

namespace hitmap::gui {

// True when the command line asks for `hitmap export` (then no display is needed:
// prepare_headless, gui/app/headless.hpp).
bool is_export_command(int argc, char** argv);

// Parses `arguments` (the program name first, then "export") and writes the report; returns
// the exit code, after a one-line "hitmap: ..." error on failure.
int run_export_command(const QStringList& arguments);

} // namespace hitmap::gui
