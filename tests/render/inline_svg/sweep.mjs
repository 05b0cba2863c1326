// Inline-SVG icon sweep (issue 28, second round): public icon sets pasted as JSX, one
// card per set, for measuring the satori and takumi engines against Chromium.
//
//   node sweep.mjs extract NODE_MODULES   copies a seeded sample of each installed set into
//                                          sweep-icons.json (SVG source, set, version, licence)
//   import { cards } from './sweep.mjs'    the cards, built from sweep-icons.json only
//
// The icons are converted as users convert them (svgr, transform.tools, by hand): SVG
// attributes to React's camelCase props (`stroke-width` → `strokeWidth`, `class` →
// `className`, `xlink:href` → `xlinkHref`), `style="a:b"` to a style object, the root's
// width/height replaced by the card's 48 px. measure.mjs renders them
// (`node measure.mjs IMPRINT OUT --cards sweep.mjs`).

import { readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const iconsFile = path.join(here, 'sweep-icons.json');

// The sets: package, the folders sampled, licence. 24 icons per set.
const SETS = [
  { key: 'lucide', pkg: 'lucide-static', dirs: ['icons'] },
  { key: 'tabler', pkg: '@tabler/icons', dirs: ['icons/outline', 'icons/filled'] },
  { key: 'heroicons', pkg: 'heroicons', dirs: ['24/outline', '24/solid', '20/solid'] },
  { key: 'bootstrap', pkg: 'bootstrap-icons', dirs: ['icons'] },
  { key: 'simple', pkg: 'simple-icons', dirs: ['icons'] },
  { key: 'octicons', pkg: '@primer/octicons', dirs: ['build/svg'] },
  { key: 'phosphor', pkg: '@phosphor-icons/core', dirs: ['assets/regular', 'assets/duotone', 'assets/fill', 'assets/thin'] },
  { key: 'remix', pkg: 'remixicon', dirs: ['icons'] },
  { key: 'feather', pkg: 'feather-icons', dirs: ['dist/icons'] },
  { key: 'ionicons', pkg: 'ionicons', dirs: ['dist/svg'] },
  { key: 'material', pkg: '@material-design-icons/svg', dirs: ['two-tone', 'outlined', 'round', 'filled', 'sharp'] },
];
const PER_SET = 24;
// Features rarer in icon sets, preferred in the sample (up to 8 per set).
const RARE = /<use|<defs|<symbol|Gradient|clipPath|<mask|transform=|fill-rule|opacity|stroke-dasharray|<polygon|<polyline|<ellipse|<line|style=|<style|stroke-miterlimit|px"/;

/// mulberry32: a seeded PRNG, so the sample is the same on every machine.
function rng(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : f.endsWith('.svg') ? [p] : [];
  });
}

function extract(nodeModules) {
  const out = {};
  SETS.forEach((set, i) => {
    const root = path.join(nodeModules, set.pkg);
    const meta = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const files = set.dirs.flatMap((d) => walk(path.join(root, d))).sort();
    const random = rng(1000 + i);
    const shuffled = files.map((f) => [random(), f]).sort((a, b) => a[0] - b[0]).map(([, f]) => f);
    const rare = shuffled.filter((f) => RARE.test(readFileSync(f, 'utf8'))).slice(0, 8);
    const picked = [...rare, ...shuffled.filter((f) => !rare.includes(f))].slice(0, PER_SET);
    out[set.key] = {
      package: `${set.pkg}@${meta.version}`, license: meta.license,
      icons: picked.map((f) => ({ name: path.relative(root, f), svg: readFileSync(f, 'utf8').replace(/<!--[\s\S]*?-->/g, '').trim() })),
    };
  });
  writeFileSync(iconsFile, JSON.stringify(out, null, 1) + '\n');
  console.log(Object.entries(out).map(([k, v]) => `${k}: ${v.icons.length}`).join(', '));
}

// ---- SVG text → React element JSON --------------------------------------------------

const camel = (s) => s.replace(/[-:]([a-z])/g, (_, c) => c.toUpperCase());
const styleObject = (css) => Object.fromEntries(css.split(';').map((d) => d.split(':')).filter((d) => d.length === 2)
  .map(([k, v]) => [camel(k.trim()), v.trim()]));

/// React's prop for an SVG attribute, as svgr writes it.
function propName(attr) {
  if (attr === 'class') return 'className';
  if (attr.startsWith('data-') || attr.startsWith('aria-')) return attr;
  return camel(attr);
}

const decode = (s) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/// A minimal XML reader for icon files: elements, attributes, text; no DTDs.
export function svgToJsx(svg) {
  const stack = [{ type: '#root', props: {}, kids: [] }];
  const re = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\/\s*([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of svg.matchAll(re)) {
    if (m[1]) {
      const el = stack.pop();
      stack[stack.length - 1].kids.push(el);
    } else if (m[2]) {
      const props = {};
      for (const a of m[3].matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        const value = decode(a[2] ?? a[3]);
        if (a[1] === 'style') props.style = styleObject(value);
        else props[propName(a[1])] = value;
      }
      const el = { type: m[2], props, kids: [] };
      if (m[4]) stack[stack.length - 1].kids.push(el);
      else stack.push(el);
    } else if (m[5] && m[5].trim()) {
      stack[stack.length - 1].kids.push(decode(m[5]));
    }
  }
  const finish = (el) => {
    if (typeof el === 'string') return el;
    const kids = el.kids.map(finish);
    const props = { ...el.props };
    if (kids.length) props.children = kids.length === 1 ? kids[0] : kids;
    return { type: el.type, props };
  };
  return finish(stack[0].kids.find((k) => typeof k !== 'string'));
}

// ---- cards ----------------------------------------------------------------------------

const h = (type, props = {}, ...children) => ({
  type, props: children.length ? { ...props, children: children.length === 1 ? children[0] : children } : props,
});
const COLORS = ['#0f172a', '#2563eb', '#dc2626', '#16a34a'];
const SIZE = 48;

/// An icon at `SIZE` px: the root's own width/height replaced, as pasting code does.
export function sized(svg, size = SIZE) {
  const el = svgToJsx(svg);
  el.props = { ...el.props, width: size, height: size };
  return el;
}

/// A 600×400 card: 4 rows of 6 icons, each row in its own `color` (currentColor).
export function grid(icons) {
  const rows = [];
  for (let r = 0; r < 4; ++r) {
    const row = icons.slice(r * 6, r * 6 + 6).map((svg) => sized(svg));
    if (row.length)
      rows.push(h('div', { style: { display: 'flex', justifyContent: 'space-around', alignItems: 'center', height: 90, color: COLORS[r] } }, ...row));
  }
  return {
    width: 600, height: 400,
    root: h('div', { style: { display: 'flex', flexDirection: 'column', justifyContent: 'center', width: 600, height: 400, padding: 20, backgroundColor: '#ffffff' } }, ...rows),
  };
}

// Icons written here (no licence beyond the repository's) with the features the sets
// above do not use, as Figma, Inkscape and Illustrator exports have them.
export const FEATURE_ICONS = [
  // Figma: clip-path group with a rect in defs
  '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" xmlns="http://www.w3.org/2000/svg"><g clip-path="url(#clip0)"><circle cx="12" cy="12" r="11" fill="#6366F1"/><rect x="12" y="0" width="12" height="24" fill="#F59E0B"/></g><defs><clipPath id="clip0"><rect width="24" height="24" rx="6" fill="white"/></clipPath></defs></svg>',
  // linear gradient
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g1" x1="0" y1="0" x2="24" y2="24" gradientUnits="userSpaceOnUse"><stop stop-color="#06B6D4"/><stop offset="1" stop-color="#8B5CF6"/></linearGradient></defs><path d="M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z" fill="url(#g1)"/></svg>',
  // radial gradient
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><defs><radialGradient id="r1" cx="0.35" cy="0.35" r="0.65"><stop offset="0" stop-color="#FDE68A"/><stop offset="1" stop-color="#D97706"/></radialGradient></defs><circle cx="12" cy="12" r="10" fill="url(#r1)"/></svg>',
  // symbol + use
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><symbol id="dot" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="currentColor"/></symbol><use xlink:href="#dot" x="1" y="1" width="10" height="10"/><use href="#dot" x="13" y="1" width="10" height="10"/><use href="#dot" x="7" y="13" width="10" height="10"/></svg>',
  // mask
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><mask id="m1"><rect width="24" height="24" fill="white"/><circle cx="16" cy="8" r="5" fill="black"/></mask><circle cx="12" cy="12" r="10" fill="currentColor" mask="url(#m1)"/></svg>',
  // transforms: rotate, translate+scale, matrix
  '<svg viewBox="0 0 24 24" fill="currentColor" xmlns="http://www.w3.org/2000/svg"><rect x="8" y="2" width="8" height="8" transform="rotate(45 12 6)"/><g transform="translate(2 14) scale(0.5)"><rect width="16" height="16"/></g><rect width="8" height="8" transform="matrix(1 0 0.5 1 12 14)"/></svg>',
  // stroke-dasharray + dashoffset
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" xmlns="http://www.w3.org/2000/svg"><circle cx="12" cy="12" r="9" stroke-dasharray="4 2"/><path d="M4 21h16" stroke-dasharray="1 3" stroke-linecap="round"/></svg>',
  // style attributes
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><path d="M3 12h18M12 3v18" style="fill:none;stroke:#0EA5E9;stroke-width:3;stroke-linecap:round"/><circle cx="12" cy="12" r="4" style="fill:#F43F5E;opacity:0.8"/></svg>',
  // class + <style> (Illustrator)
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><defs><style>.a{fill:#22C55E}.b{fill:none;stroke:#15803D;stroke-width:2}</style></defs><rect class="a" x="3" y="3" width="18" height="18" rx="4"/><path class="b" d="M7 12l3 3 7-7"/></svg>',
  // fill-rule evenodd ring, fill-opacity, stroke-opacity
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><path fill="currentColor" fill-rule="evenodd" d="M12 2a10 10 0 100 20 10 10 0 000-20zm0 5a5 5 0 100 10 5 5 0 000-10z"/><circle cx="12" cy="12" r="3" fill="currentColor" fill-opacity="0.4" stroke="currentColor" stroke-opacity="0.5"/></svg>',
  // polygon, polyline, ellipse, line
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" xmlns="http://www.w3.org/2000/svg"><polygon points="12 2 22 8 22 16 12 22 2 16 2 8"/><polyline points="2 8 12 14 22 8"/><line x1="12" y1="14" x2="12" y2="22"/><ellipse cx="12" cy="8" rx="3" ry="1.5" fill="currentColor"/></svg>',
  // group opacity and nested svg
  '<svg viewBox="0 0 24 24" fill="currentColor" xmlns="http://www.w3.org/2000/svg"><g opacity="0.35"><rect x="2" y="2" width="14" height="14"/><rect x="8" y="8" width="14" height="14"/></g><svg x="6" y="6" width="12" height="12" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></svg></svg>',
  // stroke-miterlimit, miter joins and px units on stroke-width (ionicons)
  '<svg viewBox="0 0 512 512" xmlns="http://www.w3.org/2000/svg"><path d="M80 400L256 96l176 304z" fill="none" stroke="currentColor" stroke-miterlimit="10" stroke-width="32px"/></svg>',
  // percentages and em on shapes
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><rect x="10%" y="10%" width="80%" height="40%" rx="2" fill="currentColor"/><circle cx="50%" cy="75%" r="15%" fill="#F97316"/></svg>',
  // a gradient defined with gradientTransform and spreadMethod
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><linearGradient id="s1" x2="0.25" spreadMethod="reflect" gradientTransform="rotate(30)"><stop offset="0" stop-color="#EC4899"/><stop offset="1" stop-color="#FDF2F8"/></linearGradient><rect width="24" height="24" rx="5" fill="url(#s1)"/></svg>',
  // pattern fill
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><pattern id="p1" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2" fill="currentColor"/></pattern><rect width="24" height="24" rx="4" fill="url(#p1)"/></svg>',
  // text inside an icon
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><rect width="24" height="24" rx="4" fill="#1D4ED8"/><text x="12" y="17" text-anchor="middle" font-family="DejaVu Sans" font-weight="700" font-size="13" fill="#fff">JS</text></svg>',
  // marker arrow
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><defs><marker id="ar" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="currentColor"/></marker></defs><path d="M4 20L18 6" stroke="currentColor" stroke-width="2" marker-end="url(#ar)"/></svg>',
  // fill="currentColor" with color set inside, stroke inherited from a g
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><g stroke="currentColor" stroke-width="2" fill="none" color="#A855F7"><rect x="3" y="3" width="8" height="8"/><rect x="13" y="13" width="8" height="8" fill="currentColor"/></g><circle cx="17" cy="7" r="4" fill="currentColor"/></svg>',
  // clip-path on a shape with clipPathUnits
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><clipPath id="c2" clipPathUnits="objectBoundingBox"><circle cx="0.5" cy="0.5" r="0.5"/></clipPath><rect x="2" y="2" width="20" height="20" fill="currentColor" clip-path="url(#c2)"/><rect x="2" y="11" width="20" height="2" fill="#fff" clip-path="url(#c2)"/></svg>',
  // vector-effect and shape-rendering
  '<svg viewBox="0 0 12 12" xmlns="http://www.w3.org/2000/svg"><rect x="1" y="1" width="10" height="10" fill="none" stroke="currentColor" vector-effect="non-scaling-stroke" shape-rendering="crispEdges"/><path d="M3 6h6" stroke="currentColor"/></svg>',
  // xml:space text and display/visibility
  '<svg viewBox="0 0 24 24" fill="currentColor" xmlns="http://www.w3.org/2000/svg"><rect x="2" y="2" width="9" height="9"/><rect x="13" y="2" width="9" height="9" display="none"/><rect x="2" y="13" width="9" height="9" visibility="hidden"/><rect x="13" y="13" width="9" height="9"/></svg>',
  // feDropShadow filter
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><filter id="f1" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="1" dy="1" stdDeviation="1" flood-color="#000" flood-opacity="0.5"/></filter><rect x="4" y="4" width="14" height="14" rx="3" fill="#FACC15" filter="url(#f1)"/></svg>',
  // preserveAspectRatio on a non-square viewBox
  '<svg viewBox="0 0 32 16" preserveAspectRatio="xMinYMax meet" xmlns="http://www.w3.org/2000/svg"><rect width="32" height="16" rx="8" fill="currentColor"/><circle cx="24" cy="8" r="6" fill="#fff"/></svg>',
];

/// The ways a pasted icon is sized, coloured and placed: props on the svg or the style,
/// rem and em sizes, a sized wrapper, CSS transforms and opacity, inline in a
/// paragraph, on a dark background; from the first icons of a few sets.
function pasteVariants(icons) {
  const pick = (set, i) => svgToJsx(icons[set].icons[i].svg);
  const withProps = (el, props) => ({ ...el, props: { ...el.props, width: undefined, height: undefined, ...props } });
  const clean = (el) => JSON.parse(JSON.stringify(el));
  const cell = (style, ...kids) => h('div', { style: { display: 'flex', width: 80, height: 80, alignItems: 'center', justifyContent: 'center', ...style } }, ...kids);
  const row = (...kids) => h('div', { style: { display: 'flex', justifyContent: 'space-around', alignItems: 'center', height: 90 } }, ...kids);
  return {
    width: 600, height: 400,
    root: h('div', { style: { display: 'flex', flexDirection: 'column', justifyContent: 'center', width: 600, height: 400, padding: 20, backgroundColor: '#ffffff', color: '#1e293b', fontFamily: 'DejaVu Sans' } },
      row(
        cell({}, clean(withProps(pick('lucide', 8), { style: { width: 48, height: 48 } }))),
        cell({ fontSize: 32 }, clean(withProps(pick('tabler', 8), { width: '1.5em', height: '1.5em' }))),
        // (not `tw`: it turns on Tailwind's preflight, svg display:block, which the oracle lacks)
        cell({}, clean(withProps(pick('heroicons', 8), { style: { width: '3rem', height: '3rem', color: '#2563eb' } }))),
        cell({}, h('div', { style: { display: 'flex', width: 48, height: 48 } }, clean(withProps(pick('bootstrap', 8), {})))),
        cell({}, clean(withProps(pick('feather', 8), { width: 48, height: 48, style: { color: '#e11d48' } }))),
        cell({}, clean(withProps(pick('remix', 8), { width: 48, height: 48, style: { transform: 'rotate(45deg)' } })))),
      row(
        cell({ opacity: 0.5 }, clean(withProps(pick('octicons', 8), { width: 48, height: 48 }))),
        cell({ backgroundColor: '#0f172a', color: '#f8fafc', borderRadius: 16 }, clean(withProps(pick('phosphor', 8), { width: 48, height: 48 }))),
        cell({}, clean(withProps(pick('ionicons', 8), { width: 48, height: 48, fill: '#16a34a', stroke: '#16a34a' }))),
        cell({}, clean(withProps(pick('material', 8), { width: 48, height: 48, style: { fill: '#7c3aed' } }))),
        cell({}, clean(withProps(pick('simple', 8), { width: 48, height: 48, fill: '#f59e0b' }))),
        cell({}, clean(withProps(pick('lucide', 9), { width: 48, height: 48, strokeWidth: 1, style: { margin: 4, padding: 4, border: '2px solid #94a3b8', borderRadius: 8, boxSizing: 'content-box' } })))),
      h('div', { style: { display: 'block', fontSize: 28, lineHeight: 1.4, paddingTop: 12 } },
        'Ship ', clean(withProps(pick('lucide', 10), { width: 28, height: 28, style: { verticalAlign: 'middle', display: 'inline' } })),
        ' faster with ', clean(withProps(pick('heroicons', 10), { width: '1em', height: '1em' })), ' inline icons.'),
      row(
        ...[16, 24, 32, 64, 96].map((size, i) => clean(withProps(pick('tabler', 12 + i), { width: size, height: size }))))),
  };
}

function loadCards() {
  let icons = {};
  try {
    icons = JSON.parse(readFileSync(iconsFile, 'utf8'));
  } catch {
    return {};
  }
  const out = {};
  for (const [key, set] of Object.entries(icons))
    out[key] = grid(set.icons.map((i) => i.svg));
  out.features = grid(FEATURE_ICONS);
  out.paste = pasteVariants(icons);
  return out;
}

export const cards = loadCards();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'extract' && process.argv[3]) extract(process.argv[3]);
  else console.error('usage: node sweep.mjs extract NODE_MODULES');
}
