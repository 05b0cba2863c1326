// The Chromium-plus-Tailwind oracle for the `tw` cards (issue 28, tests/render/tst_tailwind.cpp):
//
//   node scripts/gen-tailwind/oracle.mjs NODE_MODULES CASES_DIR OUT_DIR CORPUS.txt EXPECTED.json
//
// For every case (a template whose elements carry `tw`), compiles its classes with the pinned
// tailwindcss package (theme, preflight and utilities: what `@import "tailwindcss"` ships)
// and screenshots the page Chromium draws from `class` attributes and that CSS, html and
// body as high as the image (satori's root is the image): OUT_DIR/NAME.png. Then, for every `tw` string of the
// cases and of CORPUS.txt (one real-world string a line), resolves the declarations the
// package's compiled CSS gives an element with those classes — rules in the compiler's
// order, var() resolved against its :root theme and @property initial values — into
// EXPECTED.json, which tst_tailwind compares with the C++ expansion of the generated table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const [modulesDir, casesDir, outDir, corpusFile, expectedFile] = process.argv.slice(2);
const pkgDir = path.join(modulesDir, 'tailwindcss');
const { compile } = await import(pathToFileURL(path.join(pkgDir, 'dist/lib.mjs')).href);
const themeCss = fs.readFileSync(path.join(pkgDir, 'theme.css'), 'utf8');
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/// A theme extension as CSS, the @theme block takumi users write (tailwind.h).
function themeBlock(config) {
  let c = config ?? {};
  if (c.theme) c = c.theme;
  if (c.extend) c = c.extend;
  const lines = [];
  for (const [k, v] of Object.entries(c.colors ?? {})) {
    if (typeof v === 'object') for (const [s, x] of Object.entries(v)) lines.push(`--color-${k}${s === 'DEFAULT' ? '' : '-' + s}: ${x};`);
    else lines.push(`--color-${k}: ${v};`);
  }
  for (const [k, v] of Object.entries(c.fontFamily ?? {})) lines.push(`--font-${k}: ${Array.isArray(v) ? v.join(', ') : v};`);
  for (const [k, v] of Object.entries(c.spacing ?? {})) lines.push(`--spacing-${k}: ${typeof v === 'number' ? v + 'px' : v};`);
  return lines.length ? `@theme {\n${lines.join('\n')}\n}\n` : '';
}

const preflightCss = fs.readFileSync(path.join(pkgDir, 'preflight.css'), 'utf8');
async function compiled(classes, config, preflight = false) {
  const c = await compile(themeCss + '\n' + themeBlock(config) + (preflight ? preflightCss : '') + '\n@tailwind utilities;', { base: pkgDir });
  return c.build(classes);
}

// A small brace-aware CSS parser: enough for the compiler's output.
function parseCss(css) {
  let i = 0;
  css = css.replace(/\/\*[\s\S]*?\*\//g, '');
  function block() {
    const out = [];
    let start = i;
    while (i < css.length) {
      const ch = css[i];
      if (ch === '"' || ch === "'") {
        const q = ch;
        for (i++; i < css.length && css[i] !== q; i++) if (css[i] === '\\') i++;
        i++;
        continue;
      }
      if (ch === '{') {
        const head = css.slice(start, i).trim();
        i++;
        const children = block();
        out.push({ head, children });
        start = i;
        continue;
      }
      if (ch === '}') {
        const rest = css.slice(start, i).trim();
        if (rest) out.push(decl(rest));
        i++;
        return out.filter(Boolean);
      }
      if (ch === ';') {
        const text = css.slice(start, i).trim();
        if (text) out.push(decl(text));
        i++;
        start = i;
        continue;
      }
      i++;
    }
    return out.filter(Boolean);
  }
  function decl(text) {
    const c = text.indexOf(':');
    if (c < 0 || text.startsWith('@')) return null;
    return { prop: text.slice(0, c).trim(), value: text.slice(c + 1).trim() };
  }
  return block();
}

const unescape = s => s.replace(/\\(.)/g, '$1');

function foldCalc(v) {
  v = v.split('calc(infinity * 1px)').join('10000000px');
  const mul = /calc\(\s*(-?[0-9.]+)([a-z%]*)\s*\*\s*(-?[0-9.]+)\s*\)/;
  const frac = /calc\(\s*(-?[0-9.]+)\s*\/\s*(-?[0-9.]+)\s*(\*\s*100%\s*)?\)/;
  const num = x => String(Number(x.toPrecision(8)));
  for (let guard = 0; guard < 16; guard++) {
    let m = mul.exec(v);
    if (m) { v = v.slice(0, m.index) + num(+m[1] * +m[3]) + m[2] + v.slice(m.index + m[0].length); continue; }
    m = frac.exec(v);
    if (m && +m[2] !== 0) { v = v.slice(0, m.index) + num((+m[1] / +m[2]) * (m[3] ? 100 : 1)) + (m[3] ? '%' : '') + v.slice(m.index + m[0].length); continue; }
    break;
  }
  return v;
}

function splitTop(v) {
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '(') depth++;
    else if (v[i] === ')') depth--;
    else if (v[i] === ',' && depth === 0) { out.push(v.slice(start, i).trim()); start = i + 1; }
  }
  out.push(v.slice(start).trim());
  return out;
}

function substitute(value, lookup, depth = 0) {
  // var(--x[, fallback]), outermost first: the fallback only counts when --x is undefined.
  let out = '';
  for (let i = 0; i < value.length;) {
    const at = value.indexOf('var(', i);
    if (at < 0) { out += value.slice(i); break; }
    out += value.slice(i, at);
    let d = 0, end = -1;
    for (let j = at + 3; j < value.length; j++) {
      if (value[j] === '(') d++;
      else if (value[j] === ')') { d--; if (d === 0) { end = j; break; } }
    }
    if (end < 0) return null;
    const inner = value.slice(at + 4, end);
    const comma = inner.indexOf(',');
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim();
    let got = lookup(name, depth);
    if (got === null || got === undefined) {
      if (comma < 0) return null;
      got = substitute(inner.slice(comma + 1).trim(), lookup, depth);
      if (got === null) return null;
    }
    out += got;
    i = end + 1;
  }
  return out;
}

/// The declarations Tailwind's compiled `css` gives an element with `classes`, resolved.
function resolveElement(css, classes, viewportWidth) {
  const tree = parseCss(css);
  const vars = {}, initial = {}, custom = {}, plain = new Map();
  const classSet = new Set(classes);
  function applyRule(node) {
    for (const c of node.children) {
      if (c.prop) {
        if (c.prop.startsWith('--')) custom[c.prop] = c.value;
        else { plain.delete(c.prop); plain.set(c.prop, c.value); }
      } else if (c.head.startsWith('@supports')) applyRule(c);
    }
  }
  function walk(nodes) {
    for (const n of nodes) {
      if (!n.head) continue;
      if (n.head.startsWith('@property')) {
        const iv = n.children.find(c => c.prop === 'initial-value');
        initial[n.head.split(/\s+/)[1]] = iv ? iv.value : null;
      } else if (n.head.startsWith('@media')) {
        const m = /\(width >= ([0-9.]+)rem\)/.exec(n.head);
        if (m && viewportWidth >= +m[1] * 16) walk(n.children);
      } else if (n.head === ':root, :host') {
        for (const c of n.children) if (c.prop) vars[c.prop] = c.value.replace(/\s+/g, ' ');
      } else if (n.head.startsWith('.') && classSet.has(unescape(n.head.slice(1)))) {
        applyRule(n);
      }
    }
  }
  walk(tree);
  const lookup = (name, depth) => {
    let raw = custom[name] ?? vars[name];
    if (raw === undefined) raw = initial[name];
    if (raw === undefined || raw === null) return null;
    return depth > 16 ? null : substitute(raw, lookup, depth + 1);
  };
  const out = {};
  for (let [prop, value] of plain) {
    value = substitute(value, lookup);
    if (value === null) continue;
    value = foldCalc(value);
    if (prop === 'box-shadow') {
      const kept = splitTop(value).filter(l => l !== '0 0 #0000');
      value = kept.length ? kept.join(', ') : 'none';
    }
    const key = prop.replace(/^-webkit-/, 'Webkit-').replace(/-([a-zA-Z])/g, (_, c) => c.toUpperCase());
    out[key] = value.trim();
  }
  return out;
}

const INLINE = new Set(['span', 'b', 'strong', 'em', 'i', 'a', 'code', 'mark', 'br', 'u', 's', 'small', 'sub', 'sup', 'img']);
const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const kebab = k => (k.startsWith('Webkit') ? '-webkit' + k.slice(6) : k).replace(/[A-Z]/g, c => '-' + c.toLowerCase());
function html(el, strings) {
  const p = el.props ?? {};
  if (p.tw) strings.add(p.tw);
  const style = Object.entries(p.style ?? {}).map(([k, v]) => `${kebab(k)}:${typeof v === 'number' && !/^(flexGrow|flexShrink|opacity|zIndex|fontWeight|lineHeight)$/.test(k) ? v + 'px' : v}`).join(';');
  const attrs = `${p.tw ? ` class="${esc(p.tw)}"` : ''}${style ? ` style="${esc(style)}"` : ''}${p.src ? ` src="${esc(p.src)}"` : ''}`;
  if (el.type === 'img' || el.type === 'br') return `<${el.type}${attrs}>`;
  const kids = [p.children].flat(Infinity).filter(c => c !== null && c !== undefined && typeof c !== 'boolean');
  return `<${el.type}${attrs}>${kids.map(c => (typeof c === 'object' ? html(c, strings) : esc(c))).join('')}</${el.type}>`;
}

fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-oracle-'));
const expected = {};
const defaultFlex = `:where(body *:not(${[...INLINE].join(',')})){display:flex}`;
for (const file of fs.readdirSync(casesDir).filter(f => f.endsWith('.json')).sort()) {
  const doc = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
  const strings = new Set();
  const body = html(doc.root, strings);
  const classes = [...new Set([...strings].flatMap(s => s.split(/\s+/)).filter(Boolean))];
  const css = await compiled(classes, doc.tailwind, true);
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden;background:transparent;height:100%}${defaultFlex}</style><style>${css}</style></head><body>${body}</body></html>`;
  const pagePath = path.join(tmp, file.replace('.json', '.html'));
  fs.writeFileSync(pagePath, page);
  const png = path.resolve(outDir, file.replace('.json', '.png'));
  execFileSync('chromium', ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1',
    '--default-background-color=00000000', '--font-render-hinting=none', '--virtual-time-budget=3000',
    `--window-size=${doc.width},${doc.height}`, `--screenshot=${png}`, pathToFileURL(pagePath).href],
    { env: { ...process.env, FONTCONFIG_FILE: path.join(repo, 'resources/fontconfig/fonts.conf') }, stdio: 'ignore' });
  if (!doc.tailwind)
    for (const s of strings) expected[s] = resolveElement(await compiled(s.split(/\s+/).filter(Boolean)), s.split(/\s+/), doc.width);
  console.log(`${file}: ${classes.length} classes → ${png}`);
}
for (const line of fs.readFileSync(corpusFile, 'utf8').split('\n')) {
  const s = line.trim();
  if (!s || s.startsWith('#')) continue;
  expected[s] = resolveElement(await compiled(s.split(/\s+/)), s.split(/\s+/), 1200);
}
fs.writeFileSync(expectedFile, JSON.stringify(expected, null, 1) + '\n');
console.log(`${Object.keys(expected).length} tw strings → ${expectedFile}`);
fs.rmSync(tmp, { recursive: true, force: true });
