// The static site's engine: a worker of its own that runs the games' search orders, so the
// games worker answers the page while the computer thinks. Started (and, to stop a search,
// ended) by worker.js. Messages in: {module, helpers, channel} once (the compiled WebAssembly
// module, how many helper threads to lend it, and where a helper says it failed), then
// {ticket, order}; out: {threads, signals} once it is ready (how many threads it searches on,
// and where in shared memory it can be told to stop or to pause), then {ticket, info} for each
// progress report, then {ticket, outcome} or {ticket, failed}.
//
// With the threads module (a cross-origin isolated page) the engine searches on this worker's
// thread and on helper workers sharing its memory (helper-worker.js), which end with this one.
// Busy searching, this worker reads no messages; so worker.js stops a search by writing into
// the shared memory (`signals`: the engine's stop flag, and the first ticket still wanted),
// and this worker, its table and its helpers stay. It pauses one the same way (the engine's
// pause flag: the search waits where it is, its time standing still, until the flag is
// cleared). Without shared memory worker.js ends the worker to stop a search, and a pause
// stops it too.

import { compileSiteModule, instantiate, isThreadsModule, lendHelpers, SINGLE_MODULE } from './xiangqi-module.js';

let call = null;
let ticket = null;
let failure = null;
/** Where the stop and pause flags (a byte each) and the first ticket still wanted (a 32-bit
 * word) are in the shared memory, with the threads module. */
let signals = null;

function report(text) {
  const message = JSON.parse(text);
  if (message.panic) failure = message.panic;
  else if (message.info) self.postMessage({ ticket, info: message.info });
}

/** An instance of `module`; of the module for one thread if that is the threads module and
 * it cannot run here after all (its shared memory could not be reserved a second time). */
async function instance(module) {
  try {
    return await instantiate(module, report);
  } catch (e) {
    if (!isThreadsModule(module)) throw e;
    console.warn(`the engine searches on one thread: ${e.message}`);
    return instantiate(await compileSiteModule(SINGLE_MODULE), report);
  }
}

async function start({ module, helpers, channel }) {
  const engine = await instance(module);
  const spawn = (start) => new Promise((resolve, reject) => {
    const helper = new Worker(new URL('helper-worker.js', import.meta.url), { type: 'module' });
    helper.onmessage = () => resolve();
    helper.onerror = (event) => {
      event.preventDefault?.();
      reject(new Error(event.message || 'a helper worker could not start'));
    };
    helper.postMessage({ ...start, channel });
  });
  const lent = helpers > 0 ? await lendHelpers(engine, spawn, helpers) : 0;
  if (engine.exports.xq_stop_flag && engine.memory.buffer instanceof SharedArrayBuffer) {
    signals = {
      memory: engine.memory,
      stop: engine.exports.xq_stop_flag(),
      pause: engine.exports.xq_pause_flag(),
      wanted: engine.exports.xq_reserve(4),
    };
  }
  self.postMessage({ threads: 1 + lent, signals });
  return engine;
}

self.onmessage = async (event) => {
  const data = event.data;
  if (data.module) {
    call = start(data);
    return;
  }
  ticket = data.ticket;
  try {
    const run = await call;
    if (signals) {
      // Cleared first, then the ticket read: a stop written in between is then either seen
      // here or by the search (worker.js writes the ticket first, then the flag).
      Atomics.store(new Uint8Array(signals.memory.buffer), signals.stop, 0);
      Atomics.store(new Uint8Array(signals.memory.buffer), signals.pause, 0);
      if (Atomics.load(new Int32Array(signals.memory.buffer), signals.wanted / 4) > ticket) return;
    }
    const outcome = run({ cmd: 'order', order: data.order });
    if (outcome.error) self.postMessage({ ticket, failed: outcome.error });
    else self.postMessage({ ticket, outcome });
  } catch (e) {
    // The module trapped: this worker is done; worker.js starts another for the next search.
    self.postMessage({ ticket, failed: failure || e.message || 'the engine failed' });
  }
};
