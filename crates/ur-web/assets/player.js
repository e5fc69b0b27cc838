// A player's page (#/player/<name>): ratings per rule set, a rating chart
// (inline SVG), and the archive, each game opening its review. And the
// leaderboard of a rule set (#/leaderboard/<rules id>).

import { t, errorText } from './i18n.js';
import { h, s, fill, fetchJSON } from './dom.js';

const ruleName = (rules, id) => ((rules || []).find((r) => r.id === id) || { name: id }).name;

/** The rating history of one rule set as a line chart: rating over games, with its deviation as a band. */
export function ratingChart(history) {
  const W = 320, H = 140, P = 28;
  if (history.length === 0) return null;
  // Every player starts at 1500 ± 350 (Glicko-2's defaults): the line starts there.
  const points = [{ rating: 1500, deviation: 350 }, ...history];
  // The scale holds 1500 and every rating, with a margin; the deviation band is cut to it.
  const lo = Math.min(1500, ...points.map((p) => p.rating)) - 50;
  const hi = Math.max(1500, ...points.map((p) => p.rating)) + 50;
  const x = (i) => P + (points.length === 1 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (points.length - 1));
  const y = (r) => H - P + ((lo - r) * (H - 2 * P)) / (hi - lo || 1);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const band = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(Math.min(hi, p.rating + p.deviation)).toFixed(1)}`).join(' ') + ' ' +
    points.slice().reverse().map((p, k) => `L${x(points.length - 1 - k).toFixed(1)},${y(Math.max(lo, p.rating - p.deviation)).toFixed(1)}`).join(' ') + ' Z';
  return s('svg', { class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('player.chartLabel', { from: points[0].rating, to: points[points.length - 1].rating, n: history.length }) },
    s('path', { d: band, class: 'chart-band' }),
    s('line', { x1: P, x2: W - P, y1: y(1500), y2: y(1500), class: 'chart-base' }),
    s('text', { x: 2, y: y(hi) + 4, class: 'chart-label' }, String(Math.round(hi))),
    s('text', { x: 2, y: y(lo) + 4, class: 'chart-label' }, String(Math.round(lo))),
    s('path', { d: line, class: 'chart-line' }),
    points.map((p, i) => s('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'chart-dot' }, s('title', {}, String(p.rating)))));
}

function resultText(g) {
  if (g.status === 'playing') return t('player.result.playing');
  if (!g.result) return t('player.result.' + (g.status || 'over'));
  return t('player.result.' + g.result);
}

/** Shows the page of player `name` in `main`. */
export async function showPlayer(main, name, ctx, page = 0) {
  fill(main, h('p', { class: 'loading' }, '…'));
  let p;
  try {
    [p] = await Promise.all([fetchJSON(`/api/players/${encodeURIComponent(name)}?page=${page}`), ctx.loadRules()]);
  } catch (e) {
    if (ctx.alive()) fill(main, h('section', { class: 'player-page' }, h('h1', {}, name), h('p', { class: 'form-error' }, errorText(e))));
    return;
  }
  if (!ctx.alive()) return;
  const rules = await ctx.loadRules().catch(() => []);
  const byRules = (id) => p.history.filter((e) => e.rules === id);
  fill(main, h('section', { class: 'player-page', id: 'player-page' },
    h('h1', { id: 'player-name' }, p.name),
    h('h2', {}, t('player.ratings')),
    p.ratings.length === 0 ? h('p', { class: 'muted', id: 'no-ratings' }, t('player.noRatings')) :
      p.ratings.map((r) => h('div', { class: 'rating-block', 'data-rules': r.rules },
        h('h3', {}, h('a', { href: '#/leaderboard/' + encodeURIComponent(r.rules) }, ruleName(rules, r.rules))),
        h('p', { class: 'rating-line' }, t(r.games === 1 ? 'player.rating.one' : 'player.rating', { rating: r.rating, deviation: r.deviation, games: r.games })),
        ratingChart(byRules(r.rules)))),
    h('h2', {}, t('player.archive')),
    p.archive.length === 0 ? h('p', { class: 'muted' }, t('player.noGames')) :
      h('table', { class: 'lobby-table archive', id: 'archive' },
        h('thead', {}, h('tr', {}, h('th', {}, t('lobby2.col.rules')), h('th', {}, t('player.opponent')), h('th', {}, t('player.result')), h('th', {}))),
        h('tbody', {}, p.archive.map((g) => {
          const opp = g.players[g.side === 'light' ? 'dark' : 'light'];
          return h('tr', { class: 'archive-game', 'data-game': g.id },
            h('td', {}, ruleName(rules, g.rules), g.rated ? h('span', { class: 'badge' }, t('lobby2.rated')) : null),
            h('td', {}, opp ? h('a', { href: '#/player/' + encodeURIComponent(opp) }, opp) : t('lobby2.anonymous')),
            h('td', { class: 'result' }, resultText(g)),
            h('td', {}, h('a', { href: g.review, class: 'review-link' }, t('player.review'))));
        }))),
    h('p', { class: 'pager' },
      page > 0 ? h('button', { type: 'button', class: 'button secondary', onclick: () => showPlayer(main, name, ctx, page - 1) }, t('player.newer')) : null,
      p.more ? h('button', { type: 'button', class: 'button secondary', onclick: () => showPlayer(main, name, ctx, page + 1) }, t('player.older')) : null)));
}

/** Shows the leaderboard of rule set `id` in `main`. */
export async function showLeaderboard(main, id, ctx) {
  let board, rules;
  try {
    [board, rules] = await Promise.all([fetchJSON('/api/leaderboard/' + encodeURIComponent(id)), ctx.loadRules()]);
  } catch (e) {
    if (ctx.alive()) fill(main, h('section', {}, h('p', { class: 'form-error' }, errorText(e))));
    return;
  }
  if (!ctx.alive()) return;
  const select = h('select', { id: 'leaderboard-rules', 'aria-label': t('lobby2.col.rules'), onchange: (e) => ctx.go('#/leaderboard/' + encodeURIComponent(e.target.value)) },
    rules.map((r) => h('option', { value: r.id, selected: r.id === id }, r.name)));
  fill(main, h('section', { class: 'leaderboard', id: 'leaderboard' },
    h('h1', {}, t('board.heading', { rules: ruleName(rules, id) })),
    select,
    board.players.length === 0 ? h('p', { class: 'muted' }, t('board.empty')) :
      h('table', { class: 'lobby-table' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('board.player')), h('th', {}, t('board.rating')), h('th', {}, t('board.games')))),
        h('tbody', {}, board.players.map((p) => h('tr', { class: 'leader' },
          h('td', {}, String(p.rank)), h('td', {}, h('a', { href: '#/player/' + encodeURIComponent(p.name) }, p.name)),
          h('td', {}, `${p.rating} ± ${p.deviation}`), h('td', {}, String(p.games))))))));
}
