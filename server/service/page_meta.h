#pragma once
// The meta tags of a page (docs/api.md, "Meta tags"): what a site pastes into its <head>
// so that crawlers show the page's card — og:image as a signed render URL of the
// published page, its size, type and alt text, and the Twitter card tags. Transports
// format the tags (JSON or HTML); nothing here knows HTTP.

#include "server/service/content_service.h"
#include "server/service/signing_key_service.h"

#include <QList>
#include <QPair>

namespace imprint::service {

/// The tags of one page's image, ready to paste.
struct PageMeta {
    QString pageId;
    QString size; ///< the size preset asked for, empty when none (the template's own size)
    QString imageUrl; ///< the signed render URL (og:image, twitter:image)
    int width = 0; ///< px of the image, 0 when the template is sized by its content
    int height = 0;
    QString contentType; ///< "image/png"
    QString alt; ///< the template's `alt` with the page's values; empty when it has none
    int templateVersion = 0; ///< the version the publish snapshot used (0: before versions)

    /// The tags in paste order as (name, content): og:image, og:image:width,
    /// og:image:height (both left out when unknown), og:image:type, og:image:alt (when
    /// there is alt text), twitter:card (summary_large_image), twitter:image and
    /// twitter:image:alt (with alt text).
    QList<QPair<QString, QString>> tags() const;
};

/// What a caller asks for.
struct PageMetaRequest {
    QString spaceId;
    QString pageId;
    QString signingKeyId; ///< the space's active signing key that signs og:image
    QString size; ///< a size preset (size_presets.h), empty = the template's size
    QString baseUrl; ///< the public base of the service ("https://img.example.com"), may be empty
    qint64 expiresInSeconds = 0; ///< > 0 adds `exp` to the URL
    qint64 nowSeconds = 0; ///< Unix seconds, for `exp`
};

/// The meta-tags use case over the content and signing-key use cases (both must outlive it).
class PageMetaService
{
public:
    PageMetaService(ContentService &content, SigningKeyService &signing)
        : m_content(content)
        , m_signing(signing)
    { }

    /// The tags of `request.pageId`'s published snapshot (signed URLs serve published
    /// pages only): NotFound page_not_found / page_not_published; UnknownSize (422, field
    /// size); NotFound signing_key_not_found; Invalid invalid_expires; the stored
    /// template's parse error as Conflict invalid_stored_template.
    Result<PageMeta> meta(const PageMetaRequest &request);

private:
    ContentService &m_content;
    SigningKeyService &m_signing;
};

} // namespace imprint::service
