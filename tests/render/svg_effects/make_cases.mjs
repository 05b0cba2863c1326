// Chromium-referenced cards of inline SVG that QtSvg drew wrongly (issue 28): what users
// paste from @vercel/og / next/og and takumi templates — Figma-exported icons (every one
// wraps its paths in `<g clipPath="url(#…)">`), illustrations with `<mask>`, drop-shadow
// `<filter>`s (Figma's own and the classic feOffset/feGaussianBlur/feFlood/feComposite/
// feMerge), `<use>` of a `<symbol viewBox>`, gradients with gradientTransform, evenodd
// rings, `<text>`, and lucide-static 1.62 stroke icons (paths copied) as the plain case.
// Each card is a template whose `root` is the JSON React serialises JSX to.
//
// Writes cases/NAME.json and chromium/NAME.png: Chromium's screenshot of React's own
// markup for the same tree (react-dom/server renderToStaticMarkup, so the attribute names
// are React's, not Imprint's), drawn with Imprint's fonts (resources/fontconfig).
//
// Usage: [CARDS=name,...] NODE_PATH=DIR/node_modules node make_cases.mjs
//   (DIR: a scratch directory with `npm install react@19 react-dom@19`)

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const h = (type, props = {}, ...children) => ({
  type,
  props: children.length ? { ...props, children: children.length === 1 ? children[0] : children } : props,
});
const svg = (size, viewBox, props, ...children) =>
  h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: size, height: size, viewBox, fill: 'none', ...props }, ...children);

const W = 480, H = 252;
const card = (style, ...children) => ({
  width: W, height: H,
  root: h('div', { style: { display: 'flex', width: W, height: H, fontFamily: 'DejaVu Sans', backgroundColor: '#ffffff',
    color: '#0f172a', alignItems: 'center', justifyContent: 'space-around', ...style } }, ...children),
});

// Figma's export of a 24 px icon frame: the paths inside <g clipPath> with the frame as
// the clip; here a shape that overflows the frame, so a renderer without clipPath shows it.
const figmaIcon = (size, id, colour, overflow) => svg(size, '0 0 24 24', {},
  h('g', { clipPath: `url(#${id})` },
    h('circle', { cx: 12, cy: 12, r: 11, fill: colour }),
    h('path', { d: overflow, fill: '#ffffff', fillOpacity: 0.85 }),
    h('rect', { x: -6, y: 16, width: 36, height: 14, fill: '#0f172a' })),
  h('defs', {}, h('clipPath', { id }, h('rect', { width: 24, height: 24, rx: 6, fill: 'white' }))));
const figmaCircleClip = (size) => svg(size, '0 0 40 40', {},
  h('g', { clipPath: 'url(#clip0_12_7)' },
    h('rect', { width: 40, height: 40, fill: '#f59e0b' }),
    h('path', { d: 'M-4 30 L14 12 L26 24 L32 18 L46 32 V46 H-4 Z', fill: '#15803d' }),
    h('circle', { cx: 28, cy: 10, r: 5, fill: '#fef3c7' })),
  h('defs', {}, h('clipPath', { id: 'clip0_12_7' }, h('circle', { cx: 20, cy: 20, r: 20, fill: 'white' }))));

// Figma's drop shadow as it exports it (feFlood / feColorMatrix / feOffset / feGaussianBlur
// / feComposite / feBlend), around a rounded card.
const figmaShadow = (size) => svg(size, '0 0 120 120', {},
  h('g', { filter: 'url(#filter0_d_1_2)' }, h('rect', { x: 20, y: 16, width: 80, height: 80, rx: 16, fill: '#ffffff' }),
    h('path', { d: 'M44 56 l10 10 l22 -22', stroke: '#16a34a', strokeWidth: 8, strokeLinecap: 'round', strokeLinejoin: 'round' })),
  h('defs', {}, h('filter', { id: 'filter0_d_1_2', x: 0, y: 0, width: 120, height: 120, filterUnits: 'userSpaceOnUse',
    colorInterpolationFilters: 'sRGB' },
  h('feFlood', { floodOpacity: 0, result: 'BackgroundImageFix' }),
  h('feColorMatrix', { in: 'SourceAlpha', type: 'matrix', values: '0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 127 0', result: 'hardAlpha' }),
  h('feOffset', { dy: 6 }),
  h('feGaussianBlur', { stdDeviation: 8 }),
  h('feComposite', { in2: 'hardAlpha', operator: 'out' }),
  h('feColorMatrix', { type: 'matrix', values: '0 0 0 0 0.06 0 0 0 0 0.09 0 0 0 0 0.16 0 0 0 0.45 0' }),
  h('feBlend', { mode: 'normal', in2: 'BackgroundImageFix', result: 'effect1_dropShadow_1_2' }),
  h('feBlend', { mode: 'normal', in: 'SourceGraphic', in2: 'effect1_dropShadow_1_2', result: 'shape' }))));
// The classic hand-written one: blur of the alpha, offset, tinted, merged under the shape.
const classicShadow = (size) => svg(size, '0 0 120 120', {},
  h('defs', {}, h('filter', { id: 'shadow', x: '-30%', y: '-30%', width: '160%', height: '160%' },
    h('feGaussianBlur', { in: 'SourceAlpha', stdDeviation: 5 }),
    h('feOffset', { dx: 6, dy: 8, result: 'offsetblur' }),
    h('feFlood', { floodColor: '#7c3aed', floodOpacity: 0.6 }),
    h('feComposite', { in2: 'offsetblur', operator: 'in' }),
    h('feMerge', {}, h('feMergeNode', {}), h('feMergeNode', { in: 'SourceGraphic' })))),
  h('circle', { cx: 56, cy: 54, r: 36, fill: '#a78bfa', filter: 'url(#shadow)' }));

// Figma's alpha mask (mask-type: alpha, userSpaceOnUse) over a photo-like gradient scene,
// and a luminance mask fading the scene out.
const maskIllustration = (size) => svg(size, '0 0 160 120', {},
  h('mask', { id: 'mask0_3_9', style: { maskType: 'alpha' }, maskUnits: 'userSpaceOnUse', x: 0, y: 0, width: 160, height: 120 },
    h('path', { d: 'M80 8 C120 8 152 36 152 64 C152 96 120 112 80 112 C40 112 8 96 8 64 C8 36 40 8 80 8 Z', fill: '#000' })),
  h('g', { mask: 'url(#mask0_3_9)' },
    h('rect', { width: 160, height: 120, fill: '#0ea5e9' }),
    h('circle', { cx: 120, cy: 30, r: 14, fill: '#fde047' }),
    h('path', { d: 'M0 120 L50 50 L90 100 L120 70 L160 110 V120 Z', fill: '#166534' })));
const fadeMask = (size) => svg(size, '0 0 120 120', {},
  h('defs', {},
    h('linearGradient', { id: 'fade', x1: 0, y1: 0, x2: 0, y2: 1 },
      h('stop', { offset: 0, stopColor: '#fff' }), h('stop', { offset: 1, stopColor: '#000' })),
    h('mask', { id: 'fadeMask' }, h('rect', { width: 120, height: 120, fill: 'url(#fade)' }))),
  h('g', { mask: 'url(#fadeMask)' },
    h('rect', { x: 10, y: 10, width: 100, height: 100, rx: 20, fill: '#e11d48' }),
    h('circle', { cx: 60, cy: 60, r: 26, fill: '#fff' })));

// A sprite sheet: <symbol viewBox> used at three sizes, and one with its own fill.
const symbolSprite = () => svg(200, '0 0 200 120', { width: 200, height: 120 },
  h('defs', {}, h('symbol', { id: 'star', viewBox: '0 0 24 24' },
    h('path', { d: 'M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01L12 2z' }))),
  h('use', { href: '#star', x: 0, y: 30, width: 48, height: 48, fill: '#f59e0b' }),
  h('use', { href: '#star', x: 56, y: 10, width: 88, height: 88, fill: '#ef4444' }),
  h('use', { href: '#star', x: 150, y: 40, width: 40, height: 40, fill: 'none', stroke: '#2563eb', strokeWidth: 2 }));

// Gradients with gradientTransform and userSpaceOnUse, and an evenodd ring.
const gradients = (size) => svg(size, '0 0 120 120', {},
  h('defs', {},
    h('linearGradient', { id: 'lg', gradientTransform: 'rotate(45 .5 .5)' },
      h('stop', { offset: '0%', stopColor: '#6366f1' }), h('stop', { offset: '100%', stopColor: '#ec4899' })),
    h('radialGradient', { id: 'rg', cx: 60, cy: 60, r: 40, gradientUnits: 'userSpaceOnUse',
      gradientTransform: 'translate(60 60) scale(1.6 0.8) translate(-60 -60)' },
    h('stop', { offset: 0, stopColor: '#fef08a' }), h('stop', { offset: 0.6, stopColor: '#f97316' }),
    h('stop', { offset: 1, stopColor: '#7c2d12', stopOpacity: 0.2 }))),
  h('rect', { width: 120, height: 56, rx: 12, fill: 'url(#lg)' }),
  h('path', { d: 'M60 64 a28 28 0 1 0 0.01 0 Z M60 76 a16 16 0 1 0 0.01 0 Z', fillRule: 'evenodd', fill: 'url(#rg)' }));

// lucide-static 1.62 icons (stroke currentColor): the plain case, which must not regress.
const lucide = (size, colour, ...children) => h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: size, height: size,
  viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round',
  strokeLinejoin: 'round', style: { color: colour } }, ...children);
const p = (d) => h('path', { d });
const camera = (s, c) => lucide(s, c, p('M13.997 4a2 2 0 0 1 1.76 1.05l.486.9A2 2 0 0 0 18.003 7H20a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2h1.997a2 2 0 0 0 1.759-1.048l.489-.904A2 2 0 0 1 10.004 4z'), h('circle', { cx: 12, cy: 13, r: 3 }));
const shield = (s, c) => lucide(s, c, p('M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z'), p('m9 12 2 2 4-4'));
const layers = (s, c) => lucide(s, c, p('M12.83 2.18a2 2 0 0 0-1.66 0L2.6 6.08a1 1 0 0 0 0 1.83l8.58 3.91a2 2 0 0 0 1.66 0l8.58-3.9a1 1 0 0 0 0-1.83z'), p('M2 12a1 1 0 0 0 .58.91l8.6 3.91a2 2 0 0 0 1.65 0l8.58-3.9A1 1 0 0 0 22 12'), p('M2 17a1 1 0 0 0 .58.91l8.6 3.91a2 2 0 0 0 1.65 0l8.58-3.9A1 1 0 0 0 22 17'));
const sparkles = (s, c) => lucide(s, c, p('M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z'), p('M20 2v4'), p('M22 4h-4'), h('circle', { cx: 4, cy: 20, r: 2 }));

// Text inside SVG: pango on Imprint's fonts in the helper.
const svgText = () => svg(300, '0 0 300 120', { width: 300, height: 120 },
  h('rect', { x: 4, y: 4, width: 292, height: 112, rx: 16, fill: '#1e293b' }),
  h('text', { x: 24, y: 58, fill: '#f8fafc', fontFamily: 'DejaVu Sans', fontSize: 32, fontWeight: 700 }, 'Launch day'),
  h('text', { x: 24, y: 94, fill: '#94a3b8', fontFamily: 'DejaVu Sans', fontSize: 18 }, 'v2.0 is out now'));

// The same effects in an uploaded or remote SVG: an `img` of a data: URL, drawn by the
// image decoder (at its natural size and stretched to a larger box).
const figmaBadge = '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" fill="none">'
  + '<g filter="url(#f)"><g clip-path="url(#c)"><rect x="8" y="6" width="32" height="32" rx="8" fill="#0ea5e9"/>'
  + '<path d="M0 30 L24 12 L48 30 V48 H0 Z" fill="#0369a1"/></g></g><defs>'
  + '<filter id="f" x="0" y="0" width="48" height="48" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">'
  + '<feOffset dy="3"/><feGaussianBlur stdDeviation="3"/>'
  + '<feColorMatrix values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.35 0"/>'
  + '<feBlend in="SourceGraphic"/></filter>'
  + '<clipPath id="c"><rect x="8" y="6" width="32" height="32" rx="8"/></clipPath></defs></svg>';
const dataUrl = (svgText) => `data:image/svg+xml;base64,${Buffer.from(svgText).toString('base64')}`;
const img = (src, size) => h('img', { src, width: size, height: size });
// Natural sizes in absolute units (CSS px at 96 per inch, as Chromium takes them; QtSvg
// took 90) and without any size (300×150 as in Chromium; QtSvg gave the content's 10×10).
const unitBadge = (size) => '<svg xmlns="http://www.w3.org/2000/svg" ' + size + ' viewBox="0 0 20 10">'
  + '<rect width="20" height="10" rx="3" fill="#7c3aed"/><circle cx="5" cy="5" r="3" fill="#fff"/></svg>';
const natural = (src) => h('img', { src });
// An SVG drawn by an `<image>` inside an inline svg (satori's "svg with image" case: a
// twemoji as a base64 data: URL): Chromium draws it as vectors at the image's box; librsvg
// 2.54 rasterised it at its own 36 px and scaled that up. A viewBox-only smiley at 120, a
// 2:1 badge stretched with preserveAspectRatio="none", and one with a size but no viewBox.
const smiley = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><path fill="#FFCC4D" '
  + 'd="M36 18c0 9.941-8.059 18-18 18S0 27.941 0 18 8.059 0 18 0s18 8.059 18 18"/>'
  + '<ellipse fill="#664500" cx="11.5" cy="12.5" rx="2.5" ry="5.5"/><ellipse fill="#664500" cx="24.5" cy="12.5" rx="2.5" ry="5.5"/>'
  + '<path fill="#664500" d="M18 22c-3.6 0-6-.4-9-1-.7-.1-2 0-2 2 0 4 4.6 9 11 9s11-5 11-9c0-2-1.3-2.1-2-2-3 .6-5.4 1-9 1"/></svg>';
const wideBadge = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" rx="10" fill="#7c3aed"/>'
  + '<circle cx="10" cy="10" r="6" fill="#fff"/></svg>';
const sizedRing = '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="9" fill="none" '
  + 'stroke="#0ea5e9" stroke-width="3"/><circle cx="12" cy="12" r="3" fill="#f43f5e"/></svg>';
const imageOf = (size, src, props = {}) => svg(size, `0 0 ${size} ${size}`, {},
  h('image', { width: size, height: size, href: dataUrl(src), ...props }));

// Text that takes its font from the HTML around the svg (the card's bold Inter, at the
// viewBox's scale) and is placed by dominant-baseline / alignment-baseline, which librsvg
// ignores: a progress ring's centred percentage, avatar initials at 50 %, a tspan with
// its own y.
const ringLabel = (size, pct, colour) => svg(size, '0 0 36 36', {},
  h('circle', { cx: 18, cy: 18, r: 15.9155, stroke: '#e5e7eb', strokeWidth: 3.5 }),
  h('circle', { cx: 18, cy: 18, r: 15.9155, stroke: colour, strokeWidth: 3.5, strokeDasharray: `${pct} 100`,
    strokeLinecap: 'round', transform: 'rotate(-90 18 18)' }),
  h('text', { x: 18, y: 18, textAnchor: 'middle', dominantBaseline: 'central', fontSize: 8, fill: '#111827' }, `${pct}%`));
const initials = (size, text, colour) => svg(size, '0 0 100 100', {},
  h('circle', { cx: 50, cy: 50, r: 50, fill: colour }),
  h('text', { x: '50%', y: '50%', textAnchor: 'middle', dominantBaseline: 'middle', fill: '#ffffff', fontSize: 40 }, text));
const label = () => svg(150, '0 0 150 90', { width: 150, height: 90, fill: '#0f172a' },
  h('line', { x1: 0, x2: 150, y1: 30, y2: 30, stroke: '#f43f5e' }),
  h('text', { x: 4, y: 30, alignmentBaseline: 'middle', fontSize: 20, fontWeight: 400 }, 'middle'),
  h('text', { x: 80, y: 60, fontSize: 16 }, 'a', h('tspan', { x: 4, y: 70, dominantBaseline: 'hanging' }, 'hanging')));
// CSS transforms inside the svg turn about transform-origin (librsvg took 0 0): a React
// ring's arc turned with style, and a bar turned about its own box (transformBox fill-box).
const styledRing = (size) => svg(size, '0 0 120 120', {},
  h('circle', { cx: 60, cy: 60, r: 54, stroke: '#e2e8f0', strokeWidth: 12 }),
  h('circle', { cx: 60, cy: 60, r: 54, stroke: '#8b5cf6', strokeWidth: 12, strokeDasharray: 339.292,
    strokeDashoffset: 101.79, strokeLinecap: 'round', style: { transform: 'rotate(-90deg)', transformOrigin: 'center' } }));
const turnedBars = (size) => svg(size, '0 0 100 100', {},
  h('rect', { x: 60, y: 45, width: 40, height: 10, fill: '#f97316', style: { transform: 'rotate(-90deg)', transformOrigin: '50% 50%' } }),
  h('rect', { x: 10, y: 45, width: 30, height: 10, fill: '#0ea5e9',
    style: { transform: 'rotate(45deg) translateX(10%)', transformOrigin: 'center', transformBox: 'fill-box' } }));
// An SVG image's text without a family: Chromium's standard font (sans-serif), not a serif.
const plainText = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60">'
  + '<rect width="200" height="60" rx="8" fill="#fde68a"/><text x="12" y="40" font-size="28">Image text</text></svg>';
// Text along a <textPath> (librsvg draws none): a stamp's ring of letters, a wave from
// an offset, centred on its baseline, and a run anchored at the end of a relative path.
const textPaths = (size) => svg(size, '0 0 240 240', {},
  h('defs', {},
    h('path', { id: 'ring', d: 'M 75,80 m -58,0 a 58,58 0 1,1 116,0 a 58,58 0 1,1 -116,0' }),
    h('path', { id: 'wave', d: 'M8 200 C 40 170, 80 230, 120 200 S 200 170, 236 200' }),
    h('path', { id: 'bend', d: 'm140 30 l30 20 h30 q25 0 35 35' })),
  h('circle', { cx: 75, cy: 80, r: 58, stroke: '#e5e7eb' }),
  h('text', { fontSize: 15, fontWeight: 700, fill: '#b91c1c', letterSpacing: 2 },
    h('textPath', { href: '#ring' }, 'OFFICIAL \u2022 STAMP \u2022 2026')),
  h('text', { fontSize: 17, fill: '#1d4ed8', dominantBaseline: 'middle' },
    h('textPath', { xlinkHref: '#wave', startOffset: 10 }, 'Waves follow the curve')),
  h('text', { fontSize: 12, fill: '#065f46', textAnchor: 'end' },
    h('textPath', { href: '#bend', startOffset: '100%' }, 'ends at the end')));
// The filter primitives the writer once dropped: a grain texture (feTurbulence, as noise
// overlays are made), a duotone (feComponentTransfer tables) and an outline (feMorphology).
const filterPrimitives = (size) => svg(size, '0 0 240 240', {},
  h('filter', { id: 'grain' }, h('feTurbulence', { type: 'fractalNoise', baseFrequency: 0.65, numOctaves: 3, stitchTiles: 'stitch' })),
  h('filter', { id: 'duo' },
    h('feColorMatrix', { type: 'saturate', values: 0 }),
    h('feComponentTransfer', {},
      h('feFuncR', { type: 'table', tableValues: '0.1 0.9' }), h('feFuncG', { type: 'table', tableValues: '0.2 0.5' }),
      h('feFuncB', { type: 'table', tableValues: '0.6 0.3' }))),
  h('filter', { id: 'outline' },
    h('feMorphology', { in: 'SourceAlpha', operator: 'dilate', radius: 3, result: 'thick' }),
    h('feFlood', { floodColor: '#0ea5e9' }), h('feComposite', { in2: 'thick', operator: 'in' }),
    h('feMerge', {}, h('feMergeNode', {}), h('feMergeNode', { in: 'SourceGraphic' }))),
  h('rect', { x: 10, y: 10, width: 90, height: 90, fill: '#0f172a' }),
  h('rect', { x: 10, y: 10, width: 90, height: 90, filter: 'url(#grain)', opacity: 0.2 }),
  h('circle', { cx: 175, cy: 60, r: 50, fill: '#f43f5e', filter: 'url(#duo)' }),
  h('text', { x: 20, y: 190, fontSize: 56, fontWeight: 800, fill: '#ffffff', filter: 'url(#outline)' }, 'Grain'));
// text-transform on svg text, which librsvg ignores: in an element's style (uppercase,
// capitalize) and inherited from the HTML around the svg (lowercase).
const transformedText = (size) => svg(size, '0 0 240 120', {},
  h('text', { x: 10, y: 30, fontSize: 22, fontWeight: 700, fill: '#7c3aed', style: { textTransform: 'uppercase', letterSpacing: '0.1em' } }, 'styled text'),
  h('text', { x: 10, y: 65, fontSize: 20, fill: '#0f172a', style: { textTransform: 'capitalize' } }, 'the x-ray of (in)sight'),
  h('text', { x: 10, y: 100, fontSize: 20, fill: '#b91c1c' }, 'Inherited Case'));
// What the writer dropped or librsvg collapsed: an <a> around content (an image has no
// links; its content draws), and white-space: pre in a text's style (spaces kept).
const linkAndSpaces = (size) => svg(size, '0 0 240 120', {},
  h('a', { href: 'https://example.com' },
    h('rect', { x: 10, y: 10, width: 30, height: 30, fill: '#22c55e' }),
    h('text', { x: 50, y: 32, fontSize: 18, fill: '#2563eb', textDecoration: 'underline' }, 'a link')),
  h('text', { x: 10, y: 75, fontSize: 18, fill: '#0f172a', style: { whiteSpace: 'pre' } }, 'pre   spaced  text'),
  h('text', { x: 10, y: 105, fontSize: 18, fill: '#0f172a' }, 'normal   spaced  text'));
// Sparklines: a viewBox stretched with preserveAspectRatio="none" and strokes that do not
// scale (vector-effect), which one stroke width cannot undo when x and y scale apart.
const sparkPoints = '0,25 10,20 20,22 30,12 40,15 50,8 60,14 70,6 80,9 90,3 100,5';
const sparkline = (width, height, colour, area) => h('svg', { xmlns: 'http://www.w3.org/2000/svg', width, height,
  viewBox: '0 0 100 30', preserveAspectRatio: 'none' },
  area ? h('polygon', { points: `${sparkPoints} 100,30 0,30`, fill: '#dbeafe' }) : null,
  h('polyline', { points: sparkPoints, fill: 'none', stroke: colour, strokeWidth: 2, vectorEffect: 'non-scaling-stroke',
    strokeLinejoin: 'round' }));

export const cards = {
  'figma-icons': card({},
    figmaIcon(96, 'clip0_1_2', '#2563eb', 'M4 -6 L30 20 L18 32 L-8 6 Z'),
    figmaIcon(64, 'clip0_1_3', '#db2777', 'M12 -4 L28 12 L12 28 L-4 12 Z'),
    figmaCircleClip(120)),
  'filter-shadow': card({ backgroundColor: '#f1f5f9' }, figmaShadow(180), classicShadow(180)),
  'mask': card({}, maskIllustration(200), fadeMask(150)),
  'symbol-use': card({}, symbolSprite()),
  'gradients': card({}, gradients(200), gradients(100)),
  'lucide': card({}, camera(72, '#0f172a'), shield(72, '#16a34a'), layers(56, '#2563eb'), sparkles(96, '#f59e0b')),
  'svg-text': card({}, svgText()),
  'img-units': card({ backgroundColor: '#f8fafc' }, natural(dataUrl(unitBadge('width="1in" height="0.5in"'))),
    natural(dataUrl(unitBadge('width="30mm" height="15mm"'))), natural(dataUrl(unitBadge('width="60pt" height="30pt"'))),
    natural(dataUrl('<svg xmlns="http://www.w3.org/2000/svg"><rect width="300" height="150" fill="#0ea5e9"/>'
      + '<rect x="10" y="10" width="10" height="10" fill="#f43f5e"/></svg>'))),
  'img-data-url': card({ backgroundColor: '#f8fafc' }, img(dataUrl(figmaBadge), 48), img(dataUrl(figmaBadge), 144)),
  'image-nested-svg': card({ backgroundColor: '#f8fafc' }, imageOf(120, smiley), imageOf(100, wideBadge, { preserveAspectRatio: 'none' }),
    imageOf(96, sizedRing)),
  'text-font-baseline': card({ fontFamily: 'Inter', fontWeight: 700 }, ringLabel(120, 72, '#10b981'),
    initials(96, 'JD', '#f97316'), label()),
  'transform-origin': card({}, styledRing(150), turnedBars(150), img(dataUrl(plainText), 150)),
  'text-path': card({ fontFamily: 'Inter' }, textPaths(240)),
  'filter-primitives': card({ fontFamily: 'Inter', backgroundColor: '#fde68a' }, filterPrimitives(240)),
  'link-and-spaces': card({ fontFamily: 'Inter' }, linkAndSpaces(300)),
  'sparkline': card({ flexDirection: 'column' }, sparkline(420, 70, '#10b981', false), sparkline(420, 90, '#2563eb', true)),
  'text-transform': card({ fontFamily: 'Inter' }, h('div', { style: { textTransform: 'lowercase' } }, transformedText(300))),
};

const here = path.dirname(fileURLToPath(import.meta.url));
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const require = createRequire(process.env.NODE_PATH ? path.join(process.env.NODE_PATH, 'x') : import.meta.url);
  const React = require('react');
  const { renderToStaticMarkup } = require('react-dom/server');
  const toReact = (node) => {
    if (node === null || typeof node !== 'object') return node;
    const { children, ...props } = node.props || {};
    const kids = children === undefined ? [] : Array.isArray(children) ? children.map(toReact) : [toReact(children)];
    return React.createElement(node.type, props, ...kids);
  };
  const fontsConf = path.join(here, '..', '..', '..', 'resources', 'fontconfig', 'fonts.conf');
  const scratch = path.join(process.env.TMPDIR || '/tmp', 'imprint-svg-effects');
  for (const dir of ['cases', 'chromium']) mkdirSync(path.join(here, dir), { recursive: true });
  mkdirSync(scratch, { recursive: true });
  // CARDS=a,b: only those (the others' references stay as they were drawn).
  const only = process.env.CARDS ? new Set(process.env.CARDS.split(',')) : null;
  for (const [name, c] of Object.entries(cards)) {
    if (only && !only.has(name)) continue;
    writeFileSync(path.join(here, 'cases', `${name}.json`), JSON.stringify(c, null, 1) + '\n');
    // Imprint's (and satori's) element defaults: every div a flex container.
    const page = '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden}'
      + 'div{display:flex}</style></head><body>' + renderToStaticMarkup(toReact(c.root)) + '</body></html>';
    const html = path.join(scratch, `${name}.html`);
    writeFileSync(html, page);
    execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
      '--force-device-scale-factor=1', `--window-size=${c.width},${c.height}`,
      `--screenshot=${path.join(here, 'chromium', `${name}.png`)}`, `file://${html}`],
    { env: { ...process.env, FONTCONFIG_FILE: fontsConf }, stdio: 'ignore' });
    console.log(name);
  }
}
