// The banner for a change the server could not save (a full disk, a read-only data folder).
// The change was not made; the banner stays until the person retries or dismisses it, so the
// failure is never a message that flashes by, and Retry sends the very same change again.

import { t, reasonText } from './i18n.js';
import { $ } from './dom.js';

let retryAction = null;
// 'request' for a change the person sent, 'server' for the computer's move the server kept.
let source = null;

/** Whether an API error means "not saved" (its code names a disk failure). */
export function isUnsaved(error) {
  return typeof error?.code === 'string' && error.code.startsWith('disk_');
}

/**
 * Shows the banner for a failure with `code` and the server's `message`; `retry` redoes it.
 * `from` is 'request' (a change the person sent) or 'server' (reported in the game's state).
 */
export function showUnsaved(code, message, retry, from = 'request') {
  retryAction = retry;
  source = from;
  const text = from === 'server' ? 'unsavedComputer' : 'unsaved';
  $('unsaved-text').textContent = t(text, reasonText(code, message));
  $('unsaved').title = message || '';
  $('unsaved').hidden = false;
  document.body.dataset.unsaved = code;
}

/** Hides the banner. */
export function hideUnsaved() {
  retryAction = null;
  source = null;
  $('unsaved').hidden = true;
  delete document.body.dataset.unsaved;
}

/** Where the banner shown now came from, or null. */
export function unsavedSource() {
  return source;
}

/** Wires the banner's buttons. A retry that fails again shows its own reason. */
export function setupUnsaved() {
  $('unsaved-retry').addEventListener('click', async () => {
    const retry = retryAction;
    if (!retry) return;
    $('unsaved-retry').disabled = true;
    try {
      await retry();
      hideUnsaved();
    } catch (e) {
      if (isUnsaved(e)) showUnsaved(e.code, e.message, retry, source);
      else hideUnsaved();
    } finally {
      $('unsaved-retry').disabled = false;
    }
  });
  $('unsaved-dismiss').addEventListener('click', hideUnsaved);
}
