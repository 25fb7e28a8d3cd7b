// FEN and square helpers shared by the board, the editor and the main page.

export const FILES = 'abcdefghi';
export const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/** The ICCS name of a point: file 0–8, rank 0–9 → "e2". */
export function squareName(file, rank) {
  return FILES[file] + rank;
}

/** File and rank of an ICCS name. */
export function squareCoords(name) {
  return { file: FILES.indexOf(name[0]), rank: Number(name[1]) };
}

/** The point a keyboard arrow moves the cursor to, or null for any other key. The arrows turn with a
 * board turned for Black, and the cursor stays on the 9 × 10 points. */
export function cursorStep(cursor, key, flipped) {
  const dir = flipped ? -1 : 1;
  const steps = { ArrowLeft: [-dir, 0], ArrowRight: [dir, 0], ArrowUp: [0, dir], ArrowDown: [0, -dir] };
  if (!steps[key]) return null;
  const { file, rank } = squareCoords(cursor);
  const [df, dr] = steps[key];
  return squareName(Math.max(0, Math.min(8, file + df)), Math.max(0, Math.min(9, rank + dr)));
}

/** Every point, rank 9 first. */
export function allSquares() {
  const out = [];
  for (let rank = 9; rank >= 0; rank--) {
    for (let file = 0; file < 9; file++) out.push(squareName(file, rank));
  }
  return out;
}

/** Reads the placement and side to move of a FEN: { pieces: Map(square → letter), turn }. */
export function parseFen(fen) {
  const [placement = '', side = 'w'] = fen.trim().split(/\s+/);
  const pieces = new Map();
  const ranks = placement.split('/');
  ranks.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else {
        if (file < 9 && rank >= 0) pieces.set(squareName(file, rank), ch);
        file += 1;
      }
    }
  });
  return { pieces, turn: side === 'b' ? 'black' : 'red' };
}

/** Writes a FEN from pieces and the side to move. */
export function buildFen(pieces, turn) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = pieces.get(squareName(file, rank));
      if (p) {
        if (empty) row += empty;
        empty = 0;
        row += p;
      } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${turn === 'black' ? 'b' : 'w'} - - 0 1`;
}

/** Whether a FEN letter is Red's (upper case). */
export function isRed(letter) {
  return letter === letter.toUpperCase();
}

/** Whether a text looks like a FEN rather than PGN. */
export function looksLikeFen(text) {
  // A PGN starts with a tag or a move number; a FEN's first word is ranks between slashes, and
  // one with a typo in it is still a FEN, to be refused as one.
  const first = text.trim().split(/\s+/)[0] || '';
  return (first.match(/\//g) || []).length >= 3;
}
