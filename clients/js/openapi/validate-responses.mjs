// Validates recorded answers of the real server against the OpenAPI document (issue 30).
//
//   node openapi/validate-responses.mjs DOCUMENT.json LOG_DIR...
//
// Each LOG_DIR holds PID.jsonl files that `imprint serve` writes when IMPRINT_TEST_RESPONSE_LOG
// names the directory (server/http/response_log.h): one line per answer with its method,
// matched route pattern, status, Content-Type and, for JSON, the parsed body. For each one:
// the operation (path, method) must be in the document, or the answer a 404/405 (or a CORS
// preflight's 204); the status must be listed (not only covered by `default`); the media
// type must be one the response lists; a JSON body must validate against its schema with
// Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) and an image's first bytes must be its
// format's signature. Prints every mismatch, grouped, and exits 1 when there is one.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [documentPath, ...logDirs] = process.argv.slice(2);
if (!documentPath || logDirs.length === 0) {
  console.error("usage: validate-responses.mjs DOCUMENT.json LOG_DIR...");
  process.exit(2);
}
const doc = JSON.parse(readFileSync(documentPath, "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const base = "imprint-openapi.json";
ajv.addSchema({ $id: base, components: doc.components });

// The first bytes of each binary media type the server answers.
const signatures = {
  "image/png": (b) => b.startsWith("89504e47"),
  "image/jpeg": (b) => b.startsWith("ffd8ff"),
  "image/webp": (b) => b.startsWith("52494646") && b.slice(16, 24) === "57454250",
  "image/avif": (b) => b.slice(8, 16) === "66747970",
  "image/gif": (b) => b.startsWith("474946"),
  "application/pdf": (b) => b.startsWith("25504446"),
  "image/svg+xml": (b) => /^(3c|efbbbf3c)/.test(b),
};

/** The document's responses object of (method, route), or null. */
function operation(method, route) {
  const item = doc.paths[route];
  return item ? item[method.toLowerCase()] ?? null : null;
}

function resolve(object) {
  let o = object;
  while (o && o.$ref) {
    const path = o.$ref.replace(/^#\//, "").split("/");
    o = path.reduce((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return o;
}

const validators = new Map();
function validatorFor(route, method, status, mediaType, schema) {
  const key = `${method} ${route} ${status} ${mediaType}`;
  if (!validators.has(key)) {
    // Local $refs point into the document's components, registered under `base`.
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${base}#/`));
    validators.set(key, ajv.compile(rebased));
  }
  return validators.get(key);
}

const problems = new Map(); // message → count
const note = (message) => problems.set(message, (problems.get(message) ?? 0) + 1);
let records = 0;
const seen = new Set();

for (const dir of logDirs) {
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        // A server killed mid-write (tst_crash_durability) may leave a cut last line.
        if (i < lines.length - 2) note(`${file}:${i + 1}: not JSON`);
        return;
      }
      records++;
      check(r);
    });
  }
}

function check(r) {
  const what = `${r.method} ${r.route} ${r.status}`;
  const op = operation(r.method, r.route);
  if (!op) {
    // No such operation: a 404 for no route, a 405 for a method the path lacks, or a preflight.
    if ((r.route === "unmatched" && r.status === 404) || r.status === 405) return;
    if (r.method === "OPTIONS" && r.status === 204) return;
    if (r.route === "unmatched" && [400, 408, 413, 431].includes(r.status)) return; // refused before routing
    note(`${what}: no operation ${r.method} ${r.route} in the document`);
    return;
  }
  seen.add(`${r.method} ${r.route} ${r.status}`);
  // Every status is listed explicitly: `default` is for generators, not an excuse.
  const declared = op.responses[String(r.status)];
  if (!declared) {
    note(`${what}: status not documented${op.responses.default ? " (only default covers it)" : ""}`);
    return;
  }
  const response = resolve(declared);
  if (!response) return note(`${what}: no response object`);
  const content = response.content;
  if (r.head || r.bodySize === 0) {
    if (r.bodySize === 0 && content && r.status !== 304 && !r.head) note(`${what}: empty body, document has content`);
    return;
  }
  if (!content) return note(`${what}: body of ${r.contentType}, the document has none`);
  const mediaType = (r.contentType || "").split(";")[0].trim().toLowerCase();
  const entry = content[mediaType];
  if (!entry) return note(`${what}: media type ${mediaType} not among ${Object.keys(content).join(", ")}`);
  if ("json" in r) {
    const validate = validatorFor(r.route, r.method, r.status, mediaType, entry.schema ?? {});
    if (!validate(r.json)) {
      for (const e of validate.errors.slice(0, 3))
        note(`${what} ${mediaType}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    }
  } else if (r.magic && signatures[mediaType] && !signatures[mediaType](r.magic)) {
    note(`${what}: ${mediaType} body starts ${r.magic}`);
  }
}

console.log(`${records} answers checked against ${documentPath}; ${seen.size} (method, route, status) triples seen`);
if (process.env.IMPRINT_OPENAPI_COVERAGE) for (const s of [...seen].sort()) console.log("  seen", s);
if (records === 0) {
  console.error("no recorded answers: is IMPRINT_TEST_RESPONSE_LOG set for the suites?");
  process.exit(1);
}
if (problems.size > 0) {
  for (const [message, count] of [...problems].sort((a, b) => b[1] - a[1])) console.error(`${count}× ${message}`);
  console.error(`${problems.size} kinds of mismatch between the server and the document`);
  process.exit(1);
}
