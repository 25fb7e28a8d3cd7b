// Drawing the page from the state: the board, the status line, the move list, the players,
// the buttons, the engine's thinking, and the check and end-of-game announcements.

import { app, shownPly, shownFen, shownMove, shownLegal, isLive, pathPly, humanPlays, moveLabel, lastMoveNumber, moveName } from './state.js';
import { parseFen } from './fen.js';
import { t, endReason, outcomeTitle } from './i18n.js';
import { renderReview } from './review.js';
import { renderBook } from './book.js';
import { showTablebase } from './tablebase.js';
import { renderMoves, openingText } from './movelist.js';
import { renderStudyTools, ensureLegal, nextPath, edit } from './study.js';
import { $ } from './dom.js';
import { onSite } from './site.js';

export function render(animate = null) {
  const game = app.game;
  if (!game) return;
  const ply = shownPly();
  const live = isLive();
  if (!live) ensureLegal();
  const { pieces, turn } = parseFen(shownFen());
  document.body.dataset.shownFen = shownFen();
  const last = shownMove();
  const inCheck = live ? game.in_check : Boolean(last?.check);
  let check = null;
  if (inCheck) {
    const general = turn === 'red' ? 'K' : 'k';
    for (const [sq, letter] of pieces) if (letter === general) check = sq;
  }
  const targets = app.selected ? shownLegal().filter((m) => m.startsWith(app.selected)).map((m) => m.slice(2, 4)) : [];
  app.board.render({
    pieces,
    lastMove: last?.iccs || null,
    selected: app.selected,
    targets,
    check,
    hint: live && game.hint ? game.hint.iccs : null,
    lines: live && $('analysis-toggle').checked && game.analysis?.kind === 'analysis'
      ? (game.analysis.lines || []).map((l) => l.pv[0]).filter(Boolean)
      : [],
    animate: live ? animate : null,
    cursor: $('board').matches(':focus-visible') ? app.cursor : null,
  });
  $('board').dataset.flipped = String(app.flipped);
  renderStatus(live, turn, inCheck);
  renderMoves();
  renderStudyTools();
  renderPlayers();
  renderButtons();
  renderAnalysis();
  renderBook(shownFen(), live);
  renderReview(game.review, {
    ply,
    firstSide: parseFen(game.start_fen).turn,
    label: ply > 0 ? moveLabel(ply) : '',
    move: ply > 0 ? moveName(game.moves[ply - 1]) : '',
  }, (p) => browse(p));
  // The review names the opening too.
  $('review-opening').hidden = !game.opening || !game.review;
  if (game.opening) $('review-opening').textContent = openingText(game.opening);
  // On the static site the link's click makes the file (site.js); the server serves it.
  if (!onSite) $('save-pgn').href = `/api/games/${game.id}/pgn?notation=${app.notation}`;
  $('save-pgn').setAttribute('download', `xiangqi-${game.id}.pgn`);
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
      if (game.clock?.paused) text += ` — ${t('pausedNow')}`;
      else if (game.job === 'computer') text += ` — ${t('thinkingNow')}`;
      else if (game.human !== 'both' && humanPlays(turn)) text += ` — ${t('yourTurn')}`;
    }
  }
  if (!live) {
    const path = app.viewPath;
    const shownLabel = moveLabel(path ? pathPly(path) : app.viewPly);
    const label = app.viewPly === 0 && !path ? t('startPos') : shownLabel;
    text = `${t('viewing', label, lastMoveNumber())} · ${text}`;
  }
  status.textContent = text;
  document.title = `${t('title')} · ${text}`;
  status.classList.toggle('over', Boolean(game.outcome));
  status.classList.toggle('in-check', inCheck && !game.outcome);
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

// The clocks, held here: while the players' bars are rebuilt, one of them is briefly out of the
// document, where looking it up by id would not find it.
const CLOCKS = { red: $('clock-red'), black: $('clock-black') };

function renderPlayers() {
  const game = app.game;
  // A loaded record says what it was: its event and date.
  const title = [game.event, game.date].filter(Boolean).join(' · ');
  $('game-title').hidden = !title;
  $('game-title').textContent = title;
  const bottom = app.flipped ? 'black' : 'red';
  const top = bottom === 'red' ? 'black' : 'red';
  for (const [id, side] of [['player-top', top], ['player-bottom', bottom]]) {
    const box = $(id);
    box.className = `player ${side}${game.turn === side && !game.outcome ? ' to-move' : ''}`;
    const name = playerName(side);
    const label = document.createElement('span');
    label.className = 'name';
    label.textContent = name ? `${t(side)} · ${name}` : t(side);
    // The clock elements keep their ids and move with their side when the board turns.
    box.replaceChildren(label, CLOCKS[side]);
  }
}

function renderButtons() {
  const game = app.game;
  const over = Boolean(game.outcome);
  const thinking = game.job === 'computer';
  // While paused the server plays no move, redone ones included (undo, hints and the rest
  // still work).
  const paused = Boolean(game.clock?.paused);
  $('undo').disabled = game.moves.length === 0;
  $('redo').disabled = game.redo === 0 || over || paused;
  $('hint').disabled = over || thinking;
  $('resign').disabled = over;
  $('draw').disabled = over || thinking || game.human === 'both';
  $('review-btn').disabled = game.moves.length === 0 || (!over && game.human !== 'both') || game.job === 'review';
  $('review-depth').disabled = $('review-btn').disabled;
  $('pause').hidden = !game.clock || over;
  // A study board continues from any position shown; a game against the computer from one
  // looked back at (a variation too), never from its current position, which is the game's.
  $('continue-here').hidden = game.human !== 'both' && isLive();
  $('draw').textContent = game.draw_offered ? t('acceptDraw') : t('offerDraw');
  $('pause').textContent = game.clock?.paused ? t('resume') : t('pause');
  $('pause').dataset.paused = String(Boolean(game.clock?.paused));
  const n = game.moves.length;
  const ply = shownPly();
  const inVariation = app.viewPath !== null;
  $('first').disabled = ply === 0 && !inVariation;
  $('prev').disabled = ply === 0 && !inVariation;
  $('next').disabled = inVariation ? !nextPath(app.viewPath) : ply === n;
  $('last').disabled = ply === n && !inVariation;
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
  // The tables' verdict on the position analysed (the game's current one), when one holds it.
  showTablebase($('tb-line'), app.game.fen);
  const a = app.game.analysis;
  if (!a) {
    $('an-depth').textContent = app.game.job ? '…' : '';
    $('an-nps').textContent = '';
    $('an-nodes').textContent = '';
    $('pv').textContent = '';
    $('pv-lines').replaceChildren();
    return;
  }
  const share = a.mate_red ? (a.mate_red > 0 ? 1 : 0) : 1 / (1 + Math.exp(-a.score_red / 250));
  $('eval-red').style.width = `${(share * 100).toFixed(1)}%`;
  $('eval-text').textContent = scoreText(a);
  // A book move is reported once, at depth 0 without nodes: say where it came from.
  const fromBook = a.depth === 0 && a.nodes === 0;
  $('an-depth').textContent = fromBook ? t('bookMove') : t('depth', a.depth);
  // On the static site the engine may search on several threads (site.js notes how many).
  const threads = Number(document.documentElement.dataset.engineThreads || 1);
  $('an-nps').textContent = t('nps', formatCount(a.nps)) + (threads > 1 ? t('onThreads', threads) : '');
  $('an-nodes').textContent = t('nodes', formatCount(a.nodes));
  $('pv').replaceChildren(a.pv_names.map(moveName).join(' '), addLineButton(a.pv));
  // Further lines of an analysis (MultiPV), each with its score.
  const more = (a.lines || []).slice(1).map((line) => {
    const row = document.createElement('div');
    row.className = 'pv-line';
    const score = document.createElement('span');
    score.className = 'pv-score';
    score.textContent = scoreText(line);
    const moves = document.createElement('span');
    moves.textContent = line.pv_names.map(moveName).join(' ');
    row.append(score, moves);
    // A search stopped inside a depth leaves the lines it had not searched again one
    // depth shallower: say so.
    if (line.depth !== undefined && line.depth !== a.depth) {
      const depth = document.createElement('span');
      depth.className = 'pv-depth';
      depth.textContent = t('depth', line.depth);
      row.append(depth);
    }
    row.append(addLineButton(line.pv));
    return row;
  });
  $('pv-lines').replaceChildren(...more);
  box.dataset.kind = a.kind;
}

/** A line's score for Red as the panel shows it: a mate, or soldiers with a sign, after `≥` or
 * `≤` when the search was stopped with only a bound on it (`bound_red`). */
function scoreText(line) {
  const value = line.mate_red
    ? t('mateIn', line.mate_red > 0 ? t('red') : t('black'), Math.abs(line.mate_red))
    : `${line.score_red >= 0 ? '+' : ''}${(line.score_red / 100).toFixed(2)}`;
  const mark = { at_least: '≥ ', at_most: '≤ ' }[line.bound_red] || '';
  return mark + value;
}

/** A small button that plays an analysis line (ICCS moves) on from the game's current
 * position, on a study board (elsewhere the main line is the game as played). */
function addLineButton(pv) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'pv-add';
  button.textContent = '+';
  button.title = t('addLine');
  button.setAttribute('aria-label', t('addLine'));
  button.disabled = !pv?.length;
  button.hidden = !app.game.study_board;
  const n = app.game.moves.length;
  button.addEventListener('click', () => edit({ op: 'play', at: n ? [n - 1] : [], moves: pv }));
  return button;
}

/** Shows the main line after `ply` plies (the current position at its end). */
export function browse(ply) {
  if (!app.game) return;
  const n = app.game.moves.length;
  const p = Math.max(0, Math.min(n, ply));
  app.viewPath = null;
  app.viewPly = p === n ? null : p;
  app.selected = null;
  render();
}

export function showCheck() {
  const banner = $('check-banner');
  banner.dataset.shown = String(Number(banner.dataset.shown || 0) + 1);
  banner.hidden = false;
  banner.classList.remove('show');
  banner.getBoundingClientRect();
  banner.classList.add('show');
  clearTimeout(showCheck.timer);
  showCheck.timer = setTimeout(() => { banner.hidden = true; }, 1600);
}

export function showEnd(state) {
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
