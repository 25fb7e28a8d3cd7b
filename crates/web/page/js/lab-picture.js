// The recorded search tree drawn as a tree (SVG): the root at the top, each level a row, every
// node a box with its move and, for the side that played it, its value and the window it was
// searched in. A node's replies open and close with a click; a cutoff's unsearched moves are a
// dashed stub that says how many they were. The picture zooms (the wheel or the buttons) and
// pans (drag, with a mouse or a finger); only the opened nodes are laid out, and only those in view are drawn, so a
// large tree stays quick.

import { t } from './i18n.js';
import { showValue, treeMoveName } from './lab-tree.js';

const SVG = 'http://www.w3.org/2000/svg';
const BOX_W = 112;
const BOX_H = 40;
const GAP_X = 10;
const LEVEL_H = 74;

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

function button(label, title) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'lab-pic-btn';
  b.textContent = label;
  b.title = title;
  b.setAttribute('aria-label', title);
  return b;
}

/** The picture of `tree` (the server's TreeView) in `parent`; `onPick(path)` gets the moves to
 * a clicked node. */
export class TreePicture {
  constructor(parent, tree, onPick) {
    this.tree = tree;
    this.onPick = onPick;
    // Opened nodes, by their place ('' the root, '0.3' its first child's fourth reply).
    this.open = new Set(['']);
    this.here = null;
    this.view = { x: 0, y: -20, w: 900, h: 420 };
    this.element = document.createElement('div');
    this.element.className = 'lab-picture';
    const bar = document.createElement('div');
    bar.className = 'lab-pic-bar';
    const zoomIn = button('+', t('labZoomIn'));
    const zoomOut = button('−', t('labZoomOut'));
    const fit = button('⤢', t('labZoomFit'));
    const actual = button('1:1', t('labZoomActual'));
    zoomIn.addEventListener('click', () => this.zoom(0.7));
    zoomOut.addEventListener('click', () => this.zoom(1 / 0.7));
    fit.addEventListener('click', () => this.fit());
    actual.addEventListener('click', () => this.actualSize());
    bar.append(zoomIn, zoomOut, fit, actual);
    this.svg = svg('svg', { class: 'lab-pic', role: 'img' });
    this.svg.setAttribute('aria-label', t('labPicture'));
    this.element.append(bar, this.svg);
    parent.append(this.element);
    this.panning();
    this.layout();
    this.actualSize();
  }

  /** One unit a pixel, the root at the top middle. */
  actualSize() {
    const w = this.svg.clientWidth || 440;
    const h = this.svg.clientHeight || 420;
    const root = this.boxes[0];
    this.view = { x: root.x + BOX_W / 2 - w / 2, y: -10, w, h };
    this.draw();
  }

  /** Places the opened part of the tree: each visible leaf a slot, a parent over its children. */
  layout() {
    this.boxes = [];
    this.edges = [];
    let slot = 0;
    const place = (node, ids, path, depth) => {
      const key = ids.join('.');
      const item = { node, ids, key, path, depth, x: 0, y: depth * LEVEL_H };
      this.boxes.push(item);
      const opened = this.open.has(key) && (node.k.length || node.p.length);
      if (!opened) {
        item.x = slot++ * (BOX_W + GAP_X);
        return item;
      }
      const xs = node.k.map((child, i) => {
        const placed = place(child, [...ids, i], [...path, child.m], depth + 1);
        this.edges.push([item, placed]);
        return placed.x;
      });
      if (node.p.length) {
        const stub = { stub: node.p.length, key: `${key}/pruned`, depth: depth + 1, x: slot++ * (BOX_W + GAP_X), y: (depth + 1) * LEVEL_H };
        this.boxes.push(stub);
        this.edges.push([item, stub]);
        xs.push(stub.x);
      }
      item.x = (Math.min(...xs) + Math.max(...xs)) / 2;
      return item;
    };
    place(this.tree.root, [], [], 0);
    this.width = Math.max(slot, 1) * (BOX_W + GAP_X);
    this.height = (Math.max(...this.boxes.map((b) => b.depth)) + 1) * LEVEL_H;
  }

  /** Draws what lies in the view. */
  draw() {
    const { x, y, w, h } = this.view;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
    this.svg.replaceChildren();
    const inView = (b) => b.x + BOX_W >= x && b.x <= x + w && b.y + BOX_H >= y && b.y <= y + h;
    for (const [a, b] of this.edges) {
      if (!inView(a) && !inView(b)) continue;
      this.svg.append(svg('line', {
        x1: a.x + BOX_W / 2, y1: a.y + BOX_H, x2: b.x + BOX_W / 2, y2: b.y, class: b.stub ? 'lab-pic-edge stub' : 'lab-pic-edge',
      }));
    }
    for (const b of this.boxes) if (inView(b)) this.svg.append(this.box(b));
  }

  box(b) {
    const g = svg('g', { transform: `translate(${b.x} ${b.y})`, class: 'lab-pic-node' });
    if (b.stub) {
      g.classList.add('stub');
      g.append(svg('rect', { width: BOX_W, height: BOX_H, rx: 5 }));
      g.append(svg('text', { x: BOX_W / 2, y: 24, 'text-anchor': 'middle' }, t('labPictureCut', b.stub)));
      return g;
    }
    const node = b.node;
    if (b.key === this.here) g.classList.add('here');
    if (node.x) g.classList.add('cut');
    const closed = (node.k.length || node.p.length) && !this.open.has(b.key);
    if (closed) g.classList.add('closed');
    g.dataset.node = b.key;
    g.append(svg('rect', { width: BOX_W, height: BOX_H, rx: 5 }));
    // For the side that played the move (the node's own values negated), as in the list.
    const name = b.ids.length ? treeMoveName(node) : t('labRoot');
    const marks = `${node.r ? ' ↻' : ''}${node.h ? ' TT' : ''}${closed ? ' ▸' : ''}`;
    g.append(svg('text', { x: 6, y: 16 }, name + marks));
    const value = b.ids.length ? showValue(-node.v) : showValue(node.v);
    const window = b.ids.length ? `(${showValue(-node.w[1])}, ${showValue(-node.w[0])})` : '';
    g.append(svg('text', { x: 6, y: 32, class: 'small' }, `${value} ${window}`));
    g.addEventListener('click', () => {
      if (node.k.length || node.p.length) {
        if (this.open.has(b.key)) this.open.delete(b.key);
        else this.open.add(b.key);
        const before = b.x;
        this.layout();
        // The clicked node stays where it was on the screen.
        const moved = this.boxes.find((box) => box.key === b.key);
        if (moved) this.view = { ...this.view, x: this.view.x + moved.x - before };
      }
      this.here = b.key;
      this.draw();
      this.onPick(b.path);
    });
    return g;
  }

  zoom(factor, cx = this.view.x + this.view.w / 2, cy = this.view.y + this.view.h / 2) {
    const w = Math.min(Math.max(this.view.w * factor, 120), Math.max(this.width, 900) * 1.2);
    const h = w * (this.view.h / this.view.w);
    this.view = { x: cx - (cx - this.view.x) * (w / this.view.w), y: cy - (cy - this.view.y) * (h / this.view.h), w, h };
    this.draw();
  }

  /** The whole opened tree in view. */
  fit() {
    const ratio = (this.svg.clientHeight || 420) / (this.svg.clientWidth || 440);
    const w = Math.max(this.width + 20, (this.height + 20) / ratio);
    this.view = { x: -10, y: -10, w, h: w * ratio };
    this.draw();
  }

  /** Drag to pan; the wheel zooms round the pointer. */
  panning() {
    let from = null;
    this.svg.addEventListener('pointerdown', (e) => {
      if (e.target.closest('.lab-pic-node')) return;
      from = { x: e.clientX, y: e.clientY, view: { ...this.view } };
      this.svg.setPointerCapture(e.pointerId);
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!from) return;
      const scale = this.view.w / this.svg.clientWidth;
      this.view = { ...from.view, x: from.view.x - (e.clientX - from.x) * scale, y: from.view.y - (e.clientY - from.y) * scale };
      this.draw();
    });
    const stop = () => { from = null; };
    this.svg.addEventListener('pointerup', stop);
    this.svg.addEventListener('pointercancel', stop);
    this.svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const rect = this.svg.getBoundingClientRect();
      const cx = this.view.x + ((e.clientX - rect.left) / rect.width) * this.view.w;
      const cy = this.view.y + ((e.clientY - rect.top) / rect.height) * this.view.h;
      this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
    }, { passive: false });
  }

  /** Opens the way to the node at `ids`, marks it, and brings it into view. */
  mark(ids) {
    for (let i = 0; i < ids.length; i++) this.open.add(ids.slice(0, i).join('.'));
    this.here = ids.join('.');
    this.layout();
    const b = this.boxes.find((box) => box.key === this.here);
    if (b && !(b.x >= this.view.x && b.x + BOX_W <= this.view.x + this.view.w && b.y >= this.view.y && b.y + BOX_H <= this.view.y + this.view.h)) {
      this.view = { ...this.view, x: b.x + BOX_W / 2 - this.view.w / 2, y: b.y + BOX_H / 2 - this.view.h / 2 };
    }
    this.draw();
  }
}
