// ImageResponse: a drop-in for next/og's (and @vercel/og's, takumi's) — same constructor,
// same options where they apply — that renders on an Imprint server instead of in the
// route handler: the element tree is walked into Imprint's JSON tree (element.ts) and
// sent as an inline render (render.ts) with IMPRINT_URL and IMPRINT_API_KEY.

import { toImprintTree, type ElementLike } from "./element.js";
import { uploadFonts, type FontOptions } from "./fonts.js";
import {
  apiKeyOf,
  renderInline,
  type InlineRenderFields,
  type ServerOptions,
  type TemplateDocument,
} from "./render.js";

export type { FontOptions } from "./fonts.js";

/** next/og's options (`width`, `height`, `emoji`, `fonts`, `headers`, `status`, `statusText`, `debug`), plus Imprint's. */
export interface ImageResponseOptions extends ServerOptions {
  /** px, default 1200. */
  width?: number;
  /** px, default 630. */
  height?: number;
  /** next/og's emoji sets; `twemoji`, `openmoji` and `noto` are Imprint's, the others are drawn with `noto`. */
  emoji?: "twemoji" | "openmoji" | "noto" | "blobmoji" | "fluent" | "fluentFlat";
  /**
   * Uploaded once to the key's space under `name` (with `weight` and `style`), so that a
   * `fontFamily` naming it draws in it; needs a key with the `content` scope too, else
   * they are skipped with a warning and the space's fonts are used (fonts.ts).
   */
  fonts?: FontOptions[];
  /** Headers of the Response, over the defaults (Content-Type, Cache-Control). */
  headers?: HeadersInit;
  status?: number;
  statusText?: string;
  /** Accepted for compatibility; Imprint has no debug overlay. */
  debug?: boolean;
  /** Imprint: the output format (default png, as next/og). */
  format?: InlineRenderFields["format"];
  /** Imprint: the engine (default satori, as next/og; takumi for takumi's ImageResponse). */
  renderType?: InlineRenderFields["renderType"];
  /** Imprint: device scale factor 1–3. */
  scale?: InlineRenderFields["scale"];
  quality?: number;
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  webp: "image/webp",
  jpeg: "image/jpeg",
  avif: "image/avif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

/** The template document and render fields of an ImageResponse. */
export async function imageTemplate(
  element: ElementLike,
  options: ImageResponseOptions = {},
): Promise<{ template: TemplateDocument; fields: InlineRenderFields }> {
  const emoji = options.emoji;
  const emojiType = emoji === "twemoji" || emoji === "openmoji" || emoji === "noto" ? emoji : emoji ? "noto" : undefined;
  const template: TemplateDocument = {
    width: options.width ?? 1200,
    height: options.height ?? 630,
    rendererType: options.renderType ?? "satori",
    root: await toImprintTree(element),
  };
  if (emojiType) template.emojiType = emojiType;
  const fields: InlineRenderFields = {};
  if (options.format) fields.format = options.format;
  if (options.scale) fields.scale = options.scale;
  if (options.quality) fields.quality = options.quality;
  return { template, fields };
}

/**
 * `new ImageResponse(element, options)`: a Response whose body streams the image once
 * the server has rendered it, as next/og's does. A render the server refuses errors the
 * body stream (the route handler's fetch sees a failed body), with the ImprintError.
 */
export class ImageResponse extends Response {
  constructor(element: ElementLike, options: ImageResponseOptions = {}) {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          const { template, fields } = await imageTemplate(element, options);
          if (options.fonts?.length) await uploadFonts(options.fonts, options, apiKeyOf(options));
          const answer = await renderInline(template, fields, options);
          controller.enqueue(new Uint8Array(await answer.arrayBuffer()));
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    });
    const headers = new Headers({
      "content-type": CONTENT_TYPES[options.format ?? "png"],
      // next/og's default: the same element gives the same image.
      "cache-control": "public, immutable, no-transform, max-age=31536000",
    });
    new Headers(options.headers).forEach((value, name) => headers.set(name, value));
    super(body, { headers, status: options.status ?? 200, statusText: options.statusText });
  }
}
