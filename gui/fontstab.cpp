#include "gui/fontstab.h"

#include "gui/keydialogs.h"
#include "gui/messagebanner.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

namespace {
constexpr int kPerPage = 100; // the server's cap (FontService::kMaxPerPage)
enum Column { Family, Sample, Weight, Format, Id };
} // namespace

FontsTab::FontsTab(client::ApiClient *client, QWidget *parent)
    : SpaceTab(client, Audience::Everyone, QStringLiteral("fontsTab"), QStringLiteral("fontsMessage"), parent)
{
    m_upload = new QPushButton(tr("&Upload font…"), this);
    m_upload->setObjectName(QStringLiteral("uploadFontButton"));
    m_delete = new QPushButton(tr("&Delete…"), this);
    m_delete->setObjectName(QStringLiteral("deleteFontButton"));
    makeRefreshButton(QStringLiteral("refreshFontsButton"));
    m_table = makeListTable(QStringLiteral("fontsTable"),
                            {tr("Family"), tr("Sample"), tr("Weight / style"), tr("Format"), tr("ID")}, m_delete);
    // Every column as wide as its widest cell (an id is never cut); the sample takes the rest.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Sample, QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(makeListPage(tr("Fonts uploaded here can be named in a template's fontFamily. "
                                      "They belong to this space only."),
                                   {m_upload, m_delete}, m_table),
                      1);

    connect(m_upload, &QPushButton::clicked, this, &FontsTab::chooseAndUpload);
    connect(m_delete, &QPushButton::clicked, this, &FontsTab::deleteSelected);
}

void FontsTab::reload()
{
    const auto generation = beginLoad();
    if (!generation)
        return;
    m_client->listFonts(1, kPerPage, this, [this, generation](const client::ApiResult<client::FontPage> &r) {
        if (!takeAnswer(*generation, r))
            return;
        if (r.has_value())
            m_fonts = r.value().list;
        fillTable();
        for (const client::FontFace &f : std::as_const(m_fonts))
            loadSample(f);
        Q_EMIT loaded();
    });
}

void FontsTab::clearData()
{
    m_fonts.clear();
    fillTable();
}

void FontsTab::fillTable()
{
    m_table->setRowCount(0);
    for (const client::FontFace &f : std::as_const(m_fonts)) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, Family, new QTableWidgetItem(f.family));
        auto *sample = new QTableWidgetItem(sampleText());
        if (const QString family = m_sampleFamilies.value(f.id); !family.isEmpty()) {
            QFont font(family, 14);
            font.setWeight(QFont::Weight(f.weight));
            font.setItalic(f.style == QLatin1String("italic"));
            sample->setFont(font);
        }
        m_table->setItem(row, Sample, sample);
        m_table->setItem(row, Weight, new QTableWidgetItem(QStringLiteral("%1 %2").arg(f.weight).arg(f.style)));
        m_table->setItem(row, Format, new QTableWidgetItem(f.format.toUpper()));
        m_table->setItem(row, Id, new QTableWidgetItem(f.id));
    }
    m_delete->setEnabled(!m_table->selectedItems().isEmpty());
}

void FontsTab::loadSample(const client::FontFace &font)
{
    if (m_sampleFamilies.contains(font.id) || font.sha256.isEmpty())
        return;
    // The stored file, registered in this process only to draw the sample line.
    const QString id = font.id, sha = font.sha256;
    m_client->fetchFile(sha + u'.' + font.format, this, [this, id, sha](const client::ApiResult<QByteArray> &r) {
        if (!r.has_value())
            return;
        int appFont = m_registered.value(sha, -1);
        if (appFont < 0) {
            appFont = QFontDatabase::addApplicationFontFromData(r.value());
            if (appFont < 0)
                return; // e.g. a WOFF2 this Qt cannot read: the sample stays in the UI font
            m_registered.insert(sha, appFont);
        }
        const QStringList families = QFontDatabase::applicationFontFamilies(appFont);
        if (families.isEmpty())
            return;
        m_sampleFamilies.insert(id, families.first());
        fillTable();
        Q_EMIT sampleReady(id);
    });
}

void FontsTab::chooseAndUpload()
{
    auto *dialog
        = new QFileDialog(this, tr("Upload font"), QString(), tr("Fonts (*.ttf *.otf *.woff *.woff2);;All files (*)"));
    dialog->setObjectName(QStringLiteral("uploadFontDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, &FontsTab::uploadFile);
    dialog->open();
}

void FontsTab::uploadFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_message->showMessage(tr("Cannot read %1: %2").arg(path, file.errorString()), MessageBanner::Kind::Error);
        return;
    }
    const QString ext = QFileInfo(path).suffix().toLower();
    const QString type = (ext == QLatin1String("otf") || ext == QLatin1String("woff") || ext == QLatin1String("woff2"))
                             ? QStringLiteral("font/") + ext
                             : QStringLiteral("font/ttf");
    m_upload->setEnabled(false);
    m_client->uploadFont(file.readAll(), type, QString(), this, [this](const client::ApiResult<client::FontFace> &r) {
        m_upload->setEnabled(true);
        if (!r.has_value()) {
            m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
            return;
        }
        m_message->showMessage(tr("The font “%1” was uploaded.").arg(r.value().family), MessageBanner::Kind::Success);
        reload();
    });
}

void FontsTab::deleteSelected()
{
    const int row = selectedRow(m_table, tr("Select the font to delete first."));
    if (row < 0)
        return;
    const client::FontFace font = m_fonts.value(row);
    confirmDestructive(this,
                       {tr("Delete font"), tr("Delete the font “%1” (%2)?").arg(font.family, font.id),
                        tr("Templates that name it are drawn in the server's fonts from then on."),
                        tr("Delete font"), QStringLiteral("deleteFontConfirm"),
                        QStringLiteral("confirmDeleteFontButton"), QString()},
                       [this, font] { deleteFont(font); });
}

void FontsTab::deleteFont(const client::FontFace &font)
{
    m_client->deleteFont(font.id, this, [this, font](const client::ApiResult<QString> &r) {
        if (!r.has_value()) {
            m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
            return;
        }
        m_message->showMessage(tr("The font “%1” was deleted.").arg(font.family), MessageBanner::Kind::Success);
        reload();
    });
}

} // namespace gui
} // namespace imprint
