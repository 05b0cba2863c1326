#pragma once
// The Fonts tab: the space's uploaded fonts (docs/fonts-and-images.md), each with a sample
// line drawn in its own face, upload from a file dialog, delete with confirmation.

#include "shared/apiclient.h"

#include <QHash>
#include <QWidget>

class QPushButton;
class QTableWidget;

namespace imprint {
namespace gui {

class MessageBanner;

class FontsTab : public QWidget
{
    Q_OBJECT
public:
    explicit FontsTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Starts showing the fonts of this account's space (every role may manage them).
    void activate(const client::Me &me);
    /// Forgets the fonts of the session that ended.
    void deactivate();
    /// Loads the list again from the server.
    void reload();
    /// Opens a file dialog and uploads the chosen font file.
    void chooseAndUpload();
    /// Uploads the font file at `path` (its media type from the extension).
    void uploadFile(const QString &path);
    /// Asks for confirmation, then deletes the selected font.
    void deleteSelected();

    /// The fonts on show, newest first.
    const QList<client::FontFace> &fonts() const { return m_fonts; }
    bool isLoading() const { return m_loading; }
    /// The local family a font's sample is drawn in; empty until its file has loaded.
    QString sampleFamily(const QString &fontId) const { return m_sampleFamilies.value(fontId); }

    /// The sample line of every font.
    static QString sampleText() { return QStringLiteral("The quick brown fox jumps over the lazy dog 0123"); }

Q_SIGNALS:
    /// The list was loaded from the server (after every upload and delete too).
    void loaded();
    /// A font's sample face arrived and is drawn.
    void sampleReady(const QString &fontId);

private:
    void fillTable();
    void loadSample(const client::FontFace &font);

    client::ApiClient *m_client;
    QTableWidget *m_table;
    QPushButton *m_upload;
    QPushButton *m_delete;
    QPushButton *m_refresh;
    MessageBanner *m_message;
    QList<client::FontFace> m_fonts;
    QHash<QString, QString> m_sampleFamilies; // font id → family registered here
    QHash<QString, int> m_registered; // sha256 → QFontDatabase application font id
    bool m_loading = false;
    bool m_active = false;
    quint64 m_generation = 0;
};

} // namespace gui
} // namespace imprint
