#pragma once
// The Preview tab: pick a page of the space, an engine, a format, a scale, draft or
// published, edit tweaks (prefilled from the template's variables), render through the
// API and look at the image (a PDF's first page) with its timings and size. Only the
// choices the engine accepts are enabled (docs/api.md: `pdf` is the html engine's,
// `scale` applies to bitmap formats). Nothing here blocks the window.

#include "shared/apiclient.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace imprint {
namespace gui {

class ImageView;
class MessageBanner;

class PreviewTab : public QWidget
{
    Q_OBJECT
public:
    explicit PreviewTab(client::ApiClient *client, QWidget *parent = nullptr);

    void activate(); // after sign-in: (re)load the pages lazily
    void deactivate(); // after sign-out: forget everything
    void loadPages();
    void render();
    /// Uses this API key for renders when none has been entered.
    void offerApiKey(const QString &token);
    /// The signing keys "Copy signed URL" may sign with (the Signing keys tab's list).
    void setSigningKeys(const QList<client::SigningKey> &keys);
    /// Asks the server to sign the render URL of the current page and settings with the
    /// chosen signing key and copies the signed URL (no secret is held here).
    void copySignedUrl();

    bool isRendering() const { return m_rendering; }
    const client::RenderResult &lastResult() const { return m_result; }
    QImage image() const;

Q_SIGNALS:
    void pagesLoaded();
    void templateLoaded();
    void rendered(bool ok);
    /// A signed URL was copied to the clipboard (empty: signing failed).
    void signedUrlCopied(const QString &url);

protected:
    void showEvent(QShowEvent *e) override;

private:
    QWidget *buildControls();
    QWidget *buildResultPane();
    void connectSignals();
    void pageChanged();
    void fillTweaks(const client::TemplateSummary &tpl, const client::PageSummary &page);
    /// Lists `tpl`'s size presets (keeping the current choice when it is still offered) and
    /// says which template version `page` renders: pinned or the latest, and published.
    void fillSizesAndVersion(const client::TemplateSummary &tpl, const client::PageSummary &page);
    /// The engine a render would use: the chosen one, else the template's, else satori.
    QString effectiveEngine() const;
    /// Enables the format and scale choices the effective engine and format accept,
    /// falling back to PNG and 1× where the current choice is no longer accepted.
    void updateChoices();
    client::RenderRequest currentRequest() const;
    void setRendering(bool rendering);
    void showResult(const client::RenderResult &r, const QImage &image);
    static QString timingName(const QString &key);

    client::ApiClient *m_client;
    QComboBox *m_page;
    QComboBox *m_engine;
    QComboBox *m_format;
    QComboBox *m_scale;
    QComboBox *m_size; // size presets of the page's template (docs/api.md, "Size presets")
    QLabel *m_version; // the template version the page renders, pinned or latest, and the published one
    QCheckBox *m_draft;
    QLineEdit *m_apiKey;
    QTableWidget *m_tweaks;
    QPushButton *m_resetTweaks;
    QPushButton *m_reloadPages;
    QPushButton *m_render;
    QProgressBar *m_busy;
    MessageBanner *m_message;
    ImageView *m_view;
    QLabel *m_info;
    QLabel *m_timings;
    QLabel *m_warnings;
    QPushButton *m_copyUrl;
    QPushButton *m_copyRequest;
    QComboBox *m_signingKey;
    QPushButton *m_copySigned;

    QList<client::PageSummary> m_pages;
    client::TemplateSummary m_template;
    client::RenderResult m_result;
    bool m_active = false;
    bool m_pagesRequested = false;
    bool m_rendering = false;
    /// Renders answered 503 engine_starting in a row: the preview asks again after the
    /// server's Retry-After, up to kMaxEngineStartRetries times, instead of failing.
    int m_engineStartRetries = 0;
    static constexpr int kMaxEngineStartRetries = 15;
    quint64 m_generation = 0;
};

} // namespace gui
} // namespace imprint
