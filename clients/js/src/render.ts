// Inline renders over fetch (docs/api.md, "Inline renders"): POST /api/v1/render with a
// template document, answered with the image bytes.

import { withRetries, type RetryOptions } from "./retry.js";

/** Where the server is, which API key to use and how often to retry; defaults from the environment. */
export interface ServerOptions extends RetryOptions {
  /** The server's base URL, e.g. `https://img.example.com` (`/api/v1` may be included). Default: `IMPRINT_URL`. */
  url?: string;
  /** An API key (`imp_…`) with the `render` scope. Default: `IMPRINT_API_KEY`. */
  apiKey?: string;
  /** The fetch to use (default: the global one), wrapped in the retries of withRetries(). */
  fetch?: typeof fetch;
}

/** The fetch of `server`: its `fetch` (or the global one) retrying transient failures `server.retries` times (retry.ts). */
export function fetchOf(server: ServerOptions): typeof fetch {
  return withRetries(server.fetch, { retries: server.retries });
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
 * image bytes, `Content-Type`, `Server-Timing`). A transient failure (no answer, 502, 503,
 * 504) is retried `server.retries` times (default 2; retry.ts); throws ImprintError on a
 * refusal, or on the last transient failure's answer.
 */
export async function renderInline(
  template: TemplateDocument,
  fields: InlineRenderFields = {},
  server: ServerOptions = {},
): Promise<Response> {
  const apiKey = apiKeyOf(server);
  const response = await fetchOf(server)(`${apiBase(server.url)}/render`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "image/*" },
    body: JSON.stringify({ ...fields, template, output: "binary" }),
  });
  if (!response.ok) throw await errorOf(response);
  return response;
}
