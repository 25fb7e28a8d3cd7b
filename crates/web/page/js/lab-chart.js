// The laboratory's bar charts: nodes on a logarithmic scale, time on a linear one, one bar
// per algorithm, drawn as plain SVG.

import { svg } from './dom.js';
import { t } from './i18n.js';

const ROW = 22;
const LABEL = 132;
const WIDTH = 420;

/** Draws one chart of `values` (numbers, null for none) named by `labels` into `parent`. */
function chart(parent, title, labels, values, { log, format }) {
  const height = ROW * labels.length + 26;
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${height}`, class: 'lab-bars', role: 'img', 'aria-label': title }, parent);
  const heading = svg('text', { x: 0, y: 14, class: 'lab-bars-title' }, root);
  heading.textContent = title;
  const scale = (v) => (log ? Math.log10(v + 1) : v);
  const top = Math.max(1e-9, ...values.filter((v) => v != null).map(scale));
  const room = WIDTH - LABEL - 70;
  labels.forEach((label, i) => {
    const y = 24 + i * ROW;
    const name = svg('text', { x: LABEL - 6, y: y + 14, 'text-anchor': 'end', class: 'lab-bars-label' }, root);
    name.textContent = label;
    const v = values[i];
    if (v == null) return;
    const w = Math.max(1, (scale(v) / top) * room);
    svg('rect', { x: LABEL, y: y + 3, width: w, height: ROW - 7, rx: 3, class: 'lab-bar' }, root);
    const text = svg('text', { x: LABEL + w + 4, y: y + 14, class: 'lab-bars-value' }, root);
    text.textContent = format(v);
  });
}

/** Both charts of a run's rows. */
export function drawCharts(parent, rows) {
  parent.replaceChildren();
  const labels = rows.map((r) => r.algorithm);
  chart(parent, t('labChartNodes'), labels, rows.map((r) => r.nodes), {
    log: true,
    format: (v) => v.toLocaleString(),
  });
  chart(parent, t('labChartTime'), labels, rows.map((r) => (r.time_us == null ? null : r.time_us / 1000)), {
    log: false,
    format: (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`,
  });
}
