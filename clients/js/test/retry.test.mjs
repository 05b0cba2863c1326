// Retries of transient failures (src/retry.ts, docs/node.md "Retries") against the real
// server, through a fault-injecting HTTP proxy in front of it: the proxy loses a create's
// answer after the server committed it, answers 503 or 409 in the server's place, resets the
// connection or never answers. The server is real; only the proxy injects faults.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync } from "node:fs";
import { createImprintClient, renderInline, uploadFonts, ImprintError } from "../dist/index.js";
import { retryDelayMs, isRetriable, isKeyedCreate } from "../dist/retry.js";
import { startServer } from "./server.mjs";

let world;
let proxy;

before(async () => {
  world = await startServer();
  proxy = await startProxy(world.url);
});
after(async () => {
  await proxy?.close();
  await world?.stop();
});
beforeEach(() => proxy.reset());

/** The whole body of an incoming or upstream message, as a Buffer. */
async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Sends `req` (with `body`) to `target` and resolves with the whole answer: {status, headers, body}. */
function forward(target, req, body) {
  return new Promise((resolve, reject) => {
    const upstream = http.request(
      new URL(req.url, target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      async (res) => resolve({ status: res.statusCode, headers: res.headers, body: await readAll(res) }),
    );
    upstream.on("error", reject);
    upstream.end(body);
  });
}

/** A problem+json answer of the proxy's own, e.g. problem(503, "database_unavailable", {"retry-after": "0"}). */
function problem(status, code, headers = {}) {
  return {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
    body: { type: `urn:imprint:problem:${code}`, title: http.STATUS_CODES[status], status, code, detail: "injected by the test proxy" },
  };
}

/**
 * A proxy in front of `target` that records each request ({method, path, key}) in `seen`
 * and takes the faults given to `inject()` one per request, in order; a request with none
 * left is forwarded. Faults: "lose-answer" (forward, read the whole answer, then close the
 * client's connection without a reply), "reset" (close it without forwarding), "hang" (never
 * answer), or an answer of its own ({status, headers, body}).
 */
async function startProxy(target) {
  let faults = [];
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const body = await readAll(req);
    seen.push({ method: req.method, path: new URL(req.url, target).pathname, key: req.headers["idempotency-key"] });
    const fault = faults.shift();
    if (fault === "reset") return req.socket.destroy();
    if (fault === "hang") return;
    if (typeof fault === "object") {
      res.writeHead(fault.status, fault.headers);
      return res.end(JSON.stringify(fault.body));
    }
    const answer = await forward(target, req, body);
    if (fault === "lose-answer") return req.socket.destroy();
    const headers = { ...answer.headers, "content-length": answer.body.length };
    delete headers["transfer-encoding"];
    delete headers.connection;
    delete headers["keep-alive"];
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    inject: (...more) => faults.push(...more),
    reset() {
      faults = [];
      seen.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const doc = { width: 40, height: 20, root: { type: "div", props: { style: { display: "flex", width: "100%", height: "100%" } } } };
const unavailable = () => problem(503, "database_unavailable", { "retry-after": "0" });

test("a create whose answer was lost after it committed is retried with the same key of the client's own, and made once", async () => {
  const imprint = createImprintClient(proxy.url, world.contentKey);
  proxy.inject("lose-answer");
  const name = "Retried card";
  const created = await imprint.POST("/api/v1/templates", { body: { ...doc, name } });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.equal(created.response.headers.get("idempotent-replayed"), "true");
  assert.equal(created.data.data.name, name);

  assert.equal(proxy.seen.length, 2);
  const [first, second] = proxy.seen;
  assert.deepEqual([first.method, first.path], ["POST", "/api/v1/templates"]);
  assert.match(first.key, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "a UUID the test did not set");
  assert.equal(second.key, first.key);

  const listed = await fetch(`${world.url}/api/v1/templates?perPage=100`, { headers: { authorization: `Bearer ${world.contentKey}` } });
  const named = (await listed.json()).data.list.filter((t) => t.name === name);
  assert.equal(named.length, 1, "one template of that name on the server");
  assert.equal(named[0].id, created.data.data.id);
});

test("a caller's own Idempotency-Key is kept, and 409 idempotency_key_in_use is retried", async () => {
  const imprint = createImprintClient(proxy.url, world.contentKey);
  proxy.inject(problem(409, "idempotency_key_in_use", { "retry-after": "0" }));
  const page = await imprint.POST("/api/v1/pages", {
    body: { templateId: world.templateId, name: "retried page" },
    params: { header: { "Idempotency-Key": "my-page-1" } },
  });
  assert.equal(page.response.status, 201, JSON.stringify(page.error));
  assert.deepEqual(proxy.seen.map((s) => s.key), ["my-page-1", "my-page-1"]);
});

test("503 with Retry-After: 0: renderInline and the typed client's GET succeed on the second attempt", async () => {
  proxy.inject(unavailable());
  const response = await renderInline(doc, { format: "png" }, { url: proxy.url, apiKey: world.apiKey });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "image/png");
  assert.deepEqual(proxy.seen.map((s) => `${s.method} ${s.path}`), ["POST /api/v1/render", "POST /api/v1/render"]);
  assert.equal(proxy.seen[0].key, undefined, "an inline render needs no key");

  proxy.reset();
  proxy.inject(unavailable());
  const templates = await createImprintClient(proxy.url, world.contentKey).GET("/api/v1/templates");
  assert.equal(templates.response.status, 200, JSON.stringify(templates.error));
  assert.ok(Array.isArray(templates.data.data.list));
  assert.equal(proxy.seen.length, 2);
});

test("retries: 0 turns retries off: the 503 the default retries reaches the caller", async () => {
  const server = { url: proxy.url, apiKey: world.apiKey };
  proxy.inject(unavailable());
  assert.equal((await renderInline(doc, {}, server)).status, 200, "retried by default");
  assert.equal(proxy.seen.length, 2);

  proxy.reset();
  proxy.inject(unavailable());
  await assert.rejects(
    renderInline(doc, {}, { ...server, retries: 0 }),
    (e) => e instanceof ImprintError && e.status === 503 && e.code === "database_unavailable",
  );
  assert.equal(proxy.seen.length, 1);

  proxy.reset();
  proxy.inject(unavailable());
  const imprint = createImprintClient(proxy.url, world.contentKey, { retries: 0 });
  const created = await imprint.POST("/api/v1/templates", { body: { ...doc, name: "not retried" } });
  assert.equal(created.response.status, 503);
  assert.equal(created.error.code, "database_unavailable");
  assert.equal(proxy.seen.length, 1);
  assert.equal(proxy.seen[0].key, undefined, "retries off: the request goes out as given, without a key");
});

test("a POST that is neither a keyed create nor /render is sent once on 503, while a GET of the same client is retried", async () => {
  const imprint = createImprintClient(proxy.url);
  proxy.inject(unavailable());
  const health = await imprint.GET("/api/v1/health");
  assert.equal(health.response.status, 200);
  assert.equal(proxy.seen.length, 2, "the GET is retried");

  proxy.reset();
  proxy.inject(unavailable());
  // A login makes a session: sending it again is not safe, and it takes no Idempotency-Key.
  const login = await imprint.POST("/api/v1/auth/login", { body: { email: "nobody@a.test", password: "password123" } });
  assert.equal(login.response.status, 503);
  assert.equal(login.error.code, "database_unavailable");
  assert.deepEqual(proxy.seen.map((s) => `${s.method} ${s.path} ${s.key}`), ["POST /api/v1/auth/login undefined"]);
});

test("uploadFonts: an upload retried on 503 carries the same key of its own", async () => {
  const font = { name: "Retry Sans", data: readFileSync(new URL("../../../tests/http/fonts/Comfortaa-Regular.ttf", import.meta.url)) };
  proxy.inject(unavailable());
  const [result] = await uploadFonts([font], { url: proxy.url }, world.publishKey);
  assert.deepEqual([result.status, result.family], ["uploaded", "Retry Sans"]);
  assert.equal(proxy.seen.length, 2);
  assert.ok(proxy.seen[0].key, "a key of its own");
  assert.equal(proxy.seen[1].key, proxy.seen[0].key);
});

test("no answer at all: retried after 0.5 s, then the last error reaches the caller", async () => {
  proxy.inject("reset", "reset");
  const imprint = createImprintClient(proxy.url, undefined, { retries: 1 });
  const started = Date.now();
  await assert.rejects(imprint.GET("/api/v1/health"), (e) => e instanceof TypeError);
  assert.ok(Date.now() - started >= 450, `waited ${Date.now() - started} ms`);
  assert.equal(proxy.seen.length, 2);
});

test("an abort by the caller's own signal is not retried", async () => {
  proxy.inject("hang", "hang");
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  let calls = 0;
  const counted = (input, init) => (calls++, fetch(input, init));
  // The typed client takes the signal per call; renderInline through its `fetch` option.
  const imprint = createImprintClient(proxy.url, undefined, { fetch: counted });
  const withSignal = (input, init) => counted(input, { ...init, signal: controller.signal });
  await Promise.all([
    assert.rejects(imprint.GET("/api/v1/health", { signal: controller.signal }), (e) => e.name === "AbortError"),
    assert.rejects(renderInline(doc, {}, { url: proxy.url, apiKey: world.apiKey, fetch: withSignal }), (e) => e.name === "AbortError"),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 700)); // past the first wait: no second attempt came
  assert.equal(calls, 2, "one attempt each");
  assert.equal(proxy.seen.length, 2);
});

test("the rules: which requests, and how long to wait", () => {
  const at = (path, method = "POST", headers = {}) => new Request(`http://h${path}`, { method, headers });
  assert.ok(isKeyedCreate(at("/api/v1/templates")));
  assert.ok(isKeyedCreate(at("/prefix/api/v1/pages/pg_1/publish")));
  assert.ok(isKeyedCreate(at("/api/v1/templates/tpl_1/rollback")));
  assert.ok(!isKeyedCreate(at("/api/v1/templates", "GET")));
  assert.ok(!isKeyedCreate(at("/api/v1/tokens/api-keys")));
  assert.ok(isRetriable(at("/api/v1/templates", "GET")));
  assert.ok(isRetriable(at("/api/v1/health", "HEAD")));
  assert.ok(isRetriable(at("/api/v1/render")));
  assert.ok(isRetriable(at("/api/v1/tokens/api-keys", "POST", { "Idempotency-Key": "k" })));
  assert.ok(!isRetriable(at("/api/v1/tokens/api-keys")));
  assert.ok(!isRetriable(at("/api/v1/templates/tpl_1", "PUT")));

  const after = (value) => new Response(null, { status: 503, headers: { "retry-after": value } });
  assert.equal(retryDelayMs(after("0"), 3), 0);
  assert.equal(retryDelayMs(after("3"), 0), 3000);
  assert.equal(retryDelayMs(after("60"), 0), 10000);
  assert.equal(retryDelayMs(after("Wed, 21 Oct 2015 07:28:00 GMT"), 1), 1000);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((n) => retryDelayMs(undefined, n)), [500, 1000, 2000, 4000, 8000, 10000]);
});
