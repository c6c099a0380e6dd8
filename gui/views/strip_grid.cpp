#include "gui/views/strip_grid.hpp"

#include "collector/analysis/comparison.hpp"
#include "gui/models/strip_layout.hpp"
#include "gui/views/strip_widget.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace hitmap::gui {

StripGrid::StripGrid(QWidget* parent)
    : QWidget(parent)
    , grid_(new QGridLayout) {
    // The columns share the width whatever their labels say; in a scroll area taller than the
    // strips, the room left goes below them, not into the rows.
    grid_->setColumnStretch(0, 1);
    grid_->setColumnStretch(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(grid_);
    layout->addStretch(1);
}

void StripGrid::clear() {
    for (StripWidget* s : strips_)
        delete s;
    for (QLabel* l : labels_)
        delete l;
    strips_.clear();
    labels_.clear();
    delete caption_;
    caption_ = nullptr;
}

void StripGrid::setRuns(const store::C2cData& before, const QString& before_label,
                        const store::C2cData& after, const QString& after_label,
                        const std::string& object) {
    clear();
    double scale = 0;
    QStringList metrics; // what the boxes show, once per kind (an import's are raw)
    std::vector<std::pair<int, std::optional<StripLayout>>> cells; // (column, strip)
    int column = 0;
    for (const store::C2cData* side : {&before, &after}) {
        if (const engine::ObjectInfo* o = analysis::object_named(*side, object))
            for (const c2c::LineKey& key : touched_lines(*side, o->id)) {
                auto s = compute_strip(*side, key, 1.0);
                if (s) {
                    scale = std::max(scale, s->max_value);
                    if (!metrics.contains(strip_metric(*s)))
                        metrics << strip_metric(*s);
                }
                cells.emplace_back(column, std::move(s));
            }
        ++column;
    }
    // The values are one object's, per line: say so, and what they count.
    caption_ = new QLabel(tr("Each strip is one line of one object, <b>%1</b>, in its run. "
                             "Boxes: <b>%2</b> (colour and number, one scale for both runs); "
                             "hover a box for loads, stores and transfers.")
                              .arg(QString::fromStdString(object).toHtmlEscaped(),
                                   metrics.join(QStringLiteral(" / "))),
                          this);
    caption_->setWordWrap(true);
    grid_->addWidget(caption_, 0, 0, 1, 2);
    for (int c = 0; c < 2; ++c) {
        auto* label = new QLabel(c == 0 ? before_label : after_label, this);
        label->setWordWrap(true); // two long run labels must not widen the window
        labels_.push_back(label);
        grid_->addWidget(label, 1, c);
    }
    int next_row[2] = {2, 2};
    for (auto& [c, s] : cells) {
        auto* w = new StripWidget(this);
        w->setStrip(std::move(s));
        w->setScaleMax(scale);
        grid_->addWidget(w, next_row[c]++, c);
        strips_.push_back(w);
    }
}

QString StripGrid::caption() const {
    return caption_ ? caption_->text() : QString();
}

} // namespace hitmap::gui
