// Draws a GameView (crates/ur-session/src/view.rs, docs/serve.md) into an
// <svg> element: the squares with their decorations, the pieces, the
// reserves and borne-off piles, the dice of the last throw, and highlights.
// A standard ES module with no dependencies.
//
//   import { renderBoard } from './board.js';
//   renderBoard(svg, view, {
//     selected: 12 | 'reserve' | null,        // a square id, or the mover's reserve
//     targets: [{at:'square',square:3}, {at:'off',side:'light'}],
//     captures: [{at:'square',square:3}],     // targets where the move captures: a solid ring
//     onSpot: (spot) => { ... },              // clicks and Enter/Space on squares and piles
//     labels: true,                           // square names in a corner
//     showPath: 'light' | 'dark' | null,      // a faint line along a side's path
//     say: (words) => text,                   // the throw's phrases in the page's language
//     caption: (kind, side) => text,          // a pile's caption ('reserve' or 'off') in the page's language
//     flip: false,                            // light's rows at the top (dark's side nearest the viewer)
//     layout: 'wide' | 'tall',                // piles beside the board, or above and below it (phones)
//     markName: (mark) => text,               // a square's mark ('rosette', 'safe'...) in the page's language
//     label: text,                            // the board's accessible name in the page's language
//   });
//
// Spots passed to onSpot: {at:'square',square:id}, {at:'reserve',side},
// {at:'off',side}. Hooks for tests and styles: every square is
// `<g class="square" data-square="ID">`, pieces have `data-piece` and
// `data-side`, piles `data-reserve="light|dark"` and `data-off="light|dark"`,
// the dice `data-dice`. Light pieces are white discs with a dark outline,
// dark pieces black discs: they differ in monochrome too.

const NS = 'http://www.w3.org/2000/svg';
const S = 100; // one cell
const PANEL = 150; // reserve (left) and off (right) panels
const DICE_H = 150; // the dice row below the board
const PILE_H = 120; // a row of piles above and below the board (tall layout)
const TALL_COLS = 8; // the most columns a phone's width shows a finger wide; longer boards turn
const MIN_TEXT_PX = 11.5; // no board text smaller than this on screen

const COLORS = {
  square: '#e9dcc0',
  squareAlt: '#e2d2b0',
  unused: '#d6d0c4',
  edge: '#5b4a33',
  ink: '#3b2f20',
  lapis: '#2c4f8c',
  shell: '#fbf7ee',
  red: '#a4372c',
  light: '#ffffff',
  lightEdge: '#1a1a1a',
  dark: '#1a1a1a',
  darkEdge: '#f2f2f2',
  select: '#e0a100',
  target: '#1f9d55',
  panel: '#f4efe4',
};

const STYLE = `
.square:focus, .pile:focus { outline: none; }
.square:focus > .cell, .pile:focus > .pile-bg { stroke: ${COLORS.select}; stroke-width: 6; }
.square.clickable, .pile.clickable { cursor: pointer; }
.square.target > .cell { stroke: ${COLORS.target}; stroke-width: 6; }
.square.selected > .cell, .pile.selected > .pile-bg { stroke: ${COLORS.select}; stroke-width: 8; }
.pile.target > .pile-bg { stroke: ${COLORS.target}; stroke-width: 6; }
.target-ring { pointer-events: none; }
`;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

// Board units per CSS pixel of the board being drawn: texts grow so that
// none is drawn under MIN_TEXT_PX on screen.
let unitsPerPx = 0;

function readable(size) {
  return Math.max(size, MIN_TEXT_PX * unitsPerPx);
}

function measureScale(svg, width, height) {
  const box = svg.getBoundingClientRect();
  if (!box.width || !box.height) return 0;
  return Math.max(width / box.width, height / box.height);
}

// Squeezes a text to `max` units wide when its letters would not fit.
function fitText(t, content, size, max) {
  if (content.length * size * 0.55 > max) {
    t.setAttribute('textLength', max);
    t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
  }
}

function text(parent, x, y, content, attrs = {}) {
  const t = el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-family': 'sans-serif', ...attrs }, parent);
  t.textContent = content;
  return t;
}

function sameSpot(a, b) {
  if (!a || !b || a.at !== b.at) return false;
  if (a.at === 'square') return a.square === b.square;
  return a.side === b.side;
}

// ---- decorations, drawn in a 100 x 100 cell ----

function rosette(g) {
  const petals = el('g', { fill: COLORS.lapis, stroke: COLORS.shell, 'stroke-width': 2 }, g);
  for (let i = 0; i < 8; i++) {
    el('ellipse', { cx: 50, cy: 29, rx: 9, ry: 20, transform: `rotate(${i * 45} 50 50)` }, petals);
  }
  el('circle', { cx: 50, cy: 50, r: 11, fill: COLORS.red, stroke: COLORS.shell, 'stroke-width': 3 }, g);
  el('circle', { cx: 50, cy: 50, r: 4, fill: COLORS.shell }, g);
}

function eye(g, cx, cy, r) {
  el('path', { d: `M ${cx - r} ${cy} Q ${cx} ${cy - r * 0.9} ${cx + r} ${cy} Q ${cx} ${cy + r * 0.9} ${cx - r} ${cy} Z`, fill: COLORS.shell, stroke: COLORS.ink, 'stroke-width': 2 }, g);
  el('circle', { cx, cy, r: r * 0.32, fill: COLORS.lapis }, g);
}

function eyes(g) {
  for (const [x, y] of [[30, 30], [70, 30], [30, 70], [70, 70]]) eye(g, x, y, 15);
}

function quincunx(g, cx, cy, d, r, fill = COLORS.lapis) {
  for (const [dx, dy] of [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]]) {
    el('circle', { cx: cx + dx * d, cy: cy + dy * d, r, fill }, g);
  }
}

function five(g) {
  el('rect', { x: 22, y: 22, width: 56, height: 56, rx: 6, fill: 'none', stroke: COLORS.ink, 'stroke-width': 2 }, g);
  quincunx(g, 50, 50, 16, 6);
}

function passage(g) {
  for (const [x, y] of [[28, 28], [72, 28], [28, 72], [72, 72]]) quincunx(g, x, y, 8, 3.5);
}

function twelve(g) {
  for (const [x, y] of [[12, 12], [54, 12], [12, 54], [54, 54]]) {
    el('rect', { x, y, width: 34, height: 34, fill: 'none', stroke: COLORS.ink, 'stroke-width': 2 }, g);
    for (const [dx, dy] of [[9, 9], [25, 9], [17, 25]]) el('circle', { cx: x + dx, cy: y + dy, r: 3.5, fill: COLORS.red }, g);
  }
}

function conversion(g) {
  const pts = [];
  for (let i = 0; i <= 6; i++) pts.push(`${14 + i * 12},${i % 2 ? 30 : 70}`);
  el('polyline', { points: pts.join(' '), fill: 'none', stroke: COLORS.red, 'stroke-width': 6, 'stroke-linejoin': 'round' }, g);
}

function cross(g) {
  el('path', { d: 'M 22 22 L 78 78 M 78 22 L 22 78', stroke: COLORS.ink, 'stroke-width': 8, 'stroke-linecap': 'round' }, g);
}

const DECORATIONS = { rosette, eyes, five, passage, twelve, conversion, cross };

// ---- boards without decorations (the tower games' named squares) ----

// The booklets name each player's own squares and the shared middle strip,
// with arrows along each corridor and a cross on the final square: plain
// squares are tinted by whose path crosses them and show where it goes next.
const ZONE_FILL = { light: '#f3ead6', dark: '#d8c4a0', shared: '#c9d6e3' };

function zoneOf(id, paths) {
  const inLight = (paths[0] || []).includes(id);
  const inDark = (paths[1] || []).includes(id);
  if (inLight && inDark) return 'shared';
  return inLight ? 'light' : inDark ? 'dark' : null;
}

/** A faint chevron pointing from `sq` to the next square of `path` (none at its end). */
function corridorArrow(g, sq, path, byCell, flip) {
  const at = path.indexOf(sq.id);
  const next = at >= 0 ? byCell.get(path[at + 1]) : null;
  if (!next) return;
  const dx = next.col - sq.col;
  const dy = (next.row - sq.row) * (flip ? -1 : 1);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  el('path', { class: 'corridor', d: 'M 38 30 L 58 50 L 38 70', fill: 'none', stroke: COLORS.edge, 'stroke-width': 6, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', opacity: 0.35, transform: `rotate(${angle} 50 50)` }, g);
}

function plainSquare(g, sq, view, byCell, flip) {
  const paths = view.board.paths || [];
  const zone = zoneOf(sq.id, paths);
  if (!zone) return;
  g.querySelector('.cell').setAttribute('fill', ZONE_FILL[zone]);
  g.dataset.zone = zone;
  const own = paths[zone === 'dark' ? 1 : 0] || [];
  if (zone !== 'shared') corridorArrow(g.querySelector('.decoration'), sq, own, byCell, flip);
  // The final square of a corridor, where prisoners are eliminated: a cross.
  if (zone !== 'shared' && own[own.length - 1] === sq.id) cross(g.querySelector('.decoration'));
}

// Small corner signs for roles that change how a square plays.
function roleSigns(g, marks) {
  if (marks.includes('start')) {
    el('path', { d: 'M 6 6 L 22 6 L 6 22 Z', fill: COLORS.target, opacity: 0.8 }, g);
  }
  if (marks.includes('goal')) {
    el('path', { d: 'M 94 94 L 78 94 L 94 78 Z', fill: COLORS.red, opacity: 0.8 }, g);
  }
  if (marks.includes('refuge')) {
    el('rect', { x: 8, y: 8, width: 84, height: 84, fill: 'none', stroke: COLORS.lapis, 'stroke-width': 3, 'stroke-dasharray': '8 6' }, g);
  }
  const words = [];
  if (marks.includes('twins')) words.push('II');
  if (marks.includes('oracle')) words.push('◉');
  if (marks.includes('warrior')) words.push('⚔');
  if (words.length) text(g, 82, 12, words.join(' '), { 'font-size': 14, fill: COLORS.ink });
}

// ---- pieces ----

// The colour each side's pieces are drawn in (`view.sides[i].tone`): a side
// named for a colour is drawn in it, whichever its key.
let tones = { light: 'light', dark: 'dark' };

function disc(g, cx, cy, r, side, attrs = {}) {
  const light = tones[side] === 'light';
  return el('circle', {
    cx, cy, r,
    fill: light ? COLORS.light : COLORS.dark,
    stroke: light ? COLORS.lightEdge : COLORS.darkEdge,
    'stroke-width': light ? 4 : 3,
    ...attrs,
  }, g);
}

// Rule sets whose faces are told by coloured dots rather than a sign
// (Ravensburg's tokens: blue dots plain side up, red dots promoted).
const FACE_INKS = { 'ravensburg-1977': { plain: '#2c6fd6', promoted: '#d0302a' } };
let faceInks = null;

function faceMark(g, cx, cy, r, side, face) {
  const ink = tones[side] === 'light' ? COLORS.lightEdge : COLORS.darkEdge;
  if (faceInks && faceInks[face]) {
    el('g', { class: 'face-dots', 'data-face': face }, g);
    quincunx(g.lastChild, cx, cy, r * 0.36, r * 0.15, faceInks[face]);
    return;
  }
  if (!face || face === 'blank' || face === 'plain') return;
  if (face === 'dotted') {
    quincunx(g, cx, cy, r * 0.38, r * 0.13, ink);
  } else if (face === 'promoted') {
    el('circle', { cx, cy, r: r * 0.62, fill: 'none', stroke: ink, 'stroke-width': 3 }, g);
    el('path', { d: star(cx, cy, r * 0.4, r * 0.18), fill: ink }, g);
  } else if (face === 'twins') {
    text(g, cx, cy, 'II', { 'font-size': r * 0.9, 'font-weight': 'bold', fill: ink });
  } else if (face === 'warrior') {
    el('path', { d: `M ${cx} ${cy - r * 0.6} L ${cx + r * 0.45} ${cy + r * 0.45} L ${cx - r * 0.45} ${cy + r * 0.45} Z`, fill: ink }, g);
  } else {
    // A named piece (a bird): its initial.
    text(g, cx, cy, face.slice(0, 1).toUpperCase(), { 'font-size': r * 1.0, 'font-weight': 'bold', fill: ink });
  }
}

function star(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M ${pts.join(' L ')} Z`;
}

function badge(g, cx, cy, n) {
  el('circle', { cx, cy, r: 12, fill: COLORS.red, stroke: COLORS.shell, 'stroke-width': 2 }, g);
  text(g, cx, cy, String(n), { 'font-size': 15, 'font-weight': 'bold', fill: '#fff' });
}

// One group of alike pieces (or a tower stack) centred at (cx, cy).
function drawPiece(layer, piece, index, cx, cy, r) {
  const g = el('g', { class: 'piece', 'data-piece': index, 'data-side': piece.side, 'pointer-events': 'none' }, layer);
  if (piece.stack && piece.stack.length) {
    const shown = piece.stack.slice(-6);
    const step = Math.min(10, (r * 1.2) / Math.max(1, shown.length - 1));
    const base = cy + (step * (shown.length - 1)) / 2;
    shown.forEach((side, i) => {
      const y = base - i * step;
      el('ellipse', {
        cx, cy: y + r * 0.25, rx: r, ry: r * 0.45,
        fill: tones[side] === 'light' ? COLORS.light : COLORS.dark,
        stroke: tones[side] === 'light' ? COLORS.lightEdge : COLORS.darkEdge,
        'stroke-width': 3,
        'data-token': piece.stack.length - shown.length + i,
        'data-side': side,
      }, g);
    });
    const topY = base - (shown.length - 1) * step;
    disc(g, cx, topY, r * 0.8, piece.side);
    faceMark(g, cx, topY, r * 0.8, piece.side, piece.stack_faces ? piece.stack_faces[piece.stack_faces.length - 1] : piece.face);
    if (piece.stack.length > 1) badge(g, cx + r * 0.9, topY - r * 0.6, piece.stack.length);
    return g;
  }
  disc(g, cx, cy, r, piece.side);
  faceMark(g, cx, cy, r, piece.side, piece.face);
  if (piece.count > 1) badge(g, cx + r * 0.75, cy - r * 0.75, piece.count);
  return g;
}

// Offsets for n groups sharing one square.
function spots(n) {
  if (n <= 1) return [[50, 50, 30]];
  if (n === 2) return [[30, 50, 21], [70, 50, 21]];
  const out = [];
  for (let i = 0; i < n; i++) out.push([28 + (i % 2) * 44, 28 + Math.floor(i / 2) * 44, 17]);
  return out;
}

// ---- piles beside the board ----

function pile(layer, kind, side, count, box, opts, clickable, label) {
  const { x, y, w, h } = box;
  const spot = { at: kind, side };
  const g = el('g', { class: 'pile ' + kind, [`data-${kind}`]: side, transform: `translate(${x} ${y})` }, layer);
  el('rect', { class: 'pile-bg', x: 8, y: 6, width: w - 16, height: h - 12, rx: 10, fill: COLORS.panel, stroke: COLORS.edge, 'stroke-width': 2 }, g);
  const size = readable(16);
  const countSize = readable(20);
  // Caption and count in one text, a space between: the accessible name
  // (caption, then count) then contains the visible text word for word.
  const words = el('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-family': 'sans-serif', fill: COLORS.ink }, g);
  const caption = el('tspan', { x: w / 2, y: 12 + size * 0.7, 'font-size': size, class: 'pile-caption' }, words);
  caption.textContent = label;
  fitText(caption, label, size, w - 24);
  words.append(document.createTextNode(' '));
  el('tspan', { x: w / 2, y: h - 10 - countSize * 0.6, 'font-size': countSize, 'font-weight': 'bold', 'data-count': count }, words).textContent = String(count);
  const perRow = Math.max(1, Math.floor((w - 30) / 24));
  const rowsRoom = Math.max(1, Math.floor((h - 36 - size * 1.3 - countSize * 1.2) / 24) + 1);
  const shown = Math.min(count, perRow * rowsRoom, 15);
  const left = (w - (Math.min(shown, perRow) - 1) * 24) / 2;
  for (let i = 0; i < shown; i++) {
    disc(g, left + (i % perRow) * 24, 26 + size * 1.3 + Math.floor(i / perRow) * 24, 10, side);
  }
  const selected = kind === 'reserve' && opts.selected === 'reserve' && opts.mover === side;
  if (selected) g.classList.add('selected');
  if ((opts.targets || []).some((t) => sameSpot(t, spot))) g.classList.add('target');
  if (clickable) wire(g, spot, opts, `${label} ${count}`);
  return g;
}

function wire(g, spot, opts, label) {
  g.classList.add('clickable');
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-label', label);
  g.addEventListener('click', (e) => {
    e.preventDefault();
    const svg = g.ownerSVGElement;
    if (svg && performance.now() - (svg.urDragEnded || -1e9) < 100) return;
    opts.onSpot(spot);
  });
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'Spacebar') {
      e.preventDefault();
      opts.onSpot(spot);
    } else if (ARROWS[e.key]) {
      const next = neighbour(g, ARROWS[e.key]);
      if (next) { e.preventDefault(); next.focus(); }
    }
  });
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The nearest square or pile from `g` in direction `[dx, dy]`, as the eye sees the board. */
function neighbour(g, [dx, dy]) {
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x0, y0] = centre(g);
  let best = null;
  let bestCost = Infinity;
  for (const other of g.ownerSVGElement.querySelectorAll('.clickable')) {
    if (other === g) continue;
    const [x, y] = centre(other);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    // Straight ahead first: a square beside the line costs more than one further along it.
    const cost = along + 3 * across;
    if (cost < bestCost) { bestCost = cost; best = other; }
  }
  return best;
}

/**
 * Dragging a piece: press on it, let go on a square or pile. The board gets
 * two taps in a row, as a click on each would give: the app's own rules for
 * clicks decide what happens. A disc follows the pointer meanwhile.
 */
function wireDrag(svg) {
  if (svg.dataset.dragWired) return;
  svg.dataset.dragWired = '1';
  let drag = null;
  const spotOf = (e) => {
    const g = e && e.closest && e.closest('.clickable');
    if (!g || !svg.contains(g)) return null;
    if (g.dataset.square !== undefined) return { at: 'square', square: Number(g.dataset.square) };
    if (g.dataset.reserve) return { at: 'reserve', side: g.dataset.reserve };
    if (g.dataset.off) return { at: 'off', side: g.dataset.off };
    return null;
  };
  svg.addEventListener('pointerdown', (e) => {
    const spot = e.button === 0 ? spotOf(e.target) : null;
    drag = spot ? { spot, x: e.clientX, y: e.clientY, moved: false, ghost: null } : null;
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      const o = svg.urOpts;
      const held = drag.spot.at === 'square' ? o.selected === drag.spot.square : o.selected === drag.spot.at && drag.spot.side === o.mover;
      if (!held) o.onSpot(drag.spot);
      const size = svg.getBoundingClientRect().width / Number(svg.viewBox.baseVal.width || 1) * 64;
      drag.ghost = document.createElement('div');
      drag.ghost.className = 'drag-ghost ' + (tones[o.mover] || o.mover || '');
      drag.ghost.style.width = drag.ghost.style.height = size + 'px';
      document.body.append(drag.ghost);
    }
    drag.ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px) translate(-50%, -50%)`;
  });
  const end = (e, drop) => {
    const d = drag;
    drag = null;
    if (!d || !d.moved) return;
    d.ghost.remove();
    // The click that follows a drag is not a tap (see wire).
    svg.urDragEnded = performance.now();
    const spot = drop ? spotOf(document.elementFromPoint(e.clientX, e.clientY)) : null;
    if (spot && JSON.stringify(spot) !== JSON.stringify(d.spot)) svg.urOpts.onSpot(spot);
  };
  svg.addEventListener('pointerup', (e) => end(e, true));
  svg.addEventListener('pointercancel', (e) => end(e, false));
}

// ---- dice ----

function pyramid(g, x, y, marked) {
  el('path', { d: `M ${x} ${y - 34} L ${x + 30} ${y + 18} L ${x - 30} ${y + 18} Z`, fill: '#f2ead8', stroke: COLORS.ink, 'stroke-width': 3, 'stroke-linejoin': 'round' }, g);
  el('path', { d: `M ${x} ${y - 34} L ${x} ${y + 18}`, stroke: COLORS.ink, 'stroke-width': 1.5, opacity: 0.5 }, g);
  if (marked) el('circle', { cx: x, cy: y - 27, r: 6, fill: COLORS.dark, stroke: COLORS.shell, 'stroke-width': 1.5, class: 'tip-mark' }, g);
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function d6(g, x, y, face) {
  el('rect', { x: x - 28, y: y - 28, width: 56, height: 56, rx: 9, fill: '#fff', stroke: COLORS.ink, 'stroke-width': 3 }, g);
  for (const [dx, dy] of PIPS[face] || []) el('circle', { cx: x + dx * 15, cy: y + dy * 15, r: 5.5, fill: COLORS.dark }, g);
}

function d4(g, x, y, face) {
  el('path', { d: `M ${x} ${y - 34} L ${x + 32} ${y + 22} L ${x - 32} ${y + 22} Z`, fill: '#fff', stroke: COLORS.ink, 'stroke-width': 3, 'stroke-linejoin': 'round' }, g);
  text(g, x, y + 4, String(face), { 'font-size': 26, 'font-weight': 'bold', fill: COLORS.dark });
}

function drawDice(layer, t, x, y, width, say) {
  const spoken = (x) => (say && x.words && x.words.length ? say(x.words) : x.text);
  const g = el('g', { 'data-dice': t ? t.kind : 'none', transform: `translate(${x} ${y})` }, layer);
  if (!t) return g;
  g.setAttribute('data-value', t.value);
  const n = t.dice.length;
  const gap = 74;
  const startX = 50;
  t.dice.forEach((d, i) => {
    const cx = startX + i * gap;
    const die = el('g', { class: 'die', 'data-die': i, 'data-face': d }, g);
    if (t.kind === 'binary') pyramid(die, cx, 58, d === 1);
    else if (t.kind === 'd6') d6(die, cx, 55, d);
    else d4(die, cx, 55, d);
  });
  let tx = startX + n * gap;
  text(g, tx, 40, `= ${t.value}`, { 'font-size': 30, 'font-weight': 'bold', 'text-anchor': 'start', fill: COLORS.ink, class: 'dice-value' });
  const said = spoken(t);
  const size = readable(16);
  const words = text(g, tx, 80, said, { 'font-size': size, 'text-anchor': 'start', fill: COLORS.ink, class: 'dice-text' });
  words.setAttribute('textLength', Math.min(width - tx - 10, said.length * size * 0.5));
  words.setAttribute('lengthAdjust', 'spacingAndGlyphs');
  if (t.table && t.table.length) {
    const tg = el('g', { class: 'throw-table', transform: `translate(${tx} 100)` }, g);
    const w = Math.min(90, (width - tx - 10) / t.table.length);
    t.table.forEach((row, i) => {
      const current = row.raw === t.raw;
      const cell = el('g', { 'data-raw': row.raw, transform: `translate(${i * w} 0)` }, tg);
      el('rect', { x: 0, y: 0, width: w - 4, height: 36, rx: 5, fill: current ? COLORS.select : COLORS.panel, stroke: COLORS.edge, 'stroke-width': 1 }, cell);
      text(cell, (w - 4) / 2, 18, `${row.raw}→${row.value}`, { 'font-size': Math.min(readable(15), w / 3), fill: COLORS.ink });
      if (row.text) el('title', {}, cell).textContent = spoken(row);
    });
  }
  return g;
}

// ---- the board ----

/**
 * Where things go: the board's squares (flipped or not) and the piles beside
 * it (wide) or above and below it (tall). `top` is the side drawn at the top.
 */
function geometry(view, o) {
  const { rows, cols } = view.board;
  const tall = o.layout === 'tall';
  const boardW = cols * S;
  const boardH = rows * S;
  const top = o.flip ? 'light' : 'dark';
  const bottom = top === 'light' ? 'dark' : 'light';
  const cell = (sq) => [sq.col * S, (o.flip ? rows - 1 - sq.row : sq.row) * S];
  if (tall && cols > TALL_COLS) return portrait(view, o);
  if (tall) {
    const half = boardW / 2;
    const pileBox = (kind, side) => ({ x: kind === 'reserve' ? 0 : half, y: side === top ? 0 : PILE_H + boardH, w: half, h: PILE_H });
    return { width: boardW, height: boardH + 2 * PILE_H + DICE_H, boardX: 0, boardY: PILE_H, diceY: boardH + 2 * PILE_H, cell, pileBox, top, bottom };
  }
  const half = boardH / 2;
  const pileBox = (kind, side) => ({ x: kind === 'reserve' ? 0 : PANEL + boardW, y: side === top ? 0 : half, w: PANEL, h: half });
  return { width: PANEL * 2 + boardW, height: boardH + DICE_H, boardX: PANEL, boardY: 0, diceY: boardH, cell, pileBox, top, bottom };
}

/**
 * A board too long for a phone's width, turned a quarter: its columns run
 * down the screen, each side's piles beside its own lane (reserve at the
 * top, borne off at the bottom), so squares stay a finger wide.
 */
function portrait(view, o) {
  const { rows, cols } = view.board;
  const left = o.flip ? 'light' : 'dark';
  const right = left === 'light' ? 'dark' : 'light';
  const half = (cols * S) / 2;
  const cell = (sq) => [(o.flip ? rows - 1 - sq.row : sq.row) * S, sq.col * S];
  const pileBox = (kind, side) => ({ x: side === left ? 0 : PANEL + rows * S, y: kind === 'reserve' ? 0 : half, w: PANEL, h: half });
  return { width: PANEL * 2 + rows * S, height: cols * S + DICE_H, boardX: PANEL, boardY: 0, diceY: cols * S, cell, pileBox, top: left, bottom: right, portrait: true };
}

export function renderBoard(svg, view, opts = {}) {
  const o = { labels: true, targets: [], selected: null, ...opts };
  o.mover = view.turn && view.turn.side;
  tones = { light: 'light', dark: 'dark' };
  for (const s of view.sides || []) if (s.tone) tones[s.key] = s.tone;
  faceInks = FACE_INKS[view.rules && view.rules.id] || null;
  const clickable = typeof o.onSpot === 'function';
  svg.urOpts = o;
  if (clickable) wireDrag(svg);
  const geo = geometry(view, o);
  const { width, height } = geo;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', o.label || `${view.rules ? view.rules.name : 'Board'}: ${view.turn ? view.turn.text : ''}`);
  svg.dataset.flip = o.flip ? 'true' : 'false';
  svg.dataset.layout = geo.portrait ? 'portrait' : o.layout === 'tall' ? 'tall' : 'wide';
  unitsPerPx = measureScale(svg, width, height);
  el('style', {}, svg).textContent = STYLE;

  const boardLayer = el('g', { class: 'board', transform: `translate(${geo.boardX} ${geo.boardY})` }, svg);
  const targets = o.targets || [];
  const byId = new Map();
  const labelSize = readable(13);
  const byCell = new Map(view.board.squares.map((q) => [q.id, q]));
  const tower = view.rules && view.rules.family === 'tower';
  for (const sq of view.board.squares) {
    const spot = { at: 'square', square: sq.id };
    const [x, y] = geo.cell(sq);
    const g = el('g', { class: 'square', 'data-square': sq.id, 'data-name': sq.name, 'data-marks': sq.marks.join(' '), transform: `translate(${x} ${y})` }, boardLayer);
    const unused = sq.marks.includes('unused');
    el('rect', { class: 'cell', x: 2, y: 2, width: S - 4, height: S - 4, rx: 4, fill: unused ? COLORS.unused : (sq.row + sq.col) % 2 ? COLORS.squareAlt : COLORS.square, stroke: COLORS.edge, 'stroke-width': 3 }, g);
    const deco = el('g', { class: 'decoration', 'pointer-events': 'none', opacity: unused ? 0.45 : 1 }, g);
    for (const m of sq.marks) if (DECORATIONS[m]) DECORATIONS[m](deco);
    if (tower && !unused && !sq.marks.some((m) => DECORATIONS[m])) plainSquare(g, sq, view, byCell, o.flip);
    roleSigns(deco, sq.marks);
    if (o.labels) text(g, 6, S - 6 - labelSize * 0.5, sq.name, { 'font-size': labelSize, fill: COLORS.ink, opacity: 0.75, 'text-anchor': 'start', 'pointer-events': 'none', class: 'square-label' });
    el('title', {}, g).textContent = sq.marks.length ? `${sq.name}: ${sq.marks.map(o.markName || String).join(', ')}` : sq.name;
    if (o.selected === sq.id) g.classList.add('selected');
    if (targets.some((t) => sameSpot(t, spot))) {
      g.classList.add('target');
      // A dashed ring where the piece can go; a solid one where it captures.
      const captures = (o.captures || []).some((t) => sameSpot(t, spot));
      if (captures) g.classList.add('capture');
      el('circle', { class: 'target-ring', cx: 50, cy: 50, r: 40, fill: 'none', stroke: COLORS.target, 'stroke-width': captures ? 8 : 5, 'stroke-dasharray': captures ? 'none' : '10 7' }, g);
    }
    if (clickable) wire(g, spot, o, sq.name);
    byId.set(sq.id, sq);
  }

  if (o.showPath) {
    const path = view.board.paths[o.showPath === 'dark' ? 1 : 0] || [];
    const pts = path.map((id) => byId.get(id)).filter(Boolean).map((sq) => { const [x, y] = geo.cell(sq); return `${x + 50},${y + 50}`; });
    el('polyline', { class: 'path-line', points: pts.join(' '), fill: 'none', stroke: COLORS.select, 'stroke-width': 4, opacity: 0.6, 'pointer-events': 'none' }, boardLayer);
  }

  // Pieces, grouped by square.
  const pieceLayer = el('g', { class: 'pieces', 'pointer-events': 'none' }, boardLayer);
  const groups = new Map();
  (view.position.pieces || []).forEach((p, i) => {
    if (!groups.has(p.square)) groups.set(p.square, []);
    groups.get(p.square).push([p, i]);
  });
  for (const [id, list] of groups) {
    const sq = byId.get(id);
    if (!sq) continue;
    const places = spots(list.length);
    const [x, y] = geo.cell(sq);
    list.forEach(([p, i], k) => {
      const [dx, dy, r] = places[k];
      drawPiece(pieceLayer, p, i, x + dx, y + dy, r);
    });
  }

  // Reserves and borne-off piles: the side at the top of the board has its piles at the top.
  const names = (view.sides || []).map((s) => s.name);
  const pileLayer = el('g', { class: 'piles' }, svg);
  [geo.top, geo.bottom].forEach((side) => {
    const i = side === 'light' ? 0 : 1;
    const name = names[i] || side;
    const offWord = view.rules && view.rules.family === 'tower' ? 'lost' : 'off';
    const caption = (kind) => (o.caption ? o.caption(kind, side) : kind === 'reserve' ? `${name} to enter` : `${name} ${offWord}`);
    pile(pileLayer, 'reserve', side, view.position.reserve[i], geo.pileBox('reserve', side), o, clickable, caption('reserve'));
    pile(pileLayer, 'off', side, view.position.off[i], geo.pileBox('off', side), o, clickable, caption('off'));
  });

  drawDice(svg, view.throw, 0, geo.diceY, width, o.say);
  return svg;
}

export default renderBoard;
