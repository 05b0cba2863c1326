// A typed client for every route of the Imprint API (issue 30): openapi-fetch over the types
// openapi-typescript generates from the served /api/v1/openapi.json (src/generated/api.ts,
// made by openapi/generate.mjs; a test checks the committed copy is current).
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths, components } from "./generated/api.js";
import { withRetries, type RetryOptions } from "./retry.js";

/** The routes of the API as openapi-typescript types them (paths are under /api/v1). */
export type ImprintPaths = paths;
/** The document's schemas, e.g. `ImprintSchemas["Template"]`. */
export type ImprintSchemas = components["schemas"];
/** What createImprintClient() returns: `GET`, `POST`, `PUT`, `DELETE`, … typed per route. */
export type ImprintClient = Client<paths>;
/** createImprintClient()'s options: openapi-fetch's, and `retries` (retry.ts). */
export type ImprintClientOptions = ClientOptions & RetryOptions;

/**
 * A typed client of the server at `baseUrl` (its origin, e.g. "http://127.0.0.1:8080"; a
 * trailing "/api/v1" is accepted and dropped, since the paths carry it). `token` is an API
 * key (imp_…) or a session token (ses_…), sent as `Authorization: Bearer`; omit it for
 * signed URLs and the public routes. `options` go to openapi-fetch's createClient (e.g.
 * `fetch`, `headers`), but for `retries`: how many more attempts a transient failure of a
 * request safe to repeat gets (default 2, 0 for none; the rules are withRetries()'s, and a
 * create without an Idempotency-Key gets one of the client's own). Errors are problem+json
 * in `error`, typed as `Problem`. Image and file answers are bytes: call those routes with
 * `parseAs: "arrayBuffer"`.
 */
export function createImprintClient(baseUrl: string, token?: string, options: ImprintClientOptions = {}): ImprintClient {
  const { retries, ...clientOptions } = options;
  const origin = baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return createClient<paths>({
    ...clientOptions,
    baseUrl: origin,
    headers: { ...headers, ...(clientOptions.headers as Record<string, string> | undefined) },
    // openapi-fetch calls its fetch with a Request, and the retrying one calls the given one so too.
    fetch: withRetries(clientOptions.fetch as typeof fetch | undefined, { retries }),
  });
}
