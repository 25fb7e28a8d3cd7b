// The keyboard: a cursor on the board (Tab to it, arrows to move it, Enter or Space to pick up
// and put down), Escape to drop a piece, and ← → Home End to browse the game.

import { app } from './state.js';
import { step } from './study.js';
import { squareCoords, squareName } from './fen.js';
import { tap } from './game.js';
import { render, browse } from './render.js';
import { $ } from './dom.js';

export function setupKeyboard() {
  const boardBox = $('board');
  boardBox.addEventListener('focus', () => {
    if (!app.cursor) app.cursor = app.selected || (app.flipped ? 'e9' : 'e0');
    render();
  });
  boardBox.addEventListener('blur', () => render());
  document.addEventListener('keydown', (evt) => {
    if (document.querySelector('dialog[open]')) return;
    const tag = evt.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (evt.target === boardBox) {
      const { file, rank } = squareCoords(app.cursor || 'e0');
      const dir = app.flipped ? -1 : 1;
      const moves = { ArrowLeft: [-dir, 0], ArrowRight: [dir, 0], ArrowUp: [0, dir], ArrowDown: [0, -dir] };
      if (moves[evt.key]) {
        const [df, dr] = moves[evt.key];
        app.cursor = squareName(Math.max(0, Math.min(8, file + df)), Math.max(0, Math.min(9, rank + dr)));
        evt.preventDefault();
        render();
        return;
      }
      if (evt.key === 'Enter' || evt.key === ' ') {
        evt.preventDefault();
        tap(app.cursor || 'e0');
        return;
      }
    }
    if (evt.key === 'Escape') { app.selected = null; render(); }
    if (!app.game) return;
    if (evt.key === 'ArrowLeft') step(-1);
    else if (evt.key === 'ArrowRight') step(1);
    else if (evt.key === 'Home') browse(0);
    else if (evt.key === 'End') browse(Infinity);
    else return;
    evt.preventDefault();
  });
}
