// Watching a laboratory run while it searches: the server's page asks how far it is every few
// tenths of a second (GET /api/lab/progress); on the static site the worker, busy searching,
// reports it as it goes (site.js passes each report on as a `lab-progress` event). A run that
// is stopped keeps the rows done, the one searching marked stopped and the rest not run.

import { request } from './api.js';
import { onSite } from './site.js';
import { t } from './i18n.js';

const POLL_MS = 300;

/** Calls `show(view)` with each progress of `client`'s run until the returned function is
 * called. */
export function watchRun(client, show) {
  if (onSite) {
    const listen = (event) => show(event.detail);
    addEventListener('lab-progress', listen);
    return () => removeEventListener('lab-progress', listen);
  }
  let asking = false;
  const timer = setInterval(() => {
    if (asking) return;
    asking = true;
    request('GET', `/api/lab/progress?client=${encodeURIComponent(client)}`)
      .then((view) => view && show(view), () => {})
      .finally(() => { asking = false; });
  }, POLL_MS);
  return () => clearInterval(timer);
}

/** The progress in words: which algorithm, its nodes, nodes a second and time. */
export function describeProgress(view) {
  if (!view.algorithm) return t('labRunning');
  const seconds = view.ms / 1000;
  const nps = seconds > 0 ? Math.round(view.nodes / seconds) : 0;
  return t('labProgress', view.algorithm, view.index + 1, view.count, view.depth,
    view.nodes.toLocaleString(), nps.toLocaleString(), seconds.toFixed(1));
}

/** A run stopped at `view`: its rows done, the algorithm searching marked stopped, the others
 * (of `algorithms`) not run. */
export function partialRun(view, algorithms) {
  const blank = (algorithm, reason) => ({
    algorithm, finished: false, stopped_by: reason, nodes: null, leaves: null, cutoffs: null,
    first_move_cutoffs: null, table_hits: null, time_us: null, value: null, best: null, pv: [], pv_names: [],
  });
  const rows = [...view.rows];
  for (const name of algorithms.slice(rows.length)) {
    if (name === view.algorithm) {
      rows.push({ ...blank(name, 'stopped'), nodes: view.nodes, time_us: view.ms * 1000 });
    } else {
      rows.push(blank(name, 'not_run'));
    }
  }
  return { fen: view.fen, depth: view.depth, evaluation: view.evaluation, minimal_tree: view.minimal_tree, rows };
}
