// @imprint/client: Imprint from JavaScript (docs/node.md, docs/nextjs.md).
export { ImageResponse, imageTemplate, type ImageResponseOptions } from "./image-response.js";
export { uploadFonts, fontMediaType, type FontOptions, type FontUploadResult } from "./fonts.js";
export { toImprintTree, type ImprintElement, type ImprintNode, type ElementLike } from "./element.js";
export {
  renderInline,
  apiBase,
  ImprintError,
  type ServerOptions,
  type TemplateDocument,
  type InlineRenderFields,
} from "./render.js";
export {
  createImprintClient,
  type ImprintClient,
  type ImprintClientOptions,
  type ImprintPaths,
  type ImprintSchemas,
} from "./client.js";
export { withRetries, DEFAULT_RETRIES, type RetryOptions } from "./retry.js";
export { signRenderUrl, signature, canonicalQuery, rfc3986, type SignOptions } from "./sign.js";

// `tw` on any element, as next/og and @vercel/og declare it (Tailwind classes, drawn by the
// server). A type-only import: nothing of React is loaded at run time.
import type {} from "react";
declare module "react" {
  interface HTMLAttributes<T> {
    tw?: string;
  }
  interface SVGAttributes<T> {
    tw?: string;
  }
}
