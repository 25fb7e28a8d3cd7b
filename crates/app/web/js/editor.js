// The position editor: place pieces, choose the side to move, check the position with the
// server (which says why an impossible position is impossible), then play or analyse it.

import { Board, GLYPHS } from './board.js';
import { parseFen, buildFen, START_FEN } from './fen.js';
import { api } from './api.js';
import { t, fenRefusal } from './i18n.js';

const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p', ''];

export class Editor {
  /** `onPlay(fen, human)` starts a game from the edited position. */
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
      b.textContent = letter ? GLYPHS[letter] : '✕';
      b.title = letter || 'erase';
      b.addEventListener('click', () => this.pick(letter));
      palette.appendChild(b);
    }
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
    this.pick('R');
  }

  open(fen) {
    this.load(fen || START_FEN);
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
    const status = document.getElementById('editor-status');
    const fen = this.fen();
    try {
      const result = await api.checkFen(fen);
      if (fen !== this.fen()) return;
      this.valid = true;
      status.textContent = t('legalPosition', result.legal_moves);
      status.className = 'editor-status ok';
    } catch (e) {
      if (fen !== this.fen()) return;
      this.valid = false;
      status.textContent = fenRefusal(e.code, e.message);
      status.title = e.message;
      status.className = 'editor-status error';
    }
  }

  play(human) {
    if (!this.valid) return;
    this.dialog.close();
    this.onPlay(this.fen(), human);
  }
}
