#pragma once
// The Studio tab (docs/console.md, "Studio"): the space's templates, a code editor for the
// chosen template's JSON document, and a live preview rendered about 300 ms after typing
// stops through an inline render (POST /render with the editor's text as `template` and
// `output=dataurl`: the image and its warnings in one answer, nothing stored or saved).
// Problems come back with their line and column and are underlined in the editor; the
// variables form, the engine and the size preset re-render; a second engine can be shown
// side by side. Save stores a new template version (PUT /templates/{id}); Publish
// publishes the pages of the template (POST /pages/{id}/publish), making one when it has
// none. Nothing here blocks the window.

#include "shared/apiclient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTimer;

namespace imprint {
namespace gui {

class CodeEditor;
class ImageView;
class MessageBanner;

class StudioTab : public QWidget
{
    Q_OBJECT
public:
    explicit StudioTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Loads template `id` into the editor (the preview follows).
    void openTemplate(const QString &id);
    /// GET /templates into the list; the first template opens when none is open.
    void loadTemplates();
    /// After sign-in: the templates load when the tab is first shown.
    void activate();
    /// After sign-out: the editor, previews, key and list are emptied.
    void deactivate();
    /// Renders the editor's document now (the debounce timer calls this).
    void renderPreview();
    /// PUT the editor's document: a new version of the template.
    void save();
    /// Publishes every page of the template (saving first when edited); creates and
    /// publishes a page named after the template when it has none.
    void publish();
    /// Creates a template from a starter card and opens it.
    void createTemplate();
    /// Uses this API key for previews when none has been entered.
    void offerApiKey(const QString &token);
    /// Edits the document's `markup` in the editor as HTML (true), or the whole JSON
    /// document (false). Only a document with a `markup` string has a markup part.
    void setMarkupPart(bool markup);
    /// The document the editor stands for, as JSON text: the editor's text, or in the
    /// markup part the document with the editor's markup in it.
    QString documentText() const;
    /// True when documentText() differs from the saved template.
    bool isEdited() const;

    CodeEditor *editor() const { return m_editor; }
    QImage previewImage() const;
    QImage compareImage() const;
    QStringList warnings() const;
    QString currentTemplateId() const { return m_templateId; }
    /// Renders answered since the tab was made (for tests: the newest shown).
    int previewsShown() const { return m_previewsShown; }

Q_SIGNALS:
    void templatesLoaded();
    void templateOpened();
    /// A preview answer was shown (ok: an image; otherwise a problem).
    void previewUpdated(bool ok);
    void saved(bool ok);
    void published(bool ok);

protected:
    void showEvent(QShowEvent *e) override;

private:
    QWidget *buildEditorPane();
    QWidget *buildPreviewPane();
    void connectSignals();
    void setDocument(const QJsonObject &document);
    /// Rebuilds the variables form and the size choices from the editor's document when
    /// it parses and they changed.
    void refreshFromDocument();
    QJsonObject requestBody(const QString &engine) const;
    void requestPreview(const QString &engine, bool compare, quint64 generation);
    void showPreview(const client::ApiResult<QJsonObject> &r, bool compare);
    void showProblem(const client::ApiError &error);
    void publishPages(const QList<client::PageSummary> &pages);
    void setBusy(bool busy);

    client::ApiClient *m_client;
    QListWidget *m_templates;
    QPushButton *m_reload;
    QPushButton *m_new;
    CodeEditor *m_editor;
    QLabel *m_problem;
    QPushButton *m_save;
    QPushButton *m_publish;
    QComboBox *m_part;
    QComboBox *m_engine;
    QComboBox *m_compare;
    QComboBox *m_size;
    QLineEdit *m_apiKey;
    MessageBanner *m_message;
    ImageView *m_view;
    ImageView *m_compareView;
    QLabel *m_info;
    QListWidget *m_warnings;
    QWidget *m_variablesBox;
    QFormLayout *m_variables;
    QTimer *m_debounce;

    QString m_templateId;
    QString m_templateName;
    QJsonObject m_saved; // the document as last loaded or saved
    QJsonObject m_markupDocument; // in the markup part: the document around the markup
    bool m_markupPart = false;
    QJsonArray m_variableDefs;
    QJsonValue m_sizeDefs;
    bool m_active = false;
    bool m_requested = false;
    bool m_loading = false;
    quint64 m_generation = 0;
    int m_pendingPreviews = 0;
    int m_previewsShown = 0;
    int m_engineStartRetries = 0;
};

} // namespace gui
} // namespace imprint
