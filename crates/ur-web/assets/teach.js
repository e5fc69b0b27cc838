// The five things a rules page teaches, each with a small picture: how the
// throw is counted, how pieces enter and move, what captures and what is
// safe, how pieces bear off, how the game is won; then the judgment calls.
// Race rule sets are worded from the server's facts (`teach`), the other
// families from their own texts in i18n.js.

import { t, lang } from './i18n.js';
import { h, s } from './dom.js';

const SECTIONS = ['throw', 'move', 'capture', 'off', 'win'];
const C = 40; // a picture's square
let arrows = 0; // ids of the arrowheads' markers

/** The teaching sections of a rule set's page; `path` is its path drawing, if any. */
export function teachSections(info, view, path) {
  const facts = info.teach || { family: 'race', judgment: [] };
  const words = facts.family === 'race' && facts.throws ? raceWords(facts, view) : familyWords(info.id);
  if (!words) return [];
  const pictures = {
    throw: dicePicture(facts, info.id),
    move: path || stripPicture('move'),
    capture: h('div', { class: 'teach-pictures' }, stripPicture(info.id && facts.family === 'tower' ? 'stack' : 'capture'), stripPicture('safe', facts, info.id)),
    off: stripPicture(facts.family === 'tower' ? 'goal' : 'off'),
    win: stripPicture('win', facts),
  };
  return SECTIONS.map((k) => h('section', { class: 'card teach', id: 'teach-' + k, 'data-teach': k },
    h('h2', {}, t('teach.h.' + k)),
    h('div', { class: 'teach-body' },
      h('div', { class: 'teach-text' }, words[k].map((p) => h('p', {}, p))),
      h('figure', { class: 'teach-picture' }, pictures[k], h('figcaption', { class: 'muted small' }, t('teach.pic.' + k))))));
}

/** The judgment calls, apart from the player's text. */
export function judgmentSection(info) {
  const calls = (info.teach && info.teach.judgment) || [];
  if (!calls.length) return null;
  return h('section', { class: 'card', id: 'teach-judgment' },
    h('h2', {}, t('teach.h.judgment')),
    h('p', { class: 'muted small' }, t('teach.judgment.intro')),
    h('ul', { class: 'judgment' }, calls.map((j) => h('li', {},
      j.code ? h('code', {}, j.code) : null, j.code ? ' ' : null,
      j.option ? t('teach.judgment.option', { option: j.option }) : noteText(j)))));
}

function noteText(j) {
  const key = 'teach.note.' + j.code;
  return lang() !== 'en' && t(key) !== key ? t(key) : j.text;
}

/** An option's description in the page's language, without its judgment codes. */
export function optionText(ruleId, o) {
  for (const key of ['opt.' + ruleId + '.' + o.name, 'opt.' + o.name]) {
    if (t(key) !== key) return t(key);
  }
  return stripCodes(o.description || '');
}

/** A text without its judgment-call codes: "(D57)", "T10 (O04): ", "; D15)". */
export function stripCodes(text) {
  return String(text)
    .replace(/^(?:[DOT]\d\d\s*)+(?:\((?:[DOT]\d\d(?:,\s*)?)+\)\s*)?:\s*/, '')
    .replace(/\s*\((?:[DOT]\d\d(?:,\s*)?)+\)/g, '')
    .replace(/;\s*(?:[DOT]\d\d(?:,\s*)?)+\)/g, ')')
    .replace(/^\w/, (c) => c.toUpperCase());
}

// ------------------------------------------------------------ race words

function raceWords(f, view) {
  const pct = (w) => Math.round((100 * w) / f.total) + ' %';
  const rows = f.throws.map((x) => t(x.value ? 'teach.race.row' : 'teach.race.row0', { raw: x.raw, value: x.value, p: pct(x.weight) })
    + (x.extra === 'auto' ? t('teach.race.rowAgain') : x.extra === 'optional' ? t('teach.race.rowMayAgain') : '')
    + (x.enter || !x.value ? '' : t('teach.race.rowNoEntry')));
  const noEntry = f.throws.some((x) => x.value && !x.enter);
  const rosette = f.rosette || {};
  const capture = [t(f.shared && rosette.kind === 'shared' ? 'teach.race.captureShared' : 'teach.race.capture')];
  if (rosette.kind === 'safe') capture.push(t('teach.race.safeRosette'));
  else if (rosette.kind === 'shared') capture.push(t('teach.race.sharedRosette'));
  else capture.push(t('teach.race.plainRosette'));
  if (f.shared && rosette.kind !== 'shared') capture.push(t('teach.race.sharedSquare'));
  if (f.capture_extra !== 'none') capture.push(t('teach.race.captureAgain'));
  const move = [t('teach.race.pieces', { n: f.pieces, path: f.path }),
    t(noEntry ? 'teach.race.enterSome' : 'teach.race.enter'),
    t('teach.race.own'), t('teach.race.must')];
  if (rosette.extra !== 'none') move.push(t(rosette.extra === 'auto' ? 'teach.race.rosetteAgain' : 'teach.race.rosetteMayAgain'));
  if (rosette.stop) move.push(t('teach.race.stop'));
  if (f.birds) move.push(t('teach.race.birds', { names: f.birds.join(', ') }));
  const win = [t('teach.race.win', { n: f.pieces })];
  if (f.pot) win.push(t('teach.race.pot', { stake: f.pot.stake, fine: f.pot.fine }));
  return {
    throw: [t('teach.dice.' + f.dice), rows.join(' · ')],
    move,
    capture,
    off: [t('teach.race.off', { path: f.path, off: f.path + 1 })],
    win,
  };
}

function familyWords(id) {
  if (!id || t('teach.' + id + '.throw') === 'teach.' + id + '.throw') return null;
  const out = {};
  for (const k of SECTIONS) out[k] = t('teach.' + id + '.' + k).split('\n');
  return out;
}

// ------------------------------------------------------------ pictures

function svg(w, hgt, label) {
  return s('svg', { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: 'teach-svg', role: 'img', 'aria-label': label });
}

function square(x, y, mark) {
  const g = s('g', {}, s('rect', { x: x + 1.5, y: y + 1.5, width: C - 3, height: C - 3, rx: 5, class: 'rp-square on' }));
  if (mark === 'rosette') {
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      g.append(s('circle', { cx: x + C / 2 + Math.cos(a) * 9, cy: y + C / 2 + Math.sin(a) * 9, r: 3.5, class: 'teach-petal' }));
    }
  }
  return g;
}

function disc(x, y, side, extra = '') {
  return s('g', { class: 'teach-piece ' + side + extra },
    s('circle', { cx: x, cy: y, r: 12, class: 'rp-disc ' + side }),
    side === 'dark' ? s('circle', { cx: x, cy: y, r: 3.5, class: 'teach-dot' }) : null);
}

function arrow(x1, y1, x2, y2, cls = '') {
  arrows += 1;
  const id = 'teach-arrow-' + arrows;
  return s('g', {},
    s('defs', {}, s('marker', { id, viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto' }, s('path', { d: 'M0 0 L10 5 L0 10 z', class: 'teach-arrowhead' + cls }))),
    s('path', { d: `M${x1} ${y1} Q${(x1 + x2) / 2} ${Math.min(y1, y2) - 22} ${x2} ${y2}`, class: 'teach-arrow' + cls, 'marker-end': `url(#${id})` }));
}

/** A row of squares with pieces and arrows, one per idea. */
function stripPicture(kind, facts = {}, id = '') {
  const n = 4;
  const W = n * C + 70;
  const H = C + 40;
  const y = 30;
  const cx = (i) => 4 + i * C + C / 2;
  const pic = svg(W, H, t('teach.pic.' + kind));
  pic.classList.add('teach-' + kind);
  const marks = kind === 'safe' ? [null, null, 'rosette', null] : [null, null, null, null];
  for (let i = 0; i < n; i += 1) pic.append(square(4 + i * C, y, marks[i]));
  const cy = y + C / 2;
  if (kind === 'move') {
    pic.append(disc(cx(0), cy, 'light'), arrow(cx(0), cy - 8, cx(3), cy - 10));
  } else if (kind === 'capture') {
    pic.append(disc(cx(0), cy, 'light'), disc(cx(2), cy, 'dark'), arrow(cx(0), cy - 8, cx(2), cy - 14), arrow(cx(2) + 8, cy + 14, W - 20, cy + 10, ' back'));
    pic.append(s('text', { x: W - 30, y: cy + 4, class: 'teach-label', 'text-anchor': 'middle' }, '↩'));
  } else if (kind === 'stack') {
    pic.append(disc(cx(0), cy, 'light'), disc(cx(2), cy + 5, 'dark'), disc(cx(2), cy - 3, 'dark'), arrow(cx(0), cy - 8, cx(2), cy - 18));
  } else if (kind === 'safe') {
    pic.append(disc(cx(0), cy, 'light'), disc(cx(2), cy, 'dark'), arrow(cx(0), cy - 8, cx(2), cy - 14, ' barred'));
    pic.append(s('path', { d: `M${cx(1) + 4} ${y - 20} l10 10 m0 -10 l-10 10`, class: 'teach-cross' }));
  } else if (kind === 'off' || kind === 'goal') {
    pic.append(disc(cx(2), cy, 'light'), arrow(cx(2), cy - 8, W - 22, cy - 4));
    pic.append(s('rect', { x: W - 40, y: y + 4, width: 34, height: C - 8, rx: 6, class: 'teach-off' }));
  } else if (kind === 'win') {
    pic.append(s('rect', { x: W - 40, y: y + 4, width: 34, height: C - 8, rx: 6, class: 'teach-off' }));
    for (let i = 0; i < 5; i += 1) pic.append(disc(W - 23, y + C - 10 - i * 5, 'light'));
  }
  return pic;
}

/** The dice: pyramids with marked tips, or a die's face. */
function dicePicture(facts, id) {
  const dice = facts.dice || ({ 'ravensburg-1977': 'D6', 'guard-d6': 'D6', 'vizier-4-pyramids': 'BIN4', 'bens-ur': 'BIN3', 'ludens-akalandung': 'BIN3' })[id] || 'BIN4';
  const count = dice === 'BIN3' ? 3 : dice === 'BIN4' ? 4 : 1;
  const W = count * 48 + 8;
  const pic = svg(W, 60, t('teach.pic.throw'));
  pic.classList.add('teach-dice');
  if (count === 1) {
    pic.append(s('rect', { x: 6, y: 6, width: 46, height: 46, rx: 8, class: 'teach-die' }));
    const pips = dice === 'D6' ? [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]] : [[-1, -1], [1, -1], [-1, 1], [1, 1]];
    for (const [x, y] of pips) pic.append(s('circle', { cx: 29 + x * 12, cy: 29 + y * 12, r: 4, class: 'teach-pip' }));
    return pic;
  }
  for (let i = 0; i < count; i += 1) {
    const x = 6 + i * 48;
    const marked = i % 2 === 0; // two of the dice show a marked tip: a throw of 2
    pic.append(s('path', { d: `M${x + 20} 8 L${x + 40} 52 L${x} 52 z`, class: 'teach-pyramid' }));
    if (marked) pic.append(s('circle', { cx: x + 20, cy: 14, r: 4, class: 'teach-pip' }));
  }
  return pic;
}
