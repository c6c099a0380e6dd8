#pragma once
// Numbers as every view prints them: thousands grouped with a comma ("184,200", "1,500,000.0"),
// whatever the machine's locale, as the CLI's and the reports' text groups them, so one figure
// reads the same in a table, a strip, a chart and a report.
#include <QLocale>
#include <QString>
#include <cstdint>

namespace hitmap::gui {

inline QString number_text(double value, int decimals) {
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value, 'f', decimals);
}

inline QString number_text(std::uint64_t value) {
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(qulonglong{value});
}

} // namespace hitmap::gui
