// Small page helpers: the notice line, a confirmation dialog, copying text.

let noticeTimer = null;
let noticeText = null;

/** Shows a short message over the board for a few seconds. `text` is a string, or a function
 * giving it, called again when the language changes while the message shows. */
export function notice(text, kind = 'info') {
  const box = document.getElementById('notice');
  noticeText = typeof text === 'function' ? text : null;
  box.textContent = noticeText ? noticeText() : text;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, kind === 'error' ? 3500 : 2500);
}

/** Takes the message away at once (the end of the game says what matters now). */
export function clearNotice() {
  clearTimeout(noticeTimer);
  noticeText = null;
  document.getElementById('notice').hidden = true;
}

/** Writes the message showing now again, in the language just chosen. */
export function retranslateNotice() {
  const box = document.getElementById('notice');
  if (!box.hidden && noticeText) box.textContent = noticeText();
}

/** Asks a yes/no question in a dialog; resolves to true for yes. */
export function confirmDialog(text) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
  });
}

/** Copies text to the clipboard (with a fallback for pages the clipboard API refuses). */
export async function copyText(text, source) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (source) {
      source.select();
      return document.execCommand('copy');
    }
    return false;
  }
}
