// The clocks beside the players' names. The server keeps the time; between its answers the
// page counts the running side down itself, warns at ten seconds, and asks the server again
// when the time is up (the server decides the flag).

import { $ } from './dom.js';
import * as sound from './sound.js';

const WARN_MS = 10_000;

// The elements, held: the players' bars move them around when the board turns.
const BOXES = { red: $('clock-red'), black: $('clock-black') };

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

function draw() {
  for (const side of ['red', 'black']) {
    const box = BOXES[side];
    if (!shown) {
      box.hidden = true;
      continue;
    }
    const [ms, period] = leftNow(side);
    box.hidden = false;
    box.textContent = formatClock(ms);
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
    const byo = (control) => {
      const b = control.split('b')[1];
      return b ? Number(b) * 1000 : 0;
    };
    shown = { ...clock, byoyomi: { red: byo(clock.red_control), black: byo(clock.black_control) } };
  } else {
    shown = null;
  }
  receivedAt = performance.now();
  timeUpSent = false;
  draw();
}

/** Starts the countdown; `timeUp` runs once when the running side's time is out, `warn(side)`
 * says whether to sound the ten-second warning for that side. */
export function setupClock(timeUp, warn) {
  onTimeUp = timeUp;
  warnFor = warn;
  setInterval(() => { if (shown?.running) draw(); }, 100);
}
