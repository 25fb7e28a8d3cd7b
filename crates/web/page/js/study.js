// Studying the game: going through its variations, playing new ones from any position shown,
// and the tools that edit the move shown (comment, glyphs, promote, move up, delete).

import { app, nodeAt, shownPath, shownMove, shownFen, shownPly, isLive } from './state.js';
import { api } from './api.js';
import { t, reasonText } from './i18n.js';
import { notice } from './dialogs.js';
import { $ } from './dom.js';

/** The move-quality glyphs, PGN's numbers 1–6, as the buttons show them. */
export const MOVE_GLYPHS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/** The position glyphs offered, PGN's numbers, with their usual signs. */
export const POSITION_GLYPHS = { 10: '=', 13: '∞', 14: '⩲', 15: '⩱', 16: '±', 17: '∓', 18: '+−', 19: '−+' };

/** A glyph's sign (`$n` for one without a sign). */
export function glyphSign(nag) {
  return MOVE_GLYPHS[nag] || POSITION_GLYPHS[nag] || `$${nag}`;
}

// Set by main.js: the page's render and setGame (which live in modules that import this one).
let hooks = { render: () => {}, setGame: () => {}, browse: () => {} };

/** Connects the study tools to the page's drawing and game state. */
export function setupStudy(given) {
  hooks = given;
  for (const button of document.querySelectorAll('#glyphs button[data-nag]')) {
    button.addEventListener('click', () => toggleMoveGlyph(Number(button.dataset.nag)));
  }
  $('eval-glyph').addEventListener('change', () => setPositionGlyph($('eval-glyph').value));
  $('comment').addEventListener('change', () => {
    edit({ op: 'comment', at: shownPath(), text: $('comment').value });
  });
  $('comment-before').addEventListener('change', () => {
    edit({ op: 'comment', at: shownPath(), text: $('comment-before').value, before: true });
  });
  $('var-promote').addEventListener('click', () => edit({ op: 'promote', at: shownPath() }));
  $('var-up').addEventListener('click', () => edit({ op: 'up', at: shownPath() }));
  $('var-delete').addEventListener('click', () => edit({ op: 'delete', at: shownPath() }));
  $('review-keep').addEventListener('click', keepReview);
}

/** Keeps the finished review's marks in the game: glyphs, and the better lines as variations. */
async function keepReview() {
  if (!app.game) return;
  try {
    hooks.setGame((await api.study(app.game.id, { op: 'keep_review' })).game);
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
  }
}

/** Shows the move at `path` (the start for []). */
export function browsePath(path) {
  if (!app.game) return;
  if (path.length <= 1) {
    app.viewPath = null;
    hooks.browse(path.length ? path[0] + 1 : 0);
    return;
  }
  if (!nodeAt(path)) return;
  app.viewPath = path;
  app.viewPly = path[0];
  app.selected = null;
  hooks.render();
}

/** The move before `path` in its line, or the one before the line's branch. */
export function previousPath(path) {
  if (path.length === 0) return [];
  const last = path[path.length - 1];
  if (last > 0) return [...path.slice(0, -1), last - 1];
  if (path.length === 1) return [];
  return previousPath(path.slice(0, -2));
}

/** The move after `path` in its line, or null at its end. */
export function nextPath(path) {
  if (path.length === 0) return app.game.moves.length ? [0] : null;
  const next = [...path.slice(0, -1), path[path.length - 1] + 1];
  return nodeAt(next) ? next : null;
}

/** One move back (`-1`) or on (`+1`) along the line shown. */
export function step(direction) {
  if (!app.game) return;
  if (!app.viewPath) {
    hooks.browse(shownPly() + direction);
    return;
  }
  const to = direction < 0 ? previousPath(app.viewPath) : nextPath(app.viewPath);
  if (to) browsePath(to);
}

/** Sends an edit of the game's tree and shows the move it answers with. */
export async function edit(body) {
  if (!app.game) return;
  try {
    const answer = await api.study(app.game.id, body);
    hooks.setGame(answer.game);
    browsePath(answer.at);
  } catch (e) {
    notice(reasonText(e.code, e.message), 'error');
    hooks.render();
  }
}

/** Plays `moves` (ICCS) from the position shown: a variation, or on along one. */
export function playFromShown(moves) {
  return edit({ op: 'play', at: shownPath(), moves });
}

function toggleMoveGlyph(nag) {
  const move = shownMove();
  if (!move) return;
  const kept = (move.nags || []).filter((n) => !MOVE_GLYPHS[n]);
  const nags = (move.nags || []).includes(nag) ? kept : [nag, ...kept];
  edit({ op: 'glyphs', at: shownPath(), nags });
}

function setPositionGlyph(value) {
  const move = shownMove();
  if (!move) return;
  const kept = (move.nags || []).filter((n) => !POSITION_GLYPHS[n]);
  const nags = value ? [...kept, Number(value)] : kept;
  edit({ op: 'glyphs', at: shownPath(), nags });
}

/** Asks the server for the legal moves of the position shown when it is not the current one. */
export function ensureLegal() {
  if (!app.game || isLive()) return;
  const fen = shownFen();
  if (app.browseLegal?.fen === fen) return;
  app.browseLegal = { fen, legal: [] };
  api.checkFen(fen).then((answer) => {
    if (app.browseLegal?.fen !== fen) return;
    app.browseLegal = { fen, legal: answer.legal || [] };
    document.body.dataset.legalFen = fen;
    hooks.render();
  }).catch(() => {});
}

/** Draws the tools for the move shown. */
export function renderStudyTools() {
  const game = app.game;
  const path = shownPath();
  const move = shownMove();
  const comment = $('comment');
  comment.placeholder = t(path.length ? 'commentHint' : 'commentStartHint');
  if (document.activeElement !== comment) {
    comment.value = (path.length ? move?.comment : game.initial_comment) || '';
  }
  // A variation's first move has a comment before it too (no move comes before it in its line).
  const before = $('comment-before');
  before.hidden = !(path.length >= 3 && path[path.length - 1] === 0);
  before.placeholder = t('commentBeforeHint');
  if (!before.hidden && document.activeElement !== before) before.value = move?.before || '';
  // Glyphs belong to moves: none at the start position.
  $('glyphs').hidden = !move;
  const nags = move?.nags || [];
  for (const button of document.querySelectorAll('#glyphs button[data-nag]')) {
    button.disabled = !move;
    button.setAttribute('aria-pressed', String(nags.includes(Number(button.dataset.nag))));
  }
  const select = $('eval-glyph');
  if (select.options.length === 1) {
    for (const [nag, sign] of Object.entries(POSITION_GLYPHS)) {
      const option = document.createElement('option');
      option.value = nag;
      select.appendChild(option);
      option.dataset.sign = sign;
    }
  }
  for (const option of select.options) {
    option.textContent = option.value ? `${option.dataset.sign} ${t('glyphNames')[option.value]}` : `${t('evalGlyph')}: ${t('glyphNone')}`;
  }
  select.value = String(nags.find((n) => POSITION_GLYPHS[n]) || '');
  select.disabled = !move;
  const inVariation = path.length >= 3;
  $('var-promote').hidden = !inVariation;
  $('var-up').hidden = !inVariation;
  $('var-up').disabled = inVariation && path[path.length - 2] === 0;
  const firstOfVariation = inVariation && path[path.length - 1] === 0;
  $('var-delete').hidden = !(inVariation || (game.study_board && path.length === 1));
  $('var-delete').textContent = t(firstOfVariation ? 'deleteLine' : 'deleteFrom');
  const review = game.review;
  $('review-keep').hidden = !(review?.finished && review.plies.some((p) => p.best_iccs));
}
