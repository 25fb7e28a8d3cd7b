// Runs the engine's fixed benchmark in the WebAssembly module under Node, and prints what
// `xiangqi bench` prints natively: "NODES nodes NPS nps". The node count must equal the native
// one (the search is the same on every target); CI checks that.
//
//   node crates/wasm/bench.mjs [--hand-made] [--depth N] [--rounds N] [--threads N] FILE.wasm
//
// With --rounds N the bench runs N times after one untimed warm-up round (the browser's
// compiler optimises hot code while it runs) and the best speed is printed. --threads N (the
// module built for threads, `cargo xtask wasm --threads`) lends it N − 1 helper workers and
// also prints the time to depth and how many helper searches ran (one per helper and
// position): with helpers the node count varies from run to run.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { instantiate, lendHelpers } from '../web/page/site/xiangqi-module.js';

const args = process.argv.slice(2);
let depth = 9, network = true, rounds = 1, threads = null, file = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--hand-made') network = false;
  else if (args[i] === '--depth') depth = Number(args[++i]);
  else if (args[i] === '--rounds') rounds = Number(args[++i]);
  else if (args[i] === '--threads') threads = Number(args[++i]);
  else file = args[i];
}
if (!file || !Number.isInteger(depth) || !Number.isInteger(rounds) || rounds < 1
    || (threads !== null && !(Number.isInteger(threads) && threads >= 1))) {
  console.error('usage: node bench.mjs [--hand-made] [--depth N] [--rounds N] [--threads N] FILE.wasm');
  process.exit(2);
}

const engine = await instantiate(readFileSync(file));
if (threads !== null) {
  const spawn = (start) => new Promise((resolve, reject) => {
    const worker = new Worker(new URL('helper.mjs', import.meta.url), { workerData: start });
    worker.once('message', () => { worker.unref(); resolve(); });
    worker.once('error', reject);
  });
  await lendHelpers(engine, spawn, threads - 1);
}

function call(request) {
  const answer = engine(request);
  if (answer.error) throw new Error(answer.error);
  return answer;
}

const request = { cmd: 'bench', depth, network, ...(threads === null ? {} : { threads }) };
if (rounds > 1) call(request);
let best = null;
for (let i = 0; i < rounds; i++) {
  const result = call(request);
  if (!best || result.nps > best.nps) best = result;
}
if (threads === null) console.log(`${best.nodes} nodes ${best.nps} nps`);
else console.log(`${best.nodes} nodes ${best.nps} nps ${best.ms} ms ${best.helper_searches} helper searches`);
process.exit(0);
