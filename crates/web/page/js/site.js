// The page on the static site (`cargo xtask site`): no server behind it. The API is answered by
// a worker running the engine in WebAssembly (site/worker.js), and a service worker keeps the
// site for offline use. Served by `xiangqi serve`, none of this runs.

import { t } from './i18n.js';
import { notice } from './dialogs.js';
import { onSite } from './backend.js';

export { onSite };

let worker = null;
const pending = new Map();
let nextId = 1;

function startWorker() {
  worker = new Worker(new URL('../../worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    // Unasked: how far a laboratory run is (the worker cannot be asked while it searches).
    if (event.data.labProgress) {
      dispatchEvent(new CustomEvent('lab-progress', { detail: event.data.labProgress }));
      return;
    }
    // Unasked: how many threads the engine searches on (more than one on a cross-origin
    // isolated page, site/worker.js), shown beside the analysis's speed.
    // Also counted: each is an engine worker started (a search stopped through shared memory
    // keeps its worker; without shared memory a stop ends it).
    if (event.data.engineThreads) {
      const root = document.documentElement.dataset;
      root.engineThreads = event.data.engineThreads;
      root.engineStarts = Number(root.engineStarts || 0) + 1;
      return;
    }
    // Unasked: games in storage the worker could not read.
    if (event.data.unreadable) {
      notice(() => t('unreadableGames', event.data.unreadable), 'error');
      return;
    }
    const { id, status, text } = event.data;
    pending.get(id)?.({ status, text });
    pending.delete(id);
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    stopWorker(500, { error: 'internal', message: `the engine stopped: ${event.message || 'unknown error'}` });
  };
}

// A hidden page may be closed or frozen without another word: the worker stores the running
// clocks now, so that what the mover has used so far counts.
addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') worker?.postMessage({ checkpoint: true });
});

/** Ends the worker (and whatever it was searching), answering its open requests with `body`. */
function stopWorker(status, body) {
  worker?.terminate();
  worker = null;
  for (const answer of pending.values()) answer({ status, text: JSON.stringify(body) });
  pending.clear();
}

/** Sends one API request to the worker: `{status, text}` as a server would answer. */
export function siteRequest(method, path, body) {
  // A laboratory run searches in the worker until it is done: stopping it ends the worker.
  if (path === '/api/lab/cancel') {
    const busy = pending.size > 0;
    if (busy) {
      stopWorker(422, { error: 'rejected', code: 'cancelled', message: 'the run was cancelled' });
    }
    return Promise.resolve({ status: 200, text: JSON.stringify({ cancelled: busy }) });
  }
  if (!worker) startWorker();
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, (answer) => {
      if (answer.status === 201) keepStorage();
      resolve(answer);
    });
    worker.postMessage({ id, method, path, body });
  });
}

let persisting = false;

/** Once the person has a game here, asks the browser to keep the site's storage under storage
 * pressure too (by default a browser may clear a site's storage to make room). */
function keepStorage() {
  if (persisting || !navigator.storage?.persist) return;
  persisting = true;
  navigator.storage.persist().catch(() => {});
}

/** On the static site, `link` (a download link) saves the text `make()` gives as a file of the
 * link's download name; there is no server to serve it. `failed(error)` says why it could not. */
export function saveOnSite(link, make, failed) {
  if (!onSite) return;
  link.href = '#';
  link.addEventListener('click', async (event) => {
    event.preventDefault();
    try {
      const url = URL.createObjectURL(new Blob([await make()], { type: 'application/x-chess-pgn' }));
      const save = document.createElement('a');
      save.href = url;
      save.download = link.getAttribute('download') || 'game.pgn';
      save.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      failed(e);
    }
  });
}

/** Keeps the site for offline use, and says so when a new version is ready, with a button that
 * switches to it (the page reloads with the new version's files, all of them). */
export function keepOffline() {
  if (!onSite || !('serviceWorker' in navigator)) return;
  let updating = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (updating) location.reload();
  });
  // Not kept: the page works while online, and the person should know it will not offline.
  const notKept = (reason) => {
    window.xiangqiErrors?.push(`service worker: ${reason}`);
    notice(() => t('offlineFailed'), 'error');
  };
  navigator.serviceWorker.register('sw.js').then((registration) => {
    const offer = () => {
      if (!registration.waiting || !navigator.serviceWorker.controller) return;
      announce(() => {
        updating = true;
        registration.waiting.postMessage('skip-waiting');
      });
    };
    offer();
    // A version that is dropped before it was installed could not store every file.
    const watched = new WeakSet();
    const watch = (installing) => {
      if (!installing || watched.has(installing)) return;
      watched.add(installing);
      let installed = false;
      installing.addEventListener('statechange', () => {
        if (installing.state === 'installed') {
          installed = true;
          offer();
        }
        if (installing.state === 'redundant' && !installed) notKept('installing failed');
      });
    };
    watch(registration.installing);
    registration.addEventListener('updatefound', () => watch(registration.installing));
  }).catch((e) => notKept(e.message));
}

/** Shows the bar that offers the new version; `update` switches to it. */
function announce(update) {
  if (document.getElementById('update-bar')) return;
  const bar = document.createElement('div');
  bar.id = 'update-bar';
  bar.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = t('updateReady');
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'update-now';
  button.textContent = t('updateNow');
  button.addEventListener('click', update);
  bar.append(text, button);
  document.body.append(bar);
}
