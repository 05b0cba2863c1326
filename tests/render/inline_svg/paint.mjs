// Inline-SVG cards whose paint comes from the HTML around the svg (issue 28, third round):
// inherited SVG paint properties on a wrapper (`fill`, `stroke`, `stroke-width`,
// `fill-opacity`, Tailwind's `fill-*`/`stroke-*`), `shape-rendering: crispEdges`, and an
// svg under a CSS transform. Icons from sweep-icons.json (simple-icons, octicons,
// feather, heroicons). A card with `oracle` has Chromium draw that tree instead: the
// same card with its `tw` classes written as the declarations Tailwind v4 gives them.
//
//   node measure.mjs IMPRINT OUT --cards paint.mjs

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { svgToJsx } from './sweep.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sets = JSON.parse(readFileSync(path.join(here, 'sweep-icons.json'), 'utf8'));
const source = (set, name) => sets[set].icons.find((i) => i.name.endsWith(`/${name}.svg`)).svg;

const h = (type, props = {}, ...children) => ({
  type, props: children.length ? { ...props, children: children.length === 1 ? children[0] : children } : props,
});
/// An icon at `size` px; `drop` removes root attributes (svgo's removeAttrs, for icons
/// styled from CSS), `extra` adds props.
const icon = (set, name, size, extra = {}, drop = []) => {
  const el = svgToJsx(source(set, name));
  const props = { ...el.props, width: size, height: size, ...extra };
  for (const d of drop) delete props[d];
  return { ...el, props };
};
const LINE = ['fill', 'stroke', 'strokeWidth', 'strokeLinecap', 'strokeLinejoin'];
const W = 600, H = 315;
const card = (style, ...children) => ({
  width: W, height: H,
  root: h('div', { style: { display: 'flex', width: W, height: H, fontFamily: 'DejaVu Sans', backgroundColor: '#ffffff', color: '#0f172a', fontSize: 22, ...style } }, ...children),
});
const box = (style, ...children) => h('div', { style: { display: 'flex', alignItems: 'center', gap: 10, ...style } }, ...children);
const twBox = (tw, ...children) => h('div', { tw, style: { display: 'flex', alignItems: 'center', gap: 10 } }, ...children);
const label = (t) => h('span', {}, t);
const grid = (...rows) => card({ flexDirection: 'column', padding: 32, gap: 22 }, ...rows);

/// Tailwind v4's declarations for the classes the tailwind card uses (its default theme).
const TW = {
  'fill-blue-500': { fill: 'oklch(62.3% 0.214 259.815)' },
  'fill-current': { fill: 'currentcolor' },
  'text-emerald-600': { color: 'oklch(59.6% 0.145 163.225)' },
  'text-gray-500': { color: 'oklch(55.1% 0.027 264.364)' },
  'stroke-red-500': { stroke: 'oklch(63.7% 0.237 25.331)' },
  'stroke-2': { strokeWidth: '2' },
  'fill-none': { fill: 'none' },
  'fill-rose-600/50': { fill: 'color-mix(in oklab, oklch(58.6% 0.253 17.585) 50%, transparent)' },
};
const twStyle = (classes) => Object.assign({}, ...classes.split(' ').map((c) => TW[c]));
/// `tree` with every `tw` prop replaced by its declarations (under the element's style).
const untw = (node) => {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(untw);
  const { tw, children, ...props } = node.props || {};
  const out = { ...props };
  if (tw) out.style = { ...twStyle(tw), ...(props.style || {}) };
  if (children !== undefined) out.children = untw(children);
  return { type: node.type, props: out };
};
const withOracle = (c) => ({ ...c, oracle: untw(c.root) });

export const cards = {
  // fill and fill-opacity from a wrapper's style, as octicons' `.octicon { fill: currentColor }`.
  wrapperFill: grid(
    box({ fill: '#1d4ed8' }, icon('simple', 'mastercard', 48), icon('simple', 'codesandbox', 48), label('style fill')),
    box({ fill: '#dc2626', fillOpacity: 0.5 }, icon('simple', 'apollographql', 48), icon('simple', 'carrd', 48), label('fill-opacity .5')),
    box({ color: '#9333ea', fill: 'currentColor' }, icon('octicons', 'heart-fill-24', 48), icon('octicons', 'comment-fill-24', 48),
      box({ color: '#16a34a' }, icon('octicons', 'gear-16', 48)), label('fill: currentColor'))),
  // A line set with its paint attributes removed, painted by a wrapper's stroke.
  wrapperStroke: grid(
    box({ fill: 'none', stroke: '#ea580c', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' },
      icon('feather', 'sunrise', 48, {}, LINE), icon('feather', 'truck', 48, {}, LINE), label('stroke 2')),
    box({ fill: 'none', stroke: '#0891b2', strokeWidth: 1, strokeLinecap: 'round', strokeLinejoin: 'round' },
      icon('feather', 'cpu', 48, {}, LINE), icon('feather', 'shield', 48, {}, LINE), label('stroke 1')),
    box({ color: '#6b7280' }, icon('heroicons', 'rocket-launch', 48), icon('heroicons', 'exclamation-triangle', 48), label('text colour'))),
  // The same from Tailwind classes, on the wrapper and on the svg.
  tailwind: withOracle(grid(
    box({}, h('div', { tw: 'fill-blue-500', style: { display: 'flex', gap: 10 } }, icon('simple', 'mastercard', 48), icon('simple', 'now', 48)),
      icon('octicons', 'wall-24', 48, { tw: 'fill-current text-emerald-600' }), label('fill-*')),
    twBox('stroke-red-500 stroke-2 fill-none', icon('feather', 'sun', 48, {}, LINE), icon('feather', 'save', 48, {}, LINE), label('stroke-*')),
    twBox('text-gray-500', icon('heroicons', 'pencil-square', 48), h('div', { tw: 'fill-rose-600/50', style: { display: 'flex' } }, icon('simple', 'favro', 48)), label('text-gray-500')))),
  // shape-rendering: crispEdges on the root (attribute), on the svg's style and on one
  // shape, at scales that put edges between pixels.
  crispEdges: card({ alignItems: 'center', padding: 32, gap: 28 },
    h('svg', { width: 150, height: 150, viewBox: '0 0 16 16', shapeRendering: 'crispEdges', fill: '#e11d48' },
      ...[[3, 2, 3], [10, 2, 3], [2, 3, 12], [2, 5, 12], [3, 7, 10], [4, 9, 8], [5, 11, 6], [6, 12, 4], [7, 13, 2], [2, 4, 12], [2, 6, 12], [3, 8, 10], [4, 10, 8]]
        .map(([x, y, w]) => h('rect', { x, y, width: w, height: 1 }))),
    h('svg', { width: 170, height: 150, viewBox: '0 0 17 15', style: { shapeRendering: 'crispEdges' } },
      h('line', { x1: 0, y1: 14.5, x2: 17, y2: 14.5, stroke: '#94a3b8', strokeWidth: 0.3 }),
      ...[5, 9, 6, 12, 8].map((v, i) => h('rect', { x: 0.7 + i * 3.3, y: 14 - v, width: 2.1, height: v, fill: '#2563eb' }))),
    h('div', { style: { display: 'flex', flexDirection: 'column', gap: 12, color: '#16a34a' } },
      icon('lucide', 'grid-2-x-2', 45, { shapeRendering: 'crispEdges' }),
      h('svg', { width: 45, height: 45, viewBox: '0 0 24 24' },
        h('circle', { cx: 12, cy: 12, r: 9.3, fill: '#f59e0b', shapeRendering: 'crispEdges' }),
        h('circle', { cx: 12, cy: 12, r: 4.6, fill: '#7c3aed' })))),
  // Icons under a CSS transform on a wrapper: rotated, scaled, both.
  transformed: card({ alignItems: 'center', justifyContent: 'center', gap: 56, fontSize: 30 },
    h('div', { style: { display: 'flex', gap: 12, alignItems: 'center', transform: 'rotate(12deg)', color: '#2563eb' } },
      icon('lucide', 'user-plus', 48), icon('heroicons', 'star', 48)),
    h('div', { style: { display: 'flex', gap: 8, alignItems: 'center', transform: 'scale(1.5)', color: '#16a34a' } },
      icon('feather', 'shield', 32), icon('simple', 'mastercard', 32, { fill: 'currentColor' })),
    h('div', { style: { display: 'flex', transform: 'rotate(-8deg) scale(2)', color: '#dc2626' } },
      icon('tabler', 'clipboard-list', 32))),
};
