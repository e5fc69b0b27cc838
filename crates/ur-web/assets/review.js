// The review of a game, drawn from a ReviewDoc (crates/ur-session/src/review_doc.rs):
// light's win chance across the game as an SVG chart with the errors marked,
// each side's totals, every inaccuracy or worse on the board before it with
// the better move, and the list of steps with each roll's luck.
//
// One module for both places a review is shown: the browser app's review
// screen (#/review/<game> and #/review for an uploaded record) and the
// self-contained html file of `ur review --format html`, which embeds this
// file whole (crates/ur-web/src/review_page.rs). So it imports only the
// leaf modules board.js, dom.js and i18n.js, and never app.js.
//
//   import { renderReview } from './review.js';
//   renderReview(root, doc);   // root: an element to fill
//
// Hooks for tests: #review-chart (points `.err-mark[data-step]`, the plot
// `.plot` answering clicks), #review-totals cells `[data-side][data-total]`
// with `data-value`, `.review-error[data-step]` cards each holding
// `svg.board` and a `.loss[data-value]`, and `#step-<i>` rows, the selected
// one `.selected`. A judge that states ± intervals (the rollout judge) adds
// `data-interval` to the `.loss` and `.luck` cells and `.review-sure` (its
// account of how sure it is) to the heading.

import { t, lang, sideName, say, pileCaption, errorText, ruleName } from './i18n.js';
import { h, s, fill, fetchJSON } from './dom.js';
import { renderBoard } from './board.js';

const SIDES = ['light', 'dark'];
const BAD = ['inaccuracy', 'mistake', 'blunder'];
const MARK = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// A step's words in the page's language (the English text where a review has no phrases).
const playedText = (st) => say(st.kind === 'other' ? st.words : st.played_words) || st.played;
const bestText = (st) => say(st.best_words) || st.best;
const thrownText = (st) => say(st.words) || st.text;

// ------------------------------------------------------------ numbers

function decimal(x, digits) {
  const text = x.toFixed(digits);
  return lang() === 'fr' ? text.replace('.', ',') : text;
}

/** A probability as a percentage: 52.3 %. */
export function pct(p) { return decimal(100 * p, 1) + ' %'; }

/** A difference of probabilities in percentage points, signed if asked. */
export function pp(d, { sign = false, digits = 2 } = {}) {
  return signed(100 * d, digits, sign) + ' pp';
}

/** ` ±2.4` for a stated ± half-width of a probability (in the unit of `pp`), else nothing. */
export function pm(half, digits = 1) {
  return half == null ? '' : ' ±' + decimal(100 * half, digits);
}

/** x with `digits` decimals and a real minus sign; `+` too if asked; no sign on what rounds to zero. */
function signed(x, digits, plus = false) {
  const text = decimal(Math.abs(x), digits);
  if (Number(Math.abs(x).toFixed(digits)) === 0) return text;
  return (x < 0 ? '−' : plus ? '+' : '') + text;
}

// ------------------------------------------------------------ the review

/** Fills `root` with the review of `doc`. Returns a handle with select(step). */
export function renderReview(root, doc, opts = {}) {
  const state = { selected: null };
  const rows = new Map();
  const chart = renderChart(doc, (i) => select(i, true));
  const list = renderSteps(doc, rows, (i) => select(i, false));
  const select = (i, scroll) => {
    if (state.selected !== null && rows.has(state.selected)) rows.get(state.selected).classList.remove('selected');
    state.selected = i;
    const row = rows.get(i);
    if (row) {
      row.classList.add('selected');
      if (scroll) row.scrollIntoView({ block: 'center', behavior: 'instant' });
    }
    chart.cursor(i);
  };
  fill(root, h('article', { class: 'review', 'data-rules': doc.rules.id },
    heading(doc, opts),
    h('section', { class: 'card review-chart-card' }, h('h2', {}, t('review.chart')), chart.el, legend(doc)),
    h('div', { class: 'review-grid' },
      totalsTable(doc),
      h('section', { class: 'card review-steps-card' }, h('h2', {}, t('review.steps')), list)),
    errorCards(doc, (i) => select(i, true)),
    opts.standalone ? h('footer', { class: 'review-foot muted small' }, t('review.foot')) : null));
  const handle = { select: (i) => select(i, true), doc };
  // For the tests and for curious readers: the review on show.
  window.urReview = handle;
  return handle;
}

function heading(doc, opts) {
  const result = doc.winner === 'draw' ? t('review.drawn')
    : doc.winner ? t('review.won', { side: sideName(doc, doc.winner) }) : t('review.unfinished');
  const j = doc.judge;
  let judge;
  const sure = j.sureness;
  if (j.exact) judge = t('review.judge.table');
  else if (/^expectimax:\d+$/.test(j.name)) judge = t('review.judge.search', { depth: j.name.split(':')[1] });
  else if (/^rollout:\d+/.test(j.name)) judge = t('review.judge.rollout', { trials: sure ? sure.trials : j.name.split(/[:, ]/)[1] });
  else judge = t('review.judge.other', { name: j.name });
  if (j.interval != null) {
    judge += ' ' + t('review.judge.interval', { pp: pp(j.interval, { digits: 1 }), conf: j.confidence != null ? Math.round(100 * j.confidence) : 95 });
  }
  // The judge's own words on how far to trust it: its intervals and the verdicts more playouts would keep.
  const words = sure ? h('p', { class: 'muted small review-sure', 'data-sure': sure.sure_verdicts, 'data-verdicts': sure.verdicts },
    t('review.judge.sure', { loss: pp(sure.loss_half, { digits: 1 }), luck: pp(sure.luck_half, { digits: 1 }), sure: sure.sure_verdicts, verdicts: sure.verdicts }),
    sure.cut_rolls ? ' ' + t('review.judge.cut.' + (sure.cut_by === 'evaluation' ? 'evaluation' : 'standing'), { rolls: sure.cut_rolls }) : '',
  ) : null;
  const options = Object.entries(doc.rules.options || {}).map(([k, v]) => optionSaid(k, v)).join(', ');
  return h('header', { class: 'review-head' },
    h('h1', {}, t('review.title', { rules: ruleName(doc.rules.id, doc.rules.name) })),
    h('p', { class: 'review-result' }, result, options ? h('span', { class: 'muted' }, ' · ' + options) : null),
    h('p', { class: 'muted small review-judge', 'data-judge': j.name, 'data-exact': String(j.exact) }, judge),
    words,
    opts.extra || null);
}

function legend(doc) {
  return h('p', { class: 'muted small review-legend' },
    t('review.legend', { light: sideName(doc, 'light') }), ' ',
    BAD.map((v) => h('span', { class: 'chip ' + v }, MARK[v] + ' ' + t('review.verdict.' + v))));
}

// ------------------------------------------------------------ the chart

const W = 1000;
const H = 260;
const M = { left: 46, right: 14, top: 12, bottom: 30 };

/** A rule-set option as the review heading says it: its words where the page has them. */
function optionSaid(name, value) {
  const key = 'review.opt.' + name;
  return t(key) !== key ? t(key, { value }) : `${name} = ${value}`;
}

/** The chart: light's win chance after every step, the errors marked. */
function renderChart(doc, onPick) {
  const n = doc.steps.length;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (k) => M.left + (n ? (k / n) * pw : 0); // k = 0 is the start, step i at i + 1
  const y = (p) => M.top + (1 - p) * ph;
  const points = [[x(0), y(doc.start)], ...doc.light_win.map((p, i) => [x(i + 1), y(p)])];
  const line = points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
  const svg = s('svg', { id: 'review-chart', class: 'review-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', tabindex: '0',
    'aria-label': t('review.chart.aria', { light: sideName(doc, 'light') }), 'data-points': points.length });
  // Light's side of the chart below the line, dark's above.
  svg.append(s('rect', { class: 'dark-area', x: M.left, y: M.top, width: pw, height: ph }));
  svg.append(s('polygon', { class: 'light-area', points: `${x(0)},${y(0)} ${line} ${x(n)},${y(0)}` }));
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s('line', { class: p === 0.5 ? 'grid mid' : 'grid', x1: M.left, x2: W - M.right, y1: y(p), y2: y(p) }));
    svg.append(s('text', { class: 'axis', x: M.left - 6, y: y(p), 'text-anchor': 'end', 'dominant-baseline': 'central' }, `${100 * p} %`));
  }
  svg.append(s('text', { class: 'axis', x: 2, y: H - 10, 'text-anchor': 'start' }, t('review.col.turn').toLowerCase()));
  for (const [k, label] of turnTicks(doc)) {
    svg.append(s('text', { class: 'axis', x: x(k), y: H - 10, 'text-anchor': 'middle' }, label));
  }
  svg.append(s('text', { class: 'axis side-label', x: M.left + 6, y: M.top + 14 }, '▲ ' + sideName(doc, 'dark')));
  svg.append(s('text', { class: 'axis side-label', x: M.left + 6, y: H - M.bottom - 8 }, '▼ ' + sideName(doc, 'light')));
  svg.append(s('polyline', { class: 'win-line', points: line }));
  const cursor = s('line', { class: 'cursor', x1: 0, x2: 0, y1: M.top, y2: H - M.bottom, visibility: 'hidden' });
  const dot = s('circle', { class: 'cursor-dot', r: 5, visibility: 'hidden' });
  svg.append(cursor, dot);
  // A click anywhere on the plot picks the nearest step.
  const plot = s('rect', { class: 'plot', x: M.left, y: M.top, width: pw, height: ph });
  plot.addEventListener('click', (e) => {
    const m = svg.getScreenCTM();
    if (!m || !n) return;
    const px = (e.clientX - m.e) / m.a;
    onPick(Math.min(n - 1, Math.max(0, Math.round(((px - M.left) / pw) * n) - 1)));
  });
  svg.append(plot);
  for (const e of doc.errors) {
    const st = doc.steps[e.step];
    const cx = x(e.step + 1);
    const cy = y(doc.light_win[e.step]);
    const g = s('g', { class: `err-mark ${st.verdict} ${st.side}`, 'data-step': e.step, tabindex: '-1' },
      s('circle', { cx, cy, r: st.verdict === 'blunder' ? 8 : st.verdict === 'mistake' ? 6.5 : 5 }),
      s('title', {}, `${t('review.turn', { n: st.turn })}, ${sideName(doc, st.side)}: ${playedText(st)} ${MARK[st.verdict]} (−${pp(st.loss)})`));
    g.addEventListener('click', () => onPick(e.step));
    svg.append(g);
  }
  let at = null;
  svg.addEventListener('keydown', (e) => {
    if (!n) return;
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    onPick(Math.min(n - 1, Math.max(0, (at === null ? -1 : at) + step)));
  });
  return {
    el: h('div', { class: 'chart-wrap' }, svg),
    cursor(i) {
      at = i;
      const cx = x(i + 1);
      cursor.setAttribute('x1', cx);
      cursor.setAttribute('x2', cx);
      cursor.setAttribute('visibility', 'visible');
      dot.setAttribute('cx', cx);
      dot.setAttribute('cy', y(doc.light_win[i]));
      dot.setAttribute('visibility', 'visible');
      svg.setAttribute('data-selected', i);
    },
  };
}

/** About ten turn numbers along the x axis: [step position, label]. */
function turnTicks(doc) {
  const n = doc.steps.length;
  const turns = n ? doc.steps[n - 1].turn : 0;
  const every = Math.max(1, Math.ceil(turns / 10 / 5) * 5);
  const out = [];
  let last = 0;
  doc.steps.forEach((st, i) => {
    if (st.turn !== last && (st.turn === 1 || st.turn % every === 0)) out.push([i, String(st.turn)]);
    last = st.turn;
  });
  return out;
}

// ------------------------------------------------------------ totals

const ROWS = [
  ['decisions', (v) => String(v)],
  ['best', (v, s) => (s.decisions ? `${v} (${Math.round((100 * v) / s.decisions)} %)` : String(v))],
  ['inaccuracies', (v) => String(v)],
  ['mistakes', (v) => String(v)],
  ['blunders', (v) => String(v)],
  ['error_rate', (v) => pp(v, { digits: 3 })],
  ['total_loss', (v) => pp(v)],
  ['luck', (v) => pp(v, { sign: true })],
  ['result', (v) => (v == null ? '—' : decimal(v, v === 0.5 ? 1 : 0))],
  ['luck_adjusted', (v) => (v == null ? '—' : signed(v, 3))],
];

function totalsTable(doc) {
  return h('section', { class: 'card review-totals-card' },
    h('h2', {}, t('review.totals')),
    h('table', { id: 'review-totals', class: 'review-totals' },
      h('thead', {}, h('tr', {}, h('th', {}), SIDES.map((side) => h('th', { scope: 'col' }, h('span', { class: 'disc ' + side }), ' ', sideName(doc, side))))),
      h('tbody', {}, ROWS.map(([key, show]) => h('tr', {},
        h('th', { scope: 'row', title: t('review.total.' + key + '.help') }, t('review.total.' + key)),
        SIDES.map((side, k) => {
          const v = doc.totals[k][key];
          return h('td', { 'data-side': side, 'data-total': key, 'data-value': v == null ? '' : String(v) }, show(v, doc.totals[k]));
        }))))),
    h('p', { class: 'muted small' }, t('review.totals.help')));
}

// ------------------------------------------------------------ the errors

function errorCards(doc, onPick) {
  if (!doc.errors.length) return h('section', { class: 'card' }, h('h2', {}, t('review.errors')), h('p', {}, t('review.errors.none')));
  return h('section', { class: 'review-errors-card' },
    h('h2', {}, t('review.errors.n', { n: doc.errors.length })),
    h('div', { class: 'review-errors' }, doc.errors.map((e) => errorCard(doc, e, onPick))));
}

function errorCard(doc, e, onPick) {
  const st = doc.steps[e.step];
  const svg = s('svg', { class: 'board' });
  renderBoard(svg, e.view, { labels: false, say: (w) => say(w, e.view), caption: (kind, side) => pileCaption(e.view, kind, side), markName: (m) => t('mark.' + m), label: t('game.board') + ': ' + ruleName(e.view.rules.id, e.view.rules.name) });
  const played = e.played != null ? e.view.actions[e.played] : null;
  const best = e.best != null ? e.view.actions[e.best] : null;
  if (best) arrow(svg, best, 'best');
  if (played) arrow(svg, played, 'played');
  return h('figure', { class: `review-error ${st.verdict}`, id: 'error-' + e.step, 'data-step': e.step },
    h('figcaption', {},
      h('button', { type: 'button', class: 'link', onclick: () => onPick(e.step) },
        t('review.turn', { n: st.turn }), ' · ', sideName(doc, st.side)),
      ' ', h('span', { class: 'chip ' + st.verdict }, MARK[st.verdict] + ' ' + t('review.verdict.' + st.verdict))),
    h('div', { class: 'board-box' }, svg),
    h('dl', {},
      h('dt', { class: 'played' }, t('review.played')), h('dd', {}, playedText(st), ' ', h('span', { class: 'win' }, pct(st.played_value) + pm(st.interval))),
      h('dt', { class: 'best' }, t('review.better')), h('dd', {}, bestText(st), ' ', h('span', { class: 'win' }, pct(st.best_value) + pm(st.interval))),
      h('dt', {}, t('review.lost')), h('dd', { class: 'loss', 'data-value': String(st.loss), 'data-interval': interval(st.loss_interval) },
        pp(st.loss) + pm(st.loss_interval, 2), unsure(st))));
}

/** A data attribute's text for a ± half-width: empty when none is stated. */
function interval(half) {
  return half == null ? '' : String(half);
}

/** A note that more playouts could change this verdict, when the judge says so. */
function unsure(st) {
  return st.sure === false ? h('span', { class: 'muted small unsure', title: t('review.unsure.help') }, ' ~ ' + t('review.unsure')) : null;
}

/** Where a spot's centre is in the board's drawing: the sum of the translate()s up to the svg. */
function centre(svg, spot) {
  const sel = spot.at === 'square' ? `[data-square="${spot.square}"]` : `[data-${spot.at}="${spot.side}"]`;
  let el = svg.querySelector(sel);
  if (!el) return null;
  const box = el.querySelector('.pile-bg');
  let cx = box ? Number(box.getAttribute('x')) + Number(box.getAttribute('width')) / 2 : 50;
  let cy = box ? Number(box.getAttribute('y')) + Number(box.getAttribute('height')) / 2 : 50;
  for (; el && el !== svg; el = el.parentNode) {
    const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(el.getAttribute('transform') || '');
    if (m) { cx += Number(m[1]); cy += Number(m[2]); }
  }
  return [cx, cy];
}

/** An arrow from a move's start to its end, over the board. */
function arrow(svg, action, kind) {
  if (!action.from || !action.to) return;
  const a = centre(svg, action.from);
  const b = centre(svg, action.to);
  if (!a || !b) return;
  const id = 'head-' + kind;
  if (!svg.querySelector('#' + id)) {
    svg.append(s('defs', {}, s('marker', { id, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' },
      s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head ' + kind }))));
  }
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  // A gentle bow, so two arrows between the same squares stay apart.
  const bend = kind === 'best' ? 0.18 : -0.18;
  const c = [(a[0] + b[0]) / 2 - dy * bend, (a[1] + b[1]) / 2 + dx * bend];
  svg.append(s('path', { class: 'move-arrow ' + kind, d: `M ${a[0]} ${a[1]} Q ${c[0]} ${c[1]} ${b[0]} ${b[1]}`, 'marker-end': `url(#${id})` }));
}

// ------------------------------------------------------------ the steps

function renderSteps(doc, rows, onPick) {
  const errorAt = new Set(doc.errors.map((e) => e.step));
  const body = h('tbody', {});
  doc.steps.forEach((st, i) => {
    const row = h('tr', { id: 'step-' + i, class: 'step ' + st.kind + (st.verdict ? ' ' + st.verdict : ''), 'data-step': i, onclick: () => onPick(i) },
      h('td', { class: 'num' }, st.turn),
      h('td', {}, h('span', { class: 'disc ' + st.side, title: sideName(doc, st.side) })),
      stepCells(st, errorAt.has(i), i),
      h('td', { class: 'num' }, pct(doc.light_win[i])));
    rows.set(i, row);
    body.append(row);
  });
  return h('div', { class: 'steps-wrap' },
    h('table', { class: 'review-steps' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('review.col.turn')), h('th', {}), h('th', {}, t('review.col.step')), h('th', {}, t('review.col.judged')),
        h('th', {}, t('review.col.light', { light: sideName(doc, 'light') })))),
      body));
}

function stepCells(st, hasBoard, i) {
  if (st.kind === 'roll') {
    return [h('td', { 'data-raw': st.raw }, thrownText(st)),
      h('td', { class: 'num luck' + (100 * st.luck < -0.005 ? ' unlucky' : ''), 'data-value': String(st.luck), 'data-interval': interval(st.interval) },
        t('review.luck', { pp: pp(st.luck, { sign: true }) }) + pm(st.interval))];
  }
  if (st.kind === 'decision') {
    const bad = BAD.includes(st.verdict);
    return [h('td', {}, playedText(st), bad ? h('b', { class: 'mark' }, ' ' + MARK[st.verdict]) : null,
      st.loss > 0 ? h('span', { class: 'muted small' }, ' · ' + t('review.bestWas', { best: bestText(st) })) : null,
      hasBoard ? [' ', h('a', { class: 'small', href: '#error-' + i, onclick: (e) => { e.preventDefault(); document.getElementById('error-' + i).scrollIntoView({ block: 'start' }); } }, t('review.seeBoard'))] : null),
    h('td', { class: 'num loss', 'data-value': String(st.loss), 'data-interval': interval(st.loss_interval) },
      (st.loss > 0 ? '−' + pp(st.loss) : t('review.verdict.' + st.verdict)) + pm(st.loss_interval, 2) + (st.sure === false ? ' ~' : ''))];
  }
  return [h('td', { class: 'muted' }, playedText(st)), h('td', { class: 'num muted' }, t('review.forced'))];
}

// ------------------------------------------------------------ the app's screen

/**
 * The browser app's review screen: the review of game `id` from the server,
 * or (no id) a file input for a saved record. `alive()` says whether the
 * screen is still on show when an answer arrives.
 */
export async function showReviewScreen(root, id, alive = () => true) {
  const input = h('input', { type: 'file', id: 'review-file', accept: '.json,application/json' });
  const error = h('p', { class: 'error', role: 'alert' });
  const upload = h('section', { class: 'card review-upload' },
    h('label', { class: 'field', for: 'review-file' }, h('span', {}, t('review.upload'))),
    h('p', { class: 'muted small' }, t('review.upload.hint')),
    input, error);
  const box = h('div', { id: 'review' });
  const busy = (text) => fill(box, h('p', { class: 'loading', role: 'status' }, text));
  const show = (doc) => renderReview(box, doc, { extra: id ? h('p', {}, h('a', { href: '#/game/' + encodeURIComponent(id) }, t('review.backToGame'))) : null });
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    error.textContent = '';
    if (file.size > MAX_RECORD) { error.textContent = t('review.tooLarge', { size: file.size, max: MAX_RECORD }); return; }
    busy(t('review.judging'));
    try {
      const doc = await fetchJSON('/api/review', { method: 'POST', headers: { 'content-type': 'application/json' }, body: await file.text() });
      if (alive()) show(doc);
    } catch (err) {
      if (!alive()) return;
      fill(box);
      error.textContent = t('review.failed', { message: errorText(err) });
    }
  });
  fill(root, h('div', { class: 'review-screen' }, box, upload));
  if (!id) return;
  busy(t('review.judging'));
  try {
    const doc = await fetchJSON('/api/games/' + encodeURIComponent(id) + '/review');
    if (alive()) show(doc);
  } catch (err) {
    if (alive()) fill(box, h('p', { class: 'error', role: 'alert' }, t('review.failed', { message: errorText(err) })));
  }
}

/** The largest record the server reviews, in bytes (crates/ur-web/src/review_api.rs). */
export const MAX_RECORD = 512 * 1024;
