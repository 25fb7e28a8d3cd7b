// The static site's games in the browser's storage (IndexedDB): one record per game, `{id, pgn,
// updated}`, the PGN file the server would write; and the puzzle record, `{id: 'record', json}`,
// in a store of its own. Used by the games worker (worker.js).

const DATABASE = 'xiangqi';
const GAMES = 'games';
const PUZZLES = 'puzzles';
/** Version 2 added the puzzles' store. */
const VERSION = 2;

/** Why storage refused a write: `{full, reason}` (full: the quota is used up). */
export class StorageRefused extends Error {
  constructor(error) {
    const name = error?.name || 'Error';
    super(`${name}: ${error?.message || 'the browser refused to store the game'}`);
    this.full = name === 'QuotaExceededError';
  }
}

let opened = null;

/** The database, opened once (null, and the reason on the console, where the browser has none). */
function database() {
  opened ||= new Promise((resolve, reject) => {
    if (!self.indexedDB) {
      reject(new StorageRefused({ name: 'NotSupportedError', message: 'this browser keeps no storage for the site' }));
      return;
    }
    const request = indexedDB.open(DATABASE, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(GAMES)) db.createObjectStore(GAMES, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(PUZZLES)) db.createObjectStore(PUZZLES, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(new StorageRefused(request.error));
    request.onblocked = () => reject(new StorageRefused({ name: 'BlockedError', message: 'another tab holds an older version of the site open' }));
  });
  opened.catch(() => { opened = null; });
  return opened;
}

/** Every stored game, the records that are not games at all (kept, reported), and the puzzle
 * record's text (null when there is none). */
export async function readGames() {
  const db = await database();
  const tx = db.transaction([GAMES, PUZZLES], 'readonly');
  const read = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(new StorageRefused(request.error));
  });
  const [records, puzzleRecord] = await Promise.all([
    read(tx.objectStore(GAMES).getAll()),
    read(tx.objectStore(PUZZLES).get('record')),
  ]);
  const puzzles = typeof puzzleRecord?.json === 'string' ? puzzleRecord.json : null;
  const games = [];
  const broken = [];
  for (const record of records) {
    if (typeof record?.id === 'string' && typeof record.pgn === 'string') {
      games.push({ id: record.id, pgn: record.pgn, updated: Number.isSafeInteger(record.updated) ? Math.max(0, record.updated) : 0 });
    } else {
      broken.push(String(record?.id));
    }
  }
  return { games, broken, puzzles };
}

/** Stores `put` (games), deletes `remove` (ids) and stores the puzzle record's text `puzzles`
 * (unless null) together: all or nothing. Rejects with `StorageRefused`. */
export async function writeGames(put, remove, puzzles = null) {
  const db = await database();
  await new Promise((resolve, reject) => {
    let tx;
    try {
      tx = db.transaction([GAMES, PUZZLES], 'readwrite');
      const store = tx.objectStore(GAMES);
      for (const game of put) store.put(game);
      for (const id of remove) store.delete(id);
      if (puzzles !== null) tx.objectStore(PUZZLES).put({ id: 'record', json: puzzles });
    } catch (e) {
      reject(new StorageRefused(e));
      return;
    }
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(new StorageRefused(tx.error));
    tx.onerror = (event) => event.preventDefault();
  });
}
