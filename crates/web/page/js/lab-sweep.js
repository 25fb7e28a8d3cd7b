// The reports' own experiments in one click: each chosen algorithm searched at depth 1, 2, …
// on the chosen position, its nodes and time drawn against the depth (log scales); and what a
// ply is worth, the engine's Elo per depth measured in docs/LAB.md, as a chart.

import { request } from './api.js';
import { t } from './i18n.js';
import { $ } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** A sweep stops after the first depth whose slowest search took longer than this: the next
 * depth takes several times as long (five to ten for alpha-beta), and a sweep should take
 * seconds, not minutes. */
const SWEEP_BUDGET_MS = 1000;

/** The engine's Elo over depth 1, depth by depth, with its 95 % error bar: docs/LAB.md, "Elo
 * per depth" (200 games a pair of neighbouring depths, build 404b394). */
const ELO_PER_DEPTH = [
  [1, 0, 0], [2, 222, 48], [3, 495, 67], [4, 755, 81], [5, 958, 90], [6, 1135, 101], [7, 1312, 109], [8, 1455, 116],
];

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

/** Runs the sweep through `searching` (the form busy, Stop ends it) and draws it. `body(depth)`
 * is the run request at a depth; `maxDepth` the deepest the chosen algorithms allow. */
export async function depthSweep(searching, body, maxDepth) {
  const runs = [];
  await searching(async () => {
    for (let depth = 1; depth <= maxDepth; depth++) {
      const run = await request('POST', '/api/lab/run', body(depth));
      runs.push(run);
      drawSweep(runs);
      const slowest = Math.max(...run.rows.map((r) => r.time_us / 1000));
      if (run.rows.some((r) => !r.finished) || slowest > SWEEP_BUDGET_MS) break;
    }
    return runs;
  }, () => drawSweep(runs));
}

function drawSweep(runs) {
  const names = runs[0].rows.map((r) => r.algorithm);
  // Each algorithm's values at depth 1, 2, … as long as it finished.
  const series = (key) => names.map((name) => {
    const values = [];
    for (const run of runs) {
      const row = run.rows.find((r) => r.algorithm === name);
      if (!row?.finished) break;
      values.push(key(row));
    }
    return { name, values };
  });
  const depths = runs.map((run) => run.depth);
  const box = $('lab-sweep-charts');
  box.replaceChildren(
    lineChart(t('labSweepNodes'), series((r) => r.nodes), depths, (v) => v.toLocaleString()),
    lineChart(t('labSweepTime'), series((r) => Math.max(r.time_us, 1) / 1000), depths, (v) => `${v < 1 ? Number(v.toPrecision(1)) : v < 10 ? v.toFixed(1) : Math.round(v)} ms`),
  );
  box.hidden = false;
}

/** A line per algorithm of `values` against depth, on a log scale. */
function lineChart(title, lines, depths, label) {
  const W = 460;
  const H = 240;
  const left = 70;
  const bottom = 30;
  const all = lines.flatMap((l) => l.values).filter((v) => v > 0);
  if (!all.length) return svg('svg');
  const lo = Math.floor(Math.log10(Math.min(...all)));
  const hi = Math.ceil(Math.log10(Math.max(...all))) || lo + 1;
  const x = (d) => left + ((d - 1) / Math.max(depths.length - 1, 1)) * (W - left - 110);
  const y = (v) => H - bottom - ((Math.log10(v) - lo) / Math.max(hi - lo, 1)) * (H - bottom - 24);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'lab-sweep-chart', role: 'img', 'aria-label': title });
  chart.append(svg('text', { x: left, y: 14, class: 'title' }, title));
  for (let e = lo; e <= hi; e++) {
    chart.append(svg('line', { x1: left, x2: W - 110, y1: y(10 ** e), y2: y(10 ** e), class: 'grid' }));
    chart.append(svg('text', { x: left - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' }, label(10 ** e)));
  }
  depths.forEach((d, i) => chart.append(svg('text', { x: x(i + 1), y: H - 10, 'text-anchor': 'middle' }, String(d))));
  lines.forEach((line, i) => {
    const cls = `series s${i % 8}`;
    const pts = line.values.map((v, j) => `${x(j + 1)},${y(v)}`).join(' ');
    chart.append(svg('polyline', { points: pts, class: cls }));
    const last = line.values[line.values.length - 1];
    if (last) chart.append(svg('text', { x: x(line.values.length) + 6, y: y(last) + 4, class: cls }, line.name));
  });
  return chart;
}

/** The engine's measured Elo per depth, with error bars. */
export function eloChart() {
  const W = 460;
  const H = 240;
  const left = 50;
  const bottom = 30;
  const top = 1600;
  const x = (d) => left + (d - 0.5) * ((W - left - 10) / ELO_PER_DEPTH.length);
  const y = (e) => H - bottom - (e / top) * (H - bottom - 24);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'lab-sweep-chart', role: 'img', 'aria-label': t('labEloTitle') });
  chart.append(svg('text', { x: left, y: 14, class: 'title' }, t('labEloTitle')));
  for (let e = 0; e <= top; e += 400) {
    chart.append(svg('line', { x1: left, x2: W - 10, y1: y(e), y2: y(e), class: 'grid' }));
    chart.append(svg('text', { x: left - 6, y: y(e) + 4, 'text-anchor': 'end' }, String(e)));
  }
  for (const [depth, elo, error] of ELO_PER_DEPTH) {
    const bar = (W - left - 10) / ELO_PER_DEPTH.length - 10;
    chart.append(svg('rect', { x: x(depth) - bar / 2, y: y(elo), width: bar, height: y(0) - y(elo), class: 'bar' }));
    if (error) chart.append(svg('line', { x1: x(depth), x2: x(depth), y1: y(elo - error), y2: y(elo + error), class: 'error' }));
    chart.append(svg('text', { x: x(depth), y: H - 10, 'text-anchor': 'middle' }, String(depth)));
  }
  const box = $('lab-sweep-charts');
  box.replaceChildren(chart);
  const note = document.createElement('p');
  note.className = 'lab-note';
  note.textContent = t('labEloNote');
  box.append(note);
  box.hidden = false;
}
