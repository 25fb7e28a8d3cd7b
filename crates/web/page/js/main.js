// The page: one game against the computer, kept in step with the server. This module starts
// it; state.js holds what it shows, render.js draws it, game.js talks to the server,
// controls.js and keyboard.js take the person's input.

import { Board } from './board.js';
import { app, isMovable } from './state.js';
import { applyTexts } from './i18n.js';
import { api } from './api.js';
import { tap, attempt, refresh, openGame, newGame, action } from './game.js';
import { setupControls, loadLevelElo, updateToolButtons } from './controls.js';
import { setupKeyboard } from './keyboard.js';
import { setupClock } from './clock.js';
import { humanPlays } from './state.js';
import { settings, session } from './settings.js';
import { $ } from './dom.js';
import { notice } from './dialogs.js';
import { drawLogos } from './glyphs.js';
import { keepOffline, saveOnSite } from './site.js';

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

/** Starts the clock this tab's last page paused as it went. The pause travels in a beacon that
 * may arrive after this page's first request, so look a few times before giving up. */
async function resumeAfterReload() {
  for (let tries = 0; tries < 6 && app.game?.clock && !app.game.outcome; tries++) {
    if (app.game.clock.paused) {
      await action('resume');
      return;
    }
    await new Promise((done) => setTimeout(done, 200));
    await refresh();
  }
}

async function start() {
  const theme = settings.theme()
    || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = theme;
  applyTexts();
  drawLogos();
  keepOffline();
  updateToolButtons();
  setupControls();
  setupKeyboard();
  // Time up on the page: the server decides the flag, ask it.
  setupClock(() => refresh(), (side) => Boolean(app.game) && humanPlays(side));
  saveOnSite($('save-pgn'), () => api.pgn(app.game.id, app.notation), (e) => notice(e.message, 'error'));
  loadLevelElo();
  window.addEventListener('pagehide', () => {
    if (!app.game) return;
    // The server pauses a running clock when the page goes; a reload starts it again.
    const running = app.game.clock?.running && !app.game.outcome;
    session.setAutoPaused(running ? app.game.id : null);
    api.leave(app.game.id);
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  const saved = settings.game();
  try {
    if (saved) {
      await openGame(saved);
      if (session.autoPaused() === saved) await resumeAfterReload();
      session.setAutoPaused(null);
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
