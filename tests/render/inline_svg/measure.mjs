// Measures inline-SVG cards (cards.mjs) against Chromium (issue 28). For each card it
// writes the template (NAME.json), renders it with `imprint render` for the satori,
// takumi and html engines, renders React's own markup for the same tree
// (react-dom/server renderToStaticMarkup, so the attribute names are React's, not ours)
// with headless Chromium as the oracle, and prints SSIM per engine (/work/shared/tools/score.mjs).
//
// Usage: NODE_PATH=DIR/node_modules node measure.mjs IMPRINT_BINARY OUT_DIR [--cards sweep.mjs] [--only NAME,…]
//   (DIR: a scratch directory with `npm install react@19 react-dom@19`; --cards: another
//   module exporting `cards`, default cards.mjs)

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(process.env.NODE_PATH ? path.join(process.env.NODE_PATH, 'x') : import.meta.url);
const React = require('react');
const { renderToStaticMarkup } = require('react-dom/server');

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const cardsModule = option('--cards') || 'cards.mjs';
const only = option('--only')?.split(',');
const [imprint, out] = args;
if (!imprint || !out) {
  console.error('usage: node measure.mjs IMPRINT_BINARY OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const here = path.dirname(fileURLToPath(import.meta.url));
const fontsConf = path.join(here, '..', '..', '..', 'resources', 'fontconfig', 'fonts.conf');
const score = process.env.IMPRINT_SCORE || '/work/shared/tools/score.mjs';
const { cards } = await import(path.resolve(here, cardsModule));

const toReact = (node) => {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(toReact);
  const { children, ...props } = node.props || {};
  const kids = children === undefined ? [] : Array.isArray(children) ? children.map(toReact) : [toReact(children)];
  return React.createElement(node.type, props, ...kids);
};

const results = {};
for (const [name, card] of Object.entries(cards)) {
  if (only && !only.includes(name)) continue;
  const json = path.join(out, `${name}.json`);
  const { oracle: _, ...template } = card; // `oracle`: the tree Chromium draws, if not the card's
  writeFileSync(json, JSON.stringify(template, null, 1));
  // Imprint's (and satori's) element defaults: every div a flex container.
  const page = '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden}'
    + 'div{display:flex}</style></head><body>' + renderToStaticMarkup(toReact(card.oracle || card.root)) + '</body></html>';
  const html = path.join(out, `${name}.chromium.html`);
  writeFileSync(html, page);
  const oracle = path.join(out, `${name}.chromium.png`);
  execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
    '--force-device-scale-factor=1', `--window-size=${card.width},${card.height}`, `--screenshot=${oracle}`,
    `file://${path.resolve(html)}`], { env: { ...process.env, FONTCONFIG_FILE: fontsConf }, stdio: 'ignore' });
  results[name] = {};
  for (const engine of ['satori', 'takumi', 'html']) {
    const png = path.join(out, `${name}.${engine}.png`);
    execFileSync(imprint, ['render', json, '-o', png, '--engine', engine], { stdio: ['ignore', 'ignore', 'inherit'] });
    results[name][engine] = JSON.parse(execFileSync('node', [score, oracle, png]).toString()).ssim;
  }
  console.log(name.padEnd(10), Object.entries(results[name]).map(([e, v]) => `${e} ${v.toFixed(4)}`).join('  '));
}
for (const engine of ['satori', 'takumi', 'html']) {
  const v = Object.values(results).map((r) => r[engine]);
  console.log(`mean ${engine}: ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(4)}  min ${Math.min(...v).toFixed(4)}`);
}
