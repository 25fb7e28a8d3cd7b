// The game and the server: the person's moves and actions, and keeping the page in step with
// the game's state (polling while the engine works).

import { app, isMovable, humanPlays, sideOf, isLive, shownFen, nodeAt, moveName } from './state.js';
import { playFromShown } from './study.js';
import { parseFen } from './fen.js';
import { api } from './api.js';
import { t, reasonText } from './i18n.js';
import * as sound from './sound.js';
import { notice, clearNotice } from './dialogs.js';
import { isUnsaved, showUnsaved, hideUnsaved, unsavedSource } from './unsaved.js';
import { render, showCheck, showEnd } from './render.js';
import { setClock } from './clock.js';
import { settings } from './settings.js';
import { $ } from './dom.js';

/** How often the page asks for the game's state while the engine works, in ms. */
const POLL_MS = 250;

export function tap(sq) {
  if (!app.game) return;
  const live = isLive();
  const letter = parseFen(live ? app.game.fen : shownFen()).pieces.get(sq);
  const mine = isMovable(sq);
  if (app.selected && sq !== app.selected && !mine) {
    attempt(app.selected, sq);
    return;
  }
  if (sq === app.selected) {
    app.selected = null;
  } else if (mine) {
    app.selected = sq;
  } else {
    app.selected = null;
    if (!live) {
      // Off the current position any legal move makes a variation: nothing to explain.
    } else if (letter && !app.game.outcome && app.game.clock?.paused) {
      notice(reasonText('paused'), 'error');
    } else if (letter && !app.game.outcome) {
      const waiting = app.game.job === 'computer' || !humanPlays(app.game.turn);
      const code = waiting && humanPlays(sideOf(letter)) ? 'not_your_turn' : 'not_your_piece';
      notice(reasonText(code), 'error');
    }
  }
  render();
}

export async function attempt(from, to) {
  app.selected = null;
  if (!isLive()) {
    // A move on a position shown from earlier or from a variation: a variation of the game.
    await playFromShown([from + to]);
    return;
  }
  const game = app.game;
  const send = async () => setGame(await api.move(game.id, from + to, game.version));
  try {
    await send();
  } catch (e) {
    failed(e, send);
    render();
    if (e.code === 'stale') refresh();
  }
}

/** Tells the person a request failed; a change that was not saved gets the Retry banner. */
export function failed(e, retry) {
  sound.play('error');
  if (isUnsaved(e)) showUnsaved(e.code, e.message, retry);
  else notice(reasonText(e.code, e.message), 'error');
}

export function setGame(state, fresh = false) {
  const prev = app.game;
  const same = prev && prev.id === state.id && !fresh;
  // The game left behind stops thinking and its clock is paused, whichever way another game
  // was opened (New game, a FEN, the editor, a file, the games list).
  if (prev && prev.id !== state.id) api.leave(prev.id);
  app.game = state;
  settings.setGame(state.id);
  document.body.dataset.gameId = state.id;
  document.body.dataset.version = state.version;
  document.body.dataset.job = state.job || '';
  let animate = null;
  if (!same) {
    app.viewPly = null;
    app.viewPath = null;
    app.selected = null;
    app.flipped = state.human === 'black';
    app.endShown = state.outcome ? state.id : null;
    app.hintShown = state.hint ? state.hint.iccs + state.version : null;
    app.noticeShown = state.notice ? state.notice + state.version : null;
    app.board.setFlipped(app.flipped);
    $('level').value = String(state.level);
    const wantAnalysis = settings.analysis();
    $('analysis-toggle').checked = wantAnalysis;
    if (wantAnalysis !== state.analysis_on) setAnalysis(wantAnalysis);
    const wantLines = settings.analysisLines();
    $('analysis-lines').value = String(wantLines);
    if (wantLines !== state.analysis_lines) setAnalysisLines(wantLines);
  } else if (state.version !== prev.version) {
    const added = state.moves.length - prev.moves.length;
    if (added > 0 && app.viewPly === null) {
      const last = state.moves[state.moves.length - 1];
      if (added === 1) animate = last.iccs;
      if (state.outcome) sound.play('end');
      else if (last.check) sound.play('check');
      else sound.play(last.capture ? 'capture' : 'move');
    }
    if (app.viewPly !== null && app.viewPly > state.moves.length) app.viewPly = null;
    if (state.moves.length < prev.moves.length) app.selected = null;
  }
  if (same && app.viewPath && !nodeAt(app.viewPath, state)) {
    // The variation shown is gone (deleted, promoted): back to the current position.
    app.viewPath = null;
    app.viewPly = null;
  }
  if (state.in_check && !state.outcome && (!same || state.version !== prev.version)) showCheck();
  if (state.outcome && app.endShown !== state.id) {
    app.endShown = state.id;
    if (!same || !prev.outcome) sound.play('end');
    // The end dialog stands alone: a notice from before (the computer's draw offer) goes, and
    // the end's own (draw accepted, the computer resigns) is what the dialog says.
    clearNotice();
    if (state.notice) app.noticeShown = state.notice + state.version;
    showEnd(state);
  }
  if (!state.outcome) app.endShown = null;
  if (state.hint && app.hintShown !== state.hint.iccs + state.version) {
    app.hintShown = state.hint.iccs + state.version;
    const hint = state.hint;
    notice(() => t('hintIs', moveName(hint)));
  }
  if (state.save_error) {
    // The computer's move (or an accepted draw) was not saved; it waits for the retry.
    const { code, message } = state.save_error;
    showUnsaved(code, message, async () => setGame(await api.action(state.id, 'retry')), 'server');
  } else if (unsavedSource() === 'server') {
    hideUnsaved();
  }
  if (state.notice && app.noticeShown !== state.notice + state.version) {
    app.noticeShown = state.notice + state.version;
    const key = {
      draw_accepted: 'drawAccepted', draw_declined: 'drawDeclined',
      computer_offers_draw: 'computerOffersDraw', computer_resigns: 'computerResigns',
    }[state.notice];
    const text = key ? t(key) : null;
    notice(text || reasonText(state.notice));
  }
  setClock(state.clock);
  render(animate);
  schedulePoll();
}

/** The game's state now; while the engine works the page asks often, so the moves (a long tree
 * is most of the answer) come only when they changed. */
async function fetchState(id) {
  const known = app.game;
  const state = await api.get(id, known?.id === id ? `${known.version}.${known.revision}` : undefined);
  if (state.moves !== undefined) return state;
  const now = app.game;
  if (now?.id === id && now.version === state.version && now.revision === state.revision) {
    return { ...state, moves: now.moves, initial_comment: now.initial_comment };
  }
  // The page moved on while the answer came: the whole state.
  return api.get(id);
}

export async function refresh() {
  if (!app.game) return;
  try {
    setGame(await fetchState(app.game.id));
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
    // The server may be restarting: try again a little later.
    clearTimeout(app.pollTimer);
    app.pollTimer = setTimeout(refresh, 2000);
  }
}

function schedulePoll() {
  clearTimeout(app.pollTimer);
  if (app.game?.job) app.pollTimer = setTimeout(refresh, POLL_MS);
}

export async function openGame(id) {
  setGame(await api.get(id), true);
}

export async function newGame(body) {
  const send = async () => setGame(await api.create(body), true);
  try {
    await send();
    return true;
  } catch (e) {
    failed(e, send);
    return false;
  }
}

export async function action(name) {
  if (!app.game) return;
  const id = app.game.id;
  const send = async () => setGame(await api.action(id, name));
  try {
    await send();
  } catch (e) {
    failed(e, send);
  }
}

/** Asks for a review of the game, as hard as the person chose. */
export async function review() {
  if (!app.game) return;
  const id = app.game.id;
  const send = async () => setGame(await api.review(id, settings.reviewDepth()));
  try {
    await send();
  } catch (e) {
    failed(e, send);
  }
}

/** Sets how many lines the analysis shows, remembered for the next games too. */
export async function setAnalysisLines(lines) {
  settings.setAnalysisLines(lines);
  if (!app.game) return;
  try {
    setGame(await api.settings(app.game.id, { lines }));
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
  }
}

export async function setAnalysis(on) {
  settings.setAnalysis(on);
  if (!app.game) return;
  try {
    setGame(await api.settings(app.game.id, { analysis: on }));
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
  }
}
