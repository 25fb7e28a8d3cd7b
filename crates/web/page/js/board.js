// The board: an SVG drawing of a wooden Xiangqi board with its pieces.
//
// Every one of the 90 points has a transparent square on top carrying data-square="e2" (ICCS);
// those receive clicks, taps and drags. Pieces carry data-piece with their FEN letter; the
// drawing carries data-piece-set with the set its pieces are drawn in (piece-set.js).

import { squareName, squareCoords, allSquares, isRed } from './fen.js';
import { svg as el } from './dom.js';
import { drawChar } from './glyphs.js';
import { drawPictogram } from './pictograms.js';
import { pieceSet, followPieceSet } from './piece-set.js';

const CELL = 100;
const MARGIN = 104;
const WIDTH = 2 * MARGIN + 8 * CELL;
const HEIGHT = 2 * MARGIN + 9 * CELL;

/** Traditional glyphs: Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒. */
export const GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

const RED_FILES = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];
const BLACK_FILES = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

let boardCount = 0;

export class Board {
  /**
   * @param {HTMLElement} container
   * @param {{onTap?: (sq: string) => void, onDrop?: (from: string, to: string|null) => void,
   *          canDrag?: (sq: string) => boolean, label?: string}} handlers
   */
  constructor(container, handlers = {}) {
    this.handlers = handlers;
    this.flipped = false;
    this.pieceEls = new Map();
    this.state = { pieces: new Map() };
    this.prefix = `b${boardCount++}`;
    this.svg = el('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: 'board-svg',
      role: 'img',
      'aria-label': handlers.label || 'Xiangqi board',
    });
    this.defs(el('defs', {}, this.svg));
    this.woodLayer = el('g', { class: 'wood' }, this.svg);
    this.gridLayer = el('g', { class: 'grid' }, this.svg);
    this.underLayer = el('g', { class: 'marks-under' }, this.svg);
    this.pieceLayer = el('g', { class: 'pieces' }, this.svg);
    this.overLayer = el('g', { class: 'marks-over' }, this.svg);
    this.hitLayer = el('g', { class: 'hit' }, this.svg);
    this.drawWood();
    this.hits = new Map();
    for (const sq of allSquares()) {
      // The main board's points carry data-square (the page's contract); other boards
      // (the editor's) only data-point, so that a page has one element per point name.
      const attrs = { 'data-point': sq, width: CELL, height: CELL, class: 'point' };
      if (!handlers.secondary) attrs['data-square'] = sq;
      const r = el('rect', attrs, this.hitLayer);
      this.hits.set(sq, r);
    }
    this.layout();
    container.appendChild(this.svg);
    this.listen();
    this.svg.dataset.pieceSet = pieceSet();
    followPieceSet(() => this.redrawPieces());
  }

  defs(defs) {
    const p = this.prefix;
    defs.innerHTML = `
      <linearGradient id="${p}-wood" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#f0cf94"/><stop offset="0.45" stop-color="#e2b36c"/>
        <stop offset="1" stop-color="#d29c55"/>
      </linearGradient>
      <filter id="${p}-grain" x="0" y="0" width="100%" height="100%">
        <feTurbulence type="fractalNoise" baseFrequency="0.0035 0.09" numOctaves="4" seed="11"/>
        <feColorMatrix type="matrix" values="0 0 0 0 0.42  0 0 0 0 0.24  0 0 0 0 0.08  0 0 0 -1.1 0.9"/>
        <feComposite operator="in" in2="SourceGraphic"/>
      </filter>
      <radialGradient id="${p}-face" cx="0.4" cy="0.35" r="0.75">
        <stop offset="0" stop-color="#fff6df"/><stop offset="0.6" stop-color="#f3dcaa"/>
        <stop offset="1" stop-color="#dcb672"/>
      </radialGradient>
      <linearGradient id="${p}-edge" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#c89250"/><stop offset="1" stop-color="#7a4a1c"/>
      </linearGradient>
      <filter id="${p}-shadow" x="-30%" y="-30%" width="160%" height="170%">
        <feDropShadow dx="2" dy="5" stdDeviation="3.5" flood-color="#2b1605" flood-opacity="0.45"/>
      </filter>
      <radialGradient id="${p}-check" r="0.5">
        <stop offset="0.55" stop-color="#ff2a1a" stop-opacity="0.85"/>
        <stop offset="1" stop-color="#ff2a1a" stop-opacity="0"/>
      </radialGradient>
      <marker id="${p}-arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse">
        <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/>
      </marker>`;
  }

  drawWood() {
    const p = this.prefix;
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 18, fill: `url(#${p}-wood)` }, this.woodLayer);
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 18, fill: '#000', filter: `url(#${p}-grain)`, opacity: 0.55 }, this.woodLayer);
    el('rect', { x: 4, y: 4, width: WIDTH - 8, height: HEIGHT - 8, rx: 15, fill: 'none', stroke: '#8a5a2b', 'stroke-width': 4, opacity: 0.6 }, this.woodLayer);
  }

  /** Centre of a point in the drawing. */
  xy(sq) {
    const { file, rank } = squareCoords(sq);
    const col = this.flipped ? 8 - file : file;
    const row = this.flipped ? rank : 9 - rank;
    return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
  }

  /** Lines, palace, river, point marks and file numbers (they depend on the orientation). */
  layout() {
    const g = this.gridLayer;
    g.replaceChildren();
    const line = (x1, y1, x2, y2, cls = 'line') => el('line', { x1, y1, x2, y2, class: cls }, g);
    const X = (c) => MARGIN + c * CELL;
    const Y = (r) => MARGIN + r * CELL;
    el('rect', { x: X(0) - 14, y: Y(0) - 14, width: 8 * CELL + 28, height: 9 * CELL + 28, class: 'frame' }, g);
    for (let r = 0; r < 10; r++) line(X(0), Y(r), X(8), Y(r));
    for (let c = 0; c < 9; c++) {
      if (c === 0 || c === 8) line(X(c), Y(0), X(c), Y(9));
      else {
        line(X(c), Y(0), X(c), Y(4));
        line(X(c), Y(5), X(c), Y(9));
      }
    }
    for (const top of [0, 7]) {
      line(X(3), Y(top), X(5), Y(top + 2));
      line(X(5), Y(top), X(3), Y(top + 2));
    }
    const marks = [[1, 2], [7, 2], [1, 7], [7, 7]];
    for (const c of [0, 2, 4, 6, 8]) marks.push([c, 3], [c, 6]);
    for (const [c, r] of marks) this.pointMark(g, X(c), Y(r), c);
    const riverY = Y(4.5);
    // 楚河 and 漢界, each pair spread about the middle of its half of the river.
    const spread = 62;
    for (const [col, [first, second]] of [[2, '楚河'], [6, '漢界']]) {
      drawChar(g, first, X(col) - spread, riverY, 'river');
      drawChar(g, second, X(col) + spread, riverY, 'river');
    }
    // File numbers: Red counts 九…一 from its left, Black １…９ from Red's left.
    for (let file = 0; file < 9; file++) {
      const col = this.flipped ? 8 - file : file;
      const redY = this.flipped ? Y(0) - 74 : Y(9) + 74;
      const blackY = this.flipped ? Y(9) + 74 : Y(0) - 74;
      drawChar(g, RED_FILES[file], X(col), redY, 'file-label');
      drawChar(g, BLACK_FILES[file], X(col), blackY, 'file-label');
    }
    for (const [sq, rect] of this.hits) {
      const { x, y } = this.xy(sq);
      rect.setAttribute('x', x - CELL / 2);
      rect.setAttribute('y', y - CELL / 2);
    }
  }

  pointMark(g, x, y, col) {
    const d = 8;
    const len = 18;
    const parts = [];
    for (const sx of [-1, 1]) {
      if ((sx < 0 && col === 0) || (sx > 0 && col === 8)) continue;
      for (const sy of [-1, 1]) {
        const ax = x + sx * d;
        const ay = y + sy * d;
        parts.push(`M ${ax + sx * len} ${ay} L ${ax} ${ay} L ${ax} ${ay + sy * len}`);
      }
    }
    el('path', { d: parts.join(' '), class: 'mark' }, g);
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.svg.dataset.flipped = String(flipped);
    this.layout();
    this.render(this.state);
  }

  makePiece(letter) {
    const p = this.prefix;
    const side = isRed(letter) ? 'red' : 'black';
    const g = el('g', { class: `piece ${side}`, 'data-piece': letter, filter: `url(#${p}-shadow)` });
    el('circle', { r: 45, cy: 3, fill: `url(#${p}-edge)` }, g);
    el('circle', { r: 42, fill: `url(#${p}-face)`, class: 'face' }, g);
    el('circle', { r: 35, class: 'ring' }, g);
    if (pieceSet() === 'pictograms') drawPictogram(g, letter, 'glyph pictogram');
    else drawChar(g, GLYPHS[letter] || '?', 0, 1, 'glyph');
    return g;
  }

  /** Draws every piece again, in the piece set chosen now. */
  redrawPieces() {
    this.svg.dataset.pieceSet = pieceSet();
    for (const node of this.pieceEls.values()) node.remove();
    this.pieceEls = new Map();
    this.render({ ...this.state, animate: null });
  }

  placePiece(node, sq) {
    const { x, y } = this.xy(sq);
    node.style.transform = `translate(${x}px, ${y}px)`;
    node.dataset.at = sq;
  }

  /**
   * Draws a position.
   * @param {{pieces: Map<string,string>, lastMove?: string|null, selected?: string|null,
   *          targets?: string[], check?: string|null, hint?: string|null, animate?: string|null,
   *          lines?: string[], cursor?: string|null}} state
   */
  render(state) {
    this.state = state;
    const old = this.pieceEls;
    const next = new Map();
    const anim = state.animate;
    if (anim) {
      const from = anim.slice(0, 2);
      const to = anim.slice(2, 4);
      const moving = old.get(from);
      if (moving && state.pieces.get(to) === moving.dataset.piece) {
        old.delete(from);
        next.set(to, moving);
      }
    }
    for (const [sq, letter] of state.pieces) {
      if (next.has(sq)) continue;
      const have = old.get(sq);
      if (have && have.dataset.piece === letter) {
        old.delete(sq);
        next.set(sq, have);
      } else {
        next.set(sq, this.makePiece(letter));
      }
    }
    for (const node of old.values()) node.remove();
    for (const [sq, node] of next) {
      if (node.classList.contains('dragging')) continue;
      if (!node.parentNode) {
        node.classList.add('still');
        this.placePiece(node, sq);
        this.pieceLayer.appendChild(node);
        node.getBoundingClientRect();
        node.classList.remove('still');
      } else {
        this.placePiece(node, sq);
      }
    }
    // The moving piece goes on top.
    if (anim && next.get(anim.slice(2, 4))) this.pieceLayer.appendChild(next.get(anim.slice(2, 4)));
    this.pieceEls = next;
    this.drawMarks(state);
  }

  drawMarks(state) {
    const p = this.prefix;
    this.underLayer.replaceChildren();
    this.overLayer.replaceChildren();
    if (state.lastMove) {
      for (const sq of [state.lastMove.slice(0, 2), state.lastMove.slice(2, 4)]) {
        const { x, y } = this.xy(sq);
        el('rect', { x: x - 48, y: y - 48, width: 96, height: 96, rx: 12, class: 'last-move' }, this.underLayer);
      }
    }
    if (state.check) {
      const { x, y } = this.xy(state.check);
      el('circle', { cx: x, cy: y, r: 66, fill: `url(#${p}-check)`, class: 'check-glow' }, this.underLayer);
    }
    if (state.selected) {
      const { x, y } = this.xy(state.selected);
      el('circle', { cx: x, cy: y, r: 50, class: 'selected' }, this.overLayer);
    }
    for (const sq of state.targets || []) {
      const { x, y } = this.xy(sq);
      if (state.pieces.has(sq)) el('circle', { cx: x, cy: y, r: 48, class: 'target capture', 'data-target': sq }, this.overLayer);
      else el('circle', { cx: x, cy: y, r: 13, class: 'target', 'data-target': sq }, this.overLayer);
    }
    // The analysis's lines: an arrow for each first move, the best one widest and strongest.
    (state.lines || []).forEach((move, i) => {
      const a = this.xy(move.slice(0, 2));
      const b = this.xy(move.slice(2, 4));
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      el('line', {
        x1: a.x + (dx * 26) / len, y1: a.y + (dy * 26) / len,
        x2: b.x - (dx * 40) / len, y2: b.y - (dy * 40) / len,
        class: `line-arrow line-${i + 1}`, 'marker-end': `url(#${p}-arrow)`,
        'stroke-width': Math.max(6, 16 - 3 * i), opacity: Math.max(0.3, 0.9 - 0.15 * i),
      }, this.overLayer);
    });
    if (state.hint) {
      const a = this.xy(state.hint.slice(0, 2));
      const b = this.xy(state.hint.slice(2, 4));
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      const s = 26 / len;
      const e = 40 / len;
      // Rings on both points: a one-point move's arrow alone is too short to see.
      el('circle', { cx: a.x, cy: a.y, r: 48, class: 'hint-ring' }, this.overLayer);
      el('circle', { cx: b.x, cy: b.y, r: 48, class: 'hint-ring' }, this.overLayer);
      el('line', {
        x1: a.x + dx * s, y1: a.y + dy * s, x2: b.x - dx * e, y2: b.y - dy * e,
        class: 'hint-arrow', 'marker-end': `url(#${p}-arrow)`,
      }, this.overLayer);
    }
    if (state.cursor) {
      const { x, y } = this.xy(state.cursor);
      el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, rx: 10, class: 'cursor' }, this.overLayer);
    }
  }

  /** The point under a pointer event, or null off the board. */
  squareAt(evt) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const pt = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
    const col = Math.round((pt.x - MARGIN) / CELL);
    const row = Math.round((pt.y - MARGIN) / CELL);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    const file = this.flipped ? 8 - col : col;
    const rank = this.flipped ? row : 9 - row;
    return squareName(file, rank);
  }

  svgPoint(evt) {
    const m = this.svg.getScreenCTM();
    return new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
  }

  listen() {
    let drag = null;
    this.svg.addEventListener('pointerdown', (evt) => {
      if (evt.button !== undefined && evt.button !== 0) return;
      const sq = evt.target?.dataset?.point || this.squareAt(evt);
      if (!sq) return;
      evt.preventDefault();
      const canDrag = this.handlers.canDrag?.(sq);
      if (canDrag) {
        const wasSelected = this.state.selected === sq;
        if (!wasSelected) this.handlers.onTap?.(sq);
        const node = this.pieceEls.get(sq);
        drag = { from: sq, node, start: this.svgPoint(evt), moved: false, wasSelected, id: evt.pointerId };
        try { this.svg.setPointerCapture(evt.pointerId); } catch { /* not all pointers can be captured */ }
      } else {
        this.handlers.onTap?.(sq);
      }
    });
    this.svg.addEventListener('pointermove', (evt) => {
      if (!drag || evt.pointerId !== drag.id) return;
      const pt = this.svgPoint(evt);
      if (!drag.moved && Math.hypot(pt.x - drag.start.x, pt.y - drag.start.y) < 12) return;
      drag.moved = true;
      if (drag.node) {
        drag.node.classList.add('dragging');
        this.pieceLayer.appendChild(drag.node);
        drag.node.style.transform = `translate(${pt.x}px, ${pt.y}px) scale(1.08)`;
      }
    });
    const finish = (evt, cancelled) => {
      if (!drag || evt.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      if (d.node) d.node.classList.remove('dragging');
      if (d.moved) {
        const to = cancelled ? null : this.squareAt(evt);
        if (to && to !== d.from) {
          // Leave the piece where it was dropped; a refused move slides it back.
          if (d.node) {
            d.node.classList.add('still');
            this.placePiece(d.node, to);
            d.node.dataset.at = d.from;
            d.node.getBoundingClientRect();
            d.node.classList.remove('still');
          }
          this.handlers.onDrop?.(d.from, to);
        } else {
          this.render(this.state);
        }
      } else if (d.wasSelected) {
        this.handlers.onTap?.(d.from);
      }
    };
    this.svg.addEventListener('pointerup', (evt) => finish(evt, false));
    this.svg.addEventListener('pointercancel', (evt) => finish(evt, true));
  }
}
