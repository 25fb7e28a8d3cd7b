// The engine in WebAssembly (crates/wasm), ready to answer: used by the static site's workers and
// by crates/wasm/bench.mjs under Node. The module takes JSON requests through its memory and
// asks its host for a clock and a place to send a search's progress reports.
//
// The module built for threads (`xiangqi-threads.wasm`) imports its memory, shared with helper
// instances in workers of their own that run the engine's helper searches (`lendHelpers`).

/** The threads module's memory, in 64 KiB pages: its build (xtask/src/wasm.rs) declares the
 * same sizes, 32 MiB growing to 1 GiB. */
export const THREADS_MEMORY = { initial: 512, maximum: 16384, shared: true };
/** The site's two modules (`cargo xtask site` writes them beside this file). */
export const SINGLE_MODULE = 'xiangqi.wasm';
export const THREADS_MODULE = 'xiangqi-threads.wasm';

/** Fetches and compiles one of the site's modules (`name`, beside this file). */
export async function compileSiteModule(name) {
  const response = await fetch(new URL(name, import.meta.url));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** Stack of each helper instance (as the searching instance's, xtask's `STACK_BYTES`). */
const HELPER_STACK_BYTES = 8 << 20;

/** Instantiates the module from its bytes or its compiled `WebAssembly.Module` and returns
 * `call(request)`, which sends one JSON request and returns the decoded answer. `onReport`
 * receives each progress report (JSON). A threads module gets a new shared memory. `call.exports`,
 * `call.module` and `call.memory` are the instance's. */
export async function instantiate(bytesOrModule, onReport = () => {}) {
  const module = bytesOrModule instanceof WebAssembly.Module
    ? bytesOrModule
    : await WebAssembly.compile(bytesOrModule);
  let memory = isThreadsModule(module) ? new WebAssembly.Memory(THREADS_MEMORY) : null;
  const instance = await WebAssembly.instantiate(module, imports(onReport, () => memory, memory));
  const exports = instance.exports;
  memory ||= exports.memory;
  const encoder = new TextEncoder();
  const call = function call(request) {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = exports.xq_input(bytes.length);
    new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
    const len = exports.xq_call();
    return JSON.parse(text(memory, exports.xq_output(), len));
  };
  Object.assign(call, { exports, module, memory });
  return call;
}

/** Whether `module` is the one built for threads (it imports a shared memory). */
export function isThreadsModule(module) {
  return WebAssembly.Module.imports(module).some((entry) => entry.kind === 'memory');
}

/** The imports of an instance: the host's clock and its report sink, and a threads module's
 * memory. */
function imports(onReport, memoryOf, memory) {
  const made = {
    xiangqi: {
      // Milliseconds since the epoch, never going back: the engine's clock and its seed.
      now: () => performance.timeOrigin + performance.now(),
      emit: (at, len) => onReport(text(memoryOf(), at, len)),
    },
  };
  if (memory) made.env = { memory };
  return made;
}

/** UTF-8 text in the module's memory (copied first: a decoder takes no shared memory). */
function text(memory, at, len) {
  return new TextDecoder().decode(new Uint8Array(memory.buffer, at, len).slice());
}

/** Lends up to `count` helper threads (no more than the module can use, `xq_max_helpers`) to
 * the engine of `call` (an instance of the threads module; none for another): for each,
 * reserves a stack and thread-local storage in the shared memory and asks `spawn(start)` to run
 * `serveHelper(start)` in a new worker, `start` being `{module, memory, stack, tls}`; resolves
 * to the number serving once they all do (or failed). */
export async function lendHelpers(call, spawn, count) {
  const exports = call.exports;
  if (!exports.xq_serve_helper || exports.__tls_align.value > 16) return 0;
  const started = [];
  for (let i = 0; i < Math.min(count, exports.xq_max_helpers()); i++) {
    const stack = exports.xq_reserve(HELPER_STACK_BYTES);
    const tls = exports.xq_reserve(Math.max(exports.__tls_size.value, 1));
    const start = { module: call.module, memory: call.memory, stack: stack + HELPER_STACK_BYTES, tls };
    started.push(spawn(start).then(() => true, () => false));
  }
  const serving = (await Promise.all(started)).filter(Boolean).length;
  // Each says it serves just before it enters the engine's pool: wait until it is in.
  for (let waited = 0; exports.xq_helpers() < serving && waited < 2000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return exports.xq_helpers();
}

/** Runs in a helper's own worker: instantiates the threads module on the shared memory `start`
 * names (from `lendHelpers`), gives the instance its stack and thread-local storage, calls
 * `ready()` and serves the engine's helper searches for good: this returns only if the module
 * traps (a bug), by throwing. `onReport` gets a panic's report. */
export async function serveHelper(start, ready, onReport = () => {}) {
  const { module, memory } = start;
  const instance = await WebAssembly.instantiate(module, imports(onReport, () => memory, memory));
  const exports = instance.exports;
  // Before anything runs on it: the instance's own stack, then its own thread-local storage.
  exports.__stack_pointer.value = start.stack;
  exports.__wasm_init_tls(start.tls);
  ready();
  exports.xq_serve_helper();
}
