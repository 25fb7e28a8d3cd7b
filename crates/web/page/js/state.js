// The page's state: the game as the server last sent it, and what the person is looking at.

import { parseFen, isRed } from './fen.js';
import { settings, moveNameIn } from './settings.js';

/** Everything the page keeps; the modules read and change it. */
export const app = {
  /** The main board (a Board), made when the page starts. */
  board: null,
  /** The game as the server last sent it. */
  game: null,
  /** null: the current position; else the number of plies shown (of the main line; where a
   * variation is shown, the plies before it branches). */
  viewPly: null,
  /** The path of the variation's move shown (see the server's game/tree.rs: [i, v, j, …]),
   * or null in the main line. */
  viewPath: null,
  /** The legal moves of the position shown when it is not the game's current one: {fen, legal}. */
  browseLegal: null,
  selected: null,
  flipped: false,
  cursor: null,
  notation: settings.notation(),
  pollTimer: null,
  endShown: null,
  hintShown: null,
  noticeShown: null,
};

export function shownPly() {
  return app.viewPly === null ? app.game.moves.length : app.viewPly;
}

/** The move at `path` of the game's tree ([i] the main line's move i, [i, v, j] move j of
 * variation v of move i, …), or undefined. */
export function nodeAt(path, game = app.game) {
  if (!path || path.length === 0 || path.length % 2 === 0) return undefined;
  let line = game.moves;
  for (let k = 0; k + 1 < path.length; k += 2) {
    line = line[path[k]]?.variations?.[path[k + 1]];
    if (!line) return undefined;
  }
  return line[path[path.length - 1]];
}

/** The ply (counted from 1) of the move at `path`: a variation's first move stands where
 * the move it replaces stood. */
export function pathPly(path) {
  return path.filter((_, k) => k % 2 === 0).reduce((sum, i) => sum + i, 0) + 1;
}

/** The path of the move shown ([] for the start position). */
export function shownPath() {
  if (app.viewPath) return app.viewPath;
  const ply = shownPly();
  return ply === 0 ? [] : [ply - 1];
}

/** The move shown, or null at the start. */
export function shownMove() {
  const path = shownPath();
  return path.length ? nodeAt(path) : null;
}

/** Whether the game's current position is shown (where its moves are played). */
export function isLive() {
  return app.viewPly === null && app.viewPath === null;
}

export function shownFen() {
  return shownMove()?.fen || app.game.start_fen;
}

/** The legal moves (ICCS) of the position shown, as far as the page knows them yet. */
export function shownLegal() {
  if (isLive()) return app.game.legal;
  const fen = shownFen();
  return app.browseLegal?.fen === fen ? app.browseLegal.legal : [];
}

export function sideOf(letter) {
  return isRed(letter) ? 'red' : 'black';
}

export function canMoveNow() {
  return app.game && !app.game.outcome && app.game.legal.length > 0 && app.viewPly === null;
}

/** Whether the piece on `sq` may be picked up: on the current position, the person's when
 * they may move; on another one shown, any piece with a legal move (it makes a variation). */
export function isMovable(sq) {
  if (!app.game) return false;
  if (!isLive()) return shownLegal().some((m) => m.startsWith(sq));
  if (!canMoveNow()) return false;
  const letter = parseFen(app.game.fen).pieces.get(sq);
  return Boolean(letter) && sideOf(letter) === app.game.turn;
}

/** A move's name in the notation chosen: `m` carries the server's `MoveNames` fields (`iccs`,
 * `chinese`, `wxf`). */
export function moveName(m) {
  return moveNameIn(m, app.notation);
}

/** Ply `p`'s number as the move list shows it: `5.` for a move of the side that moved first in
 * its move pair (Red), `5…` for the other. */
export function moveLabel(p) {
  const game = app.game;
  const firstRed = parseFen(game.start_fen).turn === 'red';
  const startNumber = Number(game.start_fen.trim().split(/\s+/)[5]) || 1;
  const i = p - 1;
  const red = (i % 2 === 0) === firstRed;
  const n = startNumber + Math.floor((i + (firstRed ? 0 : 1)) / 2);
  return red ? `${n}.` : `${n}…`;
}

/** The number of the game's last move pair (how many moves the list counts). */
export function lastMoveNumber() {
  const n = app.game.moves.length;
  return n === 0 ? 0 : parseInt(moveLabel(n), 10);
}

export function humanPlays(side) {
  const h = app.game.human;
  return h === 'both' || h === side;
}
