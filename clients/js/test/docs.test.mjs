// The examples of docs/nextjs.md, compiled as a Next.js app compiles them (TypeScript,
// JSX with the automatic runtime) and run against the real server: the route handler
// (JSX, `tw`, an inline <svg> icon), the opengraph-image file and the signed URL helper.
// docs/node.md's modules the same way. A code block whose first line is `// PATH` is the
// file PATH.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startServer, pngPixel, hex } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const build = join(here, ".build", "docs");
let world;
let modules = {};

/** The `// PATH` code blocks of a Markdown file: [{path, code}]. */
export function codeFiles(markdown) {
  const files = [];
  for (const m of markdown.matchAll(/```(?:tsx|ts|js|mjs)\n\/\/ ([^\n]+\.(?:tsx|ts|js|mjs))\n([\s\S]*?)```/g))
    files.push({ path: m[1].trim(), code: `// ${m[1]}\n${m[2]}` });
  return files;
}

before(async () => {
  world = await startServer();
  process.env.IMPRINT_URL = world.url;
  process.env.IMPRINT_API_KEY = world.apiKey;
  process.env.IMPRINT_SIGNING_KEY_ID = world.kid;
  process.env.IMPRINT_SIGNING_SECRET = world.secret;
  // Write the examples and compile them with the package's pinned TypeScript.
  rmSync(build, { recursive: true, force: true });
  const files = codeFiles(readFileSync(join(here, "../../../docs/nextjs.md"), "utf8"));
  assert.ok(files.length >= 3, "docs/nextjs.md has its three examples");
  for (const f of files) {
    mkdirSync(dirname(join(build, "src", f.path)), { recursive: true });
    writeFileSync(join(build, "src", f.path), f.code);
  }
  writeFileSync(
    join(build, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ES2022",
        moduleResolution: "bundler",
        jsx: "react-jsx",
        strict: true,
        skipLibCheck: true,
        lib: ["ES2022", "DOM"],
        types: ["node"],
        rootDir: "src",
        outDir: "out",
        paths: { "@imprint/client": ["../../../dist/index.d.ts"] },
      },
      include: ["src"],
    }),
  );
  const tsc = join(here, "../node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", join(build, "tsconfig.json")], { encoding: "utf8" });
  } catch (e) {
    throw new Error(`tsc refused the examples of docs/nextjs.md:\n${e.stdout}${e.stderr}`);
  }
  // The compiled files import "@imprint/client": the package itself (self-reference).
  for (const f of files) {
    const out = join(build, "out", f.path.replace(/\.tsx?$/, ".js"));
    modules[f.path] = await import(pathToFileURL(out).href);
  }
  // docs/node.md's modules run as written.
  for (const f of codeFiles(readFileSync(join(here, "../../../docs/node.md"), "utf8"))) {
    const file = join(build, "node", f.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, f.code);
    modules[f.path] = await import(pathToFileURL(file).href);
  }
});

after(async () => {
  await world?.stop();
});

test("app/og/route.tsx: GET answers the PNG next/og would, with the tree sent as written", async () => {
  const sent = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    sent.push(JSON.parse(init.body));
    return realFetch(url, init);
  };
  let response;
  try {
    response = await modules["app/og/route.tsx"].GET(new Request("http://localhost/og?title=Launch%20day"));
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.equal(response.headers.get("cache-control"), "public, immutable, no-transform, max-age=31536000");
    const { width, height, rgba } = await pngPixel(bytes, 4, 4);
    assert.deepEqual([width, height], [1200, 630]);
    assert.equal(hex(rgba), "#0f172a");
  } finally {
    globalThis.fetch = realFetch;
  }
  // tw, the svg icon and the title went to the server as written (the server draws them).
  assert.equal(sent.length, 1);
  const root = sent[0].template.root;
  assert.equal(root.props.tw, "flex h-full w-full flex-col justify-center p-20");
  const [svg, title] = root.props.children;
  assert.equal(svg.type, "svg");
  assert.equal(svg.props.viewBox, "0 0 24 24");
  assert.equal(svg.props.children[0].type, "path");
  assert.match(svg.props.children[0].props.d, /^M12 2l3 7h7/);
  assert.deepEqual(title.props.children, ["Launch day"]);
  assert.equal(sent[0].output, "binary");
});

test("app/blog/[slug]/opengraph-image.tsx: the default export renders at `size`", async () => {
  const mod = modules["app/blog/[slug]/opengraph-image.tsx"];
  assert.deepEqual(mod.size, { width: 1200, height: 630 });
  const response = await mod.default({ params: Promise.resolve({ slug: "hello-world" }) });
  const { width, height, rgba } = await pngPixel(new Uint8Array(await response.arrayBuffer()), 2, 2);
  assert.deepEqual([width, height], [1200, 630]);
  assert.equal(hex(rgba), "#fff7ed");
});

test("app/lib/og-image.ts: the signed URL is accepted by the server", async () => {
  const url = await modules["app/lib/og-image.ts"].ogImageUrl(world.pageId, "Hi");
  assert.ok(url.startsWith(`${world.url}/api/v1/render?`));
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("content-type"), "image/png");
  assert.match(response.headers.get("cache-control"), /^public, max-age=\d+, immutable$/);
});

test("docs/node.md scripts/cards.mjs: inline renders, a refusal, a tree", async () => {
  const m = modules["scripts/cards.mjs"];
  assert.ok(m, "docs/node.md has scripts/cards.mjs");
  const png = await m.renderCard("Hi");
  const { width, height, rgba } = await pngPixel(png, 3, 3);
  assert.deepEqual([width, height, hex(rgba)], [1200, 630, "#e11d48"]);
  const small = await m.renderSmallWebp("Hi");
  assert.equal(small.type, "image/webp");
  assert.equal(Buffer.from(small.bytes).toString("latin1", 8, 12), "WEBP");
  assert.deepEqual(await m.treeOf("x"), { type: "div", props: { style: { display: "flex" }, children: ["x"] } });
});

test("docs/node.md scripts/sign.mjs: the signed URL renders", async () => {
  const url = await modules["scripts/sign.mjs"].ogImageUrl(world.pageId, "Hello");
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("content-type"), "image/png");
});
