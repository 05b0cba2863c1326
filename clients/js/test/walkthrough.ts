// Every route of the API through the generated types (issue 30): createImprintClient() from
// the package's dist, type-checked with `tsc --strict` (test/tsconfig.walkthrough.json) and
// run against the real server (CTest clients_js_walkthrough). With IMPRINT_TEST_RESPONSE_LOG
// set, the server records every answer, which openapi/validate-responses.mjs then checks
// against the document (CTest openapi_responses).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createImprintClient, signRenderUrl, type ImprintSchemas } from "../dist/index.js";
import { startServer, binary } from "../test/server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fontsDir = join(here, "../../../tests/http/fonts");
const asBytes = (b: Blob | Uint8Array) => b; // upload bodies go out as they are
const raw = { bodySerializer: asBytes };

const world = await startServer();
try {
  // An owner to log in with (the password is read from stdin).
  execFileSync(binary, ["user", "add", "--email", "o@a.test", "--space", "alpha", "--role", "owner", "--data", world.dataDir], {
    input: "password123\n",
    env: { ...process.env, IMPRINT_ARGON2_LIMITS: "min", QT_QPA_PLATFORM: "offscreen" },
    stdio: ["pipe", "ignore", "ignore"],
  });
  const anonymous = createImprintClient(world.url);
  const render = createImprintClient(world.url, world.apiKey);
  const content = createImprintClient(`${world.url}/api/v1`, world.contentKey);

  // ---- service
  const health = await anonymous.GET("/api/v1/health");
  assert.equal(health.data?.data.status, "ok");
  const document = await anonymous.GET("/api/v1/openapi.json");
  assert.equal(document.data?.openapi, "3.1.0");
  const metrics = await anonymous.GET("/api/v1/metrics", { params: { query: { format: "json" } } });
  assert.ok(typeof metrics.data === "object", "format=json answers JSON");
  assert.equal(typeof metrics.data.renders.executed, "number");
  const patterns = await anonymous.GET("/api/v1/patterns");
  const pattern: string = patterns.data!.data.list[0].variants[0].pattern;

  // ---- auth
  const login = await anonymous.POST("/api/v1/auth/login", { body: { email: "o@a.test", password: "password123" } });
  const session: ImprintSchemas["LoginSession"] = login.data!.data;
  assert.equal(session.role, "owner");
  const owner = createImprintClient(world.url, session.token);
  const me = await owner.GET("/api/v1/auth/me");
  assert.equal(me.data?.data.user.email, "o@a.test");
  const verified = await render.GET("/api/v1/tokens/verify");
  assert.equal(verified.data?.data.space.name, "alpha");

  // ---- API keys and signing keys
  const key = await owner.POST("/api/v1/tokens/api-keys", { body: { name: "walk", scopes: ["render", "content"] } });
  assert.ok(key.data?.data.token.startsWith("imp_"));
  const keys = await owner.GET("/api/v1/tokens/api-keys/index", { params: { query: { page: 1, perPage: 10 } } });
  assert.ok(keys.data!.data.list.some((k) => k.id === key.data!.data.id));
  const badPage = await owner.GET("/api/v1/tokens/api-keys/index", { params: { query: { perPage: 0 } } });
  assert.equal(badPage.error?.code, "invalid_parameter");
  const revoked = await owner.DELETE("/api/v1/tokens/api-keys/{id}", { params: { path: { id: key.data!.data.id } } });
  assert.equal(revoked.data?.data.message, "API key revoked");
  const signingKey = await owner.POST("/api/v1/signing-keys", { body: { name: "walk" } });
  const signingKeys = await owner.GET("/api/v1/signing-keys");
  assert.ok(signingKeys.data!.data.count >= 2);
  const signed = await owner.POST("/api/v1/signing-keys/{id}/sign", {
    params: { path: { id: signingKey.data!.data.id } },
    body: { url: `${world.url}/api/v1/render?pageId=${world.pageId}` },
  });
  assert.ok(signed.data?.data.url.includes("sig="));
  await owner.DELETE("/api/v1/signing-keys/{id}", { params: { path: { id: signingKey.data!.data.id } } });

  // ---- templates and pages (content scope)
  const document1: ImprintSchemas["TemplateDocument"] = {
    name: "Walk",
    width: 120,
    height: 60,
    variables: [{ name: "title", type: "text", default: "Hi" }],
    root: { type: "div", props: { style: { display: "flex", width: "100%", height: "100%", background: "#123456" }, children: "{{title}}" } },
  };
  const created = await content.POST("/api/v1/templates", {
    body: document1,
    params: { header: { "Idempotency-Key": "walk-template-1" } },
  });
  const template: ImprintSchemas["Template"] = created.data!.data;
  assert.equal(created.response.status, 201);
  const templates = await content.GET("/api/v1/templates");
  assert.ok(templates.data!.data.list.some((t) => t.id === template.id));
  const missing = await content.GET("/api/v1/templates/{id}", { params: { path: { id: "tpl_nope" } } });
  assert.equal(missing.response.status, 404);
  const noScope = await render.GET("/api/v1/templates");
  assert.equal(noScope.error?.code, "missing_scope");
  const got = await content.GET("/api/v1/templates/{id}", { params: { path: { id: template.id } } });
  assert.equal(got.data?.data.document.width, 120);
  await content.PUT("/api/v1/templates/{id}", { params: { path: { id: template.id } }, body: { ...document1, name: "Walk 2" } });
  const page = await content.POST("/api/v1/pages", { body: { templateId: template.id, name: "walk", variables: { title: "Hello" } } });
  const pageId = page.data!.data.id;
  const pages = await content.GET("/api/v1/pages");
  assert.ok(pages.data!.data.list.some((p) => p.id === pageId));
  await content.GET("/api/v1/pages/{id}", { params: { path: { id: pageId } } });
  await content.PUT("/api/v1/pages/{id}", { params: { path: { id: pageId } }, body: { name: "walk 2" } });
  const published = await content.POST("/api/v1/pages/{id}/publish", { params: { path: { id: pageId } } });
  assert.equal(published.data?.data.published, true);

  // ---- renders: JSON, bytes, inline, query with deepObject tweaks, signed
  const json = await render.POST("/api/v1/render", { body: { pageId, output: "json" } });
  const result = json.data as ImprintSchemas["PageRenderResult"];
  assert.equal(result.data.width, 120);
  // A body with enum members is given its type, so that TypeScript keeps `parseAs`.
  const pngRequest: ImprintSchemas["RenderRequest"] = { pageId, output: "binary" };
  const png = await render.POST("/api/v1/render", { body: pngRequest, parseAs: "arrayBuffer" });
  assert.equal(Buffer.from(png.data!).toString("latin1", 1, 4), "PNG");
  const patternPng = await anonymous.POST("/api/v1/render", { body: { pattern, width: 40, height: 20 }, parseAs: "arrayBuffer" });
  assert.equal(patternPng.response.headers.get("content-type"), "image/png");
  const patternJson = await anonymous.POST("/api/v1/render", {
    body: { pattern, width: 40, height: 20 },
    headers: { Accept: "application/json" },
  });
  assert.equal((patternJson.data as ImprintSchemas["PatternRenderResult"]).data.pattern, pattern);
  const inlineRequest: ImprintSchemas["RenderRequest"] = { template: document1, format: "webp", output: "binary" };
  const inline = await render.POST("/api/v1/render", { body: inlineRequest, parseAs: "arrayBuffer" });
  assert.equal(Buffer.from(inline.data!).toString("latin1", 8, 12), "WEBP");
  const inlineJson = await render.POST("/api/v1/render", { body: { template: document1, output: "json" } });
  assert.equal((inlineJson.data as ImprintSchemas["InlineRenderResult"]).data.width, 120);
  const tweaked = await render.GET("/api/v1/render", {
    params: { query: { pageId, tweaks: { title: "Tweaked" }, output: "image", format: "jpeg" } },
    parseAs: "arrayBuffer",
  });
  assert.equal(tweaked.response.status, 200, JSON.stringify(tweaked.error));
  assert.equal(Buffer.from(tweaked.data!).readUInt16BE(0), 0xffd8);
  const signedUrl = new URL(await signRenderUrl({ url: world.url, kid: world.kid, secret: world.secret, params: { pageId: world.pageId } }));
  const viaSignature = await anonymous.GET("/api/v1/render", {
    params: { query: Object.fromEntries(signedUrl.searchParams) as { kid: string; sig: string; pageId: string } },
    parseAs: "arrayBuffer",
  });
  assert.equal(viaSignature.response.status, 200);
  const badSignature = await anonymous.GET("/api/v1/render", {
    params: { query: { pageId: world.pageId, kid: world.kid, sig: "AAAA" } },
  });
  assert.equal(badSignature.error?.code, "signature_invalid");
  const fileName = result.data.file!.url.split("/").pop()!;
  const file = await anonymous.GET("/api/v1/files/{name}", { params: { path: { name: fileName } }, parseAs: "arrayBuffer" });
  assert.equal(file.data!.byteLength, result.data.file!.size);

  // ---- fonts and assets: binary bodies
  const font = await content.POST("/api/v1/fonts", {
    params: { query: { family: "Walk Sans" } },
    body: new Uint8Array(readFileSync(join(fontsDir, "Comfortaa-Regular.ttf"))),
    headers: { "Content-Type": "font/ttf" },
    ...raw,
  });
  assert.equal(font.response.status, 201, JSON.stringify(font.error));
  assert.equal(font.data?.data.family, "Walk Sans");
  const fonts = await content.GET("/api/v1/fonts", { params: { query: { perPage: 5 } } });
  assert.equal(fonts.data?.data.count, 1);
  await content.DELETE("/api/v1/fonts/{id}", { params: { path: { id: font.data!.data.id } } });
  const asset = await content.POST("/api/v1/assets", { body: new Uint8Array(png.data!), headers: { "Content-Type": "image/png" }, ...raw });
  assert.equal(asset.data?.data.width, 120);
  const assets = await content.GET("/api/v1/assets");
  assert.equal(assets.data?.data.list[0].id, asset.data!.data.id);
  await content.DELETE("/api/v1/assets/{id}", { params: { path: { id: asset.data!.data.id } } });

  // ---- clean up, then log out
  const inUse = await content.DELETE("/api/v1/templates/{id}", { params: { path: { id: template.id } } });
  assert.equal(inUse.error?.code, "template_in_use");
  await content.DELETE("/api/v1/pages/{id}", { params: { path: { id: pageId } } });
  await content.DELETE("/api/v1/templates/{id}", { params: { path: { id: template.id } } });
  const logout = await owner.POST("/api/v1/auth/logout");
  assert.equal(logout.data?.data.message, "Logged out");
  console.log("walk-through: every route answered as typed");
} catch (e) {
  console.error(world.log().slice(-3000));
  throw e;
} finally {
  await world.stop();
}
