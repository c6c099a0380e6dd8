#pragma once
// One object's lines in two runs as strips: a column per run, a row per line the replay saw
// accessed, all on one colour scale, so the same colour means the same HITM rate on both
// sides. The compare view shows it; the report export draws it.
#include "collector/store/c2c_tables.hpp"

#include <QWidget>
#include <string>
#include <vector>

class QGridLayout;
class QLabel;

namespace hitmap::gui {

class StripWidget;

class StripGrid : public QWidget {
    Q_OBJECT
public:
    explicit StripGrid(QWidget* parent = nullptr);

    // Replaces the strips with those of the object named `object` in each run (objects are
    // matched by name: ids differ between runs). Labels are rich text.
    void setRuns(const store::C2cData& before, const QString& before_label,
                 const store::C2cData& after, const QString& after_label,
                 const std::string& object);
    void clear();
    const std::vector<StripWidget*>& strips() const { return strips_; }
    // What the strips are of and what their boxes count (rich text).
    QString caption() const;

private:
    QGridLayout* grid_;
    std::vector<StripWidget*> strips_;
    std::vector<QLabel*> labels_;
    QLabel* caption_ = nullptr; // the metric and what the strips are of
};

} // namespace hitmap::gui
