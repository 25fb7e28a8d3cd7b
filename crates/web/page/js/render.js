// Drawing the page from the state: the board, the status line, the move list, the players,
// the buttons, the engine's thinking, and the check and end-of-game announcements.

import { app, shownPly, shownFen, humanPlays, moveLabel, lastMoveNumber } from './state.js';
import { parseFen } from './fen.js';
import { t, endReason, language, outcomeTitle } from './i18n.js';
import { renderReview, markSymbol } from './review.js';
import { renderBook } from './book.js';
import { $ } from './dom.js';

export function render(animate = null) {
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
  app.board.render({
    pieces,
    lastMove: last?.iccs || null,
    selected: live ? app.selected : null,
    targets: live ? targets : [],
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
  renderPlayers();
  renderButtons();
  renderAnalysis();
  renderBook(shownFen(), live);
  renderReview(game.review, {
    ply,
    firstSide: parseFen(game.start_fen).turn,
    label: ply > 0 ? moveLabel(ply) : '',
    move: ply > 0 ? game.moves[ply - 1][app.notation] || game.moves[ply - 1].chinese : '',
  }, (p) => browse(p));
  $('save-pgn').href = `/api/games/${game.id}/pgn?notation=${app.notation}`;
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
    const label = app.viewPly === 0 ? t('startPos') : moveLabel(app.viewPly);
    text = `${t('viewing', label, lastMoveNumber())} · ${text}`;
  }
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
      li.title = `${t('marks')[mark]}${better ? ` — ${t('better', better, review.plies[i].check)}` : ''}`;
    }
    if (m.took_ms !== null && m.took_ms !== undefined) {
      const took = document.createElement('span');
      took.className = 'took';
      took.textContent = t('took', m.took_ms);
      li.appendChild(took);
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
  $('continue-here').hidden = game.human !== 'both';
  $('draw').textContent = game.draw_offered ? t('acceptDraw') : t('offerDraw');
  $('pause').textContent = game.clock?.paused ? t('resume') : t('pause');
  $('pause').dataset.paused = String(Boolean(game.clock?.paused));
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
    $('pv-lines').replaceChildren();
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
  // Further lines of an analysis (MultiPV), each with its score.
  const more = (a.lines || []).slice(1).map((line) => {
    const row = document.createElement('div');
    row.className = 'pv-line';
    const score = document.createElement('span');
    score.className = 'pv-score';
    score.textContent = line.mate_red
      ? t('mateIn', line.mate_red > 0 ? t('red') : t('black'), Math.abs(line.mate_red))
      : `${line.score_red >= 0 ? '+' : ''}${(line.score_red / 100).toFixed(2)}`;
    const moves = document.createElement('span');
    moves.textContent = line.pv_chinese.join(' ');
    row.append(score, moves);
    return row;
  });
  $('pv-lines').replaceChildren(...more);
  box.dataset.kind = a.kind;
}

export function browse(ply) {
  if (!app.game) return;
  const n = app.game.moves.length;
  const p = Math.max(0, Math.min(n, ply));
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
