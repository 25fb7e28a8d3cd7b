// The move list: the main line in two columns (Red, Black), and between its moves their
// comments and variations, written inline as the study programs do; every move can be clicked.

import { app, shownPly, moveLabel, moveName } from './state.js';
import { parseFen } from './fen.js';
import { t, language } from './i18n.js';
import { markSymbol } from './review.js';
import { browsePath, glyphSign } from './study.js';
import { $ } from './dom.js';

/** An ECCO opening as the page names it: the code, then the Chinese names, or the English
 * ones on the English page. */
export function openingText(opening) {
  const chinese = [opening.opening, opening.variation].filter(Boolean).join(' ');
  return `${opening.code} ${language() === 'zh' ? chinese : opening.english}`;
}

/** The line above the move list: the game's opening. */
function renderOpening(game) {
  const line = $('game-opening');
  line.hidden = !game.opening;
  if (!game.opening) return;
  line.textContent = openingText(game.opening);
  line.title = language() === 'zh' ? game.opening.english : [game.opening.opening, game.opening.variation].filter(Boolean).join(' ');
}

/** The signs of a move's glyphs, one string. */
function glyphs(m) {
  return (m.nags || []).map(glyphSign).join('');
}

function span(className, text) {
  const node = document.createElement('span');
  node.className = className;
  node.textContent = text;
  return node;
}

/** A full-width row of the list: a comment or variations between two main-line moves. */
function row(className) {
  const li = document.createElement('li');
  li.className = className;
  return li;
}

/**
 * Writes `line` (a variation: its first move is ply `firstPly` of the game, counted from 1)
 * into `box`, its nested variations in brackets; `path` is the path of its first move.
 */
function writeLine(box, line, path, firstPly) {
  line.forEach((m, j) => {
    const ply = firstPly + j;
    const here = [...path.slice(0, -1), path[path.length - 1] + j];
    if (m.before) box.append(span('comment', m.before), ' ');
    const label = moveLabel(ply);
    const number = j === 0 || label.endsWith('.') ? `${label} ` : '';
    const node = span('vmv', `${number}${moveName(m)}${glyphs(m)}`);
    node.dataset.path = here.join(',');
    node.tabIndex = -1;
    node.addEventListener('click', (evt) => {
      evt.stopPropagation();
      browsePath(here);
    });
    box.append(node, ' ');
    if (m.comment) box.append(span('comment', m.comment), ' ');
    (m.variations || []).forEach((sub, v) => {
      const inner = span('subvar', '');
      inner.append('( ');
      writeLine(inner, sub, [...here, v, 0], ply);
      inner.append(')');
      box.append(inner, ' ');
    });
  });
}

/** The rows that follow main-line move `i` (a comment, its variations). */
function rowsAfter(m, i) {
  const rows = [];
  if (m.comment) {
    const li = row('comment-row');
    li.textContent = m.comment;
    rows.push(li);
  }
  (m.variations || []).forEach((line, v) => {
    const li = row('variation-row');
    writeLine(li, line, [i, v, 0], i + 1);
    rows.push(li);
  });
  return rows;
}

/** Draws the list; only marks the move shown when nothing else changed. */
export function renderMoves() {
  const game = app.game;
  const list = $('moves');
  const marks = (game.review?.plies || []).map((p) => p.mark || '').join();
  const key = [game.id, game.version, game.revision, app.notation, language(), marks].join('|');
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...items(game));
    renderOpening(game);
  }
  markShown(list);
  scrollToCurrent(list);
}

function items(game) {
  const firstRed = parseFen(game.start_fen).turn === 'red';
  const review = game.review;
  const all = [];
  if (game.initial_comment) {
    const li = row('comment-row');
    li.textContent = game.initial_comment;
    all.push(li);
  }
  let broken = true;
  game.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    const red = (i % 2 === 0) === firstRed;
    li.className = red ? 'red-move' : 'black-move';
    // A black move after a break (the start, a comment, variations) stands in its column.
    if (!red && broken) li.classList.add('first-black');
    if (red || broken) li.appendChild(span('num', moveLabel(i + 1)));
    li.appendChild(span('mv', moveName(m)));
    const sign = glyphs(m);
    if (sign) li.appendChild(span('glyph', sign));
    const mark = review?.plies?.[i]?.mark;
    if (mark) {
      li.classList.add(`mark-${mark}`);
      li.appendChild(span('sym', markSymbol(mark)));
      const better = review.plies[i].best;
      li.title = `${t('marks')[mark]}${better ? ` — ${t('better', better, review.plies[i].check)}` : ''}`;
    }
    if (m.took_ms !== null && m.took_ms !== undefined) li.appendChild(span('took', t('took', m.took_ms)));
    li.tabIndex = -1;
    li.addEventListener('click', () => browsePath([i]));
    all.push(li);
    const after = rowsAfter(m, i);
    all.push(...after);
    broken = after.length > 0;
  });
  return all;
}

/** Marks the move shown: a main-line row, or a move inside a variation. */
function markShown(list) {
  const ply = app.viewPath ? -1 : shownPly();
  for (const li of list.querySelectorAll('li[data-ply]')) {
    li.classList.toggle('current', Number(li.dataset.ply) === ply);
  }
  const path = app.viewPath ? app.viewPath.join(',') : null;
  for (const node of list.querySelectorAll('.vmv')) node.classList.toggle('current', node.dataset.path === path);
}

function scrollToCurrent(list) {
  const current = list.querySelector('.current');
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}
