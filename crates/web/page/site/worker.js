// The static site's back end: a worker that answers the page's API requests with the engine in
// WebAssembly (crates/wasm: `xiangqi_play::local`, the same answers as the web server's). The
// games live in the browser's storage (game-storage.js); the engine's searches for them run in
// a second worker (engine-worker.js), so the page gets its answers while the computer thinks.
// Messages in: {id, method, path, body}; out: {id, status, text}.
//
// A cross-origin isolated page (the service worker makes the site's pages so) gets the module
// built for threads, and the engine worker lends it helper workers: one fewer than the device's
// cores. Elsewhere the site searches on one thread.
//
// Everything that touches the module runs one step at a time, in order (`serially`): a page's
// request, a search's report or result, a clock running out. A step's changes count once they
// are stored; if storage refuses them the module puts the games back and the answer is the error.

import { compileSiteModule, instantiate, SINGLE_MODULE, THREADS_MODULE } from './xiangqi-module.js';
import { readGames, writeGames } from './game-storage.js';

/** The compiled module this worker's instance runs, for the engine worker's too (once it is
 * there). */
let compiledModule = null;
/** `call(request)` of this worker's instance, once it and the stored games are loaded. */
let ready = null;
/** What the module said as it panicked, if it did. */
let panicked = null;
/** The engine worker, while it searches or waits for its next order, and its search's ticket. */
let engine = null;
let engineTicket = null;
/** Where the engine worker can be told to stop or to pause in its shared memory
 * (engine-worker.js), once it said so; none without shared memory. */
let engineSignals = null;
/** The clock's wake-up. */
let wake = null;
/** The chain of steps. */
let steps = Promise.resolve();

function report(text) {
  const message = JSON.parse(text);
  if (message.panic) panicked = message.panic;
  // A laboratory run's progress, for the page while this worker searches.
  if (message.lab_progress) self.postMessage({ labProgress: message.lab_progress });
}

/** Whether this page can share memory between workers, and so search on several threads. */
const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
/** Helper threads for the engine: the device's other cores (the module lends no more than it
 * can use: `lendHelpers`). */
const HELPERS = isolated ? Math.max((self.navigator?.hardwareConcurrency || 1) - 1, 0) : 0;
/** Where a helper worker says it failed (one channel per games worker: not another tab's). */
const CHANNEL = `xiangqi-engine-${Math.random().toString(36).slice(2)}`;

/** A module and an instance of it: the threads module if the page can use it, the module for
 * one thread otherwise, or if the threads module cannot run here (a browser without wasm
 * threads, or one that cannot reserve its shared memory). */
async function start() {
  if (HELPERS > 0) {
    try {
      const module = await compileSiteModule(THREADS_MODULE);
      return { module, call: await instantiate(module, report) };
    } catch (e) {
      console.warn(`the engine searches on one thread: ${THREADS_MODULE} cannot run here (${e.message})`);
    }
  }
  const module = await compileSiteModule(SINGLE_MODULE);
  return { module, call: await instantiate(module, report) };
}

function load() {
  ready ||= start().then(async ({ module, call }) => {
    compiledModule = module;
    if (await gamesHeld) await loadGames(call);
    return call;
  });
  ready.catch(() => { ready = null; });
  return ready;
}

/** Reads the stored games into the module. */
async function loadGames(call) {
  let stored = { games: [], broken: [], puzzles: null };
  try {
    stored = await readGames();
  } catch (e) {
    console.warn(`the games cannot be read from the browser's storage: ${e.message}`);
  }
  const loaded = call({ cmd: 'load_games', games: stored.games, puzzles: stored.puzzles });
  if (loaded.puzzles_unreadable) {
    console.warn(`the stored puzzle record cannot be read (${loaded.puzzles_unreadable}); it is left as it is until a result replaces it`);
  }
  for (const { id, reason } of loaded.unreadable || []) {
    console.warn(`stored game ${id} cannot be read (${reason}); it is left in storage as it is`);
  }
  for (const id of stored.broken) console.warn(`stored record ${id} is not a game; it is left as it is`);
  const unreadable = (loaded.unreadable || []).length + stored.broken.length;
  if (unreadable) self.postMessage({ unreadable });
  await settle(call, loaded.effects);
}

/** Whether this worker holds the games. One tab at a time does (a Web Lock held for the
 * worker's life): two tabs changing their own copies of a game would each write over the
 * other's moves. The others answer games' requests with a refusal until the tab holding the
 * games closes, and then take them over from storage. */
let holding = !self.navigator?.locks;
/** Settles once this worker holds the games, when it had to wait for them. */
let tookOver = () => {};
const gamesTaken = new Promise((resolve) => { tookOver = resolve; });
/** How long a request for the games waits for them before it is refused: a page just left
 * (a click from the game page to the puzzles page, a reload) holds them until its worker has
 * ended, a moment after the new page's first requests. */
const HANDOVER_MS = 3000;
const gamesHeld = new Promise((resolve) => {
  if (holding) {
    resolve(true);
    return;
  }
  const forever = () => new Promise(() => {});
  navigator.locks.request('xiangqi-games', { ifAvailable: true }, (lock) => {
    if (lock) {
      holding = true;
      resolve(true);
      return forever();
    }
    resolve(false);
    return navigator.locks.request('xiangqi-games', () => {
      serially(async () => {
        const call = await load();
        await loadGames(call);
        holding = true;
        tookOver();
      });
      return forever();
    });
  });
});

function otherTab() {
  return JSON.stringify({
    error: 'rejected',
    code: 'other_tab',
    message: 'the games are open in another tab or window of this site: play there, or close it and this page takes them over',
  });
}

/** Runs `step` after the steps before it. */
function serially(step) {
  const run = steps.then(step);
  steps = run.catch(() => {});
  return run;
}

function failure(message) {
  return JSON.stringify({ error: 'internal', message });
}

/** Carries out what the module asks after a call: store the games (then tell it whether they
 * were kept), stop or start a search, set the clock's wake-up. `answer` is the call's answer to
 * the page, if any; returns it, or the error that replaces it when storage refused the games. */
async function settle(call, effects, answer = null) {
  if (!effects) return answer;
  if (effects.put.length || effects.delete.length || effects.puzzles) {
    try {
      await writeGames(effects.put, effects.delete, effects.puzzles ?? null);
      effects = merge(effects, call({ cmd: 'kept' }).effects);
    } catch (e) {
      const refused = call({ cmd: 'not_kept', full: Boolean(e.full), reason: e.message });
      answer = { status: refused.status, text: refused.body };
      effects = merge(effects, refused.effects);
    }
  }
  if (effects.stop) stopEngine();
  if (effects.start) startSearch(effects.start);
  if (effects.pause !== null && effects.pause !== undefined) pauseEngine(effects.pause);
  clearTimeout(wake);
  if (effects.wake_ms !== null && effects.wake_ms !== undefined) {
    // A little after the moment, so that the clock has surely run out.
    wake = setTimeout(() => serially(tick), effects.wake_ms + 20);
  }
  return answer;
}

/** The search and clock effects of two calls in a row (the second's storage was settled). */
function merge(first, second) {
  return {
    put: [],
    delete: [],
    stop: first.stop || second.stop,
    start: second.start || (second.stop ? null : first.start),
    pause: second.pause ?? first.pause ?? null,
    wake_ms: second.wake_ms,
    puzzles: null,
  };
}

async function tick() {
  const call = await load();
  await settle(call, call({ cmd: 'tick' }).effects);
}

/** How often the games whose clock runs are stored again: a page closed in the middle of a
 * move gives back at most this much of the mover's time. */
const CHECKPOINT_MS = 5000;

/** Stores the games whose clock runs, their time charged up to now (this worker closes with the
 * page, and a clock read back resumes from what was stored). Only once the games are here. */
async function checkpoint() {
  if (!ready || !holding) return;
  const call = await ready;
  await settle(call, call({ cmd: 'checkpoint' }).effects);
}

setInterval(() => serially(checkpoint), CHECKPOINT_MS);

/** Stops the engine worker's search. With shared memory the worker stays (its table and its
 * helper workers with it): the stop is written there, since a worker busy searching reads no
 * messages. Otherwise, or when `end`, the worker is ended. The stopped search's reports that
 * still come are the module's to ignore (their ticket is not the running one). */
function stopEngine(end = false) {
  if (!engine) return;
  if (!end && engineSignals && engineTicket !== null) {
    const buffer = engineSignals.memory.buffer;
    Atomics.store(new Int32Array(buffer), engineSignals.wanted / 4, engineTicket + 1);
    Atomics.store(new Uint8Array(buffer), engineSignals.stop, 1);
    engineTicket = null;
    return;
  }
  engine.terminate();
  engine = null;
  engineSignals = null;
  tellPausable(false);
}

/** Makes the running search wait where it is (`true`) or go on (`false`), through the shared
 * memory; the module asks for it only of an engine that can (`tellPausable`). */
function pauseEngine(paused) {
  if (!engineSignals) return;
  Atomics.store(new Uint8Array(engineSignals.memory.buffer), engineSignals.pause, paused ? 1 : 0);
}

/** Tells the module whether the engine can pause its search: a game paused while the
 * computer thinks then keeps the search, instead of stopping it and starting again. */
function tellPausable(pausable) {
  serially(async () => {
    const call = await load();
    call({ cmd: 'pausable', pausable });
  });
}

function startSearch({ ticket, order }) {
  if (!engine) {
    const started = new Worker(new URL('engine-worker.js', import.meta.url), { type: 'module' });
    engine = started;
    engine.onmessage = (event) => {
      if (event.data.threads) {
        // Ready: where to stop it (this worker's, not an ended one's), and for the page to
        // show, how many threads it searches on.
        if (started === engine) {
          engineSignals = event.data.signals;
          tellPausable(Boolean(engineSignals));
        }
        self.postMessage({ engineThreads: event.data.threads });
        return;
      }
      serially(() => fromEngine(event.data));
    };
    engine.onerror = (event) => {
      event.preventDefault?.();
      const lost = engineTicket;
      stopEngine(true);
      serially(() => fromEngine({ ticket: lost, failed: event.message || 'the engine stopped' }));
    };
    // Searches come only after the module was compiled (load() waited for it).
    engine.postMessage({ module: compiledModule, helpers: HELPERS, channel: CHANNEL });
  }
  engineTicket = ticket;
  engine.postMessage({ ticket, order });
}

// A helper search trapped: the engine worker waits for it forever, so it is ended as if it had
// trapped itself.
if (typeof BroadcastChannel === 'function') {
  new BroadcastChannel(CHANNEL).onmessage = (event) => {
    if (!event.data?.helperFailed || !engine) return;
    const lost = engineTicket;
    stopEngine(true);
    serially(() => fromEngine({ ticket: lost, failed: event.data.helperFailed }));
  };
}

async function fromEngine(message) {
  const call = await load();
  if (message.info) {
    call({ cmd: 'job_info', ticket: message.ticket, info: message.info });
    return;
  }
  if (message.failed) {
    console.warn(`the engine failed: ${message.failed}`);
    stopEngine(true);
  }
  const done = call({ cmd: 'job_done', ticket: message.ticket, outcome: message.outcome || null });
  await settle(call, done.effects);
}

async function answerPage({ id, method, path, body }) {
  let call;
  try {
    call = await load();
  } catch (e) {
    self.postMessage({ id, status: 500, text: failure(`the engine could not be loaded: ${e.message}`) });
    return;
  }
  if (isForGames(path) && !holding) {
    self.postMessage({ id, status: 409, text: otherTab() });
    return;
  }
  try {
    // A loaded file's bytes go as numbers; the module reads JSON.
    const binary = body instanceof ArrayBuffer || ArrayBuffer.isView(body);
    const request = binary
      ? { cmd: 'api', method, path, bytes: Array.from(new Uint8Array(body.buffer || body, body.byteOffset || 0, body.byteLength)) }
      : { cmd: 'api', method, path, body };
    const answer = call(request);
    if (answer.error) {
      self.postMessage({ id, status: 400, text: failure(answer.error) });
      return;
    }
    const final = await settle(call, answer.effects, { status: answer.status, text: answer.body });
    self.postMessage({ id, ...final });
  } catch (e) {
    // The module trapped (a bug): its state is lost; the next request starts a new one from
    // the stored games.
    ready = null;
    stopEngine(true);
    self.postMessage({ id, status: 500, text: failure(`the engine failed: ${panicked || e.message}`) });
    panicked = null;
  }
}

/** Whether a request needs the games: the puzzle record is kept with them, so the tab that
 * holds them answers for both. */
function isForGames(path) {
  return path.startsWith('/api/games') || path.startsWith('/api/puzzles');
}

/** Settles when a request for the games may be answered: at once when this worker holds them;
 * else when it takes them over, or HANDOVER_MS after it found them held (then it refuses). */
const gamesSettled = gamesHeld.then((held) => held
  || Promise.race([gamesTaken, new Promise((resolve) => setTimeout(resolve, HANDOVER_MS))]));

/** The requests in the order they came. One that needs the games waits for gamesSettled before
 * it joins the steps, which go on meanwhile (the takeover among them). The page says when it is
 * hidden (it may not come back): the clocks are stored at once then, whatever waits. */
let arrivals = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  if (message.checkpoint) {
    serially(checkpoint);
    return;
  }
  arrivals = arrivals.then(async () => {
    if (isForGames(message.path)) await gamesSettled;
    serially(() => answerPage(message));
  });
};
