// The position editor: place pieces, choose the side to move, check the position with the
// server (which says why an impossible position is impossible) and, when it has endgame
// tables, look the position up in them; then play or analyse it.

import { Board, GLYPHS } from './board.js';
import { charIcon } from './glyphs.js';
import { pictogramIcon } from './pictograms.js';
import { pieceSet, followPieceSet } from './piece-set.js';
import { parseFen, buildFen, START_FEN } from './fen.js';
import { api } from './api.js';
import { ClockChoice } from './clock-choice.js';
import { showTablebase } from './tablebase.js';
import { t, fenRefusal, outcomeTitle, endReason } from './i18n.js';

const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p', ''];

export class Editor {
  /** `onPlay(fen, human, clock)` starts a game from the edited position (`clock` as the API
   * takes it, or null). */
  constructor(onPlay) {
    this.onPlay = onPlay;
    this.dialog = document.getElementById('editor-dialog');
    this.pieces = new Map();
    this.tool = 'R';
    this.valid = false;
    this.board = new Board(document.getElementById('editor-board'), {
      onTap: (sq) => this.tap(sq),
      canDrag: () => false,
      label: 'editor board',
      secondary: true,
    });
    const palette = document.getElementById('palette');
    for (const letter of PALETTE) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.tool = letter;
      b.className = letter ? (letter === letter.toUpperCase() ? 'tool red' : 'tool black') : 'tool eraser';
      b.title = letter || 'erase';
      b.addEventListener('click', () => this.pick(letter));
      palette.appendChild(b);
    }
    this.drawPalette();
    followPieceSet(() => this.drawPalette());
    this.turn = document.getElementById('editor-turn');
    this.turn.addEventListener('change', () => this.changed());
    document.getElementById('editor-start').addEventListener('click', () => this.load(START_FEN));
    document.getElementById('editor-clear').addEventListener('click', () => {
      // Not both on the e-file: two generals facing each other is no position.
      this.pieces = new Map([['e0', 'K'], ['d9', 'k']]);
      this.changed();
    });
    document.getElementById('editor-red').addEventListener('click', () => this.play('red'));
    document.getElementById('editor-black').addEventListener('click', () => this.play('black'));
    document.getElementById('editor-analyse').addEventListener('click', () => this.play('both'));
    this.clock = new ClockChoice(document.getElementById('editor-clock'), 'editor-tc');
    this.pick('R');
  }

  /** Draws each piece of the palette in the piece set chosen, like the board's. */
  drawPalette() {
    for (const b of document.querySelectorAll('#palette .tool')) {
      const letter = b.dataset.tool;
      if (!letter) b.replaceChildren('✕');
      else if (pieceSet() === 'pictograms') b.replaceChildren(pictogramIcon(letter, 26));
      // The character from the outlines shipped with the page, or the text where none is.
      else b.replaceChildren(charIcon(GLYPHS[letter], 26) || GLYPHS[letter]);
    }
  }

  open(fen) {
    this.load(fen || START_FEN);
    this.clock.reset();
    document.getElementById('editor-error').hidden = true;
    this.dialog.showModal();
  }

  load(fen) {
    const { pieces, turn } = parseFen(fen);
    this.pieces = pieces;
    this.turn.value = turn;
    this.changed();
  }

  pick(letter) {
    this.tool = letter;
    for (const b of document.querySelectorAll('#palette .tool')) {
      b.classList.toggle('active', b.dataset.tool === letter);
    }
  }

  tap(sq) {
    if (!this.tool || this.pieces.get(sq) === this.tool) this.pieces.delete(sq);
    else this.pieces.set(sq, this.tool);
    this.changed();
  }

  fen() {
    return buildFen(this.pieces, this.turn.value);
  }

  async changed() {
    this.board.render({ pieces: this.pieces });
    const fen = this.fen();
    // Nothing can be started until the server has judged this position.
    this.setPlayable(false);
    const tablebase = document.getElementById('editor-tablebase');
    tablebase.hidden = true;
    tablebase.dataset.fen = '';
    try {
      const result = await api.checkFen(fen);
      if (fen !== this.fen()) return;
      // Only a position the rules accept is looked up; "no table" is said too.
      showTablebase(tablebase, fen, true);
      if (result.outcome) {
        // The rules end a game from here at once: the side to move is mated or stalemated,
        // or neither side can attack.
        const { outcome } = result;
        this.show(t('noGameHere', outcomeTitle(outcome), endReason(outcome.reason)), 'error');
      } else {
        this.show(t('legalPosition', result.legal_moves), 'ok');
      }
    } catch (e) {
      if (fen !== this.fen()) return;
      this.show(fenRefusal(e.code, e.message), 'error');
    }
  }

  /** Shows the server's judgement of the position: `ok` (a game can start) or `error`. */
  show(text, kind) {
    const status = document.getElementById('editor-status');
    status.textContent = text;
    status.className = `editor-status ${kind}`;
    this.setPlayable(kind === 'ok', text);
  }

  /** Enables the buttons that start a game; disabled, they say `why` in their tooltip. */
  setPlayable(playable, why = '') {
    this.valid = playable;
    for (const id of ['editor-red', 'editor-black', 'editor-analyse']) {
      const button = document.getElementById(id);
      button.disabled = !playable;
      button.title = playable ? '' : why;
    }
  }

  play(human) {
    if (!this.valid) return;
    let clock;
    try {
      clock = this.clock.value(human);
    } catch (e) {
      const error = document.getElementById('editor-error');
      error.textContent = e.message;
      error.hidden = false;
      return;
    }
    this.clock.remember();
    this.dialog.close();
    this.onPlay(this.fen(), human, clock);
  }
}
