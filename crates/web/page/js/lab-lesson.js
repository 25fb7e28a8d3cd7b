// The laboratory's ready-made lesson: the horizon effect. From the start position, with the
// simple evaluation, alpha-beta's value swings by pawns from depth 3 to depth 4, because a
// capture just inside the horizon is counted and the recapture just beyond it is not; a
// quiescence search plays the captures out and the swing all but goes.

import { request } from './api.js';
import { t } from './i18n.js';
import { START_FEN } from './fen.js';
import { showValue } from './lab-tree.js';
import { $ } from './dom.js';
import { moveNameIn } from './settings.js';

const ROWS = ['alphabeta-mvvlva', 'alphabeta-qs-mvvlva'];
const DEPTHS = [3, 4];

/** Runs the lesson's four searches (through `searching`, which makes the form busy and lets Stop
 * end them) and shows their values side by side with what they teach. */
export async function horizonLesson(searching, client) {
  const runs = [];
  await searching(async () => {
    for (const depth of DEPTHS) {
      runs.push(await request('POST', '/api/lab/run', {
        fen: START_FEN, depth, algorithms: ROWS, evaluation: 'simple', client,
      }));
    }
    return runs;
  }, () => drawLesson(runs));
}

function drawLesson(runs) {
  const table = $('lab-lesson-table');
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const name of ROWS) {
    const tr = document.createElement('tr');
    tr.dataset.algorithm = name;
    const values = runs.map((run) => run.rows.find((r) => r.algorithm === name));
    const cells = [name, ...values.map((r) => (r?.finished ? showValue(r.value) : '–'))];
    const [three, four] = values;
    cells.push(three?.finished && four?.finished ? showValue(Math.abs(three.value - four.value)) : '–');
    cells.push(values.map((r) => r?.pv_names?.map((m) => moveNameIn(m)).join(' ') || '').join(' / '));
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  }
  table.hidden = false;
  $('lab-lesson-text').textContent = t('labHorizonText');
  $('lab-lesson-text').hidden = false;
}
