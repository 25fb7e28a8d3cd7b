// The static site's engine: a worker of its own that runs the games' search orders, so the
// games worker answers the page while the computer thinks. Started (and, to stop a search,
// ended) by worker.js. Messages in: {module} once (the compiled WebAssembly module), then
// {ticket, order}; out: {ticket, info} for each progress report, then {ticket, outcome} or
// {ticket, failed}.

import { instantiate } from './xiangqi-module.js';

let call = null;
let ticket = null;
let failure = null;

function report(text) {
  const message = JSON.parse(text);
  if (message.panic) failure = message.panic;
  else if (message.info) self.postMessage({ ticket, info: message.info });
}

self.onmessage = async (event) => {
  const data = event.data;
  if (data.module) {
    call = instantiate(data.module, report);
    return;
  }
  ticket = data.ticket;
  try {
    const run = await call;
    const outcome = run({ cmd: 'order', order: data.order });
    if (outcome.error) self.postMessage({ ticket, failed: outcome.error });
    else self.postMessage({ ticket, outcome });
  } catch (e) {
    // The module trapped: this worker is done; worker.js starts another for the next search.
    self.postMessage({ ticket, failed: failure || e.message || 'the engine failed' });
  }
};
