// The page: one game against the computer, kept in step with the server.

import { Board } from './board.js';
import { parseFen, squareCoords, squareName, isRed } from './fen.js';
import { api } from './api.js';
import { t, reasonText, endReason, language, setLanguage, applyTexts } from './i18n.js';
import * as sound from './sound.js';
import { notice, confirmDialog } from './dialogs.js';
import { setupFiles } from './files.js';
import { renderReview, markSymbol } from './review.js';
import { isUnsaved, showUnsaved, hideUnsaved, unsavedSource, setupUnsaved } from './unsaved.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 250;

const app = {
  game: null,
  viewPly: null, // null: the current position; else the number of plies shown
  selected: null,
  flipped: false,
  cursor: null,
  notation: localStorage.getItem('xiangqi.notation') || 'chinese',
  pollTimer: null,
  endShown: null,
  hintShown: null,
  noticeShown: null,
};

const board = new Board($('board'), {
  onTap: (sq) => tap(sq),
  onDrop: (from, to) => attempt(from, to),
  canDrag: (sq) => isMovable(sq),
  label: 'board',
});

// ---- what is on the board ----

function shownPly() {
  return app.viewPly === null ? app.game.moves.length : app.viewPly;
}

function shownFen() {
  const ply = shownPly();
  return ply === 0 ? app.game.start_fen : app.game.moves[ply - 1].fen;
}

function sideOf(letter) {
  return isRed(letter) ? 'red' : 'black';
}

function canMoveNow() {
  return app.game && !app.game.outcome && app.game.legal.length > 0 && app.viewPly === null;
}

function isMovable(sq) {
  if (!canMoveNow()) return false;
  const letter = parseFen(app.game.fen).pieces.get(sq);
  return Boolean(letter) && sideOf(letter) === app.game.turn;
}

function humanPlays(side) {
  const h = app.game.human;
  return h === 'both' || h === side;
}

// ---- moving ----

function tap(sq) {
  if (!app.game) return;
  if (app.viewPly !== null) {
    notice(reasonText('browsing'));
    return;
  }
  const letter = parseFen(app.game.fen).pieces.get(sq);
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
    if (letter && !app.game.outcome) {
      const waiting = app.game.job === 'computer' || !humanPlays(app.game.turn);
      const code = waiting && humanPlays(sideOf(letter)) ? 'not_your_turn' : 'not_your_piece';
      notice(reasonText(code), 'error');
    }
  }
  render();
}

async function attempt(from, to) {
  app.selected = null;
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
function failed(e, retry) {
  sound.play('error');
  if (isUnsaved(e)) showUnsaved(e.code, e.message, retry);
  else notice(reasonText(e.code, e.message), 'error');
}

// ---- the game from the server ----

function setGame(state, fresh = false) {
  const prev = app.game;
  const same = prev && prev.id === state.id && !fresh;
  app.game = state;
  localStorage.setItem('xiangqi.game', state.id);
  document.body.dataset.gameId = state.id;
  document.body.dataset.version = state.version;
  document.body.dataset.job = state.job || '';
  let animate = null;
  if (!same) {
    app.viewPly = null;
    app.selected = null;
    app.flipped = state.human === 'black';
    app.endShown = state.outcome ? state.id : null;
    app.hintShown = state.hint ? state.hint.iccs + state.version : null;
    app.noticeShown = state.notice ? state.notice + state.version : null;
    board.setFlipped(app.flipped);
    $('level').value = String(state.level);
    const wantAnalysis = localStorage.getItem('xiangqi.analysis') === '1';
    $('analysis-toggle').checked = wantAnalysis;
    if (wantAnalysis !== state.analysis_on) setAnalysis(wantAnalysis);
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
  if (state.in_check && !state.outcome && (!same || state.version !== prev.version)) showCheck();
  if (state.outcome && app.endShown !== state.id) {
    app.endShown = state.id;
    if (!same || !prev.outcome) sound.play('end');
    showEnd(state);
  }
  if (!state.outcome) app.endShown = null;
  if (state.hint && app.hintShown !== state.hint.iccs + state.version) {
    app.hintShown = state.hint.iccs + state.version;
    notice(t('hintIs', state.hint.chinese));
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
    const text = { draw_accepted: t('drawAccepted'), draw_declined: t('drawDeclined') }[state.notice];
    notice(text || reasonText(state.notice));
  }
  render(animate);
  schedulePoll();
}

async function refresh() {
  if (!app.game) return;
  try {
    setGame(await api.get(app.game.id));
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

async function openGame(id) {
  setGame(await api.get(id), true);
}

async function newGame(body) {
  const send = async () => setGame(await api.create(body), true);
  try {
    await send();
    return true;
  } catch (e) {
    failed(e, send);
    return false;
  }
}

async function action(name) {
  if (!app.game) return;
  const id = app.game.id;
  const send = async () => setGame(await api.action(id, name));
  try {
    await send();
  } catch (e) {
    failed(e, send);
  }
}

async function setAnalysis(on) {
  localStorage.setItem('xiangqi.analysis', on ? '1' : '0');
  if (!app.game) return;
  try {
    setGame(await api.settings(app.game.id, { analysis: on }));
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
  }
}

// ---- drawing the page ----

function render(animate = null) {
  const game = app.game;
  if (!game) return;
  const ply = shownPly();
  const live = app.viewPly === null;
  const { pieces, turn } = parseFen(shownFen());
  const last = ply > 0 ? game.moves[ply - 1] : null;
  const inCheck = live ? game.in_check : Boolean(last?.check);
  let check = null;
  if (inCheck) {
    const general = turn === 'red' ? 'K' : 'k';
    for (const [sq, letter] of pieces) if (letter === general) check = sq;
  }
  const targets = app.selected ? game.legal.filter((m) => m.startsWith(app.selected)).map((m) => m.slice(2, 4)) : [];
  board.render({
    pieces,
    lastMove: last?.iccs || null,
    selected: live ? app.selected : null,
    targets: live ? targets : [],
    check,
    hint: live && game.hint ? game.hint.iccs : null,
    animate: live ? animate : null,
    cursor: $('board').matches(':focus-visible') ? app.cursor : null,
  });
  $('board').dataset.flipped = String(app.flipped);
  renderStatus(live, turn, inCheck);
  renderMoves();
  renderPlayers();
  renderButtons();
  renderAnalysis();
  renderReview(game.review, { ply, firstSide: parseFen(game.start_fen).turn }, (p) => browse(p));
  $('save-pgn').href = `/api/games/${game.id}/pgn?notation=${app.notation}`;
  $('save-pgn').setAttribute('download', `xiangqi-${game.id}.pgn`);
}

function outcomeTitle(outcome) {
  if (!outcome.winner) return t('draw');
  return outcome.winner === 'red' ? t('redWins') : t('blackWins');
}

function renderStatus(live, turn, inCheck) {
  const game = app.game;
  const status = $('status');
  status.dataset.turn = game.turn;
  status.dataset.result = game.outcome ? game.outcome.result : '';
  status.dataset.check = String(Boolean(game.in_check && !game.outcome));
  status.dataset.thinking = String(game.job === 'computer');
  let text;
  if (game.outcome && live) {
    text = `${outcomeTitle(game.outcome)} — ${endReason(game.outcome.reason)}`;
  } else {
    text = turn === 'red' ? t('turnRed') : t('turnBlack');
    if (inCheck) text += ` — ${t('checkNow')}`;
    if (live) {
      if (game.job === 'computer') text += ` — ${t('thinkingNow')}`;
      else if (game.human !== 'both' && humanPlays(turn)) text += ` — ${t('yourTurn')}`;
    }
  }
  if (!live) text = `${t('viewing', app.viewPly, game.moves.length)} · ${text}`;
  status.textContent = text;
  document.title = `${t('title')} · ${text}`;
  status.classList.toggle('over', Boolean(game.outcome));
  status.classList.toggle('in-check', inCheck && !game.outcome);
}

function renderMoves() {
  const game = app.game;
  const list = $('moves');
  const marks = (game.review?.plies || []).map((p) => p.mark || '').join();
  const key = [game.id, game.version, app.notation, language(), marks].join('|');
  if (list.dataset.key === key) {
    const ply = shownPly();
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.ply) === ply);
    scrollToCurrent(list);
    return;
  }
  list.dataset.key = key;
  const firstRed = parseFen(game.start_fen).turn === 'red';
  const startNumber = Number(game.start_fen.trim().split(/\s+/)[5]) || 1;
  const review = game.review;
  const items = game.moves.map((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    const red = (i % 2 === 0) === firstRed;
    li.className = red ? 'red-move' : 'black-move';
    if (i === 0 && !red) li.classList.add('first-black');
    if (red || i === 0) {
      const num = document.createElement('span');
      num.className = 'num';
      const n = startNumber + Math.floor((i + (firstRed ? 0 : 1)) / 2);
      num.textContent = red ? `${n}.` : `${n}…`;
      li.appendChild(num);
    }
    const text = document.createElement('span');
    text.className = 'mv';
    text.textContent = m[app.notation] || m.chinese;
    li.appendChild(text);
    const mark = review?.plies?.[i]?.mark;
    if (mark) {
      li.classList.add(`mark-${mark}`);
      const sym = document.createElement('span');
      sym.className = 'sym';
      sym.textContent = markSymbol(mark);
      li.appendChild(sym);
      const better = review.plies[i].best;
      li.title = `${t('marks')[mark]}${better ? ` — ${t('better', better)}` : ''}`;
    }
    if (i + 1 === shownPly()) li.classList.add('current');
    li.tabIndex = -1;
    li.addEventListener('click', () => browse(i + 1));
    return li;
  });
  list.replaceChildren(...items);
  scrollToCurrent(list);
}

function scrollToCurrent(list) {
  const current = list.querySelector('.current');
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function playerName(side) {
  const game = app.game;
  if (game.human === 'both') {
    const name = side === 'red' ? game.red : game.black;
    return name && name !== '?' && name !== 'Player' ? name : '';
  }
  if (game.human === side) return t('you');
  return `${t('computer')} · ${t('levelN', game.level)}`;
}

function renderPlayers() {
  const game = app.game;
  const bottom = app.flipped ? 'black' : 'red';
  const top = bottom === 'red' ? 'black' : 'red';
  for (const [id, side] of [['player-top', top], ['player-bottom', bottom]]) {
    const box = $(id);
    box.className = `player ${side}${game.turn === side && !game.outcome ? ' to-move' : ''}`;
    const name = playerName(side);
    box.textContent = name ? `${t(side)} · ${name}` : t(side);
  }
}

function renderButtons() {
  const game = app.game;
  const over = Boolean(game.outcome);
  const thinking = game.job === 'computer';
  $('undo').disabled = game.moves.length === 0;
  $('redo').disabled = game.redo === 0 || over;
  $('hint').disabled = over || thinking;
  $('resign').disabled = over;
  $('draw').disabled = over || thinking || game.human === 'both';
  $('review-btn').disabled = game.moves.length === 0 || (!over && game.human !== 'both') || game.job === 'review';
  const n = game.moves.length;
  const ply = shownPly();
  $('first').disabled = ply === 0;
  $('prev').disabled = ply === 0;
  $('next').disabled = ply === n;
  $('last').disabled = ply === n;
}

function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

function renderAnalysis() {
  const on = $('analysis-toggle').checked;
  const box = $('analysis');
  box.hidden = !on;
  if (!on) return;
  const a = app.game.analysis;
  if (!a) {
    $('an-depth').textContent = app.game.job ? '…' : '';
    $('an-nps').textContent = '';
    $('an-nodes').textContent = '';
    $('pv').textContent = '';
    return;
  }
  const share = a.mate_red ? (a.mate_red > 0 ? 1 : 0) : 1 / (1 + Math.exp(-a.score_red / 250));
  $('eval-red').style.width = `${(share * 100).toFixed(1)}%`;
  $('eval-text').textContent = a.mate_red
    ? t('mateIn', a.mate_red > 0 ? t('red') : t('black'), Math.abs(a.mate_red))
    : `${a.score_red >= 0 ? '+' : ''}${(a.score_red / 100).toFixed(2)}`;
  // A book move is reported once, at depth 0 without nodes: say where it came from.
  const fromBook = a.depth === 0 && a.nodes === 0;
  $('an-depth').textContent = fromBook ? t('bookMove') : t('depth', a.depth);
  $('an-nps').textContent = t('nps', formatCount(a.nps));
  $('an-nodes').textContent = t('nodes', formatCount(a.nodes));
  $('pv').textContent = a.pv_chinese.join(' ');
  box.dataset.kind = a.kind;
}

function browse(ply) {
  if (!app.game) return;
  const n = app.game.moves.length;
  const p = Math.max(0, Math.min(n, ply));
  app.viewPly = p === n ? null : p;
  app.selected = null;
  render();
}

function showCheck() {
  const banner = $('check-banner');
  banner.dataset.shown = String(Number(banner.dataset.shown || 0) + 1);
  banner.hidden = false;
  banner.classList.remove('show');
  banner.getBoundingClientRect();
  banner.classList.add('show');
  clearTimeout(showCheck.timer);
  showCheck.timer = setTimeout(() => { banner.hidden = true; }, 1600);
}

function showEnd(state) {
  const o = state.outcome;
  let title = outcomeTitle(o);
  if (state.human !== 'both') {
    if (!o.winner) title = t('draw');
    else title = o.winner === state.human ? t('youWin') : t('youLose');
  }
  $('end-title').textContent = title;
  $('end-reason').textContent = `${outcomeTitle(o)} (${o.result}) — ${endReason(o.reason)}`;
  const dialog = $('end-dialog');
  dialog.dataset.result = o.result;
  dialog.dataset.reason = o.reason;
  if (!dialog.open) dialog.showModal();
}

// ---- controls ----

// Calibrated Elo per level, from the server once it answers (the menus work without it).
let levelElo = [];

function fillLevels(select) {
  const chosen = select.value;
  select.replaceChildren();
  t('levelName').forEach((name, i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = levelElo[i] ? `${i + 1} · ${name} (≈${levelElo[i]})` : `${i + 1} · ${name}`;
    select.appendChild(o);
  });
  if (chosen) select.value = chosen;
}

async function loadLevelElo() {
  try {
    levelElo = (await api.levels()).map((l) => l.elo);
    fillLevels($('level'));
    fillLevels($('new-level'));
  } catch {
    // Only the Elo hints are missing; the levels themselves still work.
  }
}

function setupControls() {
  fillLevels($('level'));
  fillLevels($('new-level'));
  $('notation').value = app.notation;
  $('new-game').addEventListener('click', () => {
    $('new-level').value = localStorage.getItem('xiangqi.level') || $('level').value || '3';
    const side = app.game?.human || 'red';
    for (const r of document.querySelectorAll('input[name=side]')) r.checked = r.value === side;
    $('new-game-dialog').showModal();
  });
  $('new-game-dialog').addEventListener('close', () => {
    if ($('new-game-dialog').returnValue !== 'start') return;
    const human = document.querySelector('input[name=side]:checked')?.value || 'red';
    const level = Number($('new-level').value);
    localStorage.setItem('xiangqi.level', String(level));
    if (app.game) api.leave(app.game.id);
    newGame({ human, level });
  });
  $('undo').addEventListener('click', () => { app.viewPly = null; action('undo'); });
  $('redo').addEventListener('click', () => { app.viewPly = null; action('redo'); });
  $('hint').addEventListener('click', () => { notice(t('askingHint')); action('hint'); });
  $('draw').addEventListener('click', () => { notice(t('drawOffered')); action('draw'); });
  $('review-btn').addEventListener('click', () => action('review'));
  $('resign').addEventListener('click', async () => {
    if (await confirmDialog(t('confirmResign'))) action('resign');
  });
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    board.setFlipped(app.flipped);
    render();
  });
  $('level').addEventListener('change', async () => {
    const level = Number($('level').value);
    localStorage.setItem('xiangqi.level', String(level));
    if (!app.game) return;
    const id = app.game.id;
    const send = async () => setGame(await api.settings(id, { level }));
    try {
      await send();
    } catch (e) {
      $('level').value = String(app.game.level);
      failed(e, send);
    }
  });
  $('notation').addEventListener('change', () => {
    app.notation = $('notation').value;
    localStorage.setItem('xiangqi.notation', app.notation);
    render();
  });
  $('analysis-toggle').addEventListener('change', () => setAnalysis($('analysis-toggle').checked));
  $('first').addEventListener('click', () => browse(0));
  $('prev').addEventListener('click', () => browse(shownPly() - 1));
  $('next').addEventListener('click', () => browse(shownPly() + 1));
  $('last').addEventListener('click', () => browse(Infinity));
  $('end-dialog').addEventListener('close', () => {
    const v = $('end-dialog').returnValue;
    if (v === 'review') action('review');
    if (v === 'new') $('new-game').click();
  });
  $('lang').addEventListener('click', () => {
    setLanguage(language() === 'zh' ? 'en' : 'zh');
    updateToolButtons();
    fillLevels($('level'));
    fillLevels($('new-level'));
    if (app.game) $('level').value = String(app.game.level);
    render();
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    localStorage.setItem('xiangqi.theme', dark ? 'dark' : 'light');
  });
  $('mute').addEventListener('click', () => {
    sound.setMuted(!sound.isMuted());
    updateToolButtons();
  });
  setupFiles({
    failed,
    game: () => app.game,
    shownFen,
    setGame,
    newGame,
    openGame,
    level: () => Number($('level').value) || 3,
    notation: () => app.notation,
  });
  setupKeyboard();
  setupUnsaved();
}

function updateToolButtons() {
  $('lang').textContent = language() === 'zh' ? 'EN' : '中文';
  const speaker = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
  const waves = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  const cross = '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  $('mute').innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${speaker}${sound.isMuted() ? cross : waves}</svg>`;
  $('mute').setAttribute('aria-pressed', String(sound.isMuted()));
}

function setupKeyboard() {
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
    if (evt.key === 'ArrowLeft') browse(shownPly() - 1);
    else if (evt.key === 'ArrowRight') browse(shownPly() + 1);
    else if (evt.key === 'Home') browse(0);
    else if (evt.key === 'End') browse(Infinity);
    else return;
    evt.preventDefault();
  });
}

// ---- start ----

// Script errors are kept where the browser tests can see them.
window.xiangqiErrors = [];
window.addEventListener('error', (e) => window.xiangqiErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.xiangqiErrors.push(String(e.reason)));

async function start() {
  const theme = localStorage.getItem('xiangqi.theme')
    || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = theme;
  applyTexts();
  updateToolButtons();
  setupControls();
  loadLevelElo();
  window.addEventListener('pagehide', () => { if (app.game) api.leave(app.game.id); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  const saved = localStorage.getItem('xiangqi.game');
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
  await newGame({ human: 'red', level: Number(localStorage.getItem('xiangqi.level')) || 3 });
}

start();
