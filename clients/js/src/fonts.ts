// The fonts of an ImageResponse (next/og's `fonts` option) on an Imprint server: each is
// uploaded once to the key's space (POST /api/v1/fonts, docs/fonts-and-images.md) under the
// name, weight and style the option gives, so that a `fontFamily` naming it draws in it.
// The server keeps one copy of the same bytes (a second upload answers 200 with the
// stored font), and this module uploads the same data object once per process.

import { apiBase, errorOf, fetchOf, type ServerOptions } from "./render.js";

/** A font as next/og takes it. */
export interface FontOptions {
  name: string;
  data: ArrayBuffer | Uint8Array;
  weight?: 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900;
  style?: "normal" | "italic";
  /** Accepted for compatibility: Imprint picks faces by the text's `lang` attribute and script. */
  lang?: string;
}

/** What became of one font: uploaded now, already stored, or not sent (and why). */
export interface FontUploadResult {
  name: string;
  status: "uploaded" | "stored" | "skipped";
  /** The family the server stores the bytes under (another name when the same bytes were uploaded before under it). */
  family?: string;
  /** Why it was skipped: the key lacks the `content` scope. */
  reason?: string;
}

// Per data object, per server, key, name, weight and style: the upload in flight or done
// (a skip too: a key without the content scope is not asked again).
const uploads = new WeakMap<object, Map<string, Promise<FontUploadResult>>>();
let warnedScope = false;

/** The font file's media type from its first bytes (WOFF, WOFF2, CFF-flavoured OpenType, else TrueType). */
export function fontMediaType(bytes: Uint8Array): string {
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag === "wOFF") return "font/woff";
  if (tag === "wOF2") return "font/woff2";
  if (tag === "OTTO") return "font/otf";
  return "font/ttf";
}

async function uploadOne(font: FontOptions, server: ServerOptions, apiKey: string): Promise<FontUploadResult> {
  const bytes = font.data instanceof Uint8Array ? font.data : new Uint8Array(font.data);
  const query = new URLSearchParams({ family: font.name });
  if (font.weight) query.set("weight", String(font.weight));
  if (font.style) query.set("style", font.style);
  // Retried as withRetries() does, with an Idempotency-Key of its own on every attempt.
  const response = await fetchOf(server)(`${apiBase(server.url)}/fonts?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": fontMediaType(bytes) },
    body: bytes.slice(), // a copy backed by an ArrayBuffer of its own, as BodyInit wants
  });
  if (response.status === 403) {
    const error = await errorOf(response);
    if (error.code === "missing_scope") {
      const reason = "the API key lacks the content scope";
      if (!warnedScope) {
        warnedScope = true;
        console.warn(
          `Imprint: the ImageResponse fonts were not sent (${reason}); the render uses the fonts already ` +
            "uploaded to the space. Upload them once (console, `imprint font upload`) or use a key with the " +
            "render and content scopes.",
        );
      }
      return { name: font.name, status: "skipped", reason };
    }
    throw error;
  }
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as { data?: { family?: string; deduplicated?: boolean } };
  return {
    name: font.name,
    status: body.data?.deduplicated ? "stored" : "uploaded",
    family: body.data?.family,
  };
}

/**
 * Uploads `fonts` to the key's space, each data object once per process, server and key.
 * Resolves with what became of each; rejects with an ImprintError when the server refuses
 * a font (e.g. 400 `invalid_font`). A key without the `content` scope sends nothing: the
 * fonts are skipped with one console warning, and the render uses the space's fonts.
 * Transient failures are retried `server.retries` times (default 2), each upload with an
 * Idempotency-Key of its own, so that an upload whose answer was lost is not made twice.
 */
export async function uploadFonts(fonts: FontOptions[], server: ServerOptions, apiKey: string): Promise<FontUploadResult[]> {
  return Promise.all(
    fonts.map((font) => {
      let perData = uploads.get(font.data);
      if (!perData) uploads.set(font.data, (perData = new Map()));
      const key = `${apiBase(server.url)}|${apiKey}|${font.name}|${font.weight ?? ""}|${font.style ?? ""}`;
      let upload = perData.get(key);
      if (!upload) {
        upload = uploadOne(font, server, apiKey);
        perData.set(key, upload);
        // A failure is not remembered: the next response tries again.
        upload.catch(() => perData!.delete(key));
      }
      return upload;
    }),
  );
}
