// Which way the board faces and how it is laid out: each seated player sees
// their own side nearest to them (at the bottom), a flip button turns the
// board (remembered per game in this browser), and narrow screens get the
// tall layout (piles above and below the board, the board the full width).

import { h, store } from './dom.js';
import { t } from './i18n.js';

const FLIP_KEY = 'ur.flip'; // {game id: true when light is drawn at the top}
const KEEP = 50;
const NARROW = '(max-width: 600px)';

/** The side of `screen`'s player when it is one side (not hot-seat, not a watcher). */
function seat(screen) {
  const you = screen.game && screen.game.you;
  return you === 'light' || you === 'dark' ? you : null;
}

/** Whether the board is drawn flipped (light at the top) for `screen`'s game. */
export function flipped(screen) {
  const saved = (store.get(FLIP_KEY, {}) || {})[screen.id];
  if (typeof saved === 'boolean') return saved;
  return seat(screen) === 'dark';
}

function setFlipped(id, value) {
  const all = store.get(FLIP_KEY, {}) || {};
  delete all[id];
  all[id] = value;
  // The most recent games only: the oldest keys go first.
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete all[k];
  store.set(FLIP_KEY, all);
}

/** The button that turns the board for this game. */
export function flipButton(screen) {
  const on = flipped(screen);
  return h('button', { type: 'button', id: 'flip-board', 'aria-pressed': on ? 'true' : 'false', title: t('game.flipKey'), onclick: () => {
    setFlipped(screen.id, !flipped(screen));
    screen.renderBoard();
    placePlayers(screen);
    screen.renderControls();
  } }, t('game.flip'));
}

/** The players' boxes above and below the board, as the board faces. */
export function placePlayers(screen) {
  const el = screen.el;
  const [top, bottom] = flipped(screen) ? ['light', 'dark'] : ['dark', 'light'];
  // Each side's clock goes with its player's box.
  const boxes = side => (el.clocks ? [el.players[side], el.clocks[side]] : [el.players[side]]);
  if (el.playersTop.firstChild !== el.players[top]) el.playersTop.replaceChildren(...boxes(top));
  if (el.playersBottom.firstChild !== el.players[bottom]) el.playersBottom.replaceChildren(...boxes(bottom));
}

/** 'tall' on a narrow screen, else 'wide' (board.js's layouts). */
export function boardLayout() {
  return window.matchMedia && window.matchMedia(NARROW).matches ? 'tall' : 'wide';
}

/** Calls `redraw` when the screen turns narrow or wide. */
export function onLayoutChange(redraw) {
  if (!window.matchMedia) return;
  window.matchMedia(NARROW).addEventListener('change', redraw);
}
