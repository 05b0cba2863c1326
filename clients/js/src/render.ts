// Inline renders over fetch (docs/api.md, "Inline renders"): POST /api/v1/render with a
// template document, answered with the image bytes.

/** Where the server is and which API key to use; defaults from the environment. */
export interface ServerOptions {
  /** The server's base URL, e.g. `https://img.example.com` (`/api/v1` may be included). Default: `IMPRINT_URL`. */
  url?: string;
  /** An API key (`imp_…`) with the `render` scope. Default: `IMPRINT_API_KEY`. */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** A template document as `POST /templates` takes it (docs/templates.md). */
export interface TemplateDocument {
  name?: string;
  width?: number | string;
  height?: number | string;
  rendererType?: "satori" | "takumi" | "html";
  emojiType?: "twemoji" | "openmoji" | "noto";
  compression?: "fast" | "default" | "lossless" | "small";
  variables?: Array<{ name: string; type?: "text" | "color" | "number" | "image"; default?: unknown }>;
  root?: unknown;
  markup?: string;
  html?: string;
  [key: string]: unknown;
}

/** The render fields of an inline render (docs/api.md, "Page renders", less pageId/templateId/draft). */
export interface InlineRenderFields {
  tweaks?: Record<string, string | number>;
  format?: "png" | "webp" | "jpeg" | "avif" | "svg" | "pdf";
  quality?: number;
  lossless?: boolean;
  speed?: number;
  compression?: "fast" | "default" | "lossless" | "small";
  renderType?: "satori" | "takumi" | "html";
  emojiType?: "twemoji" | "openmoji" | "noto";
  width?: number;
  height?: number;
  scale?: 1 | 2 | 3;
}

/** A problem+json answer (RFC 9457) as an Error: `status`, `code`, `field`, `detail`. */
export class ImprintError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field: string | undefined,
    readonly detail: string,
  ) {
    super(`Imprint ${status} ${code}${field ? ` (${field})` : ""}: ${detail}`);
    this.name = "ImprintError";
  }
}

function env(name: string): string | undefined {
  const g = globalThis as any;
  return g.process?.env?.[name] ?? g.Deno?.env?.get?.(name);
}

/** The `/api/v1` base of `url` (or IMPRINT_URL); throws when neither is set. */
export function apiBase(url?: string): string {
  const base = url ?? env("IMPRINT_URL");
  if (!base) throw new Error("Imprint: set IMPRINT_URL (the server's base URL) or pass `url`");
  const trimmed = base.replace(/\/+$/, "");
  return trimmed.endsWith("/api/v1") ? trimmed : `${trimmed}/api/v1`;
}

/** An ImprintError from a non-2xx answer. */
export async function errorOf(response: Response): Promise<ImprintError> {
  const text = await response.text();
  let body: any = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not problem+json */
  }
  return new ImprintError(response.status, body.code ?? "http_error", body.field, body.detail ?? (text || response.statusText));
}

/** The API key of `server` (or IMPRINT_API_KEY); throws when neither is set. */
export function apiKeyOf(server: ServerOptions): string {
  const apiKey = server.apiKey ?? env("IMPRINT_API_KEY");
  if (!apiKey) throw new Error("Imprint: set IMPRINT_API_KEY (an API key with the render scope) or pass `apiKey`");
  return apiKey;
}

/**
 * Renders `template` with `fields` on the server and returns the answer (status 200, the
 * image bytes, `Content-Type`, `Server-Timing`). Throws ImprintError on a refusal.
 */
export async function renderInline(
  template: TemplateDocument,
  fields: InlineRenderFields = {},
  server: ServerOptions = {},
): Promise<Response> {
  const apiKey = apiKeyOf(server);
  const doFetch = server.fetch ?? fetch;
  const response = await doFetch(`${apiBase(server.url)}/render`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "image/*" },
    body: JSON.stringify({ ...fields, template, output: "binary" }),
  });
  if (!response.ok) throw await errorOf(response);
  return response;
}
