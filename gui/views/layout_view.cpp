#include "gui/views/layout_view.hpp"

#include "collector/analysis/comparison.hpp"
#include "collector/btf/btf_file.hpp"
#include "collector/report/report_tables.hpp"
#include "engine/layout/layout_registry.hpp"
#include "gui/models/layout_rows.hpp"
#include "gui/models/number_text.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/models/unknown_text.hpp"
#include "gui/views/picker_item.hpp"
#include "gui/views/strip_widget.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <set>

namespace hitmap::gui {

namespace {

constexpr int kSourceRole = Qt::UserRole;      // LayoutView::Source
constexpr int kIndexRole = Qt::UserRole + 1;   // stored: catalog index; built-in: known_layouts()
constexpr int kVersionRole = Qt::UserRole + 2; // stored and built-in

// At most `shown` names, so that a struct whose every counter moved (mem_cgroup v6.0 -> v6.1)
// keeps the strips in view; the outlines show them all.
QString names_or_none(const std::vector<std::string>& names, std::size_t shown = 12) {
    if (names.empty())
        return QObject::tr("none");
    QStringList out;
    for (std::size_t i = 0; i < std::min(shown, names.size()); ++i)
        out << shown_text(names[i]).toHtmlEscaped();
    if (names.size() > shown)
        out << QObject::tr("and %1 more").arg(names.size() - shown);
    return out.join(QStringLiteral(", "));
}

QString run_list(const std::vector<std::int64_t>& runs) {
    QStringList out;
    for (const std::int64_t r : runs)
        out << QString::number(r);
    return out.join(QStringLiteral(", "));
}

} // namespace

LayoutView::LayoutView(QWidget* parent)
    : QWidget(parent)
    , struct_(new QComboBox(this))
    , diff_(new QLabel(this))
    , rows_widget_(new QWidget(this))
    , rows_(new QGridLayout) {
    auto* top = new QGridLayout;
    auto* pick_struct = new QHBoxLayout;
    pick_struct->addWidget(new QLabel(tr("Struct:"), this));
    pick_struct->addWidget(struct_);
    pick_struct->addStretch(1);
    top->addLayout(pick_struct, 0, 0, 1, 2);
    for (const Side side : {A, B}) {
        Pickers& p = sides_[side];
        p.layout = new QComboBox(this);
        p.heat = new QComboBox(this);
        p.header = new QLabel(this);
        p.header->setTextFormat(Qt::RichText);
        p.header->setWordWrap(true);
        p.layout->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        p.heat->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(side == A ? tr("Layout:") : tr("Compare with:"), this));
        row->addWidget(p.layout, 1);
        row->addWidget(new QLabel(tr("Heat:"), this));
        row->addWidget(p.heat, 1);
        top->addLayout(row, 1, side);
        top->addWidget(p.header, 2, side, Qt::AlignTop);
        for (QComboBox* c : {p.layout, p.heat})
            connect(c, &QComboBox::activated, this, [this] {
                chosen_ = true;
                refresh();
            });
    }
    top->setColumnStretch(0, 1);
    top->setColumnStretch(1, 1);
    connect(struct_, &QComboBox::activated, this, [this] {
        chosen_ = true;
        fillPickers();
        refresh();
    });
    diff_->setTextFormat(Qt::RichText);
    diff_->setWordWrap(true);

    auto* inner = new QVBoxLayout(rows_widget_);
    inner->setContentsMargins(0, 0, 0, 0);
    inner->addLayout(rows_);
    rows_->setColumnStretch(0, 1);
    inner->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(rows_widget_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(diff_);
    layout->addWidget(scroll, 1);

    fillStructs();
    applyDefault();
}

void LayoutView::setCatalog(std::shared_ptr<const analysis::LayoutCatalog> catalog) {
    catalog_ = std::move(catalog);
    fillStructs();
    if (chosen_) {
        fillPickers();
        refresh();
    } else {
        applyDefault();
    }
}

void LayoutView::setRun(std::shared_ptr<const analysis::RunDetail> run) {
    run_ = std::move(run);
    if (!chosen_)
        applyDefault();
}

void LayoutView::setStory(std::optional<analysis::StoryRuns> story) {
    story_ = std::move(story);
    if (!chosen_)
        applyDefault();
}

bool LayoutView::applyStory() {
    if (!story_ || !catalog_ || !run_ || run_->run.id != story_->before)
        return false;
    // The choose* calls are the pickers' own; what they pick here is still the default.
    const bool shown =
        chooseStruct(QString::fromStdString(story_->story.layout_struct)) &&
        chooseRun(A, story_->before) &&
        (story_->after ? chooseRun(B, *story_->after) : chooseLayout(B, Source::none));
    chosen_ = false;
    return shown;
}

void LayoutView::setKernelLayout(const QString& struct_name,
                                 std::shared_ptr<const engine::Layout> layout) {
    kernel_[struct_name] = std::move(layout);
    kernel_errors_.erase(struct_name);
    if (kernel_pending_ == struct_name)
        kernel_pending_.clear();
    refresh();
}

void LayoutView::setKernelLayoutError(const QString& struct_name, const QString& reason) {
    kernel_errors_[struct_name] = reason;
    if (kernel_pending_ == struct_name)
        kernel_pending_.clear();
    refresh();
}

QString LayoutView::structName() const {
    return struct_->currentData().toString();
}

QString LayoutView::header(Side side) const {
    return sides_[side].header->text();
}

QString LayoutView::diffSummary() const {
    return diff_->text();
}

bool LayoutView::chooseStruct(const QString& name) {
    const int index = struct_->findData(name);
    if (index < 0)
        return false;
    chosen_ = true;
    struct_->setCurrentIndex(index);
    fillPickers();
    refresh();
    return true;
}

bool LayoutView::chooseLayout(Side side, Source source, const QString& version) {
    QComboBox* c = sides_[side].layout;
    for (int i = 0; i < c->count(); ++i)
        if (c->itemData(i, kSourceRole).toInt() == static_cast<int>(source) &&
            (version.isEmpty() || c->itemData(i, kVersionRole).toString() == version)) {
            chosen_ = true;
            c->setCurrentIndex(i);
            refresh();
            return true;
        }
    return false;
}

bool LayoutView::chooseHeat(Side side, std::optional<qint64> run) {
    QComboBox* c = sides_[side].heat;
    const int index = run ? c->findData(QVariant::fromValue(*run)) : 0;
    if (index < 0)
        return false;
    chosen_ = true;
    c->setCurrentIndex(index);
    refresh();
    return true;
}

bool LayoutView::chooseRun(Side side, qint64 run) {
    QComboBox* c = sides_[side].layout;
    const engine::Layout* other = layoutOf(side == A ? B : A);
    for (int i = 0; i < c->count(); ++i) {
        if (c->itemData(i, kSourceRole).toInt() != static_cast<int>(Source::stored))
            continue;
        const analysis::StoredLayout& stored =
            catalog_->layouts.at(c->itemData(i, kIndexRole).toUInt());
        // Imports name every line's type "perf-c2c line": one struct in the picker, but not
        // one type, so two of them cannot be compared field by field.
        if (other && other->type != stored.layout.type)
            continue;
        if (std::binary_search(stored.runs.begin(), stored.runs.end(), run)) {
            chosen_ = true;
            c->setCurrentIndex(i);
            return chooseHeat(side, run);
        }
    }
    // A struct embedded in the run's objects (the counters inside a bigger struct) has no
    // stored layout of its own: the first layout on offer that those objects placed it as.
    const analysis::StructHeat* heat = heatOfRun(run);
    for (int i = 0; heat && i < c->count(); ++i) {
        const engine::Layout* layout = layoutAt(side, i);
        if (layout && std::any_of(heat->recorded.begin(), heat->recorded.end(),
                                  [&](const engine::Layout& recorded) {
                                      return analysis::records_layout(recorded, *layout);
                                  })) {
            chosen_ = true;
            c->setCurrentIndex(i);
            return chooseHeat(side, run);
        }
    }
    return false;
}

void LayoutView::fillStructs() {
    std::set<QString> names;
    for (const engine::Layout* l : engine::known_layouts())
        names.insert(QString::fromStdString(l->type->name));
    if (catalog_)
        for (const analysis::StoredLayout& s : catalog_->layouts)
            names.insert(QString::fromStdString(s.layout.type->name));
    const QString keep = structName();
    struct_->clear();
    for (const QString& n : names)
        add_picker_item(struct_, n, n); // the name whole as the data: a plugin's may be long
    struct_->setCurrentIndex(std::max(0, struct_->findData(keep)));
}

// The sources of the current struct, keeping each picker's choice where it is still offered.
void LayoutView::fillPickers() {
    const std::string name = structName().toStdString();
    for (const Side side : {A, B}) {
        QComboBox* layout = sides_[side].layout;
        QComboBox* heat = sides_[side].heat;
        const QString keep_layout = layout->currentText();
        const QVariant keep_heat = heat->currentData();
        layout->clear();
        heat->clear();
        // The pickers are narrow beside each other: the whole label on hover.
        const auto add = [layout](const QString& text, Source source, int index,
                                  const std::string& version) {
            add_picker_item(layout, text);
            const int i = layout->count() - 1;
            layout->setItemData(i, static_cast<int>(source), kSourceRole);
            layout->setItemData(i, index, kIndexRole);
            layout->setItemData(i, QString::fromStdString(version), kVersionRole);
        };
        if (side == B)
            add(tr("— no comparison —"), Source::none, -1, {});
        if (catalog_)
            for (std::size_t i = 0; i < catalog_->layouts.size(); ++i) {
                const analysis::StoredLayout& s = catalog_->layouts[i];
                if (s.layout.type->name == name)
                    add(tr("%1 — stored with run %2")
                            .arg(QString::fromStdString(s.layout.version), run_list(s.runs)),
                        Source::stored, static_cast<int>(i), s.layout.version);
            }
        const auto known = engine::known_layouts();
        for (std::size_t i = 0; i < known.size(); ++i)
            if (known[i]->type->name == name)
                add(tr("%1 — %2").arg(QString::fromStdString(known[i]->version),
                                      QString::fromStdString(known[i]->origin)),
                    Source::built_in, static_cast<int>(i), known[i]->version);
        // kernel/bpf/sysfs_btf.c publishes it with CONFIG_DEBUG_INFO_BTF (5.5+).
        if (std::filesystem::exists(btf::kKernelBtfPath))
            add(tr("running kernel (BTF)"), Source::kernel, -1, {});
        layout->setCurrentIndex(std::max(0, layout->findText(keep_layout)));

        add_picker_item(heat, tr("no run (uncoloured)"));
        if (catalog_)
            for (const analysis::StructHeat& h : catalog_->heats)
                if (h.type->name == name)
                    add_picker_item(heat, QString::fromStdString(report::run_label(h.run)),
                                    QVariant::fromValue<qint64>(h.run.id));
        heat->setCurrentIndex(std::max(0, heat->findData(keep_heat)));
    }
}

void LayoutView::applyDefault() {
    if (applyStory())
        return;
    const engine::ObjectInfo* hottest =
        run_ && run_->c2c ? analysis::hottest_object(*run_->c2c) : nullptr;
    if (!catalog_ || !hottest || !hottest->layout.type) {
        // Nothing recorded to start from: the story's struct, else the first one, as the
        // first layout on offer has it.
        struct_->setCurrentIndex(std::max(
            0,
            story_ ? struct_->findData(QString::fromStdString(story_->story.layout_struct)) : 0));
        fillPickers();
        sides_[A].layout->setCurrentIndex(0);
        sides_[A].heat->setCurrentIndex(0);
        sides_[B].layout->setCurrentIndex(0);
        sides_[B].heat->setCurrentIndex(0);
        refresh();
        return;
    }
    struct_->setCurrentIndex(
        std::max(0, struct_->findData(QString::fromStdString(hottest->layout.type->name))));
    fillPickers();
    QComboBox* layout = sides_[A].layout;
    for (int i = 0; i < layout->count(); ++i)
        if (layout->itemData(i, kSourceRole).toInt() == static_cast<int>(Source::stored) &&
            analysis::same_layout(
                catalog_->layouts[layout->itemData(i, kIndexRole).toUInt()].layout,
                hottest->layout))
            layout->setCurrentIndex(i);
    sides_[A].heat->setCurrentIndex(
        std::max(0, sides_[A].heat->findData(QVariant::fromValue<qint64>(run_->run.id))));
    sides_[B].layout->setCurrentIndex(0);
    sides_[B].heat->setCurrentIndex(0);
    refresh();
}

const engine::Layout* LayoutView::layoutOf(Side side) const {
    return layoutAt(side, sides_[side].layout->currentIndex());
}

const engine::Layout* LayoutView::layoutAt(Side side, int item) const {
    const QComboBox* c = sides_[side].layout;
    const auto source = static_cast<Source>(c->itemData(item, kSourceRole).toInt());
    const int index = c->itemData(item, kIndexRole).toInt();
    switch (source) {
    case Source::stored:
        return catalog_ ? &catalog_->layouts.at(static_cast<std::size_t>(index)).layout : nullptr;
    case Source::built_in:
        return engine::known_layouts().at(static_cast<std::size_t>(index));
    case Source::kernel: {
        const auto it = kernel_.find(structName());
        return it == kernel_.end() ? nullptr : it->second.get();
    }
    case Source::none:
        break;
    }
    return nullptr;
}

const analysis::StructHeat* LayoutView::heatOf(Side side) const {
    const QVariant run = sides_[side].heat->currentData();
    return run.isValid() ? heatOfRun(run.toLongLong()) : nullptr;
}

const analysis::StructHeat* LayoutView::heatOfRun(qint64 run) const {
    if (!catalog_)
        return nullptr;
    for (const analysis::StructHeat& h : catalog_->heats)
        if (h.run.id == run && h.type->name == structName().toStdString())
            return &h;
    return nullptr;
}

// "struct page_counter v6.0: 112 bytes, 2 lines, built-in", what the heat is, or why there is
// no layout to draw.
QString LayoutView::headerText(Side side, const analysis::LayoutMap* map) const {
    const QComboBox* c = sides_[side].layout;
    const auto source = static_cast<Source>(c->currentData(kSourceRole).toInt());
    if (source == Source::none)
        return tr("Choose a second layout to compare line by line.");
    if (!map) {
        // A stored or built-in layout goes undrawn only when the pair cannot be compared: the
        // line below the pickers says why.
        if (source != Source::kernel)
            return tr("Not drawn.");
        const auto error = kernel_errors_.find(structName());
        return error != kernel_errors_.end()
                   ? tr("<b>Running kernel</b>: <span style='color:#c62828'>%1</span>")
                         .arg(shown_text(error->second, kSentenceChars).toHtmlEscaped())
                   : tr("Reading the running kernel's BTF…");
    }
    // A run stored before schema 10 kept no origin with its layouts.
    QString origin =
        map->origin.empty() ? tr("origin not stored") : shown_text(map->origin).toHtmlEscaped();
    if (source == Source::stored)
        origin = tr("stored with run %1 (%2)")
                     .arg(shown_text(run_list(
                              catalog_->layouts.at(c->currentData(kIndexRole).toUInt()).runs)),
                          origin);
    QString text = tr("<b>struct %1</b> %2: %3 bytes, %4 lines (%5 with modelled fields), %6")
                       .arg(shown_text(map->struct_name).toHtmlEscaped(),
                            shown_text(map->version).toHtmlEscaped())
                       .arg(map->size)
                       .arg(map->lines.size())
                       .arg(map->lines_with_fields())
                       .arg(origin);
    if (!map->heat)
        return text + tr("<br>No run: fields uncoloured.");
    const analysis::StructHeat* heat = heatOf(side);
    text += heat->container
                ? tr("<br>Heat: HITM of run %1, summed over the %2 %3(s) inside its %4 "
                     "%5 object(s)")
                      .arg(map->heat->run)
                      .arg(heat->instances)
                      .arg(shown_text(map->struct_name).toHtmlEscaped())
                      .arg(heat->objects)
                      .arg(shown_text(heat->container->name).toHtmlEscaped())
                : tr("<br>Heat: HITM of run %1, summed over its %n object(s) of the struct",
                     nullptr, static_cast<int>(heat->objects))
                      .arg(map->heat->run);
    // Where the counts come from, as `show`'s c2c column names it: a replayed trace
    // (software), a simulation, PMU samples (hardware, perf), an import or a prediction.
    text +=
        tr("; cachelines: %1").arg(text_or_unknown(heat->run.c2c_source, [](store::C2cSource c) {
            return QString::fromUtf8(store::to_string(c).data());
        }));
    if (!map->heat->same_layout) {
        QStringList recorded;
        for (const std::string& v : map->heat->recorded)
            recorded << shown_text(v).toHtmlEscaped();
        text += tr("; <span style='color:#c62828'>recorded under another layout (%1)</span>: "
                   "transfers depend on what shares a line, so these are that layout's")
                    .arg(recorded.join(QStringLiteral(", ")));
    }
    return text;
}

void LayoutView::clearRows() {
    for (QWidget* w : row_widgets_)
        delete w;
    row_widgets_.clear();
    strips_[A].clear();
    strips_[B].clear();
}

void LayoutView::refresh() {
    clearRows();
    const engine::Layout* la = layoutOf(A);
    const engine::Layout* lb = layoutOf(B);
    for (const Side side : {A, B})
        if (static_cast<Source>(sides_[side].layout->currentData(kSourceRole).toInt()) ==
                Source::kernel &&
            !layoutOf(side) && !kernel_errors_.contains(structName()) &&
            kernel_pending_ != structName()) {
            kernel_pending_ = structName();
            emit kernelLayoutRequested(structName());
        }

    std::optional<analysis::LayoutMap> a, b;
    QString diff;
    try {
        if (la && lb) {
            analysis::LayoutPair pair = analysis::compare_layouts(*la, heatOf(A), *lb, heatOf(B));
            // Outlined: the fields whose line changed relative to the hot field's (the
            // analysis's rule), else those on another line.
            diff = (pair.hot.empty() ? tr("<b>%1 %2 on another line</b> (outlined in blue): %3")
                                     : tr("<b>%1 %2 left or joined the hot field's line</b> "
                                          "(outlined in blue): %3"))
                       .arg(pair.moved.size())
                       .arg(pair.moved.size() == 1 ? tr("field") : tr("fields"))
                       .arg(names_or_none(pair.moved));
            for (const btf::HotLine& h : pair.hot)
                diff += tr("<br>Moved off %1's line: %2; moved onto it: %3.")
                            .arg(shown_text(h.field).toHtmlEscaped(), names_or_none(h.left),
                                 names_or_none(h.joined));
            a = std::move(pair.a);
            b = std::move(pair.b);
        } else if (la) {
            a = analysis::map_layout(*la, heatOf(A));
        }
    } catch (const std::exception& e) {
        diff = QStringLiteral("<span style='color:#c62828'>%1</span>")
                   .arg(shown_text(QString::fromUtf8(e.what()), kSentenceChars).toHtmlEscaped());
        a.reset();
        b.reset();
    }
    std::vector<LayoutRow> rows = a ? layout_rows(*a, b ? &*b : nullptr) : std::vector<LayoutRow>{};
    // One colour scale for both sides, in the strips' own metric.
    double scale = 0;
    const StripLayout* metric_of = nullptr;
    for (const LayoutRow& row : rows)
        for (const auto* strip : {&row.a, &row.b})
            if (*strip && (*strip)->max_value > scale) {
                scale = (*strip)->max_value;
                metric_of = &**strip;
            }
    if (metric_of)
        diff += tr("<br>Colour and number: %1, summed over the heat run's objects (see each "
                   "side's heat); full red at %2%3.")
                    .arg(strip_metric(*metric_of), number_text(scale, metric_of->basis ? 1 : 0),
                         b ? tr(" on both sides") : QString());
    diff_->setText(diff);
    diff_->setVisible(!diff.isEmpty());
    sides_[A].header->setText(headerText(A, a ? &*a : nullptr));
    sides_[B].header->setText(headerText(B, b ? &*b : nullptr));
    rows_->setColumnStretch(1, b ? 1 : 0);
    if (!a)
        return;

    int r = 0;
    for (LayoutRow& row : rows) {
        if (row.collapsed()) {
            auto* gap =
                new QLabel(row.first == row.last
                               ? tr("line %1: no modelled field").arg(row.first)
                               : tr("lines %1–%2: no modelled field").arg(row.first).arg(row.last),
                           rows_widget_);
            gap->setAlignment(Qt::AlignCenter);
            gap->setEnabled(false);
            rows_->addWidget(gap, r++, 0, 1, b ? 2 : 1);
            row_widgets_.push_back(gap);
            continue;
        }
        for (const Side side : {A, B}) {
            std::optional<StripLayout>& strip = side == A ? row.a : row.b;
            if (side == B && !b)
                break;
            QWidget* cell = nullptr;
            if (strip) {
                auto* w = new StripWidget(rows_widget_);
                w->setStrip(std::move(strip));
                w->setScaleMax(scale);
                strips_[side].push_back(w);
                cell = w;
            } else {
                auto* none =
                    new QLabel(tr("no line %1 in this layout").arg(row.first), rows_widget_);
                none->setAlignment(Qt::AlignCenter);
                none->setEnabled(false);
                cell = none;
            }
            rows_->addWidget(cell, r, side);
            row_widgets_.push_back(cell);
        }
        ++r;
    }
}

} // namespace hitmap::gui
