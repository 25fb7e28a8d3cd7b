// The New game dialog: side, level, clock and handicap of a new game; opened by "Continue
// against the computer from here", side, level and clock of a game from the position shown.
// The server judges what is asked: a refusal is shown in the dialog, which stays open.

import { app } from './state.js';
import { api } from './api.js';
import { parseFen } from './fen.js';
import { t, reasonText, fenRefusal } from './i18n.js';
import { ClockChoice } from './clock-choice.js';
import { setGame, failed } from './game.js';
import { isUnsaved } from './unsaved.js';
import { settings } from './settings.js';
import { $ } from './dom.js';

let clock = null;
// The position a continued game starts from; null for a new game.
let fromFen = null;

function chosenSide() {
  return document.querySelector('input[name=side]:checked')?.value || 'red';
}

function showError(text) {
  $('new-game-error').textContent = text;
  $('new-game-error').hidden = !text;
}

function update() {
  const both = chosenSide() === 'both';
  clock.setBoth(both);
  // A handicap needs the computer as opponent and the start position.
  const handicap = !both && !fromFen;
  $('handicap-row').hidden = !handicap;
  $('handicap-giver-row').hidden = !handicap || $('handicap').value === 'none';
  showError('');
}

/** Opens the dialog for a new game, or with `fen` for a game from that position (against the
 * computer, the side to move offered). */
export function openNewGame(fen = null) {
  fromFen = fen;
  $('new-game-title').textContent = t(fen ? 'continueHere' : 'newGame');
  $('new-level').value = String(fen ? Number($('level').value) || settings.level() : settings.level());
  const side = fen ? parseFen(fen).turn : app.game?.human || 'red';
  for (const r of document.querySelectorAll('input[name=side]')) r.checked = r.value === side;
  $('side-both').hidden = Boolean(fen);
  clock.reset();
  update();
  $('new-game-dialog').showModal();
}

async function start() {
  const human = chosenSide();
  const level = Number($('new-level').value);
  const body = { human, level };
  try {
    const chosen = clock.value(human);
    if (chosen) body.clock = chosen;
  } catch (e) {
    showError(e.message);
    return;
  }
  if (fromFen) body.fen = fromFen;
  else if (human !== 'both' && $('handicap').value !== 'none') {
    body.handicap = $('handicap').value;
    body.handicap_giver = $('handicap-giver').value;
  }
  settings.setLevel(level);
  clock.remember();
  const send = async () => setGame(await api.create(body), true);
  // One game per press, however often it is pressed while the server answers.
  $('start-game').disabled = true;
  try {
    await send();
    $('new-game-dialog').close();
  } catch (e) {
    if (isUnsaved(e)) {
      $('new-game-dialog').close();
      failed(e, send);
      return;
    }
    showError(fromFen ? fenRefusal(e.code, e.message) : reasonText(e.code, e.message));
  } finally {
    $('start-game').disabled = false;
  }
}

export function setupNewGame() {
  clock = new ClockChoice($('new-game-clock'), 'tc');
  $('handicap').addEventListener('change', update);
  for (const r of document.querySelectorAll('input[name=side]')) r.addEventListener('change', update);
  $('new-game-dialog').querySelector('form').addEventListener('submit', (evt) => {
    // Cancel closes the dialog; Start keeps it open until the server has made the game.
    if (evt.submitter?.value !== 'start') return;
    evt.preventDefault();
    start();
  });
}
