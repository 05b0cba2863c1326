#pragma once
// What painting reads besides the laid-out tree: the long-lived, shared parts of a render
// context (server/render/render_context.h), handed down by the pipeline.

#include "server/render/resources/image_decoder.h"

namespace imprint::render {

class EmojiLibrary;
class RenderCancellation;
class ImageCache;
class TextEngine;

/// The render context's text engine (shapes text runs the way layout measured them),
/// decoded-image cache (background images, html images) and emoji image sets. Every
/// member outlives the paint that uses it.
struct PaintResources {
    TextEngine &text;
    ImageCache &images;
    EmojiLibrary &emoji;
    /// The render's cancellation, polled between display-list commands; null: none.
    const RenderCancellation *cancellation = nullptr;
    /// Loads the url() images of backgrounds and masks that are not data: URLs (a space's
    /// `asset:` images, prefetched remote ones: the request's image loader, as for img
    /// sources); empty: only data: URLs are drawn.
    ImageLoader imageLoader = {};
};

} // namespace imprint::render
