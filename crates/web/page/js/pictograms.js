// The second piece set: a pictogram of each piece for players who do not read the characters,
// drawn here by hand as SVG path data. Each fits a box 54 units wide centred on 0 (y down,
// inside the piece's ring of radius 35), is filled in its side's colour like the characters, and
// is filled by the even-odd rule: a path inside another cuts a hole, so every detail is a hole
// in a silhouette and the parts of a shape never overlap.

import { svg as el } from './dom.js';

/** The pictogram of each piece type, by its FEN letter in lower case. */
export const PICTOGRAM_PATHS = {
  // General: a crown. Three points rise from a body 38 wide, a ball a little above each, and a
  // band under the body, parted from it by a gap, is its rim.
  k: 'M-19 7L-23 -11L-11 -2L0 -17L11 -2L23 -11L19 7Z'
    + 'M-23.5 -14.5m-3.4 0a3.4 3.4 0 1 0 6.8 0a3.4 3.4 0 1 0 -6.8 0Z'
    + 'M0 -21m-3.6 0a3.6 3.6 0 1 0 7.2 0a3.6 3.6 0 1 0 -7.2 0Z'
    + 'M23.5 -14.5m-3.4 0a3.4 3.4 0 1 0 6.8 0a3.4 3.4 0 1 0 -6.8 0Z'
    + 'M-19 11H19V17Q19 20 16 20H-16Q-19 20 -19 17Z',
  // Advisor: a shield, the general's guard, with a saltire cut out of it for its diagonal step.
  // The cross is two bars 5 wide, traced as one outline so that the crossing stays a hole.
  a: 'M0 -23C7 -19.5 13 -19.5 20 -20C20.5 1 14 15 0 23C-14 15 -20.5 1 -20 -20C-13 -19.5 -7 -19.5 0 -23Z'
    + 'M0 -4.5L7.2 -11.8L10.8 -8.2L3.5 -1L10.8 6.2L7.2 9.8L0 2.5L-7.2 9.8L-10.8 6.2L-3.5 -1'
    + 'L-10.8 -8.2L-7.2 -11.8Z',
  // Elephant: its head from the front. A domed brow between two wide ears, the trunk hanging
  // from the middle and curling out at its tip, a tusk on each side of it; the eyes and the
  // inner folds of the ears are holes.
  b: 'M0 -21C6 -21 10 -18 11 -14C15 -19 24 -19 25 -11C26 -2 21 4 13 4C11 4 9 3 8 2'
    + 'C6 4 5 6 5 9L4.5 15C4.5 18 6 19 8 18L10 17L11.5 21C6 25 -2 24 -3 17L-5 9'
    + 'C-5 6 -6 4 -8 2C-9 3 -11 4 -13 4C-21 4 -26 -2 -25 -11C-24 -19 -15 -19 -11 -14'
    + 'C-10 -18 -6 -21 0 -21Z'
    + 'M-5.5 -9m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0Z'
    + 'M5.5 -9m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0Z'
    + 'M-14 -13C-19 -14 -22 -10 -21 -5C-20 -1 -16 0 -13 -1C-15 -4 -15 -9 -14 -13Z'
    + 'M14 -13C19 -14 22 -10 21 -5C20 -1 16 0 13 -1C15 -4 15 -9 14 -13Z'
    + 'M-8.5 8.5C-10 11.5 -12 14 -16 14C-13.5 12 -12 9.5 -11 7Z'
    + 'M8.5 8.5C10 11.5 12 14 16 14C13.5 12 12 9.5 11 7Z',
  // Horse: a knight's head looking left, on a plinth. Muzzle, brow and a pricked ear on the
  // left, the neck's curve on the right; a thin crescent along it (the mane), the eye and the
  // nostril are holes.
  n: 'M-17 23H18V17H-17Z'
    + 'M-11 13.5C-11 8 -8 5 -4 1C-8 2 -13 3 -17 3C-20 3 -22 1 -22 -2C-22 -5 -19 -8 -16 -10'
    + 'L-9 -16L-8 -24L-3 -18.5C3 -19 10 -16 14 -9C17 -3 17.5 6 17 13.5Z'
    + 'M3 -14.5C9 -12.5 12.5 -6 13 2C11 -5 8.5 -10 3 -14.5Z'
    + 'M-8.5 -10m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0Z'
    + 'M-18.5 -2.5m-1.3 0a1.3 1.3 0 1 0 2.6 0a1.3 1.3 0 1 0 -2.6 0Z',
  // Chariot: the rook's tower. Three merlons on a parapet wider than the body, the body
  // widening to a foot of two steps; an arched door is a hole.
  r: 'M-20 -24H-12V-18H-4V-24H4V-18H12V-24H20V-10H15L16.5 13H20V17H22V23H-22V17H-20V13H-16.5'
    + 'L-15 -10H-20Z'
    + 'M-5 13V5A5 5 0 0 1 5 5V13Z',
  // Cannon: a barrel raised to the right over a wheel, its trail resting on the ground on the
  // left. The barrel is a tube 12 wide tapering to 8, rounded at the breech, with a lip at the
  // muzzle, tilted up by 24 degrees; the wheel is a rim round a hub. The trail starts a gap
  // away from the rim, so that it reads as behind the wheel.
  c: 'M-19 -9.6L12.9 -21.6L12.3 -22.9L16.9 -25L21.3 -14.9L16.8 -12.9L16.2 -14.3L-14.1 1.4'
    + 'A6 6 0 0 1 -19 -9.6Z'
    + 'M1 10m-12 0a12 12 0 1 0 24 0a12 12 0 1 0 -24 0Z'
    + 'M1 10m-7.5 0a7.5 7.5 0 1 0 15 0a7.5 7.5 0 1 0 -15 0Z'
    + 'M1 10m-3.5 0a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0Z'
    + 'M-13.6 12.8L-24.2 17.2L-21.8 22.8L-11.2 18.4A14.8 14.8 0 0 1 -13.6 12.8Z',
  // Soldier: a pawn. A round head over a collar, the body flaring to a wide foot; the three
  // parts are parted by gaps.
  p: 'M0 -13m-9 0a9 9 0 1 0 18 0a9 9 0 1 0 -18 0Z'
    + 'M-11 -1.5H11Q13 -1.5 13 0.25Q13 2 11 2H-11Q-13 2 -13 0.25Q-13 -1.5 -11 -1.5Z'
    + 'M-7 5H7C7.5 11 10.5 15 16.5 17C19.5 18 20.5 20 20 23.5H-20C-20.5 20 -19.5 18 -16.5 17'
    + 'C-10.5 15 -7.5 11 -7 5Z',
};

/** Draws the pictogram of the piece `letter` (FEN) centred at the origin of `parent`. */
export function drawPictogram(parent, letter, className) {
  const d = PICTOGRAM_PATHS[letter.toLowerCase()];
  const path = el('path', { d, class: className, 'fill-rule': 'evenodd' }, parent);
  path.dataset.pictogram = letter.toLowerCase();
  return path;
}

/** The pictogram of the piece `letter` as a small inline SVG of `size` pixels in the text's
 * colour. */
export function pictogramIcon(letter, size) {
  const icon = el('svg', { viewBox: '-30 -30 60 60', width: size, height: size, 'aria-hidden': 'true' });
  el('path', { d: PICTOGRAM_PATHS[letter.toLowerCase()], fill: 'currentColor', 'fill-rule': 'evenodd' }, icon);
  return icon;
}
