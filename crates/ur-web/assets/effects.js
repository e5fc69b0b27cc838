// What a step looks and sounds like on the game screen: the moved piece
// slides from where it came, a captured piece slides home to its reserve,
// and a short sound is made on the spot (Web Audio, no files). Motion stops
// under its option or the system's reduced motion; sound is off until
// turned on. Used by app.js; the options are kept in the browser.

import { store } from './dom.js';

export const MOTION = 'ur.animate';
export const SOUND = 'ur.sound';
const SLIDE_MS = 220;
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Whether pieces slide: the option, and no request for reduced motion. */
export function animating() {
  const still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return !still && store.get(MOTION, true);
}

/** The board's element for a spot: a square, or a side's reserve or borne-off pile. */
export function spotSelector(spot) {
  if (!spot) return null;
  if (spot.at === 'square') return `[data-square="${spot.square}"]`;
  return `[data-${spot.at}="${spot.side}"]`;
}

/**
 * Slides the piece `move` brought to its square on `svg` (drawn from `view`,
 * which followed `prev`), and a piece it captured back home. Returns how
 * many slides started.
 */
export function slideMove(svg, view, prev, move) {
  if (!move.to || move.to.at !== 'square' || !animating()) return 0;
  const pieces = view.position.pieces || [];
  const piece = [...svg.querySelectorAll('[data-piece]')].find((g) => (pieces[Number(g.dataset.piece)] || {}).square === move.to.square);
  const start = svg.querySelector(spotSelector(move.from));
  if (!piece || !start || !piece.animate) return 0;
  glide(svg, piece, start, piece);
  // A capture sent a piece of the other side from that square back to its reserve.
  const mover = (pieces[Number(piece.dataset.piece)] || {}).side;
  const other = mover === 'light' ? 'dark' : 'light';
  const k = other === 'light' ? 0 : 1;
  const was = prev && (prev.position.pieces || []).find((p) => p.square === move.to.square && p.side === other);
  const home = svg.querySelector(spotSelector({ at: 'reserve', side: other }));
  if (!was || !home || !(view.position.reserve[k] > prev.position.reserve[k])) return 1;
  const ghost = disc(piece, view.sides[k].tone === 'light');
  svg.append(ghost); // last: over the piles it flies to
  glide(svg, ghost, ghost, home).finished.then(() => ghost.remove(), () => ghost.remove());
  return 2;
}

/** A plain disc where `piece` stands, in the board's own units. */
function disc(piece, light) {
  const b = piece.getBBox();
  const m = piece.getCTM();
  const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
  const ghost = document.createElementNS(SVG_NS, 'circle');
  const attrs = { class: 'captured', cx: m.a * x + m.c * y + m.e, cy: m.b * x + m.d * y + m.f, r: 28,
    fill: light ? '#f7f1e3' : '#1d1a17', stroke: light ? '#2b1d10' : '#f0e6d0', 'stroke-width': 3 };
  for (const [a, v] of Object.entries(attrs)) ghost.setAttribute(a, v);
  return ghost;
}

/** Moves `el` from where `from` is drawn to where `to` is (screen boxes, turned into the board's units). */
function glide(svg, el, from, to) {
  const box = svg.getBoundingClientRect();
  const viewBox = svg.viewBox.baseVal;
  const scale = viewBox && viewBox.width && box.width ? viewBox.width / box.width : 1;
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x0, y0] = centre(from);
  const [x1, y1] = centre(el);
  const [x2, y2] = centre(to);
  const at = (x, y) => `translate(${((x - x1) * scale).toFixed(1)}px, ${((y - y1) * scale).toFixed(1)}px)`;
  return el.animate([{ transform: at(x0, y0) }, { transform: at(x2, y2) }], { duration: SLIDE_MS, easing: 'ease-out', fill: 'forwards' });
}

/** What a step sounds like: `capture` (a side's reserve grew on the other's move), `move`, `throw`, or null. */
export function soundOf(prev, view, moved, threw) {
  const k = (side) => (side === 'light' ? 0 : 1);
  const taken = ['light', 'dark'].some((side) => view.position.reserve[k(side)] > prev.position.reserve[k(side)] && prev.turn.stage === 'act' && prev.turn.side !== side);
  return taken ? 'capture' : moved ? 'move' : threw ? 'throw' : null;
}

/** Makes the sound `kind` on `ctx`: a knock for a move, a lower double knock for a capture, a rattle for a throw. */
export function playSound(ctx, kind) {
  const now = ctx.currentTime;
  const knock = (at, freq, length) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(freq, now + at);
    gain.gain.setValueAtTime(0.25, now + at);
    gain.gain.exponentialRampToValueAtTime(0.001, now + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + length);
  };
  if (kind === 'move') knock(0, 520, 0.08);
  else if (kind === 'capture') { knock(0, 300, 0.1); knock(0.09, 220, 0.14); }
  else for (let i = 0; i < 4; i += 1) knock(i * 0.045, 900 + 150 * (i % 2), 0.03);
}
