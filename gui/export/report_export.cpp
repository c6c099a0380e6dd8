#include "gui/export/report_export.hpp"

#include "collector/report/report_file.hpp"
#include "collector/report/report_html.hpp"
#include "collector/report/report_tables.hpp"
#include "collector/store/database.hpp"
#include "gui/charts/chart_builder.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/views/strip_grid.hpp"

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <fmt/format.h>
#include <memory>

namespace hitmap::gui {

namespace {

constexpr QSize kChartSize{860, 480};
constexpr int kPdfPageWidth = 760;  // the PDF's page, in the document's pixels
constexpr int kPdfWidth = 680;      // a picture in it
constexpr qreal kPdfPixelRatio = 2; // images sharp in print
constexpr const char* kGenerator = "hitmap (the app's report export)";

// Bounded, as in the app: the report's tables have the label whole.
QString label(const analysis::Report& r, std::size_t run) {
    return shown_text(report::run_label(r.runs[run].detail.run));
}

// The app's pictures of a report. With a document (PDF), each picture becomes an image the
// document holds; without one (HTML), inline SVG.
class ChartPictures final : public report::ReportPictures {
public:
    explicit ChartPictures(QTextDocument* document)
        : document_(document) {}

    std::string field_bars(const analysis::Report& r, const analysis::PairSection& p) override {
        if (p.fields.empty())
            return {};
        return chart(field_chart(QString::fromStdString(p.object), label(r, p.before),
                                 label(r, p.after), p.fields, p.fields_basis));
    }

    std::string line_strips(const analysis::Report& r, const analysis::PairSection& p) override {
        const auto &before = r.runs[p.before].detail.c2c, &after = r.runs[p.after].detail.c2c;
        if (p.object.empty() || !before || !after)
            return {};
        StripGrid grid;
        grid.setRuns(*before,
                     QObject::tr("<b>Before</b>: %1").arg(label(r, p.before).toHtmlEscaped()),
                     *after, QObject::tr("<b>After</b>: %1").arg(label(r, p.after).toHtmlEscaped()),
                     p.object);
        if (grid.strips().empty())
            return {};
        grid.resize(grid.sizeHint()); // both columns whole
        return picture(grid);
    }

    std::string lock_bars(const analysis::Report& r, const analysis::PairSection& p) override {
        return chart(lock_chart(label(r, p.before), label(r, p.after), p.locks));
    }

    std::string scaling(const analysis::WorkloadScaling& w) override {
        if (w.series.empty())
            return {};
        return chart(scaling_chart(
            QObject::tr("%1: throughput vs threads (median, band = min..max over repeats)")
                .arg(shown_text(w.workload)),
            w.series));
    }

    std::string wait_histogram(const analysis::LockClassRow& c) override {
        return chart(wait_chart(QString::fromStdString(c.total.name), c.waits));
    }

private:
    std::string chart(QChart* chart) {
        const std::unique_ptr<QChartView> view(chart_view(chart)); // the view owns the chart
        view->resize(kChartSize);
        return picture(*view);
    }

    std::string picture(QWidget& widget) {
        // Laid out as if on screen (charts lay out on posted events), without a window.
        widget.setAttribute(Qt::WA_DontShowOnScreen);
        widget.show();
        QCoreApplication::sendPostedEvents();
        return document_ ? image(widget) : svg(widget);
    }

    static std::string svg(QWidget& widget) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setResolution(96); // its millimetres are then the widget's pixels
        generator.setSize(widget.size());
        generator.setViewBox(QRect(QPoint(0, 0), widget.size()));
        QPainter painter(&generator);
        widget.render(&painter);
        painter.end();
        // Inline: the XML declaration and doctype belong to a file, not to a page.
        const QByteArray& text = buffer.data();
        return text.mid(text.indexOf("<svg")).toStdString();
    }

    std::string image(QWidget& widget) {
        QImage image(widget.size() * kPdfPixelRatio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kPdfPixelRatio);
        image.fill(Qt::white);
        QPainter painter(&image);
        widget.render(&painter);
        painter.end();
        const QString name = QStringLiteral("hitmap-picture-%1.png").arg(++pictures_);
        document_->addResource(QTextDocument::ImageResource, QUrl(name), image);
        return fmt::format("<img src=\"{}\" width=\"{}\" height=\"{}\">", name.toStdString(),
                           kPdfWidth, kPdfWidth * widget.height() / widget.width());
    }

    QTextDocument* document_;
    int pictures_ = 0;
};

// Paper cannot wrap a megabyte, and Qt's line breaking is quadratic in the length of a word it
// cannot break (QTextLine::layout_helper rescans it for every line): a 20 KB variant took 2.8 s
// to typeset, 1 MB did not finish in 5 minutes. Runs of text longer than a sentence are elided
// in the middle, as the app shows them; the HTML keeps them whole.
void elide_long_text(QTextDocument& document) {
    std::vector<QTextFragment> long_runs;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().length() > kSentenceChars)
                long_runs.push_back(it.fragment());
    // Last first: an edit moves the positions after it.
    for (auto it = long_runs.rbegin(); it != long_runs.rend(); ++it) {
        QTextCursor cursor(&document);
        cursor.setPosition(it->position());
        cursor.setPosition(it->position() + it->length(), QTextCursor::KeepAnchor);
        cursor.insertText(shown_text(it->text(), kSentenceChars), it->charFormat());
    }
}

std::string pdf_bytes(const analysis::Report& report) {
    QTextDocument document;
    ChartPictures pictures(&document);
    document.setHtml(QString::fromStdString(report::report_html(report, pictures, kGenerator)));
    elide_long_text(document);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        // Laid out on pages of the printed area's shape, kPdfPageWidth pixels wide, then
        // scaled onto the paper: the pictures and wide tables fit the column.
        const QSizeF area = pdf.pageLayout().paintRect(QPageLayout::Millimeter).size();
        document.setPageSize(QSizeF(kPdfPageWidth, kPdfPageWidth * area.height() / area.width()));
        pdf.setCreator(QString::fromUtf8(kGenerator));
        pdf.setTitle(
            QStringLiteral("hitmap report: %1").arg(QString::fromStdString(report.database)));
        document.print(&pdf);
    } // the writer finishes the file when it goes
    return buffer.data().toStdString();
}

} // namespace

std::optional<ReportFormat> report_format(const QString& name) {
    if (name == QLatin1String("html"))
        return ReportFormat::html;
    if (name == QLatin1String("pdf"))
        return ReportFormat::pdf;
    return std::nullopt;
}

void write_report(const analysis::Report& report, ReportFormat format, const QString& path) {
    std::string content;
    if (format == ReportFormat::pdf) {
        content = pdf_bytes(report);
    } else {
        ChartPictures pictures(nullptr);
        content = report::report_html(report, pictures, kGenerator);
    }
    report::write_report_file(path.toStdString(), content);
}

void export_report(const QString& db_path, const analysis::ReportRequest& request,
                   ReportFormat format, const QString& path) {
    store::Database db = store::Database::open(db_path.toStdString(),
                                               {.create_if_missing = false, .read_only = true});
    write_report(analysis::build_report(db, request), format, path);
}

} // namespace hitmap::gui
