// Which piece set the page draws: the Chinese characters (glyphs.js) or the pictograms
// (pictograms.js). The choice is remembered (settings.js); every drawing of pieces on the page
// follows it, so that a change shows everywhere at once.

import { settings } from './settings.js';

let chosen = settings.pieceSet();
const redraws = [];

/** `characters` or `pictograms`. */
export function pieceSet() {
  return chosen;
}

/** Calls `redraw` after every change of the set. */
export function followPieceSet(redraw) {
  redraws.push(redraw);
}

/** Chooses the set, remembers it and redraws every drawing of pieces that follows it. */
export function choosePieceSet(set) {
  chosen = set;
  settings.setPieceSet(set);
  for (const redraw of redraws) redraw();
}
