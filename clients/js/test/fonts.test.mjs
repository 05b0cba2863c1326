// ImageResponse's `fonts` (next/og's option) against the real server: uploaded once to the
// key's space under the option's name, so the text is drawn in that face; a key without the
// content scope renders with the space's fonts and warns once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import React from "react";
import { ImageResponse, uploadFonts, fontMediaType } from "../dist/index.js";
import { startServer } from "./server.mjs";

const h = React.createElement;
const comicNeue = readFileSync(new URL("../../../tests/http/fonts/ComicNeue-Regular.woff2", import.meta.url));
let world;

before(async () => {
  world = await startServer();
});
after(async () => {
  await world?.stop();
});

// A card whose text names the family "Brand Comic", which only the uploaded font provides.
function card() {
  return h(
    "div",
    { style: { display: "flex", width: "100%", height: "100%", background: "#fff", color: "#000", fontSize: 40 } },
    h("span", { style: { fontFamily: "Brand Comic" } }, "Hello fonts"),
  );
}

async function render(apiKey, fonts) {
  const response = new ImageResponse(card(), { width: 320, height: 80, url: world.url, apiKey, fonts });
  return Buffer.from(await response.arrayBuffer());
}

test("fontMediaType reads the file's signature", () => {
  assert.equal(fontMediaType(new Uint8Array(comicNeue)), "font/woff2");
  assert.equal(fontMediaType(new Uint8Array([0x4f, 0x54, 0x54, 0x4f])), "font/otf");
  assert.equal(fontMediaType(new Uint8Array([0, 1, 0, 0])), "font/ttf");
});

test("fonts: skipped with a warning for a render-only key, uploaded and drawn with a content key", async () => {
  const fonts = [{ name: "Brand Comic", data: comicNeue, weight: 400, style: "normal" }];
  const plain = await render(world.apiKey);

  const warnings = [];
  const warn = console.warn;
  console.warn = (message) => warnings.push(message);
  let skipped;
  try {
    skipped = await render(world.apiKey, fonts);
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /content scope/);
  assert.deepEqual(skipped, plain, "nothing uploaded: the space's fonts draw the text");

  const withFont = await render(world.publishKey, fonts);
  assert.notDeepEqual(withFont, plain, "the uploaded face draws the text");
  const listed = await fetch(`${world.url}/api/v1/fonts`, { headers: { authorization: `Bearer ${world.publishKey}` } });
  const families = (await listed.json()).data.list.map((f) => `${f.family} ${f.weight} ${f.style}`);
  assert.deepEqual(families, ["Brand Comic 400 normal"]);

  // The same data again: no second upload; and the font now belongs to the space, so any key draws it.
  const again = await uploadFonts(fonts, { url: world.url }, world.publishKey);
  assert.deepEqual(
    again.map((r) => r.status),
    ["uploaded"],
    "the first upload's result is reused",
  );
  assert.deepEqual(await render(world.apiKey), withFont);
});

test("fonts: a file the server cannot load errors the body with invalid_font", async () => {
  const response = new ImageResponse(card(), {
    width: 320,
    height: 80,
    url: world.url,
    apiKey: world.publishKey,
    fonts: [{ name: "Broken", data: new Uint8Array([0, 1, 0, 0, 1, 2, 3, 4]) }],
  });
  await assert.rejects(response.arrayBuffer(), (error) => error.code === "invalid_font" && error.status === 400);
});
