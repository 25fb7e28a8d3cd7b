// The keyboard: a cursor on the board (Tab to it, arrows to move it, Enter or Space to pick up
// and put down), Escape to drop a piece, and ← → Home End to browse the game.

import { app } from './state.js';
import { step } from './study.js';
import { cursorStep } from './fen.js';
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
      const next = cursorStep(app.cursor || 'e0', evt.key, app.flipped);
      if (next) {
        app.cursor = next;
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
