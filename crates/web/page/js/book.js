// The opening book's explorer: the moves the engine's book holds for the shown position, each
// with its share of the book's weights. Clicking one plays it when it is the person's move.

import { api } from './api.js';
import { app, moveName } from './state.js';
import { t } from './i18n.js';
import { $ } from './dom.js';

const book = {
  /** The position whose moves are shown or asked for, and its moves once they came. */
  fen: null,
  moves: [],
  /** What a click on a playable move does. */
  onPick: null,
};

/** Sets what clicking a book move does (it is given the move in ICCS). */
export function setupBook(onPick) {
  book.onPick = onPick;
}

/** Shows the book's moves for `fen` (asking the server once per position); `live` says that
 * the position shown is the game's own, where a move can be played. */
export function renderBook(fen, live) {
  if (fen !== book.fen) {
    book.fen = fen;
    book.moves = [];
    api.checkBook(fen).then((moves) => {
      if (book.fen !== fen) return;
      book.moves = moves;
      draw(live);
    }, () => {
      // No answer (the server is away): the explorer stays empty; the next position asks again.
      if (book.fen === fen) book.fen = null;
    });
  }
  draw(live);
}

function draw(live) {
  const panel = $('book-panel');
  panel.hidden = book.moves.length === 0;
  const items = book.moves.map((m) => {
    const li = document.createElement('li');
    const playable = live && app.game?.legal.includes(m.iccs);
    li.className = playable ? 'book-move playable' : 'book-move';
    const name = document.createElement('span');
    name.className = 'mv';
    name.textContent = moveName(m);
    const bar = document.createElement('span');
    bar.className = 'book-bar';
    bar.style.setProperty('--share', `${m.percent.toFixed(1)}%`);
    const share = document.createElement('span');
    share.className = 'book-share';
    share.textContent = `${Math.round(m.percent)}%`;
    li.append(name, bar, share);
    li.title = t('bookWeight', m.weight);
    if (playable) li.addEventListener('click', () => book.onPick?.(m.iccs));
    return li;
  });
  $('book-moves').replaceChildren(...items);
}
