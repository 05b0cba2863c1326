// @imprint/client against the real server: ImageResponse, renderInline and its errors,
// and signRenderUrl byte for byte against `imprint url sign`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import React from "react";
import { ImageResponse, ImprintError, renderInline, signRenderUrl } from "../dist/index.js";
import { startServer, cli, pngPixel, hex } from "./server.mjs";

const h = React.createElement;
let world;

before(async () => {
  world = await startServer();
});
after(async () => {
  await world?.stop();
});

test("ImageResponse renders the element on the server, with next/og's status and headers", async () => {
  const Card = ({ color }) => h("div", { style: { display: "flex", width: "100%", height: "100%", background: color } });
  const response = new ImageResponse(h(Card, { color: "#ff0000" }), {
    width: 300,
    height: 150,
    status: 201,
    headers: { "x-extra": "1", "cache-control": "no-store" },
    url: world.url,
    apiKey: world.apiKey,
  });
  assert.ok(response instanceof Response);
  assert.equal(response.status, 201);
  assert.equal(response.headers.get("x-extra"), "1");
  assert.equal(response.headers.get("cache-control"), "no-store");
  const { width, height, rgba } = await pngPixel(new Uint8Array(await response.arrayBuffer()), 150, 75);
  assert.deepEqual([width, height, hex(rgba)], [300, 150, "#ff0000"]);
});

test("IMPRINT_URL and IMPRINT_API_KEY are read from the environment; a refusal errors the body", async () => {
  process.env.IMPRINT_URL = `${world.url}/api/v1/`;
  process.env.IMPRINT_API_KEY = world.apiKey;
  try {
    const ok = new ImageResponse(h("div", { style: { display: "flex", width: 10, height: 10 } }), { width: 10, height: 10 });
    assert.equal((await pngPixel(new Uint8Array(await ok.arrayBuffer()), 0, 0)).width, 10);
    // Over the plan's export size: 402 naming width, surfaced as an ImprintError.
    const refused = new ImageResponse(h("div", null, "x"), { width: 100000, height: 10 });
    await assert.rejects(refused.arrayBuffer(), (e) => e instanceof ImprintError && e.status === 402 && e.field === "width");
  } finally {
    delete process.env.IMPRINT_URL;
    delete process.env.IMPRINT_API_KEY;
  }
});

test("renderInline: WebP bytes; a bad template is an ImprintError naming template.<path>; scopes apply", async () => {
  const server = { url: world.url, apiKey: world.apiKey };
  const doc = { width: 64, height: 32, root: { type: "div", props: { style: { display: "flex", width: "100%", height: "100%" } } } };
  const webp = await renderInline(doc, { format: "webp" }, server);
  assert.equal(webp.headers.get("content-type"), "image/webp");
  assert.equal(Buffer.from(await webp.arrayBuffer()).toString("latin1", 8, 12), "WEBP");
  await assert.rejects(
    renderInline({ ...doc, root: { type: 5 } }, {}, server),
    (e) => e instanceof ImprintError && e.status === 400 && e.code === "invalid_template" && e.field.startsWith("template.root"),
  );
  await assert.rejects(
    renderInline(doc, {}, { url: world.url, apiKey: world.contentKey }),
    (e) => e instanceof ImprintError && e.status === 403 && e.code === "missing_scope",
  );
});

test("signRenderUrl makes the URL `imprint url sign` makes, and the server accepts it", async () => {
  const params = { pageId: world.pageId, format: "png", width: 100, tweaks: { bg: "#00ff00", "note é": "a b+c/~!*'()" } };
  // Without an expiry both are deterministic: compare the whole URL.
  const ours = await signRenderUrl({ url: world.url, kid: world.kid, secret: world.secret, params });
  const query = `pageId=${world.pageId}&format=png&width=100&tweaks.bg=%2300ff00&${encodeURIComponent("tweaks.note é")}=${encodeURIComponent("a b+c/~!*'()")}`;
  const theirs = cli(world.dataDir, "url", "sign", "--space", "alpha", "--signing-key", world.kid, `${world.url}/api/v1/render?${query}`).trim();
  assert.equal(ours, theirs);
  // With the CLI's exp passed through, the same again.
  const withExp = cli(world.dataDir, "url", "sign", "--space", "alpha", "--signing-key", world.kid, "--expires", "3600",
    `${world.url}/api/v1/render?${query}`).trim();
  const exp = Number(new URL(withExp).searchParams.get("exp"));
  assert.equal(await signRenderUrl({ url: world.url, kid: world.kid, secret: world.secret, params, exp }), withExp);

  // The server accepts what it signs (a tweak the template declares).
  const accepted = await signRenderUrl({
    url: world.url, kid: world.kid, secret: world.secret, expiresIn: 600,
    params: { pageId: world.pageId, width: 100, tweaks: { bg: "#00ff00" } },
  });
  const response = await fetch(accepted);
  assert.equal(response.status, 200, await response.clone().text());
  const { width, rgba } = await pngPixel(new Uint8Array(await response.arrayBuffer()), 10, 10);
  assert.deepEqual([width, hex(rgba)], [100, "#00ff00"]);
  // A changed parameter breaks it.
  const tampered = await fetch(accepted.replace("width=100", "width=101"));
  assert.equal(tampered.status, 403);
});
