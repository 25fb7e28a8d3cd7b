// What the endgame tables say of a position, as one line: `Tablebase: win, mate in 12
// (KRKAABB)` or a win by the perpetual-check rule, then the best moves with what each keeps (`车二退一 mate in 12`). The server
// answers from the tables of its data directory; the static site has none and says so, and
// then nothing is shown anywhere.

import { api } from './api.js';
import { t } from './i18n.js';
import { moveName } from './state.js';

/** How many of the best moves are listed under the line. */
const SHOWN_MOVES = 6;

/** Whether the back end has tables: null until it first answers. It loads them as it starts,
 * so one answer without them holds for the page's life and nothing more is asked. */
let available = null;
/** Answers by FEN (a few hundred at most), and the questions on their way. */
const answers = new Map();
const asked = new Map();
const KEPT = 300;

/** What the tables say of `fen`: the server's answer, or null with no tables or no answer (a
 * position the server refuses, the server away). */
function probe(fen) {
  if (answers.has(fen)) return Promise.resolve(answers.get(fen));
  if (available === false) return Promise.resolve(null);
  if (!asked.has(fen)) {
    const question = api.probeTablebase(fen).then((answer) => {
      available = Boolean(answer?.available);
      const kept = available ? answer : null;
      if (answers.size >= KEPT) answers.delete(answers.keys().next().value);
      answers.set(fen, kept);
      return kept;
    }, () => null).finally(() => asked.delete(fen));
    asked.set(fen, question);
  }
  return asked.get(fen);
}

/** The line for an answer, or '' when there is nothing to say: `missing` says "no table for
 * KRHK" when the tables could hold the position (it has no more men than the largest) but
 * none does. */
function lineFor(answer, missing) {
  if (!answer) return '';
  const m = answer.material;
  if (!answer.found) return missing && m.length <= answer.most_men ? t('tbNone', m) : '';
  let line;
  if (answer.by_rule) line = t(answer.value === 'win' ? 'tbRuleWin' : 'tbRuleLoss', m);
  else if (answer.value === 'win') line = t('tbWin', answer.moves_to_mate, m);
  else if (answer.value === 'loss') line = t('tbLoss', answer.moves_to_mate, m);
  else line = t('tbDraw', m) + (answer.chase_flag ? t('tbChase') : '');
  return answer.beyond_no_capture_limit ? `${line}${t('tbLate')}` : line;
}

/** What a move keeps for its side: `mate in 12`, `draw`, `mated in 7`, or `?` when no loaded
 * table holds the position it leads to. */
function moveVerdict(move) {
  if (move.by_rule) return t(move.value === 'win' ? 'tbMoveRuleWin' : 'tbMoveRuleLoss');
  if (move.value === 'win') return t('tbMoveWin', move.moves_to_mate);
  if (move.value === 'loss') return t('tbMoveLoss', move.moves_to_mate);
  if (move.value === 'draw') return t('tbMoveDraw');
  return '?';
}

/** The best moves of an answer (best first, as the back end sorts them), in the notation the
 * page shows, each with what it keeps; null when there are none. */
function movesFor(answer) {
  if (!answer?.found || !answer.moves?.length) return null;
  const list = document.createElement('span');
  list.className = 'tb-moves';
  for (const move of answer.moves.slice(0, SHOWN_MOVES)) {
    const item = document.createElement('span');
    item.className = 'tb-move';
    item.dataset.value = move.value || '';
    item.textContent = `${moveName(move)} ${moveVerdict(move)}`;
    list.append(item);
  }
  return list;
}

/** Shows in `element` what the tables say of `fen` (hidden while there is nothing to say);
 * with `missing`, also when no table holds it. Answers come once per position. */
export function showTablebase(element, fen, missing = false) {
  element.dataset.fen = fen;
  const draw = (answer) => {
    if (element.dataset.fen !== fen) return;
    const text = lineFor(answer, missing);
    element.textContent = text;
    const moves = text ? movesFor(answer) : null;
    if (moves) element.append(moves);
    element.hidden = !text;
    element.dataset.value = answer?.found ? answer.value : '';
  };
  if (answers.has(fen) || available === false) {
    draw(answers.get(fen) || null);
    return;
  }
  draw(null);
  probe(fen).then(draw);
}
