// Runs the engine's fixed benchmark in the WebAssembly module under Node, and prints what
// `xiangqi bench` prints natively: "NODES nodes NPS nps". The node count must equal the native
// one (the search is the same on every target); CI checks that.
//
//   node crates/wasm/bench.mjs [--hand-made] [--depth N] [--rounds N] target/wasm/xiangqi.wasm
//
// With --rounds N the bench runs N times after one untimed warm-up round (the browser's
// compiler optimises hot code while it runs) and the best speed is printed.
import { readFileSync } from 'node:fs';
import { instantiate } from '../web/page/site/xiangqi-module.js';

const args = process.argv.slice(2);
let depth = 9, network = true, rounds = 1, file = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--hand-made') network = false;
  else if (args[i] === '--depth') depth = Number(args[++i]);
  else if (args[i] === '--rounds') rounds = Number(args[++i]);
  else file = args[i];
}
if (!file || !Number.isInteger(depth) || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench.mjs [--hand-made] [--depth N] [--rounds N] FILE.wasm');
  process.exit(2);
}

const engine = await instantiate(readFileSync(file));

function call(request) {
  const answer = engine(request);
  if (answer.error) throw new Error(answer.error);
  return answer;
}

if (rounds > 1) call({ cmd: 'bench', depth, network });
let best = null;
for (let i = 0; i < rounds; i++) {
  const result = call({ cmd: 'bench', depth, network });
  if (!best || result.nps > best.nps) best = result;
}
console.log(`${best.nodes} nodes ${best.nps} nps`);
