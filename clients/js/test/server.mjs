// Starts the real `imprint serve` for a test file: a temporary data directory, a space
// with an API key (render scope), a content-scoped key, one with both, a signing key and a published
// page, all made through the CLI as an operator would; then the server on a free
// loopback port. The binary is IMPRINT_BINARY (CTest sets it) or ../../build/imprint.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const binary = process.env.IMPRINT_BINARY ?? join(here, "../../../build/imprint");

const env = { ...process.env, IMPRINT_ARGON2_LIMITS: "min", QT_QPA_PLATFORM: "offscreen" };

/** `imprint ARGS… --data DIR` to completion; its stdout. */
export function cli(dataDir, ...args) {
  return execFileSync(binary, [...args, "--data", dataDir], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export const pageTemplate = {
  name: "Signed card",
  width: 200,
  height: 100,
  rendererType: "takumi",
  variables: [
    { name: "bg", type: "color", default: "#336699" },
    { name: "title", default: "" },
  ],
  root: { type: "div", props: { style: { display: "flex", width: "100%", height: "100%", backgroundColor: "{{bg}}" } } },
};

/**
 * The world of a test file: { url, apiKey, contentKey, publishKey (render and content), kid, secret, pageId,
 * dataDir, stop() }.
 * `url` is the server's base (http://127.0.0.1:PORT).
 */
export async function startServer() {
  if (!existsSync(binary)) throw new Error(`no imprint binary at ${binary} (set IMPRINT_BINARY)`);
  const dataDir = mkdtempSync(join(tmpdir(), "imprint-js-"));
  cli(dataDir, "space", "create", "alpha", "--plan", "pro");
  const apiKey = JSON.parse(cli(dataDir, "key", "create", "--space", "alpha", "--name", "render", "--json")).token;
  const contentKey = JSON.parse(
    cli(dataDir, "key", "create", "--space", "alpha", "--name", "content", "--scopes", "content", "--json"),
  ).token;
  const publishKey = JSON.parse(
    cli(dataDir, "key", "create", "--space", "alpha", "--name", "publish", "--scopes", "render,content", "--json"),
  ).token;
  const signing = JSON.parse(cli(dataDir, "signing-key", "create", "--space", "alpha", "--name", "og", "--json"));
  const templateFile = join(dataDir, "template.json");
  writeFileSync(templateFile, JSON.stringify(pageTemplate));
  const templateId = JSON.parse(cli(dataDir, "template", "import", templateFile, "--space", "alpha", "--json")).id;
  const pageId = JSON.parse(
    cli(dataDir, "page", "create", "--space", "alpha", "--template", templateId, "--publish", "--json"),
  ).id;

  const logFile = join(dataDir, "server.log");
  const { openSync } = await import("node:fs");
  const log = openSync(logFile, "a");
  const child = spawn(binary, ["serve", "--listen", "127.0.0.1:0", "--data", dataDir], {
    env,
    stdio: ["ignore", log, log],
  });
  const port = await new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(readFileSync(logFile, "utf8"));
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      } else if (child.exitCode !== null || Date.now() - started > 20000) {
        clearInterval(timer);
        reject(new Error(`the server did not start:\n${readFileSync(logFile, "utf8")}`));
      }
    }, 50);
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiKey,
    contentKey,
    publishKey,
    kid: signing.id,
    secret: signing.secret,
    pageId,
    templateId,
    dataDir,
    log: () => readFileSync(logFile, "utf8"),
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The width, height and RGBA of pixel (x, y) of a PNG, decoded with node:zlib (8-bit RGB/RGBA, or a palette of
 * 1, 2, 4 or 8 bits a pixel as the default compression writes for few colours; non-interlaced).
 */
export async function pngPixel(bytes, x, y) {
  const { inflateSync } = await import("node:zlib");
  const buf = Buffer.from(bytes);
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let offset = 8;
  let width = 0, height = 0, colorType = 0, bitDepth = 0, palette = null, trns = null;
  const idat = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bitDepth = data[8];
      colorType = data[9];
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") trns = data;
    else if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  if (bitDepth !== 8 && !(colorType === 3 && [1, 2, 4].includes(bitDepth)))
    throw new Error(`bit depth ${bitDepth} not handled`);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  const raw = inflateSync(Buffer.concat(idat));
  const stride = bitDepth === 8 ? width * channels : Math.ceil((width * bitDepth) / 8);
  const rows = [];
  let prev = Buffer.alloc(stride);
  for (let r = 0; r < height; r++) {
    const filter = raw[r * (stride + 1)];
    const line = Buffer.from(raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = v & 0xff;
    }
    rows.push(line);
    prev = line;
  }
  const px =
    bitDepth === 8
      ? rows[y].subarray(x * channels, (x + 1) * channels)
      : [(rows[y][(x * bitDepth) >> 3] >> (8 - bitDepth - ((x * bitDepth) & 7))) & ((1 << bitDepth) - 1)];
  let rgba;
  if (colorType === 2) rgba = [px[0], px[1], px[2], 255];
  else if (colorType === 6) rgba = [...px];
  else if (colorType === 0) rgba = [px[0], px[0], px[0], 255];
  else if (colorType === 4) rgba = [px[0], px[0], px[0], px[1]];
  else rgba = [palette[px[0] * 3], palette[px[0] * 3 + 1], palette[px[0] * 3 + 2], trns && px[0] < trns.length ? trns[px[0]] : 255];
  return { width, height, rgba };
}

/** "#rrggbb" of an RGBA array. */
export const hex = ([r, g, b]) => "#" + [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
