// The controls: the buttons, the menus (level, notation), the top bar (language, theme, sound).

import { app, shownPly, shownFen } from './state.js';
import { parseFen } from './fen.js';
import { api } from './api.js';
import { t, language, setLanguage } from './i18n.js';
import * as sound from './sound.js';
import { notice, confirmDialog, retranslateNotice } from './dialogs.js';
import { setupFiles } from './files.js';
import { setupUnsaved } from './unsaved.js';
import { render, browse } from './render.js';
import { setGame, openGame, newGame, action, setAnalysis, failed } from './game.js';
import { settings } from './settings.js';
import { $ } from './dom.js';

// Calibrated Elo per level, from the server once it answers (the menus work without it).
let levelElo = [];

function fillLevels(select) {
  const chosen = select.value;
  select.replaceChildren();
  t('levelName').forEach((name, i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = levelElo[i] ? `${i + 1} · ${name} (≈${levelElo[i]})` : `${i + 1} · ${name}`;
    select.appendChild(o);
  });
  if (chosen) select.value = chosen;
}

export async function loadLevelElo() {
  try {
    levelElo = (await api.levels()).map((l) => l.elo);
    fillLevels($('level'));
    fillLevels($('new-level'));
  } catch {
    // Only the Elo hints are missing; the levels themselves still work.
  }
}

/** Clock presets: game time (min), increment (s), byo-yomi (s). */
const CLOCK_PRESETS = {
  '5+3': [5, 3, 0],
  '10+5': [10, 5, 0],
  '15+10': [15, 10, 0],
  '20m+30s': [20, 0, 30],
  '30m+60s': [30, 0, 60],
};

function chosenSide() {
  return document.querySelector('input[name=side]:checked')?.value || 'red';
}

function updateClockFields() {
  const preset = $('tc-preset').value;
  const both = chosenSide() === 'both';
  $('tc-custom-fields').hidden = preset !== 'custom';
  $('tc-odds-row').hidden = preset === 'none' || both;
  // A handicap needs the computer as opponent.
  $('handicap-row').hidden = both;
  $('handicap-giver-row').hidden = both || $('handicap').value === 'none';
  $('tc-error').hidden = true;
}

/** The clock the dialog describes, as the API takes it, or null; throws with the reason when
 * the custom values cannot be played. */
function chosenClock(human) {
  const preset = $('tc-preset').value;
  if (preset === 'none') return null;
  const [minutes, increment, byoyomi] = preset === 'custom'
    ? ['tc-minutes', 'tc-increment', 'tc-byoyomi'].map((id) => Number($(id).value))
    : CLOCK_PRESETS[preset];
  const sane = (x) => Number.isFinite(x) && x >= 0 && x <= 600;
  if (![minutes, increment, byoyomi].every(sane) || (minutes === 0 && byoyomi === 0)) {
    throw new Error(t('tcInvalid'));
  }
  const person = { minutes, increment, byoyomi };
  const factor = human === 'both' ? 1 : Number($('tc-computer').value) || 1;
  const computer = { minutes: minutes * factor, increment: increment * factor, byoyomi: byoyomi * factor };
  if (human === 'red') return { red: person, black: computer };
  if (human === 'black') return { red: computer, black: person };
  return { red: person, black: person };
}

export function setupControls() {
  fillLevels($('level'));
  fillLevels($('new-level'));
  $('notation').value = app.notation;
  $('new-game').addEventListener('click', () => {
    $('new-level').value = String(settings.level());
    const side = app.game?.human || 'red';
    for (const r of document.querySelectorAll('input[name=side]')) r.checked = r.value === side;
    $('tc-preset').value = settings.clockPreset();
    $('tc-error').hidden = true;
    updateClockFields();
    $('new-game-dialog').showModal();
  });
  $('tc-preset').addEventListener('change', updateClockFields);
  $('handicap').addEventListener('change', updateClockFields);
  for (const r of document.querySelectorAll('input[name=side]')) r.addEventListener('change', updateClockFields);
  $('start-game').addEventListener('click', (evt) => {
    // A clock that cannot be played is said at once, with the dialog still open.
    try {
      chosenClock(chosenSide());
    } catch (e) {
      evt.preventDefault();
      $('tc-error').textContent = e.message;
      $('tc-error').hidden = false;
    }
  });
  $('new-game-dialog').addEventListener('close', () => {
    if ($('new-game-dialog').returnValue !== 'start') return;
    const human = chosenSide();
    const level = Number($('new-level').value);
    settings.setLevel(level);
    settings.setClockPreset($('tc-preset').value);
    const body = { human, level };
    const clock = chosenClock(human);
    if (clock) body.clock = clock;
    if (human !== 'both' && $('handicap').value !== 'none') {
      body.handicap = $('handicap').value;
      body.handicap_giver = $('handicap-giver').value;
    }
    if (app.game) api.leave(app.game.id);
    newGame(body);
  });
  $('pause').addEventListener('click', () => action(app.game?.clock?.paused ? 'resume' : 'pause'));
  $('continue-here').addEventListener('click', () => {
    // The shown position of a record, played on against the computer by the side to move.
    const fen = shownFen();
    const human = parseFen(fen).turn;
    if (app.game) api.leave(app.game.id);
    newGame({ fen, human, level: Number($('level').value) || settings.level() });
  });
  $('undo').addEventListener('click', () => { app.viewPly = null; action('undo'); });
  $('redo').addEventListener('click', () => { app.viewPly = null; action('redo'); });
  $('hint').addEventListener('click', () => { notice(t('askingHint')); action('hint'); });
  $('draw').addEventListener('click', () => {
    if (!app.game?.draw_offered) notice(t('drawOffered'));
    action('draw');
  });
  $('review-btn').addEventListener('click', () => action('review'));
  $('resign').addEventListener('click', async () => {
    if (await confirmDialog(t('confirmResign'))) action('resign');
  });
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    app.board.setFlipped(app.flipped);
    render();
  });
  $('level').addEventListener('change', async () => {
    const level = Number($('level').value);
    settings.setLevel(level);
    if (!app.game) return;
    const id = app.game.id;
    const send = async () => setGame(await api.settings(id, { level }));
    try {
      await send();
    } catch (e) {
      $('level').value = String(app.game.level);
      failed(e, send);
    }
  });
  $('notation').addEventListener('change', () => {
    app.notation = $('notation').value;
    settings.setNotation(app.notation);
    render();
  });
  $('analysis-toggle').addEventListener('change', () => setAnalysis($('analysis-toggle').checked));
  $('first').addEventListener('click', () => browse(0));
  $('prev').addEventListener('click', () => browse(shownPly() - 1));
  $('next').addEventListener('click', () => browse(shownPly() + 1));
  $('last').addEventListener('click', () => browse(Infinity));
  $('end-dialog').addEventListener('close', () => {
    const v = $('end-dialog').returnValue;
    if (v === 'review') action('review');
    if (v === 'new') $('new-game').click();
  });
  $('lang').addEventListener('click', () => {
    setLanguage(language() === 'zh' ? 'en' : 'zh');
    retranslateNotice();
    updateToolButtons();
    fillLevels($('level'));
    fillLevels($('new-level'));
    if (app.game) $('level').value = String(app.game.level);
    render();
  });
  // The laboratory opens on the position shown.
  $('lab-link').addEventListener('click', () => {
    $('lab-link').href = `/lab?fen=${encodeURIComponent(shownFen())}`;
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    settings.setTheme(dark ? 'dark' : 'light');
  });
  $('mute').addEventListener('click', () => {
    sound.setMuted(!sound.isMuted());
    updateToolButtons();
  });
  setupFiles({
    failed,
    game: () => app.game,
    shownFen,
    setGame,
    newGame,
    openGame,
    level: () => Number($('level').value) || settings.level(),
    notation: () => app.notation,
  });
  setupUnsaved();
}

export function updateToolButtons() {
  $('lang').textContent = language() === 'zh' ? 'EN' : '中文';
  const speaker = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
  const waves = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  const cross = '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  $('mute').innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${speaker}${sound.isMuted() ? cross : waves}</svg>`;
  $('mute').setAttribute('aria-pressed', String(sound.isMuted()));
}
