// The static site's back end: a worker that answers the page's API requests with the engine in
// WebAssembly (crates/wasm: `xiangqi_play::local`, the same answers as the web server's), so
// the page never waits on a search. Messages in: {id, method, path, body}; out: {id, status,
// text}.

import { instantiate } from './xiangqi-module.js';

/** The module, instantiated once; again after it has failed (a panic ends the instance). */
let engine = null;
/** What the module said as it panicked, if it did. */
let panicked = null;

function report(text) {
  const message = JSON.parse(text);
  if (message.panic) panicked = message.panic;
}

function load() {
  engine = fetch(new URL('xiangqi.wasm', import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`xiangqi.wasm: HTTP ${response.status}`);
      return response.arrayBuffer();
    })
    .then((bytes) => instantiate(bytes, report));
  return engine;
}

function failure(message) {
  return JSON.stringify({ error: 'internal', message });
}

self.onmessage = async (event) => {
  const { id, method, path, body } = event.data;
  let call;
  try {
    call = await (engine || load());
  } catch (e) {
    engine = null;
    self.postMessage({ id, status: 500, text: failure(`the engine could not be loaded: ${e.message}`) });
    return;
  }
  try {
    const answer = call({ cmd: 'api', method, path, body });
    if (answer.error) {
      self.postMessage({ id, status: 400, text: failure(answer.error) });
    } else {
      self.postMessage({ id, status: answer.status, text: answer.body });
    }
  } catch (e) {
    // The module trapped (a bug): its state is lost; the next request starts a new one.
    engine = null;
    self.postMessage({ id, status: 500, text: failure(`the engine failed: ${panicked || e.message}`) });
    panicked = null;
  }
};
