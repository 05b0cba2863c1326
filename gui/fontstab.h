#pragma once
// The Fonts tab: the space's uploaded fonts (docs/fonts-and-images.md), each with a sample
// line drawn in its own face, upload from a file dialog, delete with confirmation.

#include "gui/spacetab.h"

#include <QHash>

class QPushButton;
class QTableWidget;

namespace imprint {
namespace gui {

/// Every role of the space may manage its fonts.
class FontsTab : public SpaceTab
{
    Q_OBJECT
public:
    explicit FontsTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Loads the list again from the server.
    void reload() override;
    /// Opens a file dialog and uploads the chosen font file.
    void chooseAndUpload();
    /// Uploads the font file at `path` (its media type from the extension).
    void uploadFile(const QString &path);
    /// Asks for confirmation, then deletes the selected font.
    void deleteSelected();

    /// The fonts on show, newest first.
    const QList<client::FontFace> &fonts() const { return m_fonts; }
    /// The local family a font's sample is drawn in; empty until its file has loaded.
    QString sampleFamily(const QString &fontId) const { return m_sampleFamilies.value(fontId); }

    /// The sample line of every font.
    static QString sampleText() { return QStringLiteral("The quick brown fox jumps over the lazy dog 0123"); }

Q_SIGNALS:
    /// (loaded() follows every upload and delete too.) A font's sample face arrived and is drawn.
    void sampleReady(const QString &fontId);

private:
    void clearData() override;
    void fillTable();
    void loadSample(const client::FontFace &font);
    void deleteFont(const client::FontFace &font);

    QTableWidget *m_table;
    QPushButton *m_upload;
    QPushButton *m_delete;
    QList<client::FontFace> m_fonts;
    QHash<QString, QString> m_sampleFamilies; // font id → family registered here
    QHash<QString, int> m_registered; // sha256 → QFontDatabase application font id
};

} // namespace gui
} // namespace imprint
