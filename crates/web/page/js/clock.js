// The clocks beside the players' names. The server keeps the time; between its answers the
// page counts the running side down itself, warns at ten seconds, and asks the server again
// when the time is up (the server decides the flag). Under the time a note says what comes
// with it: the increment, or the byo-yomi period that follows the game time; within the
// period an hourglass, drawn, not a glyph a font may lack, marks it.

import { $, svg } from './dom.js';
import { t } from './i18n.js';
import * as sound from './sound.js';

const WARN_MS = 10_000;

/** A side's clock: the time, the hourglass shown within byo-yomi, the note. */
function parts(box) {
  const time = document.createElement('span');
  time.className = 'clock-time';
  const mark = svg('svg', { class: 'byoyomi-mark', viewBox: '0 0 12 16', 'aria-hidden': 'true' });
  // An hourglass: two bars and the two glasses meeting in the middle.
  const hourglass = 'M1 1h10M1 15h10M2.5 1.5h7L6 8zM6 8l3.5 6.5h-7z';
  svg('path', { d: hourglass, fill: 'currentColor', stroke: 'currentColor', 'stroke-width': '1.2' }, mark);
  const digits = document.createElement('span');
  time.append(mark, digits);
  const note = document.createElement('small');
  note.className = 'clock-note';
  box.replaceChildren(time, note);
  return { box, mark, digits, note };
}

// The elements, held: the players' bars move them around when the board turns.
const BOXES = { red: parts($('clock-red')), black: parts($('clock-black')) };

let shown = null; // the game's clock as last received, or null
let receivedAt = 0; // performance.now() when it was received
let onTimeUp = () => {};
let timeUpSent = false;
let warned = { red: false, black: false };
let warnFor = () => true;

/** Milliseconds as the clock shows them: m:ss, or s.t under ten seconds. */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < WARN_MS) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const seconds = Math.floor(clamped / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What `side` has left now: [milliseconds, whether that is a byo-yomi period]. */
function leftNow(side) {
  const left = shown[side];
  const running = shown.running === side;
  const elapsed = running ? performance.now() - receivedAt : 0;
  if (left.byoyomi_ms !== null && left.byoyomi_ms !== undefined) {
    return [left.byoyomi_ms - elapsed, true];
  }
  const main = left.main_ms - elapsed;
  if (main > 0 || !shown.byoyomi[side]) return [main, false];
  // The game time ran out just now: the period starts.
  return [shown.byoyomi[side] + main, true];
}

/** Seconds as the notes write them: `30`, `2.5`. */
function seconds(ms) {
  return String(Math.round(ms / 100) / 10);
}

/** The note under a side's time: the period within byo-yomi, the period to come after the
 * game time, or the increment. */
function noteFor(side, period) {
  const byoyomi = shown.byoyomi[side];
  if (period) return t('clockInByoyomi', seconds(byoyomi));
  if (byoyomi) return t('clockThenByoyomi', seconds(byoyomi));
  const increment = shown.increment[side];
  return increment ? t('clockIncrement', seconds(increment)) : '';
}

/** Draws both clocks as they stand now. */
export function redrawClock() {
  for (const side of ['red', 'black']) {
    const { box, mark, digits, note } = BOXES[side];
    if (!shown) {
      box.hidden = true;
      continue;
    }
    const [ms, period] = leftNow(side);
    box.hidden = false;
    digits.textContent = formatClock(ms);
    mark.style.display = period ? '' : 'none';
    note.textContent = noteFor(side, period);
    note.hidden = !note.textContent;
    box.classList.toggle('running', shown.running === side);
    box.classList.toggle('low', ms < WARN_MS);
    box.classList.toggle('byoyomi', period);
    box.dataset.ms = String(Math.max(0, Math.round(ms)));
    if (shown.running === side) {
      if (ms < WARN_MS && !warned[side] && warnFor(side)) {
        warned[side] = true;
        sound.play('warning');
      }
      if (ms <= 0 && !timeUpSent) {
        timeUpSent = true;
        onTimeUp();
      }
    }
    if (ms >= WARN_MS) warned[side] = false;
  }
}

/** Shows `clock` (the game's clock from the server, or null for a game without one). */
export function setClock(clock) {
  if (clock) {
    // The controls are written as in the PGN: `300+3`, `1200b30` (seconds).
    const byo = (control) => Number(control.split('b')[1] || 0) * 1000;
    const inc = (control) => Number(control.split('b')[0].split('+')[1] || 0) * 1000;
    shown = {
      ...clock,
      byoyomi: { red: byo(clock.red_control), black: byo(clock.black_control) },
      increment: { red: inc(clock.red_control), black: inc(clock.black_control) },
    };
  } else {
    shown = null;
  }
  receivedAt = performance.now();
  timeUpSent = false;
  redrawClock();
}

/** Starts the countdown; `timeUp` runs once when the running side's time is out, `warn(side)`
 * says whether to sound the ten-second warning for that side. */
export function setupClock(timeUp, warn) {
  onTimeUp = timeUp;
  warnFor = warn;
  setInterval(() => { if (shown?.running) redrawClock(); }, 100);
}
