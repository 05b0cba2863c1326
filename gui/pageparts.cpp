#include "gui/pageparts.h"

#include <QProgressBar>
#include <QVBoxLayout>
#include <QWidget>

namespace imprint {
namespace gui {

QWidget *columnPage(QWidget *parent, const QMargins &margins, std::initializer_list<ColumnRow> rows)
{
    auto *page = new QWidget(parent);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(margins);
    for (const ColumnRow &row : rows) {
        if (row.layout)
            layout->addLayout(row.layout);
        else
            layout->addWidget(row.widget, row.stretch);
    }
    return page;
}

QProgressBar *makeBusyBar(QWidget *parent, const QString &objectName, int height)
{
    auto *bar = new QProgressBar(parent);
    bar->setObjectName(objectName);
    bar->setRange(0, 0);
    bar->setTextVisible(false);
    bar->setMaximumHeight(height);
    bar->setVisible(false);
    return bar;
}

} // namespace gui
} // namespace imprint
