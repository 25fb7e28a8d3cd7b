// The tree explorer: a recorded search tree as nested rows, opened level by level. Each row is
// a move with the window it was searched in, its value and whether it caused a cutoff, all for
// the side that played it; moves a cutoff left unsearched follow, greyed.

import { t } from './i18n.js';
import { moveNameIn } from './settings.js';

let infinite = 32000;

/** The name of the move that led to a recorded node (`m` ICCS, `c` Chinese, `f` WXF) in the
 * notation chosen on the game page. */
export function treeMoveName(node) {
  return moveNameIn({ iccs: node.m, chinese: node.c, wxf: node.f });
}

export function setInfinite(value) {
  infinite = value;
}

/** A value or a window bound for people: ±∞, mates as such, else soldiers with two decimals. */
export function showValue(v) {
  if (v >= infinite) return '+∞';
  if (v <= -infinite) return '−∞';
  if (Math.abs(v) >= 30000) return v > 0 ? t('labMateIn', 31000 - v) : t('labMatedIn', 31000 + v);
  return (v / 100).toFixed(2);
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = text;
  return node;
}

/**
 * Draws `tree` (the server's TreeView) into `parent`. `onPick(path)` gets the moves (ICCS)
 * from the root to a clicked node.
 */
export function drawTree(parent, tree, onPick) {
  parent.replaceChildren();
  const row = tree.row;
  const head = el('div', 'lab-tree-head');
  head.append(el('strong', null, row.algorithm));
  const stats = t('labTreeStats', row.nodes.toLocaleString(), (row.cutoffs ?? 0).toLocaleString(), showValue(tree.root.v));
  head.append(el('span', null, stats));
  if (tree.truncated) head.append(el('span', 'lab-warn', t('labTruncated', tree.recorded.toLocaleString())));
  parent.append(head);
  const list = el('ul', 'lab-tree');
  list.setAttribute('role', 'tree');
  parent.append(list);
  fill(list, tree.root, [], [], onPick);
}

/** The rows of `node`'s children and of its pruned moves. `ids`: the node's place, the index
 * of each child on the way (a NegaScout re-search has the same moves as its scout). */
function fill(list, node, path, ids, onPick) {
  node.k.forEach((child, i) => {
    const caused = node.x && i === node.k.length - 1;
    list.append(item(child, [...path, child.m], [...ids, i], caused, onPick));
  });
  if (node.p.length) {
    const refuter = node.k[node.k.length - 1];
    for (const [iccs, chinese, wxf] of node.p) {
      const li = el('li', 'lab-pruned');
      li.setAttribute('role', 'treeitem');
      li.append(el('span', 'lab-move', moveNameIn({ iccs, chinese, wxf })));
      li.append(el('span', 'lab-why', t('labPrunedBy', treeMoveName(refuter), iccs)));
      list.append(li);
    }
  }
}

function item(node, path, ids, caused, onPick) {
  const li = el('li');
  li.setAttribute('role', 'treeitem');
  // Its replies ended in a cutoff: one of them refuted it.
  if (node.x) li.dataset.cut = '1';
  const button = el('button', 'lab-node');
  button.type = 'button';
  button.dataset.path = path.join(' ');
  button.dataset.node = ids.join('.');
  const open = node.k.length > 0 || node.p.length > 0;
  const toggle = el('span', 'lab-toggle', open ? '▸' : '·');
  // The move's value and window for the side that played it: the node's, negated.
  const window = `(${showValue(-node.w[1])}, ${showValue(-node.w[0])})`;
  button.append(toggle, el('span', 'lab-move', treeMoveName(node)), el('span', 'lab-window', window),
    el('span', 'lab-value', showValue(-node.v)));
  if (caused) {
    button.classList.add('lab-cut');
    button.append(el('span', 'lab-cutmark', t('labCutoff')));
  }
  // NegaScout: searched again after its null-window search beat alpha; answered by the table.
  if (node.r) button.append(el('span', 'lab-mark', t('labResearchMark')));
  if (node.h) button.append(el('span', 'lab-mark', t('labTableMark')));
  button.title = `${node.m}`;
  li.append(button);
  let children = null;
  if (open) li.setAttribute('aria-expanded', 'false');
  button.addEventListener('click', () => {
    onPick(path);
    if (!open) return;
    if (!children) {
      children = el('ul', 'lab-tree');
      children.setAttribute('role', 'group');
      fill(children, node, path, ids, onPick);
      li.append(children);
    } else {
      children.hidden = !children.hidden;
    }
    const expanded = !children.hidden;
    li.setAttribute('aria-expanded', String(expanded));
    toggle.textContent = expanded ? '▾' : '▸';
  });
  return li;
}
