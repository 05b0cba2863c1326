#include "gui/previewtab.h"

#include "gui/pageparts.h"
#include "gui/imageview.h"
#include "gui/messagebanner.h"
#include "server/common/render_enums.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace imprint {
namespace gui {

PreviewTab::PreviewTab(client::ApiClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
{
    setObjectName(QStringLiteral("previewTab"));
    QWidget *left = buildControls();
    QWidget *right = buildResultPane();

    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 660});
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connectSignals();
    m_render->setEnabled(false);
    updateChoices();
}

/// The left pane: the page, engine, format, scale, draft and key pickers, the tweaks and
/// the render button.
QWidget *PreviewTab::buildControls()
{
    m_page = new QComboBox(this);
    m_page->setObjectName(QStringLiteral("pageCombo"));
    m_page->setMinimumContentsLength(18);
    m_page->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_reloadPages = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), QString(), this);
    m_reloadPages->setObjectName(QStringLiteral("reloadPagesButton"));
    m_reloadPages->setToolTip(tr("Reload the list of pages"));
    m_engine = new QComboBox(this);
    m_engine->setObjectName(QStringLiteral("engineCombo"));
    m_engine->addItem(tr("Template default"), QString());
    for (const QString &engine : render::kEngineNames.names())
        m_engine->addItem(engine, engine);
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("formatCombo"));
    // The server's formats, from its table (JPEG is decoded by Qt's own jpeg plugin,
    // ImageView::decode; PDF, the html engine's only, is shown as its first page), but
    // AVIF: Qt 6.4 on Debian 12 ships no AVIF image plugin, so the console could not show
    // the result.
    for (const render::OutputFormatInfo &format : render::kOutputFormats) {
        if (format.format != render::OutputFormat::Avif)
            m_format->addItem(QString::fromLatin1(format.label), QString::fromLatin1(format.name));
    }
    m_scale = new QComboBox(this);
    m_scale->setObjectName(QStringLiteral("scaleCombo"));
    for (int scale = 1; scale <= 3; ++scale)
        m_scale->addItem(tr("%1×").arg(scale), scale);
    m_scale->setToolTip(tr("Device scale factor: the same layout with 2 or 3 times the pixels, "
                           "for high-density screens. PNG, WebP and JPEG only."));
    m_size = new QComboBox(this);
    m_size->setObjectName(QStringLiteral("sizeCombo"));
    m_size->setToolTip(tr("A size preset: the template's own sizes first, then the social networks' "
                          "(og 1200×630, square 1080×1080, story 1080×1920, …)."));
    m_version = new QLabel(this);
    m_version->setObjectName(QStringLiteral("versionLabel"));
    m_version->setWordWrap(true);
    m_draft = new QCheckBox(tr("Draft (render the unpublished version)"), this);
    m_draft->setObjectName(QStringLiteral("draftCheck"));
    m_apiKey = new QLineEdit(this);
    m_apiKey->setObjectName(QStringLiteral("apiKeyEdit"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("imp_…, needed for renders"));
    // The server renders pages only for API keys (docs/api.md), never for a session.
    m_apiKey->setToolTip(tr("Renders are authenticated with an API key of this space. "
                            "A key created on the Keys tab is filled in here."));
    m_apiKey->setClearButtonEnabled(true);

    m_tweaks = new QTableWidget(0, 2, this);
    m_tweaks->setObjectName(QStringLiteral("tweaksTable"));
    m_tweaks->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    m_tweaks->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tweaks->horizontalHeader()->setStretchLastSection(true);
    m_tweaks->verticalHeader()->hide();
    m_tweaks->setSelectionMode(QAbstractItemView::SingleSelection);
    m_resetTweaks = new QPushButton(tr("Reset tweaks"), this);
    m_resetTweaks->setObjectName(QStringLiteral("resetTweaksButton"));
    m_render = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Render"), this);
    m_render->setObjectName(QStringLiteral("renderButton"));
    m_render->setDefault(true);
    m_busy = makeBusyBar(this, QStringLiteral("renderBusy"), 8);

    auto *pageRow = new QHBoxLayout;
    pageRow->addWidget(m_page, 1);
    pageRow->addWidget(m_reloadPages);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *pageLabel = new QLabel(tr("&Page:"), this);
    pageLabel->setBuddy(m_page);
    form->addRow(pageLabel, pageRow);
    form->addRow(tr("&Engine:"), m_engine);
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Scale:"), m_scale);
    form->addRow(tr("Si&ze:"), m_size);
    form->addRow(tr("Version:"), m_version);
    form->addRow(QString(), m_draft);
    form->addRow(tr("API &key:"), m_apiKey);

    auto *tweaksLabel = new QLabel(tr("Tweaks (override the page's values for this render):"), this);
    tweaksLabel->setWordWrap(true);
    auto *renderRow = new QHBoxLayout;
    renderRow->addWidget(m_resetTweaks);
    renderRow->addStretch();
    renderRow->addWidget(m_render);

    return columnPage(this, QMargins(0, 0, 6, 0), {form, tweaksLabel, {m_tweaks, 1}, renderRow, m_busy});
}

/// The right pane: the rendered image, its links and the signed-URL row, timings and
/// warnings.
QWidget *PreviewTab::buildResultPane()
{
    m_message = new MessageBanner(this);
    m_message->setObjectName(QStringLiteral("previewMessage"));
    m_view = new ImageView(this);
    m_view->setObjectName(QStringLiteral("previewImage"));
    m_view->setPlaceholder(tr("Pick a page and press Render."));
    m_info = new QLabel(this);
    m_info->setObjectName(QStringLiteral("renderInfo"));
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timings = new QLabel(this);
    m_timings->setObjectName(QStringLiteral("timingsLabel"));
    m_timings->setWordWrap(true);
    m_timings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings = new QLabel(this);
    m_warnings->setObjectName(QStringLiteral("warningsLabel"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color:#92400e;"));
    m_warnings->hide();
    m_copyUrl = new QPushButton(tr("Copy image URL"), this);
    m_copyUrl->setObjectName(QStringLiteral("copyUrlButton"));
    m_copyUrl->setToolTip(tr("The stored render: a public, permanent link to exactly this image."));
    m_copyUrl->setEnabled(false);
    m_copyRequest = new QPushButton(tr("Copy render URL"), this);
    m_copyRequest->setObjectName(QStringLiteral("copyRequestUrlButton"));
    m_copyRequest->setToolTip(tr("A GET request that renders this page with these settings; "
                                 "add api_token=… or an Authorization header."));
    m_copyRequest->setEnabled(false);

    m_signingKey = new QComboBox(this);
    m_signingKey->setObjectName(QStringLiteral("signingKeyCombo"));
    // "Name (sgk_…)": wide enough to tell keys apart by name and id.
    m_signingKey->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_signingKey->setToolTip(tr("The signing key that signs the URL (Signing keys tab)."));
    m_copySigned = new QPushButton(tr("Copy signed URL"), this);
    m_copySigned->setObjectName(QStringLiteral("copySignedUrlButton"));
    m_copySigned->setToolTip(tr("A render URL of this published page with these settings, signed by the server "
                                "with the chosen signing key: it needs no API key, e.g. for og:image."));
    m_copySigned->setEnabled(false);

    auto *copyRow = new QHBoxLayout;
    copyRow->addWidget(m_info, 1);
    copyRow->addWidget(m_copyUrl);
    copyRow->addWidget(m_copyRequest);
    auto *signedRow = new QHBoxLayout;
    signedRow->addStretch(1);
    signedRow->addWidget(new QLabel(tr("Signing key:"), this));
    signedRow->addWidget(m_signingKey);
    signedRow->addWidget(m_copySigned);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 0, 0, 0);
    rightLayout->addWidget(m_message);
    rightLayout->addWidget(m_view, 1);
    rightLayout->addLayout(copyRow);
    rightLayout->addLayout(signedRow);
    rightLayout->addWidget(m_timings);
    rightLayout->addWidget(m_warnings);
    return right;
}

void PreviewTab::connectSignals()
{
    connect(m_page, &QComboBox::currentIndexChanged, this, &PreviewTab::pageChanged);
    connect(m_engine, &QComboBox::currentIndexChanged, this, &PreviewTab::updateChoices);
    connect(m_format, &QComboBox::currentIndexChanged, this, &PreviewTab::updateChoices);
    connect(m_reloadPages, &QPushButton::clicked, this, &PreviewTab::loadPages);
    connect(m_render, &QPushButton::clicked, this, &PreviewTab::render);
    connect(m_resetTweaks, &QPushButton::clicked, this, [this] {
        if (m_page->currentIndex() >= 0 && m_page->currentIndex() < m_pages.size())
            fillTweaks(m_template, m_pages.at(m_page->currentIndex()));
    });
    connect(m_copyUrl, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_result.fileUrl.toString());
        m_message->showMessage(tr("The image URL was copied to the clipboard."), MessageBanner::Kind::Success);
    });
    connect(m_copyRequest, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(currentRequest().toGetUrl(m_client->apiBase()).toString(QUrl::FullyEncoded));
        m_message->showMessage(tr("The render URL was copied to the clipboard. Add your API key "
                                  "as api_token or in an Authorization header."),
                               MessageBanner::Kind::Success);
    });
    connect(m_copySigned, &QPushButton::clicked, this, &PreviewTab::copySignedUrl);
}

QString PreviewTab::effectiveEngine() const
{
    const QString chosen = m_engine->currentData().toString();
    if (!chosen.isEmpty())
        return chosen;
    return m_template.rendererType.isEmpty() ? QStringLiteral("satori") : m_template.rendererType;
}

void PreviewTab::updateChoices()
{
    const bool pdf = effectiveEngine() == QLatin1String("html");
    if (auto *model = qobject_cast<QStandardItemModel *>(m_format->model())) {
        if (QStandardItem *item = model->item(m_format->findData(QStringLiteral("pdf")))) {
            item->setEnabled(pdf);
            item->setToolTip(pdf ? tr("Chromium's print to PDF: one page the template's size, text as text.")
                                 : tr("PDF is drawn by the html engine only."));
        }
    }
    if (!pdf && m_format->currentData().toString() == QLatin1String("pdf")) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(m_format->findData(QStringLiteral("png")));
    }
    // SVG and PDF are vector output: the server refuses any scale but 1 with them.
    const QString format = m_format->currentData().toString();
    const bool bitmap = format != QLatin1String("svg") && format != QLatin1String("pdf");
    if (!bitmap)
        m_scale->setCurrentIndex(0);
    m_scale->setEnabled(bitmap);
}

void PreviewTab::setSigningKeys(const QList<client::SigningKey> &keys)
{
    const QString current = m_signingKey->currentData().toString();
    m_signingKey->clear();
    for (const client::SigningKey &k : keys)
        m_signingKey->addItem(QStringLiteral("%1 (%2)").arg(k.name, k.id), k.id);
    if (const int index = m_signingKey->findData(current); index >= 0)
        m_signingKey->setCurrentIndex(index);
    m_copySigned->setEnabled(m_signingKey->count() > 0);
}

void PreviewTab::copySignedUrl()
{
    if (m_page->currentIndex() < 0 || m_signingKey->currentIndex() < 0) {
        m_message->showMessage(tr("Choose a page and a signing key first."), MessageBanner::Kind::Info);
        return;
    }
    client::RenderRequest request = currentRequest();
    // Signed URLs serve published pages only (docs/api.md): never sign a draft render.
    request.draft = false;
    m_copySigned->setEnabled(false);
    m_client->signUrl(m_signingKey->currentData().toString(), request.toGetUrl(m_client->apiBase()), 0, this,
                      [this](const client::ApiResult<QString> &r) {
                          m_copySigned->setEnabled(m_signingKey->count() > 0);
                          if (!r.has_value()) {
                              m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
                              Q_EMIT signedUrlCopied(QString());
                              return;
                          }
                          QApplication::clipboard()->setText(r.value());
                          m_message->showMessage(tr("The signed URL was copied to the clipboard. It renders the "
                                                    "published page without an API key until the key is revoked."),
                                                 MessageBanner::Kind::Success);
                          Q_EMIT signedUrlCopied(r.value());
                      });
}

void PreviewTab::activate()
{
    m_active = true;
    m_pagesRequested = false;
    if (isVisible())
        loadPages();
}

void PreviewTab::deactivate()
{
    m_active = false;
    m_pagesRequested = false;
    ++m_generation;
    setRendering(false);
    m_pages.clear();
    m_page->clear();
    m_tweaks->setRowCount(0);
    m_size->clear();
    m_version->clear();
    m_apiKey->clear();
    m_view->setImage({});
    m_info->clear();
    m_timings->clear();
    m_warnings->hide();
    m_message->clearMessage();
    m_copyUrl->setEnabled(false);
    m_copyRequest->setEnabled(false);
    m_signingKey->clear();
    m_copySigned->setEnabled(false);
    m_result = {};
}

void PreviewTab::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (m_active && !m_pagesRequested)
        loadPages();
}

void PreviewTab::offerApiKey(const QString &token)
{
    if (m_apiKey->text().isEmpty())
        m_apiKey->setText(token);
}

QImage PreviewTab::image() const
{
    return m_view->image();
}

void PreviewTab::loadPages()
{
    if (!m_active)
        return;
    m_pagesRequested = true;
    m_message->showMessage(tr("Loading pages…"), MessageBanner::Kind::Info);
    m_reloadPages->setEnabled(false);
    m_client->listPages(this, [this](const client::ApiResult<QList<client::PageSummary>> &r) {
        m_reloadPages->setEnabled(true);
        if (!r.has_value()) {
            m_message->showMessage(r.error().isNotFound()
                                       ? tr("This server does not offer pages to preview yet.")
                                       : tr("The pages could not be loaded. %1").arg(r.error().humanMessage()),
                                   MessageBanner::Kind::Error);
            Q_EMIT pagesLoaded();
            return;
        }
        const QString previous = m_page->currentData().toString();
        m_pages = r.value();
        {
            const QSignalBlocker block(m_page);
            m_page->clear();
            // The id is long and cut the name off in a narrow combo box: it shows only
            // where two pages share a name, and in every item's tooltip.
            QHash<QString, int> nameCount;
            for (const auto &p : m_pages)
                ++nameCount[p.name];
            for (const auto &p : m_pages) {
                const QString text = p.name.isEmpty()              ? p.id
                                     : nameCount.value(p.name) > 1 ? tr("%1 (%2)").arg(p.name, p.id)
                                                                   : p.name;
                m_page->addItem(text, p.id);
                m_page->setItemData(m_page->count() - 1, p.id, Qt::ToolTipRole);
            }
            const int idx = m_page->findData(previous);
            m_page->setCurrentIndex(idx >= 0 ? idx : (m_pages.isEmpty() ? -1 : 0));
        }
        if (m_pages.isEmpty())
            m_message->showMessage(tr("This space has no pages yet. Create a page from a template "
                                      "first (for example with “imprint page create”)."),
                                   MessageBanner::Kind::Info);
        else
            m_message->clearMessage();
        pageChanged();
        Q_EMIT pagesLoaded();
    });
}

void PreviewTab::pageChanged()
{
    const int i = m_page->currentIndex();
    m_render->setEnabled(i >= 0 && i < m_pages.size() && !m_rendering);
    m_tweaks->setRowCount(0);
    m_template = {};
    updateChoices();
    if (i < 0 || i >= m_pages.size())
        return;
    const client::PageSummary page = m_pages.at(i);
    // A page never published has only a draft to render.
    if (!page.published)
        m_draft->setChecked(true);
    // Until the template arrives, offer the page's own values.
    fillTweaks({}, page);
    fillSizesAndVersion({}, page);
    if (page.templateId.isEmpty()) {
        Q_EMIT templateLoaded();
        return;
    }
    const quint64 generation = ++m_generation;
    m_client->getTemplate(
        page.templateId, this, [this, page, generation](const client::ApiResult<client::TemplateSummary> &r) {
            if (generation != m_generation)
                return;
            if (r.has_value()) {
                m_template = r.value();
                fillTweaks(m_template, page);
                fillSizesAndVersion(m_template, page);
                updateChoices(); // "Template default" may now name the html engine
            } else {
                m_message->showMessage(
                    tr("The template of this page could not be loaded. %1").arg(r.error().humanMessage()),
                    MessageBanner::Kind::Warning);
            }
            Q_EMIT templateLoaded();
        });
}

void PreviewTab::fillTweaks(const client::TemplateSummary &tpl, const client::PageSummary &page)
{
    m_tweaks->setRowCount(0);
    QStringList names;
    QStringList types;
    QStringList defaults;
    for (const auto &v : tpl.variables) {
        names << v.name;
        types << v.type;
        defaults << v.defaultValue;
    }
    for (auto it = page.variables.begin(); it != page.variables.end(); ++it)
        if (!names.contains(it.key())) {
            names << it.key();
            types << QString();
            defaults << QString();
        }
    m_tweaks->setRowCount(int(names.size()));
    for (int row = 0; row < names.size(); ++row) {
        const QString value
            = page.variables.contains(names[row]) ? client::jsonText(page.variables.value(names[row])) : defaults[row];
        auto *nameItem = new QTableWidgetItem(names[row]);
        nameItem->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        if (!types[row].isEmpty())
            nameItem->setToolTip(tr("Type: %1").arg(types[row]));
        auto *valueItem = new QTableWidgetItem(value);
        valueItem->setData(Qt::UserRole, value); // the page's own value: not a tweak
        if (types[row] == QLatin1String("color") && QColor::isValidColorName(value))
            valueItem->setData(Qt::DecorationRole, QColor::fromString(value));
        m_tweaks->setItem(row, 0, nameItem);
        m_tweaks->setItem(row, 1, valueItem);
    }
}

void PreviewTab::fillSizesAndVersion(const client::TemplateSummary &tpl, const client::PageSummary &page)
{
    const QString current = m_size->currentData().toString();
    const QSignalBlocker block(m_size);
    m_size->clear();
    m_size->addItem(tpl.width > 0 ? tr("Template size (%1 × %2)").arg(tpl.width).arg(tpl.height) : tr("Template size"),
                    QString());
    for (const QString &name : tpl.sizes)
        m_size->addItem(name, name);
    m_size->setCurrentIndex(std::max(0, m_size->findData(current)));

    if (tpl.version <= 0) {
        m_version->clear();
        return;
    }
    const QString draft = page.templateVersion > 0 ? tr("pinned to version %1 of %2").arg(page.templateVersion).arg(tpl.version)
                                                   : tr("follows the latest, version %1").arg(tpl.version);
    m_version->setText(page.publishedTemplateVersion > 0
                           ? tr("The page %1; published with version %2.").arg(draft).arg(page.publishedTemplateVersion)
                           : tr("The page %1; not published.").arg(draft));
}

client::RenderRequest PreviewTab::currentRequest() const
{
    client::RenderRequest req;
    const int i = m_page->currentIndex();
    if (i >= 0 && i < m_pages.size())
        req.pageId = m_pages.at(i).id;
    req.renderType = m_engine->currentData().toString();
    req.format = m_format->currentData().toString();
    req.scale = m_scale->isEnabled() ? m_scale->currentData().toInt() : 1;
    req.size = m_size->currentData().toString();
    req.draft = m_draft->isChecked();
    req.apiToken = m_apiKey->text().trimmed();
    for (int row = 0; row < m_tweaks->rowCount(); ++row) {
        const QTableWidgetItem *name = m_tweaks->item(row, 0);
        const QTableWidgetItem *value = m_tweaks->item(row, 1);
        if (!name || !value)
            continue;
        if (value->text() != value->data(Qt::UserRole).toString())
            req.tweaks.insert(name->text(), value->text());
    }
    return req;
}

void PreviewTab::setRendering(bool rendering)
{
    m_rendering = rendering;
    m_busy->setVisible(rendering);
    m_view->setBusy(rendering);
    m_render->setEnabled(!rendering && m_page->currentIndex() >= 0);
    m_render->setText(rendering ? tr("Rendering…") : tr("&Render"));
}

void PreviewTab::render()
{
    const client::RenderRequest req = currentRequest();
    if (req.pageId.isEmpty() || m_rendering)
        return;
    setRendering(true);
    m_message->clearMessage();
    m_client->render(req, this, [this, req](const client::ApiResult<client::RenderResult> &r) {
        setRendering(false);
        // The html engine's browser starts with the server: right after a start the first
        // render is 503 engine_starting, answered at once. The preview waits it out.
        if (!r.has_value() && r.error().status == 503 && r.error().code == QLatin1String("engine_starting")
            && m_engineStartRetries < kMaxEngineStartRetries) {
            ++m_engineStartRetries;
            m_message->showMessage(tr("The html engine is starting; the preview renders again in a moment."),
                                   MessageBanner::Kind::Info);
            setRendering(true);
            QTimer::singleShot(std::max(1, r.error().retryAfterSeconds) * 1000, this, [this] {
                setRendering(false);
                render();
            });
            return;
        }
        m_engineStartRetries = 0;
        if (!r.has_value()) {
            QString text = r.error().humanMessage();
            if (r.error().status == 401)
                text = req.apiToken.isEmpty() ? tr("The server needs an API key for renders. Enter one of this "
                                                   "space's keys under “API key” (a new key from the Keys tab is "
                                                   "filled in for you).")
                                              : tr("The API key was not accepted: it is unknown, expired or revoked.");
            else if (r.error().status == 404 && !req.draft)
                text = tr("This page has no published version to render. Tick “Draft” to render "
                          "its current state, or publish it first.");
            m_message->showMessage(text, MessageBanner::Kind::Error);
            Q_EMIT rendered(false);
            return;
        }
        const QString type = r.value().contentType.isEmpty() ? req.format : r.value().contentType;
        int pages = 0;
        QImage image = ImageView::decode(r.value().bytes, type, &pages);
        if (image.isNull()) {
            m_message->showMessage(tr("The render finished but the console cannot display the image."),
                                   MessageBanner::Kind::Warning);
        } else if (pages > 0) {
            m_message->showMessage(tr("A PDF: shown here is its first page, drawn by the console. "
                                      "“Copy image URL” links the PDF itself."),
                                   MessageBanner::Kind::Info);
        }
        // A scale 2 image is shown at the template's size, its pixels spent on sharpness.
        if (!image.isNull() && req.scale > 1)
            image.setDevicePixelRatio(req.scale);
        showResult(r.value(), image);
        Q_EMIT rendered(!image.isNull());
    });
}

QString PreviewTab::timingName(const QString &key)
{
    if (key == QLatin1String("load"))
        return tr("load");
    if (key == QLatin1String("layout"))
        return tr("layout");
    if (key == QLatin1String("paint"))
        return tr("paint");
    if (key == QLatin1String("encode"))
        return tr("encode");
    if (key == QLatin1String("store"))
        return tr("store");
    return key;
}

void PreviewTab::showResult(const client::RenderResult &r, const QImage &image)
{
    m_result = r;
    m_view->setImage(image);
    const int w = r.width > 0 ? r.width : image.width();
    const int h = r.height > 0 ? r.height : image.height();
    const QString format = (r.format.isEmpty() ? m_format->currentData().toString() : r.format).toUpper();
    const QString engine = r.renderType.isEmpty() ? m_engine->currentText() : r.renderType;
    const QString scale = image.devicePixelRatio() > 1 ? tr(" (%1×)").arg(image.devicePixelRatio()) : QString();
    m_info->setText(tr("%1 × %2 px%3 · %4 · %5 · %6")
                        .arg(w)
                        .arg(h)
                        .arg(scale, format, QLocale().formattedDataSize(r.size), engine));
    QStringList parts;
    for (const auto &t : r.timings)
        if (t.first != QLatin1String("total"))
            parts << tr("%1 %2 ms").arg(timingName(t.first), QLocale().toString(t.second, 'f', 1));
    // The phases go on a line of their own: after the totals they wrapped mid-phrase in
    // German and French at the default window size.
    // A reused render skipped every phase; listing zeros would read like a broken timer.
    const QString phases
        = r.reused ? tr("reused an identical render from the last few seconds") : parts.join(QStringLiteral(", "));
    QString timings = r.timings.isEmpty() ? tr("Round trip %1 ms").arg(r.roundTripMs)
                                          : tr("Server time %1 ms · round trip %2 ms")
                                                    .arg(QLocale().toString(r.totalMs(), 'f', 1))
                                                    .arg(r.roundTripMs)
                                                + u'\n' + phases;
    // A number and its unit stay on one line when the label still has to wrap.
    timings.replace(QStringLiteral(" ms"), QStringLiteral("\u00a0ms"));
    m_timings->setText(timings);
    m_warnings->setText(r.warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!r.warnings.isEmpty());
    m_copyUrl->setEnabled(r.fileUrl.isValid());
    m_copyRequest->setEnabled(true);
}

} // namespace gui
} // namespace imprint
