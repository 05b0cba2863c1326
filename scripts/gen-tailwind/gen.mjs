// Generates resources/tailwind/table.json from the pinned tailwindcss package (issue 28):
// the default theme's variables, the @property initial values of Tailwind's --tw-*
// properties, every static / themed utility's declarations, and per functional utility
// ("root") the declaration templates for theme keys, spacing multiples and arbitrary
// values. server/render/document/tailwind.cpp reads the table; nothing here is
// hand-written utility knowledge.
//
//   node scripts/gen-tailwind/gen.mjs NODE_MODULES_DIR OUT.json
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [modulesDir, outFile] = process.argv.slice(2);
const pkgDir = path.join(modulesDir, 'tailwindcss');
const { __unstable__loadDesignSystem } = await import(pathToFileURL(path.join(pkgDir, 'dist/lib.mjs')).href);
const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
const themeCss = fs.readFileSync(path.join(pkgDir, 'theme.css'), 'utf8');
const ds = await __unstable__loadDesignSystem(themeCss + '\n@tailwind utilities;', { base: pkgDir });

// Theme variables as Tailwind resolves them (whitespace folded).
const vars = {};
for (const [name, { value }] of ds.theme.entries()) {
  if (name.startsWith('--animate') || name.startsWith('--default-')) continue;
  vars[name] = value.replace(/\s+/g, ' ').trim();
}

function unescapeSelector(s) { return s.replace(/\\(.)/g, '$1'); }

// The declarations of the rule whose selector is exactly `.candidate`, and the
// @property initial values found along the way.
const initial = {};
function parseCss(css, candidate) {
  let decls = null;
  // Chromium takes the @supports branch (oklab gradients, color-mix): inline it in place,
  // where its declarations override the fallbacks before it.
  css = css.replace(/@supports[^{]*\{([^{}]*)\}/g, '$1\n');
  const re = /(@property\s+(--[\w-]+)\s*\{([^}]*)\})|(([^{}@]+)\{([^{}]*)\})/g;
  let m;
  while ((m = re.exec(css))) {
    if (m[1]) {
      const iv = /initial-value:\s*([^;]*);/.exec(m[3]);
      initial[m[2]] = iv ? iv[1].trim() : null;
      continue;
    }
    const sel = m[5].trim();
    // The element's own rule, or (space-*, divide-*) the rule for its children but the
    // last, `:where(.c > :not(:last-child))`, whose properties get the prefix `>`.
    const child = /^:where\(\.(.*) > :not\(:last-child\)\)$/.exec(sel);
    const own = sel.startsWith('.') && unescapeSelector(sel.slice(1)) === candidate;
    if (!own && !(child && unescapeSelector(child[1]) === candidate)) continue;
    // A rule nested in @media/@supports would show its braces; candidatesToCss gives flat rules.
    decls ??= [];
    for (const d of m[6].split(/;\s*\n/)) {
      const t = d.trim().replace(/;$/, '');
      if (!t) continue;
      const i = t.indexOf(':');
      decls.push([(own ? '' : '>') + t.slice(0, i).trim(), t.slice(i + 1).trim()]);
    }
  }
  return decls;
}
function compileAll(candidates) {
  const css = ds.candidatesToCss(candidates);
  return candidates.map((c, i) => (css[i] && !/@media|@keyframes|&/.test(css[i]) ? parseCss(css[i], c) : null));
}

// v3 names satori users still write that v4 compiles but no longer lists (issue 28).
const legacy = [
  ...['t', 'tr', 'r', 'br', 'b', 'bl', 'l', 'tl'].map(d => `bg-gradient-to-${d}`),
  'flex-grow', 'flex-grow-0', 'flex-shrink', 'flex-shrink-0', 'overflow-ellipsis', 'decoration-slice', 'decoration-clone',
  'break-words', 'break-normal', 'transform', 'transform-gpu', 'transform-none', 'filter', 'filter-none',
  'backdrop-filter', 'backdrop-filter-none', 'outline-none', 'shadow-inner',
  // v3's corner positions (v4 lists `object-top-left`), order-none, the screen widths.
  ...['left-bottom', 'left-top', 'right-bottom', 'right-top'].flatMap(p => [`bg-${p}`, `object-${p}`]),
  'order-none', ...['sm', 'md', 'lg', 'xl', '2xl'].map(s => `max-w-screen-${s}`),
  // v3's logical insets on its spacing scale (v4 lists `inset-s-*`, `inset-e-*`).
  ...['start', 'end'].flatMap(side => ['px', 'auto', 'full', '0', '0.5', '1', '1.5', '2', '2.5', '3', '3.5', '4', '5',
    '6', '7', '8', '9', '10', '11', '12', '14', '16', '20', '24', '28', '32', '36', '40', '44', '48', '52', '56', '60',
    '64', '72', '80', '96', '1/2', '1/3', '2/3', '1/4', '2/4', '3/4']
    .flatMap(v => [`${side}-${v}`, `-${side}-${v}`])),
  ...['0', '15', '30', '60', '90', '180'].flatMap(d => [`-hue-rotate-${d}`, `-backdrop-hue-rotate-${d}`]),
];
const listed = ds.getClassList().map(([name]) => name);
const classList = [...new Set([...listed, ...legacy.filter(c => ds.candidatesToCss([c])[0])])];
const functional = [...ds.utilities.keys('functional')].sort((a, b) => b.length - a.length);
const decls = compileAll(classList);
// Arbitrary values: which declarations each root writes for each type of value.
// `family` is a font family name, which roots that infer one (`font-[Inter]`) take apart
// from `any`; the runtime uses it only where it differs from `any`.
const arbitrary = {
  length: '13px', color: '#123456', number: '1.75', percentage: '37%', url: 'url(x.png)', image: 'linear-gradient(red,blue)',
  family: 'Imprint_Family', any: '1fr_2fr',
};
// Explicit type hints (`bg-[length:120px_120px]` is a background-size, where an unhinted
// `bg-[13px]` infers a position): each root's template per hint, probed with a value every
// hint accepts.
const hints = ['length', 'size', 'bg-size', 'position', 'percentage', 'color', 'url', 'image', 'number', 'integer',
  'family-name', 'generic-name', 'absolute-size', 'relative-size', 'line-width', 'angle', 'vector'];
const hintSample = 'var(--imprint-hint)';
const sampleDecls = new Map();
for (const sample of [...Object.values(arbitrary), ...hints.map(h => `${h}:${hintSample}`)]) {
  const cands = functional.map(r => `${r}-[${sample}]`);
  compileAll(cands).forEach((d, i) => d && sampleDecls.set(cands[i], d));
}
const bareRoots = functional.filter(r => !r.startsWith('-') && !classList.includes(r));
const bareDecls = new Map();
compileAll(bareRoots).forEach((d, i) => d && bareDecls.set(bareRoots[i], d));
// Tailwind orders utilities by the properties they set, then by name. The rank kept here
// is the first: consecutive classes in the compiler's order that set the same properties
// share it, and the runtime breaks ties by class name as the compiler does.
const order = new Map();
{
  const declsOf = new Map([...classList.map((c, i) => [c, decls[i]]), ...sampleDecls, ...bareDecls]);
  const all = [...declsOf.keys()].filter(c => declsOf.get(c));
  const ranked = ds.getClassOrder(all).map(([c, o], i) => [c, o, i]).filter(x => x[1] !== null);
  ranked.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] - b[2]));
  let rank = 0, last = null;
  for (const [c] of ranked) {
    const signature = declsOf.get(c).map(d => d[0]).join(',');
    if (last !== null && signature !== last) rank++;
    last = signature;
    order.set(c, rank);
  }
}

const escapeRe = s => s.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
const classes = {};
const bareCandidates = {};
const roots = {};
const rootOf = c => functional.find(r => c.startsWith(r + '-') && c.length > r.length + 1);
const rootEntry = r => (roots[r] ??= { t: {}, a: {} });
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

classList.forEach((c, i) => {
  const d = decls[i];
  if (!d) return;
  const r = rootOf(c);
  if (r) {
    const k = c.slice(r.length + 1);
    const text = JSON.stringify(d);
    // A theme key: var(--NS-k) (and --NS-k--sub) in the declarations.
    const nsMatch = new RegExp(`var\\(--([a-z-]+?)-${escapeRe(k)}(\\)|--|,)`).exec(text);
    if (nsMatch && vars[`--${nsMatch[1]}-${k}`] !== undefined) {
      const ns = nsMatch[1];
      const tpl = JSON.parse(text.split(`--${ns}-${k}`).join(`--${ns}-{k}`));
      const e = rootEntry(r);
      if (!e.t[ns]) e.t[ns] = [order.get(c) ?? -1, tpl];
      if (same(e.t[ns][1], tpl)) return;
    }
    // A spacing multiple: calc(var(--spacing) * k) or * -k.
    if (/^\d+(\.\d+)?$/.test(k) && text.includes(`var(--spacing) * `)) {
      const tpl = JSON.parse(text.replace(new RegExp(`var\\(--spacing\\) \\* (-?)${escapeRe(k)}\\)`, 'g'), 'var(--spacing) * $1{n})'));
      const e = rootEntry(r);
      if (!e.sp) e.sp = [order.get(c) ?? -1, tpl];
      if (same(e.sp[1], tpl) && JSON.stringify(tpl).includes('{n}')) return;
    }
  }
  // A bare integer (`z-15`, `grid-cols-13`, `bg-linear-65`): checked against 17 below.
  if (r && /^\d+$/.test(c.slice(r.length + 1))) {
    const k = c.slice(r.length + 1);
    const re = new RegExp(`(?<![\\w.#-])${k}(?![\\d.])`, 'g');
    const text = JSON.stringify(d);
    if (re.test(text)) {
      const list = (bareCandidates[r] ??= []);
      const tpl = text.replace(re, '{b}');
      if (!list.some(x => x[1] === tpl) && list.length < 4) list.push([order.get(c) ?? -1, tpl]);
    }
  }
  classes[c] = [order.get(c) ?? -1, d];
});
{
  const rs = Object.keys(bareCandidates);
  const out = compileAll(rs.map(r => `${r}-17`));
  rs.forEach((r, i) => {
    const tpl = out[i] && bareCandidates[r].find(([, t]) => same(out[i], JSON.parse(t.split('{b}').join('17'))));
    if (tpl) rootEntry(r).b = [tpl[0], JSON.parse(tpl[1])];
  });
}
// Functional utilities with a default value (`rounded`, `blur`) that the class list leaves out.
{
  for (const [r, d] of bareDecls) if (!classes[r]) classes[r] = [order.get(r) ?? -1, d];
}

for (const [type, sample] of Object.entries(arbitrary)) {
  const plain = sample.replace(/_/g, ' ');
  for (const r of functional) {
    const c = `${r}-[${sample}]`;
    const d = sampleDecls.get(c);
    const text = d && JSON.stringify(d);
    if (text && text.includes(plain)) rootEntry(r).a[type] = [order.get(c) ?? -1, JSON.parse(text.split(plain).join('{v}'))];
  }
}
// Kept where the family name sets other properties than `any` does (font-family, not
// font-weight): where it sets the same ones, the root reads the name as any other value.
const props = e => JSON.stringify(e[1].map(d => d[0]));
for (const r of functional) {
  const a = roots[r]?.a;
  if (a?.family && (!a.any || props(a.family) === props(a.any))) delete a.family;
}
for (const hint of hints) {
  for (const r of functional) {
    const c = `${r}-[${hint}:${hintSample}]`;
    const d = sampleDecls.get(c);
    const text = d && JSON.stringify(d);
    if (!text || !text.includes(hintSample)) continue;
    // Kept only where it differs from what the runtime falls back to: the unhinted
    // type's template, else the root's `any` one.
    const entry = [order.get(c) ?? -1, JSON.parse(text.split(hintSample).join('{v}'))];
    const a = rootEntry(r).a;
    const fallback = a[hint] ?? a.any;
    if (!fallback || JSON.stringify(fallback) !== JSON.stringify(entry)) a[`${hint}:`] = entry;
  }
}
// Every functional root the runtime may meet, even with only a static form in the list.
for (const r of functional) if (roots[r] && !Object.keys(roots[r].t).length && !roots[r].sp && !roots[r].b && !Object.keys(roots[r].a).length) delete roots[r];

const table = { version, vars, initial, classes, roots };
fs.writeFileSync(outFile, JSON.stringify(table));
console.log(`tailwindcss ${version}: ${Object.keys(classes).length} classes, ${Object.keys(roots).length} roots, ${Object.keys(vars).length} theme variables → ${outFile} (${fs.statSync(outFile).size} bytes)`);
