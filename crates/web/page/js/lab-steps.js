// Stepping through a recorded search, event by event: a node entered with its window, a leaf
// evaluated, a child's value coming back, the best value and alpha raised, a cutoff with the
// moves it leaves unsearched, the node's value returned; in NegaScout, a null-window search
// that beat alpha and the same move searched again, and the table's answers. The events are read off the tree the
// server recorded (every node's move, entry window, value and cutoff, in the order searched), so
// they are the search's own. Forward, back, to the next cutoff, or played at a chosen speed;
// the current path is shown in the tree and on the board, with alpha, beta and the best value
// of every node on it.

import { t } from './i18n.js';
import { showValue, treeMoveName } from './lab-tree.js';

/** The events of a search of `root` (the server's TreeView root), in the order they happened.
 * `windows`: whether the algorithm narrows a window (alpha-beta, NegaScout) or not (minimax,
 * negamax). */
export function events(root, windows) {
  const list = [];
  walk(root, [], [], list, windows);
  return list;
}

/** Adds `node`'s events; `path` is its moves from the root, `ids` its children's indices. */
function walk(node, path, ids, list, windows) {
  // The node's own view: its window and values for its side to move.
  const [alpha0, beta] = node.w;
  list.push({ kind: node.r ? 'research' : 'enter', path, ids, alpha: alpha0, beta, best: null });
  if (node.h) {
    list.push({ kind: 'table', path, ids, value: node.v });
    return;
  }
  if (!node.k.length) {
    list.push({ kind: 'leaf', path, ids, value: node.v });
    return;
  }
  let best = null;
  let alpha = alpha0;
  node.k.forEach((child, i) => {
    walk(child, [...path, child.m], [...ids, i], list, windows);
    const value = -child.v;
    // NegaScout: a null-window search that beat alpha only says so; the same move is
    // searched again next, and that value counts.
    if (node.k[i + 1]?.r) {
      list.push({ kind: 'scout', path, ids, move: child, value, alpha });
      return;
    }
    list.push({ kind: 'back', path, ids, move: child, value, alpha, best });
    if (best === null || value > best) {
      best = value;
      list.push({ kind: 'best', path, ids, move: child, best, alpha });
    }
    if (windows && value > alpha) {
      alpha = value;
      list.push({ kind: 'alpha', path, ids, alpha, best });
    }
    if (node.x && i === node.k.length - 1) {
      list.push({ kind: 'cutoff', path, ids, move: child, pruned: node.p, alpha, beta, best });
    }
  });
  list.push({ kind: 'return', path, ids, value: node.v, best });
}

/** The nodes on the way to event `at`'s node, each with its window, alpha and best so far. */
export function stack(list, at) {
  const open = [];
  for (let i = 0; i <= at; i++) {
    const e = list[i];
    if (e.kind === 'enter' || e.kind === 'research') open.push({ path: e.path, alpha: e.alpha, beta: e.beta, best: null });
    const top = open[open.length - 1];
    if (!top) continue;
    if (e.kind === 'best') top.best = e.best;
    if (e.kind === 'alpha') top.alpha = e.alpha;
    if (e.kind === 'leaf' || e.kind === 'table') top.best = e.value;
    // A node that returned is left; the last event keeps it shown.
    if (['return', 'leaf', 'table'].includes(e.kind) && i < at) open.pop();
  }
  return open;
}

/** What event `e` says, in words. */
export function describe(e) {
  const at = e.path.length ? e.path[e.path.length - 1] : null;
  switch (e.kind) {
    case 'enter':
      return t('labStepEnter', at, showValue(e.alpha), showValue(e.beta));
    case 'research':
      return t('labStepResearch', at, showValue(e.alpha), showValue(e.beta));
    case 'scout':
      return t('labStepScout', treeMoveName(e.move), showValue(e.value), showValue(e.alpha));
    case 'table':
      return t('labStepTable', showValue(e.value));
    case 'leaf':
      return t('labStepLeaf', showValue(e.value));
    case 'back':
      return t('labStepBack', treeMoveName(e.move), showValue(e.value));
    case 'best':
      return t('labStepBest', treeMoveName(e.move), showValue(e.best));
    case 'alpha':
      return t('labStepAlpha', showValue(e.alpha));
    case 'cutoff':
      return t('labStepCutoff', treeMoveName(e.move), showValue(e.best), showValue(e.beta), e.pruned.length);
    default:
      return t('labStepReturn', showValue(e.value));
  }
}

/** Index of the next cutoff after `at`, or the last event. */
export function nextCutoff(list, at) {
  for (let i = at + 1; i < list.length; i++) if (list[i].kind === 'cutoff') return i;
  return list.length - 1;
}
