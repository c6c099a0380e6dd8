#include "gui/views/empty_state.hpp"

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
    text_->setText(
        tr("<h2>No runs yet</h2><p>%1</p><p>Collect the standard suite from a shell:</p>"
           "<pre>hitmap-collect suite --db %2</pre><p>or one workload:</p>"
           "<pre>hitmap-collect run page-counter-charge --variant v6.0,v6.1 --db %2</pre>"
           "<p>or start a collection from here.</p>")
            .arg(exists ? tr("<code>%1</code> holds no runs.").arg(path.toHtmlEscaped())
                        : tr("<code>%1</code> does not exist yet.").arg(path.toHtmlEscaped()),
                 path.toHtmlEscaped()));
}

} // namespace hitmap::gui
