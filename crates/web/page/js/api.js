// Calls to the JSON API: the server's, or on the static site the worker's (site.js), which
// answers the same requests the same way. Errors come back as {error, message, code}.

import { onSite, siteRequest } from './site.js';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || body?.error || null;
  }
}

/** Sends a request and returns `{status, text}`; status 0 when nothing answered. */
async function send(method, path, body, contentType) {
  if (onSite) return siteRequest(method, path, body === undefined ? '' : body);
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = contentType;
    init.body = body;
  }
  try {
    const response = await fetch(path, init);
    return { status: response.status, text: await response.text() };
  } catch (e) {
    return { status: 0, text: '' };
  }
}

/** Sends a request and returns the decoded JSON (null for an empty answer). */
export async function request(method, path, body, contentType = 'application/json') {
  const encoded = body !== undefined && contentType === 'application/json' ? JSON.stringify(body) : body;
  const { status, text } = await send(method, path, encoded, contentType);
  if (status === 0) throw new ApiError(0, { message: 'the server cannot be reached', code: 'offline' });
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { message: text }; }
  }
  if (status < 200 || status > 299) throw new ApiError(status, data);
  return data;
}

export const api = {
  list: () => request('GET', '/api/games'),
  create: (body) => request('POST', '/api/games', body),
  importPgn: (bytes, level) => request('POST', `/api/games/import?level=${level}`, bytes, 'application/octet-stream'),
  /** The game's state; with `since` (`version.revision` the page has), without the moves while
   * they are unchanged. */
  get: (id, since) => request('GET', `/api/games/${id}${since ? `?since=${since}` : ''}`),
  remove: (id) => request('DELETE', `/api/games/${id}`),
  move: (id, move, version) => request('POST', `/api/games/${id}/move`, { move, version }),
  action: (id, name) => request('POST', `/api/games/${id}/${name}`),
  study: (id, body) => request('POST', `/api/games/${id}/study`, body),
  review: (id, depth) => request('POST', `/api/games/${id}/review`, { depth }),
  settings: (id, body) => request('POST', `/api/games/${id}/settings`, body),
  /** The game's PGN file (text, not JSON). */
  pgn: async (id, notation) => {
    const path = `/api/games/${id}/pgn?notation=${notation}`;
    if (onSite) {
      const { status, text } = await siteRequest('GET', path, '');
      if (status !== 200) throw new ApiError(status, JSON.parse(text || 'null'));
      return text;
    }
    const r = await fetch(path);
    if (!r.ok) throw new ApiError(r.status, null);
    return r.text();
  },
  checkFen: (fen) => request('POST', '/api/fen', { fen }),
  checkBook: (fen) => request('POST', '/api/book', { fen }),
  /** What the endgame tables say of a position (`available: false` where there are none). */
  probeTablebase: (fen) => request('POST', '/api/tablebase', { fen }),
  levels: () => request('GET', '/api/levels'),
  /** The page leaves the game: its searches stop and a running clock pauses. */
  leave: (id) => (onSite
    ? siteRequest('POST', `/api/games/${id}/leave`, '')
    : navigator.sendBeacon?.(`/api/games/${id}/leave`)),
};
