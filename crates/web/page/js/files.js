// Files and lists: FEN / PGN copy and paste, saving and loading PGN, the position editor,
// the games list.

import { api } from './api.js';
import { looksLikeFen } from './fen.js';
import { openingText } from './movelist.js';
import { t, endReason, language, reasonText, fenRefusal } from './i18n.js';
import { notice, copyText, confirmDialog } from './dialogs.js';
import { Editor } from './editor.js';
import { ClockChoice } from './clock-choice.js';
import { isUnsaved } from './unsaved.js';
import { $ } from './dom.js';


export function setupFiles(ctx) {
  // A game from a pasted FEN may be on the clock; a pasted PGN is played on without one.
  const pasteClock = new ClockChoice($('paste-clock'), 'paste-tc');
  const pastedFen = () => looksLikeFen($('paste-in').value);
  $('paste-in').addEventListener('input', () => { $('paste-clock').hidden = !pastedFen(); });
  $('fen-pgn').addEventListener('click', async () => {
    if (!ctx.game()) return;
    $('fen-out').value = ctx.shownFen();
    $('pgn-out').value = '';
    $('paste-error').hidden = true;
    pasteClock.reset();
    pasteClock.setBoth(ctx.game().human === 'both');
    $('paste-clock').hidden = !pastedFen();
    $('fen-dialog').showModal();
    $('pgn-out').value = await api.pgn(ctx.game().id, ctx.notation());
  });
  $('copy-fen').addEventListener('click', async () => {
    if (await copyText($('fen-out').value, $('fen-out'))) notice(t('copied'));
  });
  $('copy-pgn').addEventListener('click', async () => {
    if (await copyText($('pgn-out').value, $('pgn-out'))) notice(t('copied'));
  });
  $('paste-go').addEventListener('click', async () => {
    const text = $('paste-in').value.trim();
    if (!text) return;
    const level = ctx.level();
    const human = ctx.game()?.human || 'red';
    const fen = looksLikeFen(text);
    const body = fen ? { fen: text, human, level } : { pgn: text, level };
    try {
      const clock = fen ? pasteClock.value(human) : null;
      if (clock) body.clock = clock;
    } catch (e) {
      $('paste-error').textContent = e.message;
      $('paste-error').hidden = false;
      return;
    }
    if (fen) pasteClock.remember();
    const send = async () => ctx.setGame(await api.create(body), true);
    try {
      await send();
      $('fen-dialog').close();
      $('paste-in').value = '';
    } catch (e) {
      if (isUnsaved(e)) {
        $('fen-dialog').close();
        ctx.failed(e, send);
        return;
      }
      $('paste-error').textContent = fen ? fenRefusal(e.code, e.message) : reasonText(e.code, e.message);
      $('paste-error').hidden = false;
    }
  });
  $('pgn-file').addEventListener('change', async () => {
    const file = $('pgn-file').files[0];
    if (!file) return;
    const level = ctx.level();
    const send = async () => {
      const bytes = await file.arrayBuffer();
      const game = await api.importPgn(bytes, level);
      ctx.setGame(game, true);
      // The same file again is the game it made before, not a copy.
      notice(t(game.already_imported ? 'alreadyLoaded' : 'loaded'));
    };
    try {
      await send();
    } catch (e) {
      if (isUnsaved(e)) ctx.failed(e, send);
      else notice(`${t('pgnError')}: ${e.message}`, 'error');
    }
    $('pgn-file').value = '';
  });
  const editor = new Editor((fen, human, clock) => {
    const body = { fen, human, level: ctx.level() };
    if (clock) body.clock = clock;
    ctx.newGame(body);
  });
  $('editor-btn').addEventListener('click', () => editor.open(ctx.game() ? ctx.shownFen() : undefined));
  $('games-btn').addEventListener('click', () => showGames(ctx));
}

async function showGames(ctx) {
  const list = $('games-list');
  list.replaceChildren();
  $('games-dialog').showModal();
  const games = await api.list();
  if (!games.length) {
    const li = document.createElement('li');
    li.textContent = t('noGames');
    list.appendChild(li);
  }
  for (const g of games) {
    const li = document.createElement('li');
    const when = new Date(g.updated * 1000).toLocaleString(language() === 'zh' ? 'zh-CN' : 'en');
    const result = g.result ? `${g.result} ${endReason(g.reason)}` : t('ongoing');
    const info = document.createElement('span');
    info.className = 'game-info';
    const name = (side, tag) => {
      if (g.human === side) return t('you');
      if (g.human !== 'both') return `${t('computer')} ${g.level}`;
      return tag && tag !== '?' && tag !== 'Player' ? tag : t(side);
    };
    const event = g.event ? ` · ${g.event}` : '';
    const opening = g.opening ? ` · ${openingText(g.opening)}` : '';
    info.textContent = `${when} · ${name('red', g.red)} – ${name('black', g.black)}${event}${opening} · ${t('plies', g.plies)} · ${result}`;
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = g.id === ctx.game()?.id ? t('current') : t('openGame');
    open.addEventListener('click', async () => {
      $('games-dialog').close();
      await ctx.openGame(g.id);
    });
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = t('deleteGame');
    del.disabled = g.id === ctx.game()?.id;
    del.addEventListener('click', async () => {
      // The confirmation is a dialog of its own: the list's dialog stays open under it.
      if (!(await confirmDialog(t('confirmDelete')))) return;
      try {
        await api.remove(g.id);
        li.remove();
      } catch (e) {
        $('games-dialog').close();
        ctx.failed(e, async () => { await api.remove(g.id); });
      }
    });
    li.append(info, open, del);
    list.appendChild(li);
  }
}
