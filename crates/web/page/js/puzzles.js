// The puzzles' page: a position where the side to move has one way to win. The person moves
// the solver's pieces; the engine judges each move (/api/puzzles/…: the server's, or on the
// static site the worker's), answers with the best defence, and keeps the person's puzzle
// rating. A wrong move, a hint or the solution
// shown makes the attempt count as failed.

import { Board } from './board.js';
import { applyTexts, language, setLanguage, t, reasonText } from './i18n.js';
import { request } from './api.js';
import { parseFen, isRed, cursorStep } from './fen.js';
import { settings, moveNameIn } from './settings.js';
import { $ } from './dom.js';
import { drawLogos } from './glyphs.js';
import { keepOffline } from './site.js';

window.xiangqiErrors = [];
window.addEventListener('error', (e) => window.xiangqiErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.xiangqiErrors.push(String(e.reason)));

/** Pause between the person's move and the defender's answer, so both can be seen. */
const REPLY_DELAY_MS = 350;
/** Pause between the moves of a solution played out. */
const SHOW_DELAY_MS = 700;

const state = {
  puzzle: null,
  pieces: new Map(),
  played: [],
  legal: [],
  selected: null,
  /** The keyboard's point on the board (shown while the board has the focus). */
  cursor: null,
  lastMove: null,
  hint: null,
  hintLevel: 0,
  busy: false,
  /** `solving`, `solved`, `failed`. */
  phase: 'solving',
  /** Whether this attempt still counts as solved: no wrong move, hint or solution. */
  clean: true,
  /** Whether its result has been sent (once an attempt). */
  reported: false,
};

const board = new Board($('board'), {
  onTap: (sq) => tap(sq),
  onDrop: (from, to) => { if (to) attempt(from, to); },
  canDrag: (sq) => movable(sq),
  label: 'board',
});

function draw(animate = null) {
  const targets = state.selected
    ? state.legal.filter((m) => m.startsWith(state.selected)).map((m) => m.slice(2, 4))
    : [];
  board.render({
    pieces: state.pieces,
    lastMove: state.lastMove,
    selected: state.selected,
    targets,
    hint: state.hint,
    cursor: document.activeElement === $('board') ? state.cursor : null,
    animate,
  });
}

/** The keyboard, as on the game page: Tab to the board, the arrows move a cursor over it,
 * Enter or Space picks up a piece and puts it down (as a tap does), Escape drops it. */
function setupKeyboard() {
  const box = $('board');
  box.addEventListener('focus', () => {
    // The solver's general's file, on the solver's side of the board.
    if (!state.cursor) state.cursor = state.selected || (solverIsRed() ? 'e0' : 'e9');
    draw();
  });
  box.addEventListener('blur', () => draw());
  box.addEventListener('keydown', (evt) => {
    // The board is turned when Black solves.
    const next = cursorStep(state.cursor || 'e0', evt.key, !solverIsRed());
    if (next) {
      state.cursor = next;
      evt.preventDefault();
      draw();
    } else if (evt.key === 'Enter' || evt.key === ' ') {
      evt.preventDefault();
      tap(state.cursor || 'e0');
    } else if (evt.key === 'Escape') {
      state.selected = null;
      draw();
    }
  });
}

function say(text, kind = '') {
  $('puzzle-status').textContent = text;
  $('puzzle-status').dataset.kind = kind;
}

function failed(e) {
  say(reasonText(e.code, e.message), 'error');
}

function solverIsRed() {
  return state.puzzle?.solver === 'red';
}

function movable(sq) {
  const letter = state.pieces.get(sq);
  return Boolean(letter) && state.phase === 'solving' && !state.busy && isRed(letter) === solverIsRed();
}

/** Moves the piece on the board (the page's copy of the position). */
function apply(move) {
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  state.pieces.set(to, state.pieces.get(from));
  state.pieces.delete(from);
  state.lastMove = move;
  draw(move);
}

function prompt() {
  const p = state.puzzle;
  const side = p.solver === 'red' ? t('red') : t('black');
  const goals = { mate: 'puzzleGoalMate', material: 'puzzleGoalMaterial', draw: 'puzzleGoalDraw', win: 'puzzleGoalWin' };
  const goal = t(goals[p.goal.kind] ?? 'puzzleGoalMaterial', p.goal.moves);
  $('puzzle-prompt').textContent = `${side} · ${goal}`;
  $('puzzle-prompt').dataset.solver = p.solver;
  // A classic composition is named, with its book, from the start.
  const c = p.classic;
  $('puzzle-title').textContent = c
    ? [c.name, language() === 'en' ? c.english : '', `${c.book}: ${c.verdict}`].filter(Boolean).join(' · ')
    : '';
}

/** The puzzle's themes, rating and source: shown once it is over. */
function about() {
  const p = state.puzzle;
  if (!p || state.phase === 'solving') {
    $('puzzle-about').textContent = '';
    return;
  }
  const themes = p.themes.map(themeName).join(' · ');
  const note = p.classic?.note ? ` · ${p.classic.note}` : '';
  $('puzzle-about').textContent = `${t('puzzleRatingOf', p.rating)} · ${themes}${note}`;
}

function themeName(name) {
  const mate = /^mateIn(\d)$/.exec(name);
  return mate ? t('puzzleGoalMate', Number(mate[1])) : t(`theme_${name}`);
}

function buttons() {
  const over = state.phase !== 'solving';
  $('puzzle-hint').disabled = over || state.busy;
  $('puzzle-retry').disabled = state.busy || state.played.length === 0 && !over;
  $('puzzle-solution').disabled = state.busy || state.phase === 'solved';
}

function setUp(puzzle) {
  state.puzzle = puzzle;
  const { pieces } = parseFen(puzzle.fen);
  Object.assign(state, {
    pieces, played: [], legal: puzzle.legal, selected: null, cursor: null, lastMove: null, hint: null,
    hintLevel: 0, busy: false, phase: 'solving',
  });
  board.setFlipped(puzzle.solver === 'black');
  draw();
  prompt();
  about();
  $('puzzle-line').textContent = '';
  say(puzzle.seen ? t('puzzleSeen') : t('puzzleYourMove'));
  buttons();
  document.body.dataset.puzzle = puzzle.id;
  document.body.dataset.phase = state.phase;
}

async function load(query = '') {
  try {
    const puzzle = await request('GET', `/api/puzzles/next${query}`);
    state.clean = true;
    state.reported = false;
    setUp(puzzle);
  } catch (e) {
    failed(e);
  }
}

function nextQuery() {
  const theme = $('puzzle-theme').value;
  return theme ? `?theme=${encodeURIComponent(theme)}` : '';
}

function tap(sq) {
  if (state.phase !== 'solving' || state.busy) return;
  if (state.selected && state.legal.includes(state.selected + sq)) {
    attempt(state.selected, sq);
    return;
  }
  state.selected = movable(sq) ? sq : null;
  draw();
}

/** Sends the attempt's end once: solved only when nothing helped. */
async function report(solved) {
  if (state.reported) return;
  state.reported = true;
  const before = Number($('puzzle-rating').textContent) || null;
  try {
    const record = await request('POST', '/api/puzzles/result', { id: state.puzzle.id, solved: solved && state.clean });
    showRecord(record, before);
  } catch (e) {
    failed(e);
  }
}

function finish(phase) {
  state.phase = phase;
  state.selected = null;
  document.body.dataset.phase = phase;
  about();
  buttons();
}

async function attempt(from, to) {
  const move = from + to;
  if (!state.legal.includes(move) || state.busy || state.phase !== 'solving') return;
  state.busy = true;
  state.selected = null;
  state.hint = null;
  buttons();
  say(t('puzzleChecking'));
  let judged;
  try {
    judged = await request('POST', '/api/puzzles/move', { id: state.puzzle.id, played: state.played, move });
  } catch (e) {
    state.busy = false;
    buttons();
    failed(e);
    return;
  }
  apply(move);
  state.played.push(move);
  if (judged.verdict === 'wrong') {
    state.clean = false;
    state.busy = false;
    finish('failed');
    say(t(state.puzzle.goal.kind === 'draw' ? 'puzzleWrongDraw' : 'puzzleWrong'), 'wrong');
    $('puzzle-line').textContent = `${t('puzzleRefutation')} ${lineText(judged.refutation_names, judged.refutation)}`;
    if (judged.refutation[0]) setTimeout(() => apply(judged.refutation[0]), REPLY_DELAY_MS);
    report(false);
    return;
  }
  if (judged.verdict === 'solved') {
    state.busy = false;
    finish('solved');
    say(state.clean ? t('puzzleSolved') : t('puzzleSolvedHelped'), 'solved');
    $('puzzle-line').textContent = `${t('puzzleSolutionWas')} ${lineText(judged.solution_names, judged.solution)}`;
    report(true);
    return;
  }
  say(t('puzzleRight'), 'right');
  await new Promise((done) => setTimeout(done, REPLY_DELAY_MS));
  apply(judged.reply);
  state.played.push(judged.reply);
  state.legal = judged.legal;
  state.busy = false;
  buttons();
  say(t('puzzleRightGoOn'), 'right');
}

/** First the piece to move, then the move; either makes the attempt count as failed. */
async function hint() {
  if (state.phase !== 'solving' || state.busy) return;
  try {
    const h = await request('POST', '/api/puzzles/hint', { id: state.puzzle.id, played: state.played });
    state.clean = false;
    state.hintLevel += 1;
    if (state.hintLevel === 1) {
      state.selected = h.from;
      say(t('puzzleHintPiece'));
    } else {
      state.hint = h.move;
      say(t('puzzleHintMove'));
    }
    draw();
  } catch (e) {
    failed(e);
  }
}

/** A line of moves as text in the notation chosen on the game page (Chinese unless changed
 * there); ICCS when the answer names none. */
function lineText(names, iccs) {
  return names?.length ? names.map((m) => moveNameIn(m)).join(' ') : iccs.join(' ');
}

/** Plays the whole solution out from the start; the attempt counts as failed. */
async function showSolution() {
  if (state.busy) return;
  let solution, names;
  try {
    ({ solution, solution_names: names } = await request('POST', '/api/puzzles/solution', { id: state.puzzle.id }));
  } catch (e) {
    failed(e);
    return;
  }
  state.clean = false;
  setUp(state.puzzle);
  finish('failed');
  state.busy = true;
  buttons();
  for (const move of solution) {
    await new Promise((done) => setTimeout(done, SHOW_DELAY_MS));
    apply(move);
  }
  state.busy = false;
  buttons();
  $('puzzle-line').textContent = `${t('puzzleSolutionWas')} ${lineText(names, solution)}`;
  say(t('puzzleShown'));
  report(false);
}

function retry() {
  if (state.busy || !state.puzzle) return;
  setUp(state.puzzle);
  say(t('puzzleRetryNote'));
}

function showRecord(record, before) {
  $('puzzle-rating').textContent = String(record.rating);
  const change = before === null ? 0 : record.rating - before;
  $('puzzle-change').textContent = change ? `(${change > 0 ? '+' : ''}${change})` : '';
  $('puzzle-counts').textContent = t('puzzleCounts', record.solved, record.attempted, record.total);
  const list = $('puzzle-recent');
  list.replaceChildren();
  for (const a of record.recent) {
    const li = document.createElement('li');
    li.className = a.solved ? 'solved' : 'failed';
    li.textContent = `${a.id} ${a.solved ? '✓' : '✗'}${a.rated ? '' : ` (${t('puzzleUnrated')})`}`;
    list.appendChild(li);
  }
}

function fillThemes(record) {
  const select = $('puzzle-theme');
  const chosen = select.value;
  for (const option of [...select.options].slice(1)) option.remove();
  for (const [name, count] of record.themes) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = `${themeName(name)} (${count})`;
    select.appendChild(option);
  }
  select.value = chosen;
}

function retranslate() {
  applyTexts();
  drawLogos();
  $('lang').textContent = language() === 'zh' ? 'EN' : '中文';
  if (state.puzzle) {
    prompt();
    about();
  }
}

async function start() {
  const theme = settings.theme()
    || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = theme;
  retranslate();
  $('lang').addEventListener('click', async () => {
    setLanguage(language() === 'zh' ? 'en' : 'zh');
    retranslate();
    fillThemes(await request('GET', '/api/puzzles'));
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    settings.setTheme(dark ? 'dark' : 'light');
  });
  keepOffline();
  setupKeyboard();
  $('puzzle-hint').addEventListener('click', hint);
  $('puzzle-retry').addEventListener('click', retry);
  $('puzzle-solution').addEventListener('click', showSolution);
  $('puzzle-next').addEventListener('click', () => load(nextQuery()));
  $('puzzle-theme').addEventListener('change', () => load(nextQuery()));
  try {
    const record = await request('GET', '/api/puzzles');
    showRecord(record, null);
    fillThemes(record);
    const wanted = new URLSearchParams(location.search).get('id');
    await load(wanted ? `?id=${encodeURIComponent(wanted)}` : '');
    document.body.dataset.ready = '1';
  } catch (e) {
    failed(e);
  }
}

start();
