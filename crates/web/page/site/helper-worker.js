// A helper search thread of the static site's engine (engine-worker.js starts it on a cross-origin
// isolated page): an instance of the threads module on the engine's shared memory, lent to its
// helper searches for good. Message in: the `start` of xiangqi-module.js's `lendHelpers`, with
// `channel`, where a failure is said; out: one message once it serves.
//
// If the module traps here (a bug), the engine's search would wait for this helper forever, and
// the engine worker cannot hear it (it is busy searching): the games worker listens on the
// channel and ends the engine worker, as for a trap of its own.

import { serveHelper } from './xiangqi-module.js';

let panic = null;

function report(text) {
  const message = JSON.parse(text);
  if (message.panic) panic = message.panic;
}

self.onmessage = async (event) => {
  const start = event.data;
  try {
    await serveHelper(start, () => self.postMessage({ serving: true }), report);
  } catch (e) {
    const channel = new BroadcastChannel(start.channel);
    channel.postMessage({ helperFailed: panic || e.message || 'a helper search failed' });
    channel.close();
  }
};
