#pragma once
// Remote images of a render (docs/remote-images.md): the I/O a template's `http(s)://`
// image sources need happens here, before the pipeline runs, so the pipeline itself never
// touches the network. The sources are collected from the document (variables and tweaks
// substituted), fetched concurrently under the fetcher's policy and the render's
// deadline, decoded, and handed to the pipeline through RenderRequest::imageLoader.

#include "server/common/expected.h"
#include "server/net/remote_image_fetcher.h"
#include "server/render/pipeline.h"

#include <optional>

namespace imprint::service {

/// Fetches and decodes every remote image `request` names (net::isRemoteImageUrl()),
/// concurrently, ending by the earlier of `request.cancellation`'s deadline and the
/// fetcher's time limit. Returns the loader the pipeline should use: those images by URL,
/// everything else through `context`'s image cache (data: URLs). On the first failure in
/// document order returns a RenderError with code image_unavailable, image_refused or
/// image_too_large whose field is the `img`'s src path and whose message names the URL;
/// an invalid template or variable gives the error render() would.
/// `parsedMayNameUrl`, when given, is templateMayNameUrl(*request.parsed) kept from an
/// earlier walk of the same parsed template (the walk costs each request ~40 k
/// instructions otherwise).
common::Expected<render::ImageLoader, render::RenderError> prefetchRemoteImages(const render::RenderRequest &request,
                                                                                render::RenderContext &context,
                                                                                net::RemoteImageFetcher &fetcher,
                                                                                std::optional<bool> parsedMayNameUrl = std::nullopt);

/// Whether `tmpl`'s source holds a string that could name a remote or file URL (one with
/// "://" or "file:"): false lets prefetchRemoteImages() skip the template's image walk.
/// Depends on the parsed template alone, so a cache of parsed templates may keep it.
bool templateMayNameUrl(const render::Template &tmpl);

} // namespace imprint::service
