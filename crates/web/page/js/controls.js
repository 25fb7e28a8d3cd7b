// The controls: the buttons, the menus (level, notation), the top bar (language, theme, piece
// set, sound).

import { app, shownFen } from './state.js';
import { api } from './api.js';
import { t, language, setLanguage } from './i18n.js';
import * as sound from './sound.js';
import { notice, confirmDialog, retranslateNotice } from './dialogs.js';
import { setupFiles } from './files.js';
import { setupUnsaved } from './unsaved.js';
import { render, browse } from './render.js';
import { setGame, openGame, newGame, action, review, setAnalysis, setAnalysisLines, failed, attempt } from './game.js';
import { setupBook } from './book.js';
import { setupStudy, step } from './study.js';
import { setupNewGame, openNewGame } from './new-game.js';
import { redrawClock } from './clock.js';
import { settings } from './settings.js';
import { pieceSet, choosePieceSet } from './piece-set.js';
import { charIcon } from './glyphs.js';
import { pictogramIcon } from './pictograms.js';
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

export function setupControls() {
  fillLevels($('level'));
  fillLevels($('new-level'));
  $('notation').value = app.notation;
  setupNewGame();
  $('new-game').addEventListener('click', () => openNewGame());
  $('pause').addEventListener('click', () => action(app.game?.clock?.paused ? 'resume' : 'pause'));
  // The shown position of a record, played on against the computer.
  $('continue-here').addEventListener('click', () => openNewGame(shownFen()));
  $('undo').addEventListener('click', () => { browse(Infinity); action('undo'); });
  $('redo').addEventListener('click', () => { browse(Infinity); action('redo'); });
  $('hint').addEventListener('click', () => { notice(t('askingHint')); action('hint'); });
  $('draw').addEventListener('click', () => {
    if (!app.game?.draw_offered) notice(t('drawOffered'));
    action('draw');
  });
  $('review-btn').addEventListener('click', () => review());
  setupBook((iccs) => attempt(iccs.slice(0, 2), iccs.slice(2, 4)));
  setupStudy({ render, setGame, browse });
  $('review-depth').value = settings.reviewDepth();
  $('review-depth').addEventListener('change', () => settings.setReviewDepth($('review-depth').value));
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
  $('analysis-lines').addEventListener('change', () => setAnalysisLines(Number($('analysis-lines').value)));
  $('first').addEventListener('click', () => browse(0));
  $('prev').addEventListener('click', () => step(-1));
  $('next').addEventListener('click', () => step(1));
  $('last').addEventListener('click', () => browse(Infinity));
  $('end-dialog').addEventListener('close', () => {
    const v = $('end-dialog').returnValue;
    if (v === 'review') review();
    if (v === 'new') $('new-game').click();
  });
  $('lang').addEventListener('click', () => {
    setLanguage(language() === 'zh' ? 'en' : 'zh');
    retranslateNotice();
    redrawClock();
    updateToolButtons();
    fillLevels($('level'));
    fillLevels($('new-level'));
    if (app.game) $('level').value = String(app.game.level);
    render();
  });
  // The laboratory opens on the position shown.
  $('lab-link').addEventListener('click', () => {
    $('lab-link').href = `lab.html?fen=${encodeURIComponent(shownFen())}`;
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    settings.setTheme(dark ? 'dark' : 'light');
  });
  $('pieces').addEventListener('click', () => {
    choosePieceSet(pieceSet() === 'pictograms' ? 'characters' : 'pictograms');
    updateToolButtons();
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
  // Like the language's, the piece set's button shows the set it switches to: a chariot.
  const pictograms = pieceSet() === 'pictograms';
  const label = pictograms ? t('piecesAsCharacters') : t('piecesAsPictograms');
  $('pieces').replaceChildren(pictograms ? charIcon('車', 18) : pictogramIcon('r', 18));
  $('pieces').title = label;
  $('pieces').setAttribute('aria-label', label);
  const speaker = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
  const waves = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  const cross = '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  $('mute').innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${speaker}${sound.isMuted() ? cross : waves}</svg>`;
  $('mute').setAttribute('aria-pressed', String(sound.isMuted()));
}
