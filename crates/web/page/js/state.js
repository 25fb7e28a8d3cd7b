// The page's state: the game as the server last sent it, and what the person is looking at.

import { parseFen, isRed } from './fen.js';
import { settings } from './settings.js';

/** Everything the page keeps; the modules read and change it. */
export const app = {
  /** The main board (a Board), made when the page starts. */
  board: null,
  /** The game as the server last sent it. */
  game: null,
  /** null: the current position; else the number of plies shown. */
  viewPly: null,
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

export function shownFen() {
  const ply = shownPly();
  return ply === 0 ? app.game.start_fen : app.game.moves[ply - 1].fen;
}

export function sideOf(letter) {
  return isRed(letter) ? 'red' : 'black';
}

export function canMoveNow() {
  return app.game && !app.game.outcome && app.game.legal.length > 0 && app.viewPly === null;
}

export function isMovable(sq) {
  if (!canMoveNow()) return false;
  const letter = parseFen(app.game.fen).pieces.get(sq);
  return Boolean(letter) && sideOf(letter) === app.game.turn;
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
