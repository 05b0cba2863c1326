#include "gui/studiotab.h"

#include "gui/imageview.h"
#include "gui/messagebanner.h"
#include "gui/studio_editor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace imprint {
namespace gui {

namespace {

/// The wait after the last keystroke before the preview renders (issue 32: ~300 ms).
constexpr int kDebounceMs = 300;

/// A new template's document: a 1200×630 card with a title, to start from.
QJsonObject starterDocument()
{
    const QJsonObject style{{QStringLiteral("display"), QStringLiteral("flex")},
                            {QStringLiteral("width"), QStringLiteral("100%")},
                            {QStringLiteral("height"), QStringLiteral("100%")},
                            {QStringLiteral("alignItems"), QStringLiteral("center")},
                            {QStringLiteral("justifyContent"), QStringLiteral("center")},
                            {QStringLiteral("backgroundColor"), QStringLiteral("#0f172a")},
                            {QStringLiteral("color"), QStringLiteral("#f8fafc")},
                            {QStringLiteral("fontSize"), 72}};
    const QJsonObject root{{QStringLiteral("type"), QStringLiteral("div")},
                           {QStringLiteral("props"),
                            QJsonObject{{QStringLiteral("style"), style},
                                        {QStringLiteral("children"), QJsonArray{QStringLiteral("{{title}}")}}}}};
    return {{QStringLiteral("name"), StudioTab::tr("Untitled card")},
            {QStringLiteral("width"), 1200},
            {QStringLiteral("height"), 630},
            {QStringLiteral("variables"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("title")},
                                    {QStringLiteral("default"), StudioTab::tr("Hello")}}}},
            {QStringLiteral("root"), root}};
}

/// A child widget of `parent` with its object name (tests and style sheets find it by that).
template<class W>
W *named(QWidget *parent, const char *objectName)
{
    auto *w = new W(parent);
    w->setObjectName(QLatin1String(objectName));
    return w;
}

QString percentEncoded(const QString &id)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(id));
}

} // namespace

StudioTab::StudioTab(client::ApiClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("studioTab"));
    m_message = named<MessageBanner>(this, "studioMessage");
    m_templates = named<QListWidget>(this, "studioTemplates");
    m_templates->setTextElideMode(Qt::ElideRight); // the full name is in the tooltip
    m_templates->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_reload = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), QString(), this);
    m_reload->setObjectName(QStringLiteral("studioReload"));
    m_reload->setToolTip(tr("Reload the list of templates"));
    m_new = new QPushButton(tr("&New"), this);
    m_new->setObjectName(QStringLiteral("studioNew"));
    m_new->setToolTip(tr("Create a template from a starter card"));
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(m_new, 1);
    listButtons->addWidget(m_reload);
    auto *list = new QWidget(this);
    auto *listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 6, 0);
    listLayout->addWidget(new QLabel(tr("Templates:"), this));
    listLayout->addWidget(m_templates, 1);
    listLayout->addLayout(listButtons);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(list);
    splitter->addWidget(buildEditorPane());
    splitter->addWidget(buildPreviewPane());
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    splitter->setSizes({190, 400, 430});
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(splitter, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connectSignals();
    m_save->setEnabled(false);
    m_publish->setEnabled(false);
}

/// The middle pane: the editor, the problem line, Save and Publish.
QWidget *StudioTab::buildEditorPane()
{
    m_editor = new CodeEditor(this);
    m_editor->setPlaceholderText(tr("Choose a template on the left, or press New."));
    m_part = named<QComboBox>(this, "studioPart");
    m_part->addItem(tr("Document (JSON)"));
    m_part->addItem(tr("Markup (HTML)"));
    m_part->setToolTip(tr("A template written as markup: edit its HTML on its own, without JSON escapes."));
    m_part->setEnabled(false);
    m_problem = named<QLabel>(this, "studioProblem");
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color:#b91c1c;"));
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->hide();
    m_save = new QPushButton(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    m_save->setObjectName(QStringLiteral("studioSave"));
    m_save->setToolTip(tr("Store the document as a new version of the template. Published pages keep "
                          "their version until they are published again."));
    m_publish = new QPushButton(tr("P&ublish"), this);
    m_publish->setObjectName(QStringLiteral("studioPublish"));
    m_publish->setToolTip(tr("Save, then publish every page of this template (a page is made when it has none)."));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    buttons->addWidget(m_publish);
    auto *column = new QVBoxLayout;
    column->setContentsMargins(6, 0, 6, 0);
    column->addWidget(m_part, 0, Qt::AlignLeft);
    column->addWidget(m_editor, 1);
    column->addWidget(m_problem);
    column->addLayout(buttons);
    auto *pane = new QWidget(this);
    pane->setLayout(column);
    return pane;
}

/// The right pane: engine, comparison engine and size, the preview(s), the warnings, the
/// variables form and the API key.
QWidget *StudioTab::buildPreviewPane()
{
    m_engine = named<QComboBox>(this, "studioEngine");
    m_compare = named<QComboBox>(this, "studioCompare");
    m_compare->addItem(tr("No comparison"), QString());
    for (const QString &engine : client::renderEngineNames()) {
        m_engine->addItem(engine, engine);
        m_compare->addItem(tr("Beside: %1").arg(engine), engine);
    }
    m_compare->setToolTip(tr("Render the same document with a second engine, side by side."));
    m_size = named<QComboBox>(this, "studioSize");
    m_size->addItem(tr("Template size"), QString());
    m_size->setToolTip(tr("A size preset: the template's own sizes first, then the built-in ones."));
    auto *choices = new QHBoxLayout;
    choices->addWidget(m_engine);
    choices->addWidget(m_compare);
    choices->addWidget(m_size, 1);

    m_view = named<ImageView>(this, "studioPreview");
    m_view->setPlaceholder(tr("The preview appears here as you type."));
    m_compareView = named<ImageView>(this, "studioComparePreview");
    m_compareView->hide();
    auto *views = new QHBoxLayout;
    views->addWidget(m_view, 1);
    views->addWidget(m_compareView, 1);
    m_info = named<QLabel>(this, "studioInfo");
    m_warnings = named<QListWidget>(this, "studioWarnings");
    m_warnings->setMaximumHeight(72);
    m_warnings->setWordWrap(true);
    m_warnings->hide();

    m_variablesBox = new QGroupBox(tr("Variables (preview values)"), this);
    m_variables = new QFormLayout(m_variablesBox);
    m_variables->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_apiKey = named<QLineEdit>(this, "studioApiKey");
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("imp_…, needed for previews"));
    m_apiKey->setToolTip(tr("Previews are inline renders, authenticated with an API key of this space. "
                            "A key created on the Keys tab is filled in here."));
    auto *keyRow = new QFormLayout;
    keyRow->addRow(tr("API &key:"), m_apiKey);

    // Top to bottom: the choices, the image(s), what the server said, what goes in.
    auto *column = new QVBoxLayout;
    column->setContentsMargins(6, 0, 0, 0);
    column->addLayout(choices);
    column->addLayout(views, 1);
    for (QWidget *w : {static_cast<QWidget *>(m_info), static_cast<QWidget *>(m_warnings), m_variablesBox})
        column->addWidget(w);
    column->addLayout(keyRow);
    auto *pane = new QWidget(this);
    pane->setLayout(column);
    return pane;
}

void StudioTab::connectSignals()
{
    connect(m_reload, &QPushButton::clicked, this, &StudioTab::loadTemplates);
    connect(m_new, &QPushButton::clicked, this, &StudioTab::createTemplate);
    connect(m_templates, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item && !m_loading && item->data(Qt::UserRole).toString() != m_templateId)
            openTemplate(item->data(Qt::UserRole).toString());
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        m_save->setEnabled(!m_templateId.isEmpty() && isEdited());
        refreshFromDocument();
        m_debounce->start();
    });
    connect(m_debounce, &QTimer::timeout, this, &StudioTab::renderPreview);
    connect(m_part, &QComboBox::currentIndexChanged, this, [this](int index) { setMarkupPart(index == 1); });
    for (QComboBox *box : {m_engine, m_compare, m_size})
        connect(box, &QComboBox::currentIndexChanged, this, [this] { m_debounce->start(); });
    connect(m_apiKey, &QLineEdit::editingFinished, this, [this] { m_debounce->start(); });
    connect(m_save, &QPushButton::clicked, this, &StudioTab::save);
    connect(m_publish, &QPushButton::clicked, this, &StudioTab::publish);
}

void StudioTab::deactivate()
{
    m_debounce->stop();
    ++m_generation; // answers still on their way are dropped
    m_active = false;
    m_requested = false;
    m_templates->clear();
    m_loading = true;
    m_editor->clear();
    m_loading = false;
    m_editor->clearProblem();
    m_problem->hide();
    m_templateId.clear();
    m_saved = {};
    m_markupPart = false;
    m_part->setCurrentIndex(0);
    m_apiKey->clear();
    m_view->setImage({});
    m_compareView->setImage({});
    m_warnings->clear();
    m_warnings->hide();
    m_info->clear();
    m_message->clearMessage();
    m_save->setEnabled(false);
    m_publish->setEnabled(false);
}

void StudioTab::activate()
{
    // Lazily: a session that never opens the Studio costs the server nothing.
    m_requested = false;
    m_active = true;
    if (isVisible())
        loadTemplates();
}

void StudioTab::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (m_active && !m_requested)
        loadTemplates();
}

void StudioTab::offerApiKey(const QString &token)
{
    if (!m_apiKey->text().isEmpty())
        return;
    m_apiKey->setText(token);
    if (!m_templateId.isEmpty())
        m_debounce->start();
}

QImage StudioTab::previewImage() const
{
    return m_view->image();
}

QImage StudioTab::compareImage() const
{
    return m_compareView->isVisible() ? m_compareView->image() : QImage();
}

QStringList StudioTab::warnings() const
{
    QStringList out;
    for (int i = 0; i < m_warnings->count(); ++i)
        out << m_warnings->item(i)->text();
    return out;
}

void StudioTab::loadTemplates()
{
    if (!m_active)
        return;
    m_requested = true;
    m_reload->setEnabled(false);
    m_client->callJson("GET", QStringLiteral("/templates"), nullptr, this,
                       [this](const client::ApiResult<QJsonValue> &r) {
                           m_reload->setEnabled(true);
                           if (!r.has_value()) {
                               m_message->showMessage(
                                   tr("The templates could not be loaded. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
                               Q_EMIT templatesLoaded();
                               return;
                           }
                           const QJsonArray list = r.value().toObject().value(QStringLiteral("list")).toArray();
                           m_loading = true;
                           m_templates->clear();
                           for (const QJsonValue &v : list) {
                               const QJsonObject t = v.toObject();
                               const QString id = t.value(QStringLiteral("id")).toString();
                               const QString name = t.value(QStringLiteral("name")).toString();
                               auto *item = new QListWidgetItem(name.isEmpty() ? id : name, m_templates);
                               item->setData(Qt::UserRole, id);
                               item->setToolTip(QStringLiteral("%1\n%2 · %3 × %4")
                                                    .arg(name, id)
                                                    .arg(t.value(QStringLiteral("width")).toInt())
                                                    .arg(t.value(QStringLiteral("height")).toInt()));
                               if (id == m_templateId)
                                   m_templates->setCurrentItem(item);
                           }
                           m_loading = false;
                           if (list.isEmpty())
                               m_message->showMessage(tr("This space has no templates yet: press New to start one."),
                                                      MessageBanner::Kind::Info);
                           else if (m_templateId.isEmpty())
                               m_templates->setCurrentRow(0);
                           Q_EMIT templatesLoaded();
                       });
}

void StudioTab::openTemplate(const QString &id)
{
    m_client->callJson("GET", QStringLiteral("/templates/") + percentEncoded(id), nullptr, this,
                       [this, id](const client::ApiResult<QJsonValue> &r) {
                           if (!r.has_value()) {
                               m_message->showMessage(
                                   tr("The template could not be loaded. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
                               return;
                           }
                           const QJsonObject t = r.value().toObject();
                           m_templateId = id;
                           m_templateName = t.value(QStringLiteral("name")).toString();
                           setDocument(t.value(QStringLiteral("document")).toObject());
                           m_publish->setEnabled(true);
                           Q_EMIT templateOpened();
                       });
}

void StudioTab::setDocument(const QJsonObject &document)
{
    m_loading = true;
    m_markupPart = false;
    m_part->setCurrentIndex(0);
    m_editor->highlighter()->setMode(TemplateHighlighter::Mode::Json);
    m_editor->setPlainText(QString::fromUtf8(QJsonDocument(document).toJson(QJsonDocument::Indented)));
    m_loading = false;
    m_saved = document;
    m_save->setEnabled(false);
    {
        // The preview starts with the engine the template names (satori without one).
        const QSignalBlocker block(m_engine);
        const int engine = m_engine->findData(document.value(QStringLiteral("rendererType")).toString().toLower());
        m_engine->setCurrentIndex(std::max(0, engine));
    }
    m_editor->clearProblem();
    m_problem->hide();
    m_variableDefs = {};
    m_sizeDefs = {};
    refreshFromDocument();
    ++m_generation; // an answer about the previous template must not show
    renderPreview();
}

QString StudioTab::documentText() const
{
    if (!m_markupPart)
        return m_editor->toPlainText();
    QJsonObject document = m_markupDocument;
    document.insert(QStringLiteral("markup"), m_editor->toPlainText());
    return QString::fromUtf8(QJsonDocument(document).toJson(QJsonDocument::Indented));
}

bool StudioTab::isEdited() const
{
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(documentText().toUtf8(), &error);
    return error.error != QJsonParseError::NoError || parsed.object() != m_saved;
}

void StudioTab::setMarkupPart(bool markup)
{
    if (markup == m_markupPart)
        return;
    const QJsonObject document = QJsonDocument::fromJson(documentText().toUtf8()).object();
    if (markup && !document.value(QStringLiteral("markup")).isString()) {
        const QSignalBlocker block(m_part);
        m_part->setCurrentIndex(0);
        return;
    }
    // Each part is its own text: undo goes back within the part.
    const QString text = markup ? document.value(QStringLiteral("markup")).toString() : documentText();
    m_markupDocument = markup ? document : QJsonObject();
    m_markupPart = markup;
    m_loading = true;
    m_editor->highlighter()->setMode(markup ? TemplateHighlighter::Mode::Markup : TemplateHighlighter::Mode::Json);
    m_editor->setPlainText(text);
    m_editor->clearProblem();
    m_loading = false;
    {
        const QSignalBlocker block(m_part);
        m_part->setCurrentIndex(markup ? 1 : 0);
    }
}

void StudioTab::refreshFromDocument()
{
    const QJsonObject document = QJsonDocument::fromJson(documentText().toUtf8()).object();
    if (document.isEmpty())
        return; // keep the form while the text does not parse
    m_part->setEnabled(m_markupPart || document.value(QStringLiteral("markup")).isString());
    const QJsonArray variables = document.value(QStringLiteral("variables")).toArray();
    if (variables != m_variableDefs) {
        // Values typed into the form survive a rebuild for the names that remain.
        QHash<QString, QString> typed;
        for (auto *edit : m_variablesBox->findChildren<QLineEdit *>())
            typed.insert(edit->property("variable").toString(), edit->text());
        while (m_variables->rowCount() > 0)
            m_variables->removeRow(0);
        for (const QJsonValue &v : variables) {
            const QJsonObject var = v.toObject();
            const QString name = var.value(QStringLiteral("name")).toString();
            if (name.isEmpty())
                continue;
            auto *edit = new QLineEdit(m_variablesBox);
            edit->setObjectName(QStringLiteral("studioVar_") + name);
            edit->setProperty("variable", name);
            edit->setPlaceholderText(client::jsonText(var.value(QStringLiteral("default"))));
            edit->setText(typed.value(name));
            connect(edit, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
            m_variables->addRow(name + QLatin1Char(':'), edit);
        }
        m_variablesBox->setVisible(m_variables->rowCount() > 0);
        m_variableDefs = variables;
    }
    const QJsonValue sizes = document.value(QStringLiteral("sizes"));
    if (sizes != m_sizeDefs || m_size->count() == 1) {
        m_sizeDefs = sizes;
        const QString current = m_size->currentData().toString();
        const QStringList names = client::templateSizeNames(document);
        const QSignalBlocker block(m_size);
        m_size->clear();
        m_size->addItem(tr("Template size"), QString());
        for (const QString &n : names)
            m_size->addItem(n, n);
        m_size->setCurrentIndex(std::max(0, m_size->findData(current)));
    }
}

QJsonObject StudioTab::requestBody(const QString &engine) const
{
    QJsonObject tweaks;
    for (auto *edit : m_variablesBox->findChildren<QLineEdit *>())
        if (!edit->text().isEmpty())
            tweaks.insert(edit->property("variable").toString(), edit->text());
    // The editor's text as it is: the server parses it and answers problems at the
    // editor's own lines and columns (docs/api.md, "Inline renders").
    QJsonObject body{{QStringLiteral("template"), documentText()},
                     {QStringLiteral("output"), QStringLiteral("dataurl")},
                     {QStringLiteral("renderType"), engine}};
    if (!tweaks.isEmpty())
        body.insert(QStringLiteral("tweaks"), tweaks);
    if (!m_size->currentData().toString().isEmpty())
        body.insert(QStringLiteral("size"), m_size->currentData().toString());
    return body;
}

void StudioTab::renderPreview()
{
    m_debounce->stop();
    if (documentText().trimmed().isEmpty())
        return;
    // Only the newest request's answer is shown: an older one that arrives late is dropped.
    const quint64 generation = ++m_generation;
    m_pendingPreviews = 0;
    requestPreview(m_engine->currentData().toString(), false, generation);
    const QString other = m_compare->currentData().toString();
    m_compareView->setVisible(!other.isEmpty());
    if (!other.isEmpty())
        requestPreview(other, true, generation);
}

void StudioTab::requestPreview(const QString &engine, bool compare, quint64 generation)
{
    ++m_pendingPreviews;
    setBusy(true);
    m_client->renderJson(requestBody(engine), m_apiKey->text().trimmed(), this,
                         [this, compare, generation](const client::ApiResult<QJsonObject> &r) {
                             if (generation != m_generation)
                                 return;
                             if (--m_pendingPreviews <= 0)
                                 setBusy(false);
                             showPreview(r, compare);
                         });
}

void StudioTab::setBusy(bool busy)
{
    m_view->setBusy(busy);
    m_compareView->setBusy(busy && m_compareView->isVisible());
}

void StudioTab::showPreview(const client::ApiResult<QJsonObject> &r, bool compare)
{
    if (!r.has_value()) {
        const client::ApiError &e = r.error();
        // The html engine's browser starts with the server: wait it out (as the Preview tab).
        if (e.status == 503 && e.code == QLatin1String("engine_starting") && m_engineStartRetries < 15) {
            ++m_engineStartRetries;
            m_message->showMessage(tr("The html engine is starting; the preview renders again in a moment."),
                                   MessageBanner::Kind::Info);
            QTimer::singleShot(std::max(1, e.retryAfterSeconds) * 1000, this, [this] { m_debounce->start(); });
            return;
        }
        if (!compare)
            showProblem(e);
        ++m_previewsShown;
        Q_EMIT previewUpdated(false);
        return;
    }
    m_engineStartRetries = 0;
    const QJsonObject data = r.value();
    const QString dataUrl = data.value(QStringLiteral("dataUrl")).toString();
    const QByteArray bytes = QByteArray::fromBase64(dataUrl.mid(dataUrl.indexOf(QLatin1Char(',')) + 1).toLatin1());
    const QImage image = ImageView::decode(bytes, QStringLiteral("image/png"));
    (compare ? m_compareView : m_view)->setImage(image);
    if (!compare) {
        m_editor->clearProblem();
        m_problem->hide();
        m_message->clearMessage();
        const QJsonObject timings = data.value(QStringLiteral("timings")).toObject();
        m_info->setText(tr("%1 × %2 px · %3 · %4\u00a0ms")
                            .arg(data.value(QStringLiteral("width")).toInt())
                            .arg(data.value(QStringLiteral("height")).toInt())
                            .arg(data.value(QStringLiteral("renderType")).toString())
                            .arg(QLocale().toString(timings.value(QStringLiteral("total")).toDouble(), 'f', 1)));
        m_warnings->clear();
        for (const QJsonValue &w : data.value(QStringLiteral("warnings")).toArray())
            m_warnings->addItem(w.toString());
        m_warnings->setVisible(m_warnings->count() > 0);
    }
    ++m_previewsShown;
    Q_EMIT previewUpdated(!image.isNull());
}

void StudioTab::showProblem(const client::ApiError &e)
{
    if (e.status == 401) {
        m_message->showMessage(m_apiKey->text().isEmpty()
                                   ? tr("Previews need an API key of this space: enter one under “API key” "
                                        "(a key created on the Keys tab is filled in for you).")
                                   : tr("The API key was not accepted: it is unknown, expired or revoked."),
                               MessageBanner::Kind::Error);
        return;
    }
    // In the markup part the server's lines are those of the whole document, not the
    // editor's: the sentence says where, without an underline.
    if (e.code == QLatin1String("invalid_template") && e.line > 0 && !m_markupPart) {
        m_editor->setProblem(e.line, e.column, e.detail);
        m_problem->setText(tr("Line %1, column %2: %3").arg(e.line).arg(e.column).arg(e.detail));
        m_problem->show();
        m_message->clearMessage();
        return;
    }
    m_editor->clearProblem();
    m_problem->setText(e.detail.isEmpty() ? e.humanMessage() : e.detail);
    m_problem->setVisible(e.status >= 400 && e.status < 500);
    if (!m_problem->isVisible())
        m_message->showMessage(e.humanMessage(), MessageBanner::Kind::Error);
}

void StudioTab::save()
{
    const QString text = documentText();
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !parsed.isObject() || m_templateId.isEmpty()) {
        m_message->showMessage(tr("The document is not valid JSON yet: fix the underlined place first."),
                               MessageBanner::Kind::Error);
        renderPreview(); // the server's answer underlines the place
        Q_EMIT saved(false);
        return;
    }
    m_save->setEnabled(false);
    const QJsonObject body{{QStringLiteral("document"), parsed.object()}};
    m_client->callJson("PUT", QStringLiteral("/templates/") + percentEncoded(m_templateId), &body, this,
                       [this, text](const client::ApiResult<QJsonValue> &r) {
                           if (!r.has_value()) {
                               m_save->setEnabled(true);
                               m_message->showMessage(
                                   tr("The template was not saved. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
                               renderPreview(); // the same check, with the place underlined
                               Q_EMIT saved(false);
                               return;
                           }
                           m_saved = QJsonDocument::fromJson(text.toUtf8()).object();
                           m_save->setEnabled(isEdited());
                           const QJsonObject t = r.value().toObject();
                           m_templateName = t.value(QStringLiteral("name")).toString();
                           m_message->showMessage(
                               tr("Saved as version %1.").arg(t.value(QStringLiteral("version")).toInt()),
                               MessageBanner::Kind::Success);
                           Q_EMIT saved(true);
                       });
}

void StudioTab::publish()
{
    if (m_templateId.isEmpty())
        return;
    if (isEdited()) {
        // Publishing freezes the saved template: save what the author sees first.
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection = connect(this, &StudioTab::saved, this, [this, connection](bool ok) {
            disconnect(*connection);
            if (ok)
                publish();
            else
                Q_EMIT published(false);
        });
        save();
        return;
    }
    m_publish->setEnabled(false);
    m_client->listPages(this, [this](const client::ApiResult<QList<client::PageSummary>> &r) {
        if (!r.has_value()) {
            m_publish->setEnabled(true);
            m_message->showMessage(tr("The pages could not be loaded. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
            Q_EMIT published(false);
            return;
        }
        QList<client::PageSummary> pages;
        for (const client::PageSummary &p : r.value())
            if (p.templateId == m_templateId)
                pages << p;
        publishPages(pages);
    });
}

void StudioTab::publishPages(const QList<client::PageSummary> &pages)
{
    if (pages.isEmpty()) {
        const QJsonObject body{{QStringLiteral("templateId"), m_templateId},
                               {QStringLiteral("name"), m_templateName},
                               {QStringLiteral("publish"), true}};
        m_client->callJson("POST", QStringLiteral("/pages"), &body, this, [this](const client::ApiResult<QJsonValue> &r) {
            m_publish->setEnabled(true);
            if (!r.has_value()) {
                m_message->showMessage(tr("The page was not published. %1").arg(r.error().humanMessage()),
                                       MessageBanner::Kind::Error);
                Q_EMIT published(false);
                return;
            }
            m_message->showMessage(tr("Published as the new page “%1” (%2).")
                                       .arg(m_templateName, r.value().toObject().value(QStringLiteral("id")).toString()),
                                   MessageBanner::Kind::Success);
            Q_EMIT published(true);
        });
        return;
    }
    auto left = std::make_shared<int>(int(pages.size()));
    auto failed = std::make_shared<QStringList>();
    for (const client::PageSummary &page : pages) {
        const QJsonObject body;
        m_client->callJson("POST", QStringLiteral("/pages/%1/publish").arg(percentEncoded(page.id)), &body, this,
                           [this, left, failed, page, count = pages.size()](const client::ApiResult<QJsonValue> &r) {
                               if (!r.has_value())
                                   *failed << (page.name.isEmpty() ? page.id : page.name);
                               if (--*left > 0)
                                   return;
                               m_publish->setEnabled(true);
                               if (failed->isEmpty())
                                   m_message->showMessage(tr("Published %n page(s).", nullptr, int(count)),
                                                          MessageBanner::Kind::Success);
                               else
                                   m_message->showMessage(tr("Not published: %1.").arg(failed->join(QStringLiteral(", "))),
                                                          MessageBanner::Kind::Error);
                               Q_EMIT published(failed->isEmpty());
                           });
    }
}

void StudioTab::createTemplate()
{
    const QJsonObject body = starterDocument();
    m_client->callJson("POST", QStringLiteral("/templates"), &body, this, [this](const client::ApiResult<QJsonValue> &r) {
        if (!r.has_value()) {
            m_message->showMessage(tr("The template was not created. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
            return;
        }
        m_templateId = r.value().toObject().value(QStringLiteral("id")).toString();
        loadTemplates();
        openTemplate(m_templateId);
    });
}

} // namespace gui
} // namespace imprint
