// A helper thread of bench.mjs --threads under Node: serves the engine's helper searches on the
// shared memory it is given, until the process ends.
import { parentPort, workerData } from 'node:worker_threads';
import { serveHelper } from '../web/page/site/xiangqi-module.js';

serveHelper(workerData, () => parentPort.postMessage('serving'));
