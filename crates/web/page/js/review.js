// The post-game review: the evaluation graph and the summary of marked moves.

import { t } from './i18n.js';
import { svg as el } from './dom.js';

const CAP = 1000;

/**
 * Draws the evaluation over the game (Red's view, above the middle line when Red stands
 * better) and lists each side's inaccuracies, mistakes and blunders.
 */
export function renderReview(review, view, onPick) {
  const panel = document.getElementById('review-panel');
  const svg = document.getElementById('eval-graph');
  const progress = document.getElementById('review-progress');
  const summary = document.getElementById('review-summary');
  if (!review) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  progress.textContent = review.finished ? t('reviewDone') : t('reviewing', review.done, review.total);
  svg.replaceChildren();
  const W = 400;
  const H = 120;
  const n = Math.max(review.total - 1, 1);
  const x = (i) => (i / n) * W;
  const y = (v) => H / 2 - (Math.max(-CAP, Math.min(CAP, v)) / CAP) * (H / 2 - 4);
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-red' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-black' }, svg);
  if (review.evals.length) {
    const pts = review.evals.map((v, i) => `${x(i)},${y(v)}`);
    el('path', { d: `M 0,${H / 2} L ${pts.join(' L ')} L ${x(review.evals.length - 1)},${H / 2} Z`, class: 'graph-area' }, svg);
    el('polyline', { points: pts.join(' '), class: 'graph-line' }, svg);
  }
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }, svg);
  review.plies.forEach((p, i) => {
    if (!p.mark) return;
    el('circle', { cx: x(i + 1), cy: y(review.evals[i + 1] ?? 0), r: 4, class: `graph-dot ${p.mark}` }, svg);
  });
  if (view.ply !== null && view.ply !== undefined) {
    el('line', { x1: x(view.ply), y1: 0, x2: x(view.ply), y2: H, class: 'graph-cursor' }, svg);
  }
  svg.onclick = (evt) => {
    const rect = svg.getBoundingClientRect();
    const i = Math.round(((evt.clientX - rect.left) / rect.width) * n);
    onPick(Math.max(0, Math.min(review.done - 1, i)));
  };
  // Counts per side: plies 0, 2, … were played by the side that moved first.
  const counts = { red: {}, black: {} };
  review.plies.forEach((p, i) => {
    if (!p.mark) return;
    const side = (i % 2 === 0) === (view.firstSide === 'red') ? 'red' : 'black';
    counts[side][p.mark] = (counts[side][p.mark] || 0) + 1;
  });
  summary.replaceChildren();
  const shown = view.ply > 0 ? review.plies[view.ply - 1] : null;
  if (shown?.mark) {
    const line = document.createElement('div');
    line.className = `review-current mark-${shown.mark}`;
    line.textContent = `${view.label} ${view.move}${markSymbol(shown.mark)} ${t('marks')[shown.mark]}${shown.best ? ` — ${t('better', shown.best, shown.check)}` : ''}`;
    summary.appendChild(line);
  }
  for (const side of ['red', 'black']) {
    const line = document.createElement('div');
    const parts = ['inaccuracy', 'mistake', 'blunder'].map((m) => `${t('marks')[m]} ${counts[side][m] || 0}`);
    line.textContent = t('summaryFor', t(side)) + parts.join(' · ');
    line.className = `summary-${side}`;
    summary.appendChild(line);
  }
}

/** The annotation symbol of a review mark. */
export function markSymbol(mark) {
  return { inaccuracy: '?!', mistake: '?', blunder: '??' }[mark] || '';
}
