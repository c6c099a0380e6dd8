#include "gui/views/empty_state.hpp"

#include "collector/analysis/story.hpp"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace hitmap::gui {

EmptyState::EmptyState(QWidget* parent)
    : QWidget(parent)
    , text_(new QLabel(this)) {
    text_->setTextFormat(Qt::RichText);
    text_->setAlignment(Qt::AlignCenter);
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* button = new QPushButton(tr("Collect runs…"), this);
    connect(button, &QPushButton::clicked, this, &EmptyState::collectRequested);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch();
    layout->addWidget(text_);
    layout->addWidget(button, 0, Qt::AlignHCenter);
    layout->addStretch();
}

void EmptyState::setPath(const QString& path, bool exists) {
    // One workload's story, before and after, as its own metadata names it.
    const engine::WorkloadInfo* story = analysis::first_story_workload();
    const QString one_workload =
        story ? tr("<p>or one workload's story:</p><pre>hitmap-collect run %1 --variant %2,%3 "
                   "--db %4</pre>")
                    .arg(QString::fromStdString(story->name),
                         QString::fromStdString(story->story->before),
                         QString::fromStdString(story->story->after), path.toHtmlEscaped())
              : QString();
    text_->setText(
        tr("<h2>No runs yet</h2><p>%1</p><p>Collect the standard suite from a shell:</p>"
           "<pre>hitmap-collect suite --db %2</pre>%3"
           "<p>or start a collection from here.</p>")
            .arg(exists ? tr("<code>%1</code> holds no runs.").arg(path.toHtmlEscaped())
                        : tr("<code>%1</code> does not exist yet.").arg(path.toHtmlEscaped()),
                 path.toHtmlEscaped(), one_workload));
}

} // namespace hitmap::gui
