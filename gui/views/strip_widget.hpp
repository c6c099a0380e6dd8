#pragma once
// Draws one StripLayout: the line's bytes left to right, each field a box coloured by its
// strip_value (HITM per 1k operations; grey when not counted), with its name and value inside
// and its loads/stores/HITM/transfers in the tooltip; a field the compared layout puts on another
// line is outlined in blue.
#include "gui/models/strip_layout.hpp"

#include <QWidget>
#include <optional>

namespace hitmap::gui {

class StripWidget : public QWidget {
    Q_OBJECT
public:
    explicit StripWidget(QWidget* parent = nullptr);

    // The layout's x/width are fractions of the strip (compute with width 1.0).
    void setStrip(std::optional<StripLayout> strip);
    // The strip_value that paints full red; 0 uses the strip's own maximum. Views of several
    // strips share one.
    void setScaleMax(double value);
    const std::optional<StripLayout>& strip() const { return strip_; }

    QSize sizeHint() const override { return {640, 96}; }
    QSize minimumSizeHint() const override { return {320, 80}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF stripRect() const;
    QRectF boxRect(const StripBox& box) const;
    QString tooltip(const StripBox& box) const;

    std::optional<StripLayout> strip_;
    double scale_max_ = 0;
};

} // namespace hitmap::gui
