// A rule set's page: its summary in plain words, each side's path drawn on
// the board's own grid with numbered squares, and its options.

import { t, sideName, ruleName } from './i18n.js';
import { h, s, fill } from './dom.js';
import { teachSections, judgmentSection, optionText } from './teach.js';

const CELL = 44;
const PAD = 6;

export function renderRulesPage(root, { info, options, summary, back }) {
  const view = info.view;
  const family = String(info.family || (view && view.rules.family) || 'race').toLowerCase().replace('marker', 'bens');
  const board = view && view.board;
  const paths = board && board.paths && board.squares && board.squares.length
    ? ['light', 'dark'].map((side, i) => pathDrawing(board, board.paths[i] || [], side, view)).filter(Boolean)
    : [];
  fill(root, h('article', { class: 'rules-page', id: 'rules-page' },
    h('div', { class: 'row spread' },
      h('h1', {}, t('rules.heading', { name: ruleName(info.id, info.name) })),
      back ? h('a', { class: 'button primary', id: 'back-to-game', href: back }, t('rules.back'))
        : h('a', { class: 'button', href: '#/' }, t('rules.home'))),
    h('p', { class: 'muted' }, t('rules.family', { family: t('family.' + family) })),
    h('section', { class: 'card' },
      h('h2', {}, t('rules.summary')),
      summary.split(/\n+/).map((p) => h('p', { class: 'summary-text' }, p))),
    teachSections(info, view, paths.length ? h('div', { class: 'paths' }, paths) : null),
    board ? facts(view) : null,
    paths.length && legend(board) ? h('section', { class: 'card' }, h('h2', {}, t('rules.marks')), legend(board)) : null,
    options && options.length ? h('section', { class: 'card', id: 'rules-options' },
      h('h2', {}, t('rules.options')),
      h('dl', { class: 'option-doc' }, options.map((o) => [
        h('dt', {}, h('code', {}, o.name), ' ', h('span', { class: 'muted small' }, o.values.length ? o.values.join(' · ') : (o.min !== null ? o.min + '–' + o.max : ''), ' (', t('lobby.default'), ' ', o.default, ')')),
        h('dd', {}, optionText(info.id, o)),
      ]))) : null,
    judgmentSection(info),
    back ? null : h('p', {}, h('a', { class: 'button primary', href: '#/', onclick: () => rememberChoice(info.id) }, t('rules.play')))));
}

function rememberChoice(id) {
  try {
    const saved = JSON.parse(localStorage.getItem('ur.lobby') || '{}') || {};
    saved.rules = id;
    localStorage.setItem('ur.lobby', JSON.stringify(saved));
  } catch (_) { /* storage off */ }
}

function legend(board) {
  const marks = new Set();
  for (const sq of board.squares) for (const m of sq.marks || []) marks.add(m);
  const known = [...marks].filter((m) => t('mark.' + m) !== 'mark.' + m && glyph(m, 0, 0, 1));
  if (!known.length) return null;
  return h('ul', { class: 'legend' }, known.map((m) => h('li', {}, markGlyphSvg(m), ' ', t('mark.' + m))));
}

function markGlyphSvg(mark) {
  const svg = s('svg', { viewBox: '0 0 20 20', width: 20, height: 20, 'aria-hidden': 'true', class: 'legend-glyph' },
    s('rect', { x: 1, y: 1, width: 18, height: 18, rx: 3, class: 'rp-square' }));
  const g = glyph(mark, 10, 10, 7);
  if (g) svg.append(g);
  return svg;
}

function glyph(mark, cx, cy, r) {
  if (mark === 'rosette') {
    const g = s('g', { class: 'rp-rosette' });
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      g.append(s('ellipse', { cx: cx + Math.cos(a) * r * 0.5, cy: cy + Math.sin(a) * r * 0.5, rx: r * 0.45, ry: r * 0.2, transform: `rotate(${(i * 45)} ${cx + Math.cos(a) * r * 0.5} ${cy + Math.sin(a) * r * 0.5})` }));
    }
    g.append(s('circle', { cx, cy, r: r * 0.25 }));
    return g;
  }
  if (mark === 'eyes' || mark === 'five' || mark === 'twelve') {
    const g = s('g', { class: 'rp-dots' });
    const pts = mark === 'eyes' ? [[-1, -1], [1, -1], [-1, 1], [1, 1]]
      : mark === 'five' ? [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]]
        : [[-1, -1], [0, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1], [1, 1]];
    for (const [x, y] of pts) g.append(s('circle', { cx: cx + x * r * 0.55, cy: cy + y * r * 0.55, r: r * (mark === 'twelve' ? 0.14 : 0.2) }));
    return g;
  }
  if (mark === 'passage') {
    const g = s('g', { class: 'rp-dots' });
    for (const [qx, qy] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) {
      for (const [x, y] of [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]]) g.append(s('circle', { cx: cx + qx * r * 0.5 + x * r * 0.2, cy: cy + qy * r * 0.5 + y * r * 0.2, r: r * 0.08 }));
    }
    return g;
  }
  if (mark === 'cross') {
    return s('path', { class: 'rp-zigzag', d: `M${cx - r * 0.6} ${cy - r * 0.6} L${cx + r * 0.6} ${cy + r * 0.6} M${cx + r * 0.6} ${cy - r * 0.6} L${cx - r * 0.6} ${cy + r * 0.6}` });
  }
  if (mark === 'conversion') {
    return s('path', { class: 'rp-zigzag', d: `M${cx - r} ${cy} l${r / 2} ${-r / 2} l${r / 2} ${r} l${r / 2} ${-r} l${r / 2} ${r / 2}` });
  }
  return null;
}

/** One side's path on the board's grid: squares numbered in order, a line through them. */
function pathDrawing(board, path, side, view) {
  if (!path.length) return null;
  const rows = board.rows || Math.max(...board.squares.map((q) => q.row)) + 1;
  const cols = board.cols || Math.max(...board.squares.map((q) => q.col)) + 1;
  const byId = new Map(board.squares.map((q) => [q.id, q]));
  const numbers = new Map();
  path.forEach((id, i) => {
    if (!numbers.has(id)) numbers.set(id, []);
    numbers.get(id).push(i + 1);
  });
  const W = cols * CELL + PAD * 2;
  const H = rows * CELL + PAD * 2;
  const name = sideName(view, side);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'path-drawing ' + side, role: 'img', 'aria-label': t('rules.path.side', { side: name }) + ': ' + path.map((id) => (byId.get(id) || {}).name || id).join(', '), 'data-path': side },
    s('defs', {}, s('marker', { id: 'arrow-' + side, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
      s('path', { d: 'M0 0 L10 5 L0 10 z', class: 'rp-arrowhead ' + side }))));
  const cx = (q) => PAD + q.col * CELL + CELL / 2;
  const cy = (q) => PAD + q.row * CELL + CELL / 2;
  for (const q of board.squares) {
    const on = numbers.has(q.id);
    svg.append(s('rect', { x: PAD + q.col * CELL + 1.5, y: PAD + q.row * CELL + 1.5, width: CELL - 3, height: CELL - 3, rx: 5, class: 'rp-square' + (on ? ' on' : ' off') }));
    for (const m of q.marks || []) {
      const g = glyph(m, cx(q), cy(q), CELL * 0.36);
      if (g) { g.setAttribute('opacity', '0.35'); svg.append(g); break; }
    }
  }
  const pts = path.map((id) => byId.get(id)).filter(Boolean);
  if (pts.length > 1) {
    // A small sideways shift for each later visit, so an out-and-back path shows both ways.
    const seen = new Map();
    const coords = pts.map((q) => {
      const n = seen.get(q.id) || 0;
      seen.set(q.id, n + 1);
      return [cx(q) + n * 6, cy(q) + n * 6];
    });
    svg.append(s('polyline', { points: coords.map((c) => c.join(',')).join(' '), class: 'rp-line ' + side, 'marker-end': `url(#arrow-${side})` }));
  }
  for (const q of board.squares) {
    const nums = numbers.get(q.id);
    if (!nums) continue;
    svg.append(s('text', { x: cx(q), y: cy(q) + 5, class: 'rp-num' + (nums.length > 1 ? ' twice' : ''), 'text-anchor': 'middle' }, nums.join('·')));
  }
  return h('figure', { class: 'path-figure' }, svg, h('figcaption', {}, h('span', { class: 'disc ' + side, 'aria-hidden': 'true' }), ' ', t('rules.path.side', { side: name })));
}

const ROLES = ['safe', 'extra_roll', 'shared', 'stop', 'refuge', 'twins', 'oracle', 'warrior'];

/** What the board itself says, in plain words: pieces, path length, and the squares that matter. */
function facts(view) {
  const board = view.board;
  const light = board.paths[0] || [];
  const where = (sq) => {
    const n = light.indexOf(sq.id);
    return n >= 0 ? String(n + 1) : sq.name;
  };
  const items = [];
  const pieces = view.position.reserve[0] + view.position.off[0] + (view.position.pieces || []).filter((p) => p.side === 'light').reduce((a, p) => a + (p.count || 1), 0);
  if (pieces) items.push(t('rules.fact.pieces', { n: pieces }));
  if (light.length) items.push(t('rules.fact.path', { n: light.length }));
  const shared = light.filter((id) => (board.paths[1] || []).includes(id)).length;
  if (shared) items.push(t('rules.fact.sharedPath', { n: shared }));
  for (const role of ROLES) {
    // Light's squares only: Dark's are their mirror images.
    const sqs = board.squares.filter((q) => (q.marks || []).includes(role) && light.includes(q.id));
    if (!sqs.length) continue;
    const list = [...new Set(sqs.map(where))].sort((a, b) => (Number(a) || 99) - (Number(b) || 99) || a.localeCompare(b));
    items.push(t('rules.fact.' + role, { squares: list.join(', ') }));
  }
  if (!items.length) return null;
  return h('section', { class: 'card' },
    h('h2', {}, t('rules.facts')),
    h('p', { class: 'muted small' }, t('rules.facts.intro', { side: sideName(view, 'light') })),
    h('ul', { class: 'facts' }, items.map((x) => h('li', {}, x))));
}
