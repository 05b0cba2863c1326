// Signed render URLs (docs/api.md, "Signed URLs") on WebCrypto: the same bytes as
// `imprint url sign` and POST /signing-keys/{id}/sign make — HMAC-SHA256 under the
// secret of the canonical string "/api/v1/render\n" + the RFC 3986-encoded parameters
// sorted by name then value, in base64url without padding.

import { apiBase } from "./render.js";

/** What to sign. */
export interface SignOptions {
  /** The server's base URL (`https://img.example.com`, `/api/v1` optional). Default: IMPRINT_URL. */
  url?: string;
  /** The signing key's id, `sgk_…`. */
  kid: string;
  /** The signing key's secret, `sks_…` (keep it on the server). */
  secret: string;
  /** The render fields: pageId (required by the server), format, width, tweaks, … */
  params: Record<string, string | number | boolean | Record<string, string | number> | undefined>;
  /** Seconds from now until the URL expires (sets `exp`); or `exp` itself, Unix seconds. */
  expiresIn?: number;
  exp?: number;
}

/** RFC 3986 §2 percent-encoding: unreserved characters kept, every other UTF-8 byte %XX upper case. */
export function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The parameters as name/value pairs: `tweaks` objects become `tweaks.NAME`, undefined dropped. */
function pairs(params: SignOptions["params"]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (name === "tweaks" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) out.push([`tweaks.${k}`, String(v)]);
    } else {
      out.push([name, String(value)]);
    }
  }
  return out;
}

/** The canonical query string of `items` (without sig): encoded, sorted, joined. */
export function canonicalQuery(items: Array<[string, string]>): string {
  const encoded = items.filter(([k]) => k !== "sig").map(([k, v]) => [rfc3986(k), rfc3986(v)] as const);
  // The encoded strings are ASCII, so UTF-16 comparison is the server's byte order.
  encoded.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return encoded.map(([k, v]) => `${k}=${v}`).join("&");
}

async function subtle(): Promise<SubtleCrypto> {
  const c = (globalThis as any).crypto;
  if (c?.subtle) return c.subtle;
  // Node 18 without the global: node:crypto's webcrypto.
  const nodeCrypto: any = await import(/* webpackIgnore: true */ "node:crypto" as string);
  return nodeCrypto.webcrypto.subtle;
}

function base64url(bytes: ArrayBuffer): string {
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The `sig` of `canonical` under `secret`. */
export async function signature(secret: string, canonical: string): Promise<string> {
  const s = await subtle();
  const enc = new TextEncoder();
  const key = await s.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64url(await s.sign("HMAC", key, enc.encode(canonical)));
}

/**
 * A signed render URL for `<meta property="og:image">`: `${url}/api/v1/render?` + the
 * canonical query (with `kid` and `exp`) + `&sig=…`, the same string `imprint url sign`
 * prints for the same parameters.
 */
export async function signRenderUrl(options: SignOptions): Promise<string> {
  const items = pairs(options.params).filter(([k]) => k !== "kid" && k !== "exp" && k !== "sig");
  items.push(["kid", options.kid]);
  const exp = options.exp ?? (options.expiresIn ? Math.floor(Date.now() / 1000) + options.expiresIn : undefined);
  if (exp !== undefined) items.push(["exp", String(exp)]);
  const query = canonicalQuery(items);
  const sig = await signature(options.secret, `/api/v1/render\n${query}`);
  return `${apiBase(options.url)}/render?${query}&sig=${sig}`;
}
