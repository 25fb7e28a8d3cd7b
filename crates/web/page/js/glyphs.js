// Chinese characters drawn from the outlines shipped with the page (glyph-paths.js), so that the
// board and the logo read the same on a machine without a Chinese font.

import { svg as el } from './dom.js';
import { GLYPH_PATHS } from './glyph-paths.js';

/**
 * Draws `char` centred at (`x`, `y`) in the SVG element `parent` with `className`: its outline,
 * or text where the page ships none.
 */
export function drawChar(parent, char, x, y, className) {
  const d = GLYPH_PATHS[char];
  if (!d) {
    const text = el('text', { x, y, class: className }, parent);
    text.textContent = char;
    return text;
  }
  const path = el('path', { d, class: className }, parent);
  if (x || y) path.setAttribute('transform', `translate(${x} ${y})`);
  path.dataset.char = char;
  return path;
}

/** `char` as a small inline SVG of `size` pixels in the text's colour, or `null` where the page
 * ships no outline of it. */
export function charIcon(char, size) {
  const d = GLYPH_PATHS[char];
  if (!d) return null;
  const icon = el('svg', { viewBox: '-30 -30 60 60', width: size, height: size, 'aria-hidden': 'true' });
  el('path', { d, fill: 'currentColor', stroke: 'currentColor', 'stroke-width': 1.2 }, icon);
  return icon;
}

/** Replaces the character in each `.logo` with its outline. */
export function drawLogos(root = document) {
  for (const logo of root.querySelectorAll('.logo')) {
    const icon = charIcon(logo.textContent.trim(), 24);
    if (icon) logo.replaceChildren(icon);
  }
}
