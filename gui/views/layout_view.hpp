#pragma once
// A struct layout line by line: one cacheline strip per line, the fields as boxes coloured by a
// chosen run's transfers; and a second layout of the struct beside it on the same colour scale,
// the fields that moved lines outlined and who left or joined the hot field's line listed.
// Layouts come from the runs in the database, the built-in versions, or the running kernel's
// BTF; the models are collector/analysis/layout_map.hpp's.
#include "collector/analysis/layout_catalog.hpp"
#include "collector/analysis/layout_map.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/analysis/story.hpp"

#include <QString>
#include <QWidget>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;

namespace hitmap::gui {

class StripWidget;

class LayoutView : public QWidget {
    Q_OBJECT
public:
    enum Side { A, B };
    // Where a layout comes from; `none` is the second side's "no comparison".
    enum class Source { none, stored, built_in, kernel };

    explicit LayoutView(QWidget* parent = nullptr);

    // The database's layouts and the runs' heat; a choice still on offer is kept.
    void setCatalog(std::shared_ptr<const analysis::LayoutCatalog> catalog);
    // The run the window shows: until a layout is chosen here, the view shows the struct of its
    // hottest object, as the run recorded it, with its heat; for the story's "before" run, the
    // story's struct as it and the "after" run recorded it, each with its run's heat.
    void setRun(std::shared_ptr<const analysis::RunDetail> run);
    void setStory(std::optional<analysis::StoryRuns> story);
    // The answers to kernelLayoutRequested.
    void setKernelLayout(const QString& struct_name, std::shared_ptr<const engine::Layout> layout);
    void setKernelLayoutError(const QString& struct_name, const QString& reason);

    // Choices, as the pickers make them; false when nothing on offer matches. `version` picks
    // among stored and built-in layouts (the first stored one with it).
    bool chooseStruct(const QString& name);
    bool chooseLayout(Side side, Source source, const QString& version = {});
    // nullopt: no run, the boxes uncoloured.
    bool chooseHeat(Side side, std::optional<qint64> run);
    // The struct's layout as `run` recorded it (for a struct embedded in the run's objects, the
    // first layout on offer that they placed it as), coloured by that run; false when the run
    // holds no object of the struct (of the other side's type, when that side shows a layout).
    bool chooseRun(Side side, qint64 run);

    QString structName() const;
    const std::vector<StripWidget*>& strips(Side side) const { return strips_[side]; }
    QString header(Side side) const;
    QString diffSummary() const;

signals:
    void kernelLayoutRequested(const QString& struct_name);

private:
    struct Pickers {
        QComboBox* layout;
        QComboBox* heat;
        QLabel* header;
    };
    // What a side's layout picker points at: null while the kernel's is loading or failed.
    const engine::Layout* layoutOf(Side side) const;
    const engine::Layout* layoutAt(Side side, int item) const; // of the side's picker's item
    const analysis::StructHeat* heatOf(Side side) const;
    const analysis::StructHeat* heatOfRun(qint64 run) const; // of the struct shown
    QString headerText(Side side, const analysis::LayoutMap* map) const;
    void fillStructs();
    void fillPickers();
    void applyDefault();
    // The story's pair, when the run shown is its "before" run; false when it cannot be shown.
    bool applyStory();
    void refresh();
    void clearRows();

    std::shared_ptr<const analysis::LayoutCatalog> catalog_;
    std::shared_ptr<const analysis::RunDetail> run_;
    std::optional<analysis::StoryRuns> story_;
    bool chosen_ = false; // a choice was made here: the selected run no longer sets the view
    // The running kernel's layouts by struct, and why a struct has none.
    std::map<QString, std::shared_ptr<const engine::Layout>> kernel_;
    std::map<QString, QString> kernel_errors_;
    QString kernel_pending_; // the struct last requested (the loader answers the latest only)
    QComboBox* struct_;
    std::array<Pickers, 2> sides_;
    QLabel* diff_;
    QWidget* rows_widget_;
    QGridLayout* rows_;
    std::array<std::vector<StripWidget*>, 2> strips_;
    std::vector<QWidget*> row_widgets_;
};

} // namespace hitmap::gui
