// A typed client for every route of the Imprint API (issue 30): openapi-fetch over the types
// openapi-typescript generates from the served /api/v1/openapi.json (src/generated/api.ts,
// made by openapi/generate.mjs; a test checks the committed copy is current).
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths, components } from "./generated/api.js";

/** The routes of the API as openapi-typescript types them (paths are under /api/v1). */
export type ImprintPaths = paths;
/** The document's schemas, e.g. `ImprintSchemas["Template"]`. */
export type ImprintSchemas = components["schemas"];
/** What createImprintClient() returns: `GET`, `POST`, `PUT`, `DELETE`, … typed per route. */
export type ImprintClient = Client<paths>;

/**
 * A typed client of the server at `baseUrl` (its origin, e.g. "http://127.0.0.1:8080"; a
 * trailing "/api/v1" is accepted and dropped, since the paths carry it). `token` is an API
 * key (imp_…) or a session token (ses_…), sent as `Authorization: Bearer`; omit it for
 * signed URLs and the public routes. `options` go to openapi-fetch's createClient (e.g.
 * `fetch`, `headers`). Errors are problem+json in `error`, typed as `Problem`. Image and
 * file answers are bytes: call those routes with `parseAs: "arrayBuffer"`.
 */
export function createImprintClient(baseUrl: string, token?: string, options: ClientOptions = {}): ImprintClient {
  const origin = baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return createClient<paths>({
    ...options,
    baseUrl: origin,
    headers: { ...headers, ...(options.headers as Record<string, string> | undefined) },
  });
}
