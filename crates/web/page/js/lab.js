// The search laboratory's page: runs the textbook searches side by side on a position, draws
// their work as a table and bar charts, explores small trees of minimax and alpha-beta, and
// takes the evaluations apart. Everything is computed by the server (/api/lab/…).

import { Board } from './board.js';
import { applyTexts, language, setLanguage, t, reasonText } from './i18n.js';
import { request } from './api.js';
import { onSite, keepOffline } from './site.js';
import { START_FEN, parseFen } from './fen.js';
import { horizonLesson } from './lab-lesson.js';
import { Stepper } from './lab-stepper.js';
import { TreePicture } from './lab-picture.js';
import { depthSweep, eloChart } from './lab-sweep.js';
import { watchRun, describeProgress, partialRun } from './lab-progress.js';
import { settings, moveNameIn } from './settings.js';
import { $ } from './dom.js';
import { drawLogos } from './glyphs.js';
import { drawCharts } from './lab-chart.js';
import { drawTree, setInfinite, showValue } from './lab-tree.js';

window.xiangqiErrors = [];
window.addEventListener('error', (e) => window.xiangqiErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.xiangqiErrors.push(String(e.reason)));

/** This page's name for the server: its next run, or leaving, stops the one before. */
const client = `lab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
const gameFen = new URLSearchParams(location.search).get('fen');
const lab = { info: null, run: null, trees: null, fen: START_FEN, busy: false, searches: 0 };
const board = new Board($('lab-board'), { secondary: true, label: 'board' });

function status(text, kind = '') {
  $('lab-status').textContent = text;
  $('lab-status').className = `lab-status ${kind}`;
}

function failed(e) {
  if (e.code === 'cancelled') return;
  status(reasonText(e.code, e.message), 'error');
}

/** The FEN the form names. */
function chosenFen() {
  const source = $('lab-source').value;
  if (source === 'start') return START_FEN;
  if (source === 'game' && gameFen) return gameFen;
  return $('lab-fen').value.trim();
}

function syncSource() {
  const source = $('lab-source').value;
  if (source !== 'fen') $('lab-fen').value = source === 'game' && gameFen ? gameFen : START_FEN;
  $('lab-fen').readOnly = source !== 'fen';
}

function selected() {
  return [...document.querySelectorAll('#lab-algos input:checked')].map((i) => i.value);
}

/** The depths every chosen algorithm allows. */
function fillDepths() {
  const chosen = lab.info.algorithms.filter((a) => selected().includes(a.name));
  const cap = Math.min(...chosen.map((a) => a.max_depth), 30);
  const select = $('lab-depth');
  const was = Number(select.value) || 3;
  select.replaceChildren();
  for (let d = 1; d <= (chosen.length ? cap : 4); d++) select.add(new Option(String(d), String(d)));
  select.value = String(Math.min(was, select.options.length));
}

function setBusy(busy) {
  lab.busy = busy;
  $('lab-cancel').disabled = !busy;
}

async function run() {
  const algorithms = selected();
  if (!algorithms.length) {
    status(t('labPickOne'), 'error');
    return;
  }
  const fen = chosenFen();
  const body = { fen, depth: Number($('lab-depth').value), algorithms, evaluation: $('lab-eval').value, client };
  let progress = null;
  const unwatch = watchRun(client, (view) => {
    progress = view;
    if (lab.busy) status(describeProgress(view));
  });
  try {
    await searching(() => request('POST', '/api/lab/run', body), (answer) => {
      lab.run = answer;
      lab.fen = lab.run.fen;
      drawRun();
      loadEval(lab.fen);
    }, () => {
      // Stopped: what was done stays, marked.
      if (!progress) return;
      lab.run = partialRun(progress, algorithms);
      lab.fen = lab.run.fen;
      drawRun();
    });
  } finally {
    unwatch();
  }
}

/** The chosen algorithms at depth 1, 2, … on the chosen position: nodes and time against the
 * depth. */
async function sweep() {
  const algorithms = selected();
  if (!algorithms.length) {
    status(t('labPickOne'), 'error');
    return;
  }
  const maxDepth = Math.min(...lab.info.algorithms.filter((a) => algorithms.includes(a.name)).map((a) => a.max_depth));
  const fen = chosenFen();
  const evaluation = $('lab-eval').value;
  await depthSweep(searching, (depth) => ({ fen, depth, algorithms, evaluation, client }), maxDepth);
}

/** Runs one search request of the page: the form is busy meanwhile. A newer request, or Stop,
 * cancels it (the server answers it with `cancelled`); only the newest request's end touches
 * the page, so a cancelled one neither clears the newer one's "Searching…" nor frees its Stop. */
async function searching(send, show, stopped = () => {}) {
  const mine = ++lab.searches;
  setBusy(true);
  status(t('labRunning'));
  try {
    const answer = await send();
    if (mine !== lab.searches) return;
    show(answer);
    status('');
  } catch (e) {
    if (mine !== lab.searches) return;
    if (e.code === 'cancelled') {
      status(t('labStopped'));
      stopped();
    }
    else failed(e);
  } finally {
    if (mine === lab.searches) setBusy(false);
  }
}

/** A row's best move in the notation chosen on the game page, with its ICCS beside it (the
 * coordinates the board and the tree's titles use). */
function bestMoveText(best) {
  const name = moveNameIn(best);
  return name === best.iccs ? name : `${name} ${best.iccs}`;
}

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  row.append(td);
}

function count(n) {
  return n == null ? '–' : n.toLocaleString();
}

/** Why a row has no value: the laboratory's limit it reached, or a stop. */
function unfinished(reason) {
  if (reason === 'node_limit') return t('labLimitNodes', lab.info.node_limit.toLocaleString());
  if (reason === 'time_limit') return t('labLimitTime', lab.info.time_limit_s);
  if (reason === 'not_run') return t('labNotRun');
  return t('labUnfinished');
}

function drawRun() {
  const body = $('lab-table').tBodies[0];
  body.replaceChildren();
  for (const r of lab.run.rows) {
    const tr = document.createElement('tr');
    tr.dataset.algorithm = r.algorithm;
    tr.append(aboutLink(r.algorithm));
    cell(tr, count(r.nodes), 'num');
    cell(tr, count(r.leaves), 'num');
    cell(tr, r.cutoffs == null ? '–' : `${count(r.cutoffs)} (${count(r.first_move_cutoffs)})`, 'num');
    cell(tr, count(r.table_hits), 'num');
    cell(tr, r.time_us == null ? '–' : `${(r.time_us / 1000).toFixed(1)} ms`, 'num');
    cell(tr, r.finished ? showValue(r.value) : unfinished(r.stopped_by), 'num');
    cell(tr, r.best ? bestMoveText(r.best) : '–');
    cell(tr, r.pv_names.map((m) => moveNameIn(m)).join(' '), 'lab-pv');
    body.append(tr);
  }
  $('lab-minimal').textContent = t('labMinimal', lab.run.depth, BigInt(lab.run.minimal_tree).toLocaleString());
  drawCharts($('lab-chart'), lab.run.rows);
}

/** Shows both evaluations of `fen` taken apart; false (and the reason shown) if the server
 * refused the FEN. */
async function loadEval(fen) {
  try {
    const view = await request('POST', '/api/lab/eval', { fen });
    drawEval($('lab-eval-engine'), t('labEvalEngine'), view.engine);
    drawEval($('lab-eval-simple'), t('labEvalSimple'), view.simple);
    $('lab-eval-network').textContent = t('labNetworkTotal', view.network.units, view.network.total);
    return true;
  } catch (e) {
    failed(e);
    return false;
  }
}

function drawEval(table, title, ev) {
  table.replaceChildren();
  const caption = table.createCaption();
  caption.textContent = title;
  const head = table.createTHead().insertRow();
  for (const key of ['labTerm', 'red', 'black', 'labDiff']) {
    const th = document.createElement('th');
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  const line = (name, red, black, diff, cls) => {
    const tr = body.insertRow();
    if (cls) tr.className = cls;
    cell(tr, name);
    for (const v of [red, black, diff]) cell(tr, Number.isInteger(v) ? String(v) : v.toFixed(1), 'num');
  };
  for (const term of ev.terms) line(term.name, term.red, term.black, term.diff);
  line(t('labSum'), ev.red, ev.black, ev.diff, 'lab-sum');
  const total = body.insertRow();
  total.className = 'lab-sum';
  const td = document.createElement('td');
  td.colSpan = 4;
  td.textContent = ev.phase
    ? t('labEngineTotal', ev.phase[0], ev.phase[1], ev.phase[2], ev.phase[3], ev.total)
    : t('labSimpleTotal', ev.total);
  total.append(td);
  if (!ev.phase && ev.terms.some((term) => term.name === 'attack')) {
    // The simple evaluation's attack term is lopsided by design: say why.
    const note = body.insertRow();
    note.className = 'lab-note-row';
    const text = document.createElement('td');
    text.colSpan = 4;
    text.textContent = t('labAttackNote');
    note.append(text);
  }
}

async function buildTrees() {
  const algorithms = [$('lab-tree-left').value, $('lab-tree-right').value];
  const fen = chosenFen();
  const body = { fen, depth: Number($('lab-tree-depth').value), algorithms, evaluation: $('lab-eval').value, client };
  await searching(() => request('POST', '/api/lab/tree', body), (answer) => {
    lab.trees = answer;
    setInfinite(lab.trees.infinite);
    lab.fen = lab.trees.fen;
    const [a, b] = lab.trees.trees;
    forgetSteppers();
    drawTree($('lab-tree-a'), a, pick);
    if (b) drawTree($('lab-tree-b'), b, pick);
    else $('lab-tree-b').replaceChildren();
    // Each tree stepped through its search; both together while the box is ticked.
    const steppers = [];
    const other = (i) => () => ($('lab-step-together').checked ? steppers[1 - i] : null);
    [[$('lab-tree-a'), a], [$('lab-tree-b'), b]].forEach(([column, tree], i) => {
      if (!tree) return;
      const stepper = new Stepper(column, tree, tree.row.algorithm, pick, other(i));
      stepper.picture = new TreePicture(column, tree, pick);
      steppers.push(stepper);
    });
    lab.steppers = steppers;
    pick([]);
  });
}

function forgetSteppers() {
  for (const stepper of lab.steppers || []) stepper.detach();
  lab.steppers = [];
}

/** Another position was chosen: once the server has taken its FEN, the small board and the
 * evaluation show it, and the old position's results are cleared (they belong to it). */
async function positionChosen() {
  const fen = chosenFen();
  if (fen === lab.fen || !(await loadEval(fen))) return;
  lab.fen = fen;
  lab.run = null;
  lab.trees = null;
  $('lab-table').tBodies[0].replaceChildren();
  $('lab-minimal').textContent = '';
  $('lab-chart').replaceChildren();
  forgetSteppers();
  $('lab-tree-a').replaceChildren();
  $('lab-tree-b').replaceChildren();
  pick([]);
}

/** Shows the position after `path` (moves in ICCS from the tree's root) on the small board. */
function pick(path) {
  const { pieces } = parseFen(lab.trees ? lab.trees.fen : lab.fen);
  for (const m of path) {
    const from = m.slice(0, 2);
    const to = m.slice(2, 4);
    pieces.set(to, pieces.get(from));
    pieces.delete(from);
  }
  board.render({ pieces, lastMove: path.length ? path[path.length - 1] : null });
  $('lab-node-info').textContent = path.length ? t('labAfter', path.join(' ')) : t('labRoot');
}

function fillAlgorithms() {
  const box = $('lab-algos');
  for (const a of lab.info.algorithms) {
    const label = document.createElement('label');
    label.className = 'lab-check';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = a.name;
    input.checked = ['minimax', 'alphabeta', 'alphabeta-mvvlva', 'alphabeta-history', 'alphabeta-tt',
      'pvs-tt-history', 'pvs-id-aspiration', 'engine'].includes(a.name);
    input.addEventListener('change', fillDepths);
    label.append(input, document.createTextNode(` ${a.name}`));
    box.append(label);
  }
  const trees = lab.info.algorithms.filter((a) => a.tree).map((a) => a.name);
  for (const [id, chosen] of [['lab-tree-left', 'minimax'], ['lab-tree-right', 'alphabeta']]) {
    for (const name of trees) $(id).add(new Option(name, name));
    $(id).value = chosen;
  }
  for (let d = 1; d <= lab.info.max_tree_depth; d++) $('lab-tree-depth').add(new Option(String(d), String(d)));
  $('lab-tree-depth').value = '2';
  fillDepths();
  describeAlgorithms();
}

/** A table cell with the algorithm's name, which opens its explanation. */
function aboutLink(name) {
  const td = document.createElement('td');
  td.className = 'lab-name';
  const link = document.createElement('a');
  link.href = `#about-${name}`;
  link.textContent = name;
  link.title = t('labAbout')[name] || '';
  link.addEventListener('click', () => { $('lab-about').open = true; });
  td.append(link);
  return td;
}

/** Says what each algorithm does: in the list under the choices, and as each choice's tooltip. */
function describeAlgorithms() {
  if (!lab.info) return;
  $('lab-limits').textContent = t('labLimitsNote', lab.info.time_limit_s, lab.info.node_limit.toLocaleString());
  $('lab-tree-limit').textContent = t('labTreeLimitNote', lab.info.tree_cap.toLocaleString());
  const about = t('labAbout');
  const list = $('lab-about-list');
  list.replaceChildren();
  for (const a of lab.info.algorithms) {
    const text = about[a.name] || '';
    const term = document.createElement('dt');
    term.id = `about-${a.name}`;
    term.textContent = a.name;
    const description = document.createElement('dd');
    description.textContent = text;
    list.append(term, description);
    const choice = document.querySelector(`#lab-algos input[value="${a.name}"]`);
    if (choice) choice.parentElement.title = text;
    for (const id of ['lab-tree-left', 'lab-tree-right']) {
      const option = [...$(id).options].find((o) => o.value === a.name);
      if (option) option.title = text;
    }
  }
}

function retranslate() {
  applyTexts();
  drawLogos();
  $('lang').textContent = language() === 'zh' ? 'EN' : '中文';
  describeAlgorithms();
  if (lab.run) drawRun();
}

async function start() {
  const theme = settings.theme()
    || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = theme;
  retranslate();
  $('lang').addEventListener('click', () => {
    setLanguage(language() === 'zh' ? 'en' : 'zh');
    retranslate();
    if (lab.run || lab.trees) loadEval(lab.fen);
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    settings.setTheme(dark ? 'dark' : 'light');
  });
  if (!gameFen) $('lab-source').querySelector('option[value="game"]').remove();
  $('lab-source').value = gameFen ? 'game' : 'start';
  syncSource();
  $('lab-source').addEventListener('change', () => {
    syncSource();
    positionChosen();
  });
  $('lab-fen').addEventListener('change', positionChosen);
  $('lab-run').addEventListener('click', run);
  $('lab-tree-run').addEventListener('click', buildTrees);
  $('lab-horizon').addEventListener('click', () => horizonLesson(searching, client));
  $('lab-sweep').addEventListener('click', sweep);
  $('lab-elo').addEventListener('click', eloChart);
  $('lab-tree-view').addEventListener('change', () => { $('lab-trees').dataset.view = $('lab-tree-view').value; });
  $('lab-cancel').addEventListener('click', () => request('POST', '/api/lab/cancel', { client }).catch(failed));
  // Leaving the page stops its search.
  addEventListener('pagehide', () => {
    if (lab.busy && !onSite) navigator.sendBeacon?.('/api/lab/cancel', new Blob([JSON.stringify({ client })], { type: 'application/json' }));
  });
  lab.fen = chosenFen();
  pick([]);
  keepOffline();
  try {
    lab.info = await request('GET', '/api/lab');
    fillAlgorithms();
    loadEval(chosenFen());
    document.body.dataset.ready = '1';
  } catch (e) {
    failed(e);
  }
}

start();
