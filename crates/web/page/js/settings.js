// What the page remembers between visits, in localStorage: every key is named here once.

/** The difficulty offered when the person has not chosen one (the server's default too). */
export const DEFAULT_LEVEL = 3;

const KEYS = {
  level: 'xiangqi.level',
  notation: 'xiangqi.notation',
  analysis: 'xiangqi.analysis',
  theme: 'xiangqi.theme',
  pieceSet: 'xiangqi.pieceSet',
  muted: 'xiangqi.muted',
  lang: 'xiangqi.lang',
  game: 'xiangqi.game',
  clock: 'xiangqi.clock',
  reviewDepth: 'xiangqi.reviewDepth',
  analysisLines: 'xiangqi.analysisLines',
};

function read(name) {
  try {
    return localStorage.getItem(KEYS[name]);
  } catch {
    return null; // storage disabled: behave as on a first visit
  }
}

/** The id of the game whose clock this tab paused when the page went away (a reload), kept
 * for this tab only, so the reloaded page can start the clock again. */
export const session = {
  autoPaused: () => {
    try {
      return sessionStorage.getItem('xiangqi.autopaused');
    } catch {
      return null;
    }
  },
  setAutoPaused: (id) => {
    try {
      if (id) sessionStorage.setItem('xiangqi.autopaused', id);
      else sessionStorage.removeItem('xiangqi.autopaused');
    } catch {
      // Without session storage a reload leaves the clock paused; Resume starts it.
    }
  },
};

function write(name, value) {
  try {
    localStorage.setItem(KEYS[name], value);
  } catch {
    // Storage full or disabled: the setting lasts for this visit only.
  }
}

/** A move's name in `notation` (`iccs`, `chinese` or `wxf`; by default the one chosen on the
 * game page): `m` carries the server's `MoveNames` fields, and Chinese stands in for a name it
 * lacks. */
export function moveNameIn(m, notation = settings.notation()) {
  return m[notation] || m.chinese;
}

/** The settings, each with a default for a first visit. */
export const settings = {
  level: () => {
    const level = Number(read('level'));
    return level >= 1 && level <= 10 ? level : DEFAULT_LEVEL;
  },
  setLevel: (level) => write('level', String(level)),
  notation: () => read('notation') || 'chinese',
  setNotation: (notation) => write('notation', notation),
  /** How hard a review looks at each position: `quick`, `normal` or `deep`. */
  reviewDepth: () => {
    const depth = read('reviewDepth');
    return ['quick', 'normal', 'deep'].includes(depth) ? depth : 'normal';
  },
  setReviewDepth: (depth) => write('reviewDepth', depth),
  /** How many lines an analysis shows, 1 to 5. */
  analysisLines: () => {
    const lines = Number(read('analysisLines'));
    return lines >= 1 && lines <= 5 ? lines : 1;
  },
  setAnalysisLines: (lines) => write('analysisLines', String(lines)),
  analysis: () => read('analysis') === '1',
  setAnalysis: (on) => write('analysis', on ? '1' : '0'),
  /** 'light', 'dark', or null when never chosen (then the system's preference). */
  theme: () => read('theme'),
  setTheme: (theme) => write('theme', theme),
  /** How the pieces are drawn: `characters` (the Chinese characters) or `pictograms`. */
  pieceSet: () => (read('pieceSet') === 'pictograms' ? 'pictograms' : 'characters'),
  setPieceSet: (set) => write('pieceSet', set),
  muted: () => read('muted') === '1',
  setMuted: (muted) => write('muted', muted ? '1' : '0'),
  /** 'zh', 'en', or null when never chosen. */
  lang: () => {
    const lang = read('lang');
    return lang === 'zh' || lang === 'en' ? lang : null;
  },
  setLang: (lang) => write('lang', lang),
  /** The clock chosen last in New game (a preset name, or `none`). */
  clockPreset: () => read('clock') || 'none',
  setClockPreset: (preset) => write('clock', preset),
  /** The id of the game open last. */
  game: () => read('game'),
  setGame: (id) => write('game', id),
};
