// The engine in WebAssembly (crates/wasm), ready to answer: used by the static site's worker and
// by crates/wasm/bench.mjs under Node. The module takes JSON requests through its memory and
// asks its host for a clock and a place to send a search's progress reports.

/** Instantiates the module from its bytes or its compiled `WebAssembly.Module` and returns
 * `call(request)`, which sends one JSON request and returns the decoded answer. `onReport`
 * receives each progress report (JSON). */
export async function instantiate(bytesOrModule, onReport = () => {}) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let memory = null;
  const imports = {
    xiangqi: {
      // Milliseconds since the epoch, never going back: the engine's clock and its seed.
      now: () => performance.timeOrigin + performance.now(),
      emit: (at, len) => onReport(decoder.decode(new Uint8Array(memory.buffer, at, len))),
    },
  };
  // From a compiled module the answer is the instance itself, from bytes both.
  const made = await WebAssembly.instantiate(bytesOrModule, imports);
  const instance = made.instance || made;
  memory = instance.exports.memory;
  const exports = instance.exports;
  return function call(request) {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = exports.xq_input(bytes.length);
    new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
    const len = exports.xq_call();
    return JSON.parse(decoder.decode(new Uint8Array(memory.buffer, exports.xq_output(), len)));
  };
}
