// The page: one game against the computer, kept in step with the server. This module starts
// it; state.js holds what it shows, render.js draws it, game.js talks to the server,
// controls.js and keyboard.js take the person's input.

import { Board } from './board.js';
import { app, isMovable } from './state.js';
import { applyTexts } from './i18n.js';
import { api } from './api.js';
import { tap, attempt, refresh, openGame, newGame } from './game.js';
import { setupControls, loadLevelElo, updateToolButtons } from './controls.js';
import { setupKeyboard } from './keyboard.js';
import { setupClock } from './clock.js';
import { humanPlays } from './state.js';
import { settings } from './settings.js';
import { $ } from './dom.js';

app.board = new Board($('board'), {
  onTap: (sq) => tap(sq),
  onDrop: (from, to) => attempt(from, to),
  canDrag: (sq) => isMovable(sq),
  label: 'board',
});

// Script errors are kept where the browser tests can see them.
window.xiangqiErrors = [];
window.addEventListener('error', (e) => window.xiangqiErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.xiangqiErrors.push(String(e.reason)));

async function start() {
  const theme = settings.theme()
    || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = theme;
  applyTexts();
  updateToolButtons();
  setupControls();
  setupKeyboard();
  // Time up on the page: the server decides the flag, ask it.
  setupClock(() => refresh(), (side) => Boolean(app.game) && humanPlays(side));
  loadLevelElo();
  window.addEventListener('pagehide', () => { if (app.game) api.leave(app.game.id); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  const saved = settings.game();
  try {
    if (saved) {
      await openGame(saved);
      return;
    }
  } catch { /* the game is gone: fall through */ }
  try {
    const games = await api.list();
    const open = games.find((g) => !g.result);
    if (open) {
      await openGame(open.id);
      return;
    }
  } catch { /* no list: start a game */ }
  await newGame({ human: 'red', level: settings.level() });
}

start();
