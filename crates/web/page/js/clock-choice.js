// The choice of a clock in a dialog: none, a preset, or custom game time, increment and
// byo-yomi, and the computer's share of the time. The New game, FEN / PGN and editor dialogs
// each have one, so that a game from any of them may be on the clock.

import { t, applyTexts } from './i18n.js';
import { settings } from './settings.js';

/** Presets: game time (min), increment (s), byo-yomi (s). */
const PRESETS = {
  '5+3': [5, 3, 0],
  '10+5': [10, 5, 0],
  '15+10': [15, 10, 0],
  '20m+30s': [20, 0, 30],
  '30m+60s': [30, 0, 60],
};

/** The fields; `P` stands for the ids' prefix. */
const FIELDS = `
  <label class="row"><span data-i18n="timeControl"></span>
    <select id="P-preset">
      <option value="none" data-i18n="tcNone"></option>
      <option value="5+3" data-i18n="tc5"></option>
      <option value="10+5" data-i18n="tc10"></option>
      <option value="15+10" data-i18n="tc15"></option>
      <option value="20m+30s" data-i18n="tc20"></option>
      <option value="30m+60s" data-i18n="tc30"></option>
      <option value="custom" data-i18n="tcCustom"></option>
    </select>
  </label>
  <div id="P-custom-fields" class="tc-custom" hidden>
    <label><span data-i18n="tcMinutes"></span> <input id="P-minutes" type="number" min="0" max="600" step="0.5" value="10"></label>
    <label><span data-i18n="tcIncrement"></span> <input id="P-increment" type="number" min="0" max="600" step="1" value="0"></label>
    <label><span data-i18n="tcByoyomi"></span> <input id="P-byoyomi" type="number" min="0" max="600" step="1" value="0"></label>
  </div>
  <label id="P-odds-row" class="row"><span data-i18n="tcComputer"></span>
    <select id="P-computer">
      <option value="1" data-i18n="tcSame"></option>
      <option value="0.5" data-i18n="tcHalf"></option>
      <option value="0.25" data-i18n="tcQuarter"></option>
      <option value="2" data-i18n="tcDouble"></option>
    </select>
  </label>`;

export class ClockChoice {
  /** Builds the fields into `box`, their ids starting with `prefix` (`tc` gives `tc-preset`,
   * `tc-minutes`, `tc-increment`, `tc-byoyomi`, `tc-computer`). */
  constructor(box, prefix) {
    this.prefix = prefix;
    this.both = false;
    box.classList.add('clock-choice');
    box.innerHTML = FIELDS.replaceAll('P-', `${prefix}-`);
    applyTexts(box);
    this.field('preset').addEventListener('change', () => this.update());
  }

  field(name) {
    return document.getElementById(`${this.prefix}-${name}`);
  }

  /** Shows the clock chosen last, in whichever dialog. */
  reset() {
    this.field('preset').value = settings.clockPreset();
    this.update();
  }

  /** Whether the person plays both sides: then there is no computer to give a share of time. */
  setBoth(both) {
    this.both = both;
    this.update();
  }

  update() {
    const preset = this.field('preset').value;
    this.field('custom-fields').hidden = preset !== 'custom';
    this.field('odds-row').hidden = preset === 'none' || this.both;
  }

  /** Remembers the preset for the next dialog. */
  remember() {
    settings.setClockPreset(this.field('preset').value);
  }

  /** The clock for a game where the person plays `human`, as the API takes it, or null;
   * throws with the reason when the custom values cannot be played. */
  value(human) {
    const preset = this.field('preset').value;
    if (preset === 'none') return null;
    const [minutes, increment, byoyomi] = preset === 'custom'
      ? ['minutes', 'increment', 'byoyomi'].map((name) => Number(this.field(name).value))
      : PRESETS[preset];
    const sane = (x) => Number.isFinite(x) && x >= 0 && x <= 600;
    if (![minutes, increment, byoyomi].every(sane) || (minutes === 0 && byoyomi === 0)) {
      throw new Error(t('tcInvalid'));
    }
    const person = { minutes, increment, byoyomi };
    const factor = human === 'both' ? 1 : Number(this.field('computer').value) || 1;
    const computer = { minutes: minutes * factor, increment: increment * factor, byoyomi: byoyomi * factor };
    if (human === 'red') return { red: person, black: computer };
    if (human === 'black') return { red: computer, black: person };
    return { red: person, black: person };
  }
}
