// Inline-SVG cards (issue 28) for measuring the satori and takumi engines against
// Chromium. Each card is a template whose `root` is the JSON React serialises JSX to,
// with icons from lucide-static 1.62, heroicons 2.2 and @tabler/icons 3.52 (paths copied).
// measure.mjs renders them; this file only builds them.

const h = (type, props = {}, ...children) => ({
  type,
  props: children.length ? { ...props, children: children.length === 1 ? children[0] : children } : props,
});

// lucide: 24×24, fill none, stroke currentColor, width 2, round caps and joins.
const lucide = (size, ...children) =>
  h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: size, height: size, viewBox: '0 0 24 24', fill: 'none',
    stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', className: 'lucide' },
  ...children);
const path = (d, extra = {}) => h('path', { d, ...extra });
const check = (s) => lucide(s, path('M20 6 9 17l-5-5'));
const heart = (s) => lucide(s, path('M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5'));
const starPath = 'M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z';
const withProps = (el, extra) => ({ ...el, props: { ...el.props, ...extra } });
const star = (s, extra = {}) => withProps(lucide(s, path(starPath)), extra);
const mapPin = (s) => lucide(s, path('M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0'), h('circle', { cx: 12, cy: 10, r: 3 }));
const calendar = (s) => lucide(s, path('M8 2v3'), path('M16 2v3'), h('rect', { x: 3, y: 3, width: 18, height: 18, rx: 2 }), path('M3 9h18'));
// heroicons 24 solid bolt, outline clock.
const bolt = (s) => h('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 24 24', fill: 'currentColor', 'aria-hidden': 'true', width: s, height: s },
  path('M14.615 1.595a.75.75 0 0 1 .359.852L12.982 9.75h7.268a.75.75 0 0 1 .548 1.262l-10.5 11.25a.75.75 0 0 1-1.272-.71l1.992-7.302H3.75a.75.75 0 0 1-.548-1.262l10.5-11.25a.75.75 0 0 1 .913-.143Z', { fillRule: 'evenodd', clipRule: 'evenodd' }));
const clock = (s, w = 1.5) => h('svg', { xmlns: 'http://www.w3.org/2000/svg', fill: 'none', viewBox: '0 0 24 24', strokeWidth: w, stroke: 'currentColor', width: s, height: s },
  path('M12 6v6h4.5m4.5 0a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z', { strokeLinecap: 'round', strokeLinejoin: 'round' }));
// tabler outline github, rocket.
const tabler = (s, ...children) => h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: s, height: s, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', className: 'icon icon-tabler' },
  path('M0 0h24v24H0z', { stroke: 'none', fill: 'none' }), ...children);
const github = (s) => tabler(s, path('M9 19c-4.3 1.4 -4.3 -2.5 -6 -3m12 5v-3.5c0 -1 .1 -1.4 -.5 -2c2.8 -.3 5.5 -1.4 5.5 -6a4.6 4.6 0 0 0 -1.3 -3.2a4.2 4.2 0 0 0 -.1 -3.2s-1.1 -.3 -3.5 1.3a12.3 12.3 0 0 0 -6.2 0c-2.4 -1.6 -3.5 -1.3 -3.5 -1.3a4.2 4.2 0 0 0 -.1 3.2a4.6 4.6 0 0 0 -1.3 3.2c0 4.6 2.7 5.7 5.5 6c-.6 .6 -.6 1.2 -.5 2v3.5'));
const rocket = (s) => tabler(s, path('M4 13a8 8 0 0 1 7 7a6 6 0 0 0 3 -5a9 9 0 0 0 6 -8a3 3 0 0 0 -3 -3a9 9 0 0 0 -8 6a6 6 0 0 0 -5 3'), path('M7 14a6 6 0 0 0 -3 6a6 6 0 0 0 6 -3'), path('M14 9a1 1 0 1 0 2 0a1 1 0 1 0 -2 0'));

const W = 600, H = 315;
const card = (style, ...children) => ({
  width: W, height: H,
  root: h('div', { style: { display: 'flex', width: W, height: H, fontFamily: 'DejaVu Sans', backgroundColor: '#ffffff', color: '#0f172a', ...style } }, ...children),
});
const row = (style, ...children) => h('div', { style: { display: 'flex', alignItems: 'center', ...style } }, ...children);
const text = (t, style = {}) => h('span', { style }, t);

export const cards = {
  features: card({ flexDirection: 'column', padding: 48, gap: 18, fontSize: 30 },
    text('Why Imprint', { fontSize: 44, fontWeight: 700 }),
    ...['Fast renders', 'Same as Chromium', 'Inline icons'].map((t) =>
      row({ gap: 14, color: '#16a34a' }, check(32), text(t, { color: '#0f172a' })))),
  event: card({ flexDirection: 'column', padding: 48, gap: 20, fontSize: 28, backgroundColor: '#f8fafc' },
    text('Launch Week', { fontSize: 52, fontWeight: 700 }),
    row({ gap: 12, color: '#475569' }, calendar(28), text('June 12-14')),
    row({ gap: 12, color: '#475569' }, mapPin(28), text('Lisbon · Online'))),
  badge: card({ alignItems: 'center', justifyContent: 'center', gap: 28, fontSize: 48, fontWeight: 700 },
    h('div', { style: { display: 'flex', width: 120, height: 120, borderRadius: 60, backgroundColor: '#fef3c7', color: '#d97706', alignItems: 'center', justifyContent: 'center' } }, bolt(72)),
    text('Powered up')),
  repo: card({ flexDirection: 'column', padding: 56, gap: 24, backgroundColor: '#0d1117', color: '#e6edf3', fontSize: 30 },
    row({ gap: 16, fontSize: 40 }, github(48), text('imprint/imprint')),
    row({ gap: 10, color: '#e3b341' }, star(30, { fill: 'currentColor' }), text('12.4k stars', { color: '#8b949e' }))),
  likes: card({ alignItems: 'center', justifyContent: 'center', gap: 20, fontSize: 64, color: '#e11d48', backgroundColor: '#fff1f2' },
    heart(96), text('2,481')),
  gradient: card({ alignItems: 'center', padding: 48, gap: 32, fontSize: 40 },
    h('svg', { width: 140, height: 140, viewBox: '0 0 100 100' },
      h('defs', {}, h('linearGradient', { id: 'g', x1: '0', y1: '0', x2: '1', y2: '1' },
        h('stop', { offset: '0%', stopColor: '#6366f1' }), h('stop', { offset: '100%', stopColor: '#ec4899', stopOpacity: 0.9 }))),
      h('circle', { cx: 50, cy: 50, r: 46, fill: 'url(#g)' }),
      h('path', { d: 'M30 52l13 13 27-30', fill: 'none', stroke: '#fff', strokeWidth: 9, strokeLinecap: 'round', strokeLinejoin: 'round' })),
    text('Verified', { fontWeight: 700 })),
  sizes: card({ alignItems: 'flex-end', padding: 48, gap: 24, color: '#7c3aed' },
    rocket(16), rocket(24), rocket(32), rocket(48), rocket(64), rocket(96)),
  styled: card({ alignItems: 'center', padding: 48, gap: 20, fontSize: 36 },
    withProps(check(24), { style: { width: 64, height: 64, color: '#0ea5e9', flexShrink: 0 }, tw: 'w-6 h-6' }),
    text('Style wins over attributes')),
  wave: card({ flexDirection: 'column', backgroundColor: '#ecfeff', fontSize: 40 },
    h('div', { style: { display: 'flex', padding: 40, fontWeight: 700 } }, 'Waves'),
    h('svg', { viewBox: '0 0 1440 320', preserveAspectRatio: 'none' },
      h('path', { fill: '#06b6d4', fillOpacity: 0.8, d: 'M0,160L60,176C120,192,240,224,360,213.3C480,203,600,149,720,144C840,139,960,181,1080,197.3C1200,213,1320,203,1380,197.3L1440,192L1440,320L0,320Z' }))),
  strokes: card({ alignItems: 'center', justifyContent: 'center', gap: 36, color: '#334155' },
    clock(64, 1), clock(64, 1.5), clock(64, 2.5), clock(64, 3.5)),
  chart: card({ flexDirection: 'column', padding: 40, gap: 16, fontSize: 28 },
    text('Weekly renders'),
    h('svg', { width: 520, height: 180, viewBox: '0 0 520 180' },
      h('line', { x1: 0, y1: 170, x2: 520, y2: 170, stroke: '#cbd5e1', strokeWidth: 2 }),
      h('polyline', { points: '0,150 80,120 160,130 240,80 320,95 400,40 480,55', fill: 'none', stroke: '#2563eb', strokeWidth: 4, strokeLinejoin: 'round' }),
      h('polygon', { points: '0,150 80,120 160,130 240,80 320,95 400,40 480,55 480,170 0,170', fill: '#2563eb', fillOpacity: 0.15 }),
      h('ellipse', { cx: 400, cy: 40, rx: 8, ry: 8, fill: '#2563eb' }),
      h('rect', { x: 440, y: 100, width: 60, height: 30, rx: 6, fill: '#f59e0b' }))),
  aspect: card({ flexDirection: 'column', padding: 40, gap: 20, color: '#be123c' },
    h('svg', { width: 520, height: 100, viewBox: '0 0 24 24', preserveAspectRatio: 'xMinYMid meet', fill: 'currentColor', style: { backgroundColor: '#ffe4e6' } },
      h('circle', { cx: 12, cy: 12, r: 10 })),
    h('svg', { width: 520, height: 100, viewBox: '0 0 24 24', preserveAspectRatio: 'xMaxYMid slice', style: { backgroundColor: '#fef9c3' } },
      h('rect', { x: 2, y: 2, width: 20, height: 20, fill: '#ca8a04', transform: 'rotate(45 12 12)' }))),
};
