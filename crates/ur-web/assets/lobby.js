// The lobby screen (#/lobby): open seeks, quick match, games to watch,
// all kept live over /ws/lobby. A seek's secret is the seeker's game token:
// when someone accepts, the server tells this page the game, and it moves there.

import { t, errorText } from './i18n.js';
import { h, fill, fetchJSON } from './dom.js';
import { session } from './account.js';

/** The clock presets (docs/serve.md): [key, clock or null]. */
export const CLOCKS = [
  ['none', null],
  ['1+1', { initial_s: 60, increment_s: 1 }],
  ['3+2', { initial_s: 180, increment_s: 2 }],
  ['5+3', { initial_s: 300, increment_s: 3 }],
  ['10+5', { initial_s: 600, increment_s: 5 }],
  ['day', { initial_s: 86400, increment_s: 0, per_move: true }],
];

/** A clock in words: "3+2", "1 day per move", "no clock". */
export function clockText(clock) {
  if (!clock) return t('lobby2.clock.none');
  if (clock.per_move) return t('lobby2.clock.day');
  return `${Math.round(clock.initial_s / 60)}+${clock.increment_s}`;
}

const post = (url, body) => fetchJSON(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });

// The one lobby socket of the page, with the seek it holds if any.
const live = { ws: null, seek: null, render: null, stopped: true, retry: null };

function socketUrl() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const q = live.seek ? `?seek=${encodeURIComponent(live.seek.id)}&secret=${encodeURIComponent(live.seek.secret)}` : '';
  return `${proto}://${location.host}/ws/lobby${q}`;
}

function openSocket(ctx) {
  if (live.ws) { live.ws.onclose = null; live.ws.close(); }
  live.stopped = false;
  const ws = new WebSocket(socketUrl());
  live.ws = ws;
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.t === 'lobby' && live.render) live.render(m);
    if (m.t === 'matched' && live.seek && m.seek === live.seek.id) {
      const name = live.seek.name;
      live.seek = null;
      enterGame(ctx, { id: m.id, token: m.token, seat: m.seat }, name);
    }
  };
  ws.onclose = () => {
    if (live.ws === ws && !live.stopped) live.retry = setTimeout(() => openSocket(ctx), 2000);
  };
}

/** Leaving the lobby: its socket closes (and the seek it held goes with it). */
export function closeLobby() {
  live.stopped = true;
  live.render = null;
  live.seek = null;
  clearTimeout(live.retry);
  if (live.ws) { live.ws.onclose = null; live.ws.close(); live.ws = null; }
}

function enterGame(ctx, game, name) {
  ctx.rememberGame(game.id, { token: game.token, seat: game.seat, mode: 'online', name });
  ctx.go('#/game/' + encodeURIComponent(game.id));
}

function ruleName(rules, id) {
  const r = (rules || []).find((x) => x.id === id);
  return r ? r.name : id;
}

/** Shows the lobby in `main`. `ctx`: {go, rememberGame, loadRules, toast, alive}. */
export async function showLobbyScreen(main, ctx) {
  closeLobby();
  const rules = await ctx.loadRules().catch(() => []);
  if (!ctx.alive()) return;
  const me = await session();
  if (!ctx.alive()) return;
  const race = rules.filter((r) => r.family === 'race');
  const ruleSelect = h('select', { id: 'seek-rules' }, race.map((r) => h('option', { value: r.id, selected: r.id === 'finkel' }, r.name)));
  const clockSelect = h('select', { id: 'seek-clock' }, CLOCKS.map(([k]) => h('option', { value: k, selected: k === '3+2' }, t('lobby2.clock.' + k))));
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', disabled: !me });
  const waiting = h('div', { id: 'seek-waiting', class: 'seek-waiting', hidden: true });
  const seeksBox = h('div', { id: 'seeks' });
  const gamesBox = h('div', { id: 'live-games' });
  const wanted = () => ({
    rules: ruleSelect.value,
    clock: (CLOCKS.find(([k]) => k === clockSelect.value) || [])[1] || null,
    rated: rated.checked,
  });

  const holdSeek = (res, body) => {
    live.seek = { id: res.id, secret: res.secret, name: ruleName(rules, body.rules) };
    openSocket(ctx);
    fill(waiting, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', t('lobby2.waiting'), ' ',
      h('button', { type: 'button', id: 'seek-cancel', class: 'button secondary', onclick: cancel }, t('lobby2.cancel')));
    waiting.hidden = false;
  };
  async function cancel() {
    const seek = live.seek;
    live.seek = null;
    waiting.hidden = true;
    openSocket(ctx);
    if (seek) await fetchJSON('/api/seeks/' + encodeURIComponent(seek.id), { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: seek.secret }) }).catch(() => {});
  }
  const ask = async (quick) => {
    if (live.seek) await cancel();
    const body = { ...wanted(), quick };
    try {
      const res = await post('/api/seeks', body);
      if (res.matched) enterGame(ctx, res, ruleName(rules, body.rules));
      else holdSeek(res, body);
    } catch (e) { ctx.toast(errorText(e), 'error'); }
  };
  const accept = async (seek) => {
    try {
      const res = await post('/api/seeks/' + encodeURIComponent(seek.id) + '/accept');
      enterGame(ctx, res, ruleName(rules, seek.rules));
    } catch (e) { ctx.toast(errorText(e), 'error'); }
  };

  live.render = (m) => {
    const mine = (s) => live.seek && live.seek.id === s.id;
    fill(seeksBox, m.seeks.length === 0 ? h('p', { class: 'muted' }, t('lobby2.noSeeks')) :
      h('table', { class: 'lobby-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('lobby2.col.rules')), h('th', {}, t('lobby2.col.clock')), h('th', {}, t('lobby2.col.rated')), h('th', {}, t('lobby2.col.who')), h('th', {}))),
        h('tbody', {}, m.seeks.map((s) => h('tr', { class: 'seek', 'data-seek': s.id },
          h('td', {}, ruleName(rules, s.rules)), h('td', {}, clockText(s.clock)), h('td', {}, s.rated ? t('lobby2.rated') : t('lobby2.casual')),
          h('td', {}, s.who ? h('a', { href: '#/player/' + encodeURIComponent(s.who) }, s.who) : t('lobby2.anonymous')),
          h('td', {}, mine(s) ? t('lobby2.yours') : h('button', { type: 'button', class: 'button accept', onclick: () => accept(s) }, t('lobby2.accept'))))))));
    fill(gamesBox, m.games.length === 0 ? h('p', { class: 'muted' }, t('lobby2.noGames')) :
      h('ul', { class: 'live-games' }, m.games.map((g) => h('li', {},
        h('a', { href: g.watch }, ruleName(rules, g.rules), ': ', g.players.light || t('lobby2.anonymous'), ' – ', g.players.dark || t('lobby2.anonymous')),
        g.rated ? h('span', { class: 'badge' }, t('lobby2.rated')) : null))));
  };

  fill(main,
    h('section', { class: 'lobby2' },
      h('h1', {}, t('lobby2.heading')),
      h('p', {}, t('lobby2.intro')),
      h('div', { class: 'seek-form' },
        h('label', {}, t('lobby2.col.rules'), ' ', ruleSelect),
        h('label', {}, t('lobby2.col.clock'), ' ', clockSelect),
        h('label', { title: me ? '' : t('lobby2.ratedNeedsAccount') }, rated, ' ', t('lobby2.rated')),
        h('div', { class: 'seek-buttons' },
          h('button', { type: 'button', id: 'quick-match', class: 'button primary', onclick: () => ask(true) }, t('lobby2.quick')),
          h('button', { type: 'button', id: 'create-seek', class: 'button', onclick: () => ask(false) }, t('lobby2.create')))),
      waiting,
      h('h2', {}, t('lobby2.seeks')), seeksBox,
      h('h2', {}, t('lobby2.games')), gamesBox,
      h('p', {}, h('a', { href: '#/leaderboard/' + ruleSelect.value, id: 'leaderboard-link' }, t('lobby2.leaderboard')))));
  ruleSelect.addEventListener('change', () => { document.getElementById('leaderboard-link').href = '#/leaderboard/' + ruleSelect.value; });
  live.render({ seeks: [], games: [] });
  openSocket(ctx);
}
