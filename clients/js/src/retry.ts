// Retries of transient failures (docs/node.md, "Retries"), made safe by the server's
// Idempotency-Key (docs/api.md, "Retries: `Idempotency-Key`"): a fetch wrapper that the
// typed client, renderInline() and uploadFonts() go through. The Python client follows the
// same rules (clients/python).

/** How many more attempts a failed request gets unless told otherwise. */
export const DEFAULT_RETRIES = 2;
/** The longest wait between two attempts, in milliseconds. */
export const MAX_RETRY_DELAY_MS = 10_000;
/** The first wait when the answer gives no `Retry-After`, in milliseconds; doubled each attempt. */
export const BASE_RETRY_DELAY_MS = 500;

/** The `retries` option of createImprintClient(), renderInline(), uploadFonts() and ImageResponse. */
export interface RetryOptions {
  /**
   * How many more attempts a transient failure gets (default 2; 0 turns retries off, and
   * requests then go out exactly as given, without a key of the client's own).
   */
  retries?: number;
}

// The creates that take an Idempotency-Key (docs/api.md, "Retries: `Idempotency-Key`"),
// matched at the end of the path so that a server mounted under a prefix matches too.
const KEYED_CREATE =
  /\/api\/v1\/(?:templates|pages|fonts|assets|renders|pages\/[^/]+\/publish|templates\/[^/]+\/rollback)$/;
const INLINE_RENDER = /\/api\/v1\/render$/;
const RETRIED_STATUSES = new Set([502, 503, 504]);

/** Whether `request` (method POST) is a create that takes an Idempotency-Key. */
export function isKeyedCreate(request: Request): boolean {
  return request.method === "POST" && KEYED_CREATE.test(new URL(request.url).pathname);
}

/**
 * Whether `request` is safe to send again: GET and HEAD, `POST /api/v1/render` (an inline
 * render stores nothing a retry would duplicate), and any request with an Idempotency-Key.
 */
export function isRetriable(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  if (request.headers.has("Idempotency-Key")) return true;
  return request.method === "POST" && INLINE_RENDER.test(new URL(request.url).pathname);
}

/**
 * Whether `response` is a transient failure worth another attempt: 502, 503, 504, or 409
 * problem+json with `code` `idempotency_key_in_use` (the first request with that key still
 * runs). Reads a clone's body for a 409, so `response` stays unread.
 */
export async function isTransient(response: Response): Promise<boolean> {
  if (RETRIED_STATUSES.has(response.status)) return true;
  if (response.status !== 409 || !/json/i.test(response.headers.get("content-type") ?? "")) return false;
  try {
    const body = (await response.clone().json()) as { code?: unknown } | null;
    return body?.code === "idempotency_key_in_use";
  } catch {
    return false;
  }
}

/**
 * The wait in milliseconds before the attempt after failed attempt `attempt` (0 for the
 * first): the answer's `Retry-After` in seconds when it is a non-negative integer, else
 * 0.5 s × 2^attempt (0.5, 1, 2 …); either at most 10 s. `response` is undefined when the
 * attempt got no answer.
 */
export function retryDelayMs(response: Response | undefined, attempt: number): number {
  const retryAfter = response?.headers.get("retry-after")?.trim();
  const delay =
    retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : BASE_RETRY_DELAY_MS * 2 ** attempt;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

/** A new Idempotency-Key: a random UUID (WebCrypto's, or node:crypto's on Node 18 without the global). */
async function newIdempotencyKey(): Promise<string> {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const nodeCrypto: { randomUUID(): string } = await import(/* webpackIgnore: true */ "node:crypto" as string);
  return nodeCrypto.randomUUID();
}

/** Waits `ms` milliseconds; rejects with the signal's reason if `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Drops an answer that is retried, so its connection goes back to the pool. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    /* already closed */
  }
}

/** The number of retries `options` asks for: a non-negative integer, DEFAULT_RETRIES when unset. */
export function retriesOf(options: RetryOptions | undefined): number {
  const retries = options?.retries ?? DEFAULT_RETRIES;
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError(`Imprint: retries must be a non-negative integer, not ${retries}`);
  return retries;
}

/**
 * A fetch that retries transient failures of `baseFetch` (default: the global fetch, looked
 * up at each call) at most `options.retries` times (default 2; 0 returns `baseFetch` as it is).
 *
 * The rules (docs/api.md, "Retries: `Idempotency-Key`"):
 * - Retried failures: no answer (fetch threw: the connection was refused, reset or closed
 *   before the answer; not an abort by the caller's own AbortSignal), status 502, 503 or
 *   504, and 409 problem+json with `code` `idempotency_key_in_use`.
 * - Retried requests, the ones safe to repeat: GET, HEAD, `POST /api/v1/render`, and any
 *   request with an `Idempotency-Key` header.
 * - Keys of its own: a POST to a create that takes an Idempotency-Key (/api/v1/templates,
 *   /pages, /pages/{id}/publish, /templates/{id}/rollback, /fonts, /assets, /renders)
 *   without one gets a random UUID, the same on every attempt; a caller's key is kept.
 * - The wait before the next attempt: the answer's `Retry-After` seconds, else
 *   0.5 s × 2^attempt (0.5, 1, 2 …), at most 10 s; an abort of the caller's signal ends it.
 * - When attempts run out the caller gets the last answer, or the last error.
 *
 * `baseFetch` is called as the wrapper was: with a `Request` (cloned for each attempt but
 * the last, since a body can be read only once) and `init`, or with the URL and `init`
 * (whose body, unless a stream, is sent again as it is).
 */
export function withRetries(baseFetch?: typeof fetch, options?: RetryOptions): typeof fetch {
  const retries = retriesOf(options);
  const send: typeof fetch = baseFetch ?? ((input, init) => globalThis.fetch(input, init));
  if (retries === 0) return send;
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const outgoing = await prepare(input, init);
    if (!isRetriable(outgoing.probe)) return send(...outgoing.attempt(true));
    for (let attempt = 0; ; attempt++) {
      const last = attempt === retries;
      let response: Response;
      try {
        response = await send(...outgoing.attempt(last));
      } catch (error) {
        if (last || outgoing.probe.signal.aborted || (error as { name?: string } | null)?.name === "AbortError") throw error;
        await sleep(retryDelayMs(undefined, attempt), outgoing.probe.signal);
        continue;
      }
      if (last || !(await isTransient(response))) return response;
      const delay = retryDelayMs(response, attempt);
      await discard(response);
      await sleep(delay, outgoing.probe.signal);
    }
  };
}

/** One request to send, perhaps several times: what the rules look at, and each attempt's fetch arguments. */
interface Outgoing {
  /** The method, URL, headers and signal of the request (its body is not read). */
  probe: Request;
  /** The arguments of one attempt's fetch; `last` when no attempt follows. */
  attempt(last: boolean): [RequestInfo | URL, RequestInit | undefined];
}

/**
 * The request of `input` and `init` with an Idempotency-Key of its own when it is a keyed
 * create without one. A Request input (or a stream body, which can be read only once) is
 * made one Request, cloned per attempt; a URL input is sent with `init` each time.
 */
async function prepare(input: RequestInfo | URL, init: RequestInit | undefined): Promise<Outgoing> {
  const byUrl = !(input instanceof Request) && !(init?.body instanceof ReadableStream);
  let probe = byUrl
    ? new Request(input, { method: init?.method, headers: init?.headers, signal: init?.signal })
    : new Request(input, init);
  const keyed = isKeyedCreate(probe) && !probe.headers.has("Idempotency-Key");
  if (keyed) {
    const headers = new Headers(probe.headers);
    headers.set("Idempotency-Key", await newIdempotencyKey());
    probe = new Request(probe, { headers });
  }
  if (byUrl) {
    const sent = keyed ? { ...init, headers: probe.headers } : init;
    return { probe, attempt: () => [input, sent] };
  }
  const request = probe;
  const rest = extensionsOf(init);
  return { probe, attempt: (last) => [last ? request : request.clone(), rest] };
}

// The fields of a RequestInit that the Request made from it already holds.
const REQUEST_FIELDS = new Set(["body", "headers", "method", "signal", "duplex"]);

/** What of `init` besides body, headers, method and signal (e.g. undici's `dispatcher`), to pass on with the Request. */
function extensionsOf(init: RequestInit | undefined): RequestInit | undefined {
  const rest = Object.entries(init ?? {}).filter(([name]) => !REQUEST_FIELDS.has(name));
  return rest.length ? (Object.fromEntries(rest) as RequestInit) : undefined;
}
