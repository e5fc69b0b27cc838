// The browser app of `ur serve`: the lobby, the game screen and the rules
// pages. The server decides every rule: this page only shows the GameView it
// sends and sends back the index of the action a player picks
// (docs/serve.md is the protocol).

import { t, lang, setLang, LANGS, sideName, summary, say, pileCaption, errorText, ruleName } from './i18n.js';
import { optionText } from './teach.js';
import { h, fill, fetchJSON, store } from './dom.js';
import { renderBoard } from './board.js';
import { MOTION, SOUND, slideMove, soundOf, playSound } from './effects.js';
import { renderRulesPage } from './rules.js';
import { showReviewScreen } from './review.js';
import { startPositionField, positionLine } from './position.js';
import { flipped, flipButton, placePlayers, boardLayout, onLayoutChange } from './orient.js';
import { customRules, checkRulesFile, showProblems } from './rulesfile.js';
import * as play from './play.js';
import { showLobbyScreen, closeLobby } from './lobby.js';
import { accountMenu } from './account.js';
import { showPlayer, showLeaderboard } from './player.js';
import { solvingLine } from './solving.js';

const MAX_RULES_FILE = 64 * 1024;
const SIDES = ['light', 'dark'];
// The page's keepalive on a game's socket: it pings the server this often,
// and takes a socket that heard nothing for KEEPALIVE_DEAD as dead.
const KEEPALIVE_PING = 20000;
const KEEPALIVE_DEAD = 45000;

const app = {
  rules: null, // GET /api/rules
  details: new Map(), // id -> GET /api/rules/<id>
  screen: null, // the GameScreen on show
  lastView: null, // the last game's view, for the rules page of a custom rule set
  routeId: 0,
};
// For the browser tests and for curious players: the state on show.
window.urApp = app;

const main = () => document.getElementById('main');

// ---------------------------------------------------------------- routing

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, query = ''] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, params: new URLSearchParams(query) };
}

function route() {
  const { parts, params } = parseHash();
  const routeId = ++app.routeId;
  closeLobby();
  if (parts[0] === 'game' && parts[1]) {
    const id = parts[1];
    const token = params.get('token');
    if (token && !holdsToken(id, token)) {
      // A link this browser holds no seat by yet: show what it opens first.
      closeScreen();
      showInvite(id, token, routeId);
      return;
    }
    if (token) history.replaceState(null, '', '#/game/' + encodeURIComponent(id));
    if (app.screen && app.screen.id === id && (!token || app.screen.token === token)) {
      app.screen.show();
      return;
    }
    closeScreen();
    app.screen = new GameScreen(id, token || (games()[id] || {}).token || null);
    return;
  }
  closeScreen();
  if (parts[0] === 'rules' && parts[1]) showRules(parts[1], params.get('game'), routeId);
  else if (parts[0] === 'review') showReviewScreen(main(), parts[1], () => routeId === app.routeId);
  else if (parts[0] === 'lobby') showLobbyScreen(main(), socialCtx(routeId));
  else if (parts[0] === 'player' && parts[1]) showPlayer(main(), parts[1], socialCtx(routeId));
  else if (parts[0] === 'leaderboard' && parts[1]) showLeaderboard(main(), parts[1], socialCtx(routeId));
  else showLobby(routeId, parts[0] === 'new' ? params : null);
}

/** What the lobby, player and leaderboard screens use of the app. */
function socialCtx(routeId) {
  return { go, rememberGame, loadRules, toast, alive: () => routeId === app.routeId };
}

function closeScreen() {
  if (app.screen) app.screen.close();
  app.screen = null;
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

// ---------------------------------------------------------- stored games

function games() {
  return store.get('ur.games', {}) || {};
}

function rememberGame(id, info) {
  const all = games();
  all[id] = { ...(all[id] || {}), ...info, at: Date.now() };
  // Keep the 30 most recent.
  const keep = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
  store.set('ur.games', Object.fromEntries(keep));
}

/** Whether this browser holds a seat of game `id` by `token`. */
function holdsToken(id, token) {
  const g = games()[id] || {};
  return g.token === token || Object.values(g.seats || {}).includes(token);
}

/**
 * Keeps the seat `side` of game `id`: every seat held stays (the creator
 * who opens their own invitation keeps their first seat as the game's).
 */
function holdSeat(id, side, token) {
  const g = games()[id] || {};
  const seats = { ...(g.seats || {}) };
  if (g.token && g.seat && !seats[g.seat]) seats[g.seat] = g.token;
  if (!Object.values(seats).includes(token)) seats[side || 'unknown'] = token;
  rememberGame(id, { seats, token: g.token || token, seat: g.seat || side });
}

function forgetGame(id) {
  const all = games();
  delete all[id];
  store.set('ur.games', all);
}

// ------------------------------------------------------------------ header

function renderHeader() {
  const header = document.getElementById('top');
  const select = h('select', { id: 'lang', 'aria-label': t('lang.label'), onchange: (e) => { setLang(e.target.value); renderHeader(); rerender(); } },
    LANGS.map(([code, name]) => h('option', { value: code, selected: code === lang() }, name)));
  fill(header, 
    h('a', { class: 'brand', href: '#/', 'aria-label': t('app.title') },
      h('img', { src: '/assets/icon.svg', alt: '', width: 28, height: 28 }),
      h('span', {}, t('app.title'))),
    h('nav', { class: 'top-nav' }, h('a', { href: '#/', class: 'top-link', id: 'nav-new' }, t('nav.home')), h('a', { href: '#/lobby', class: 'top-link', id: 'nav-lobby' }, t('nav.lobby')), h('a', { href: '#/review', class: 'top-link', id: 'nav-review' }, t('nav.review')), accountMenu(rerender, toast), select),
  );
  document.title = t('app.title');
}

function rerender() {
  if (app.screen) app.screen.render(true);
  else route();
}

// ------------------------------------------------------------------- toast

let toastTimer = null;
function toast(text, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.className = 'toast show ' + kind;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = 'toast'; }, 4000);
}

// ------------------------------------------------------------------- lobby

async function loadRules() {
  if (!app.rules) app.rules = await fetchJSON('/api/rules');
  return app.rules;
}

async function loadDetails(id) {
  if (!app.details.has(id)) app.details.set(id, await fetchJSON('/api/rules/' + encodeURIComponent(id)));
  return app.details.get(id);
}

/** A rule set's options as {name, description, default, values[], min, max}. */
function normOptions(list) {
  if (!list) return [];
  const arr = Array.isArray(list) ? list : Object.entries(list).map(([name, o]) => ({ name, ...o }));
  return arr.map((o) => {
    let values = Array.isArray(o.values) ? o.values.map(String)
      : (o.values && typeof o.values === 'object' ? Object.keys(o.values) : []);
    let min = o.min ?? null;
    let max = o.max ?? null;
    if (values.length === 1) {
      const m = /(-?\d+)\s*\.\.=?\s*(-?\d+)/.exec(values[0]);
      if (m) { min = Number(m[1]); max = Number(m[2]); values = []; }
    }
    return { name: o.name, description: o.description || '', default: o.default === undefined || o.default === null ? '' : String(o.default), values, min, max };
  });
}

function familyOf(r) {
  const f = String(r.family || 'race').toLowerCase();
  if (f === 'marker') return 'bens';
  return f;
}

async function showLobby(routeId, preset) {
  const root = main();
  fill(root, h('p', { class: 'loading' }, t('lobby.loading')));
  let rules;
  try {
    rules = await loadRules();
  } catch (e) {
    if (routeId !== app.routeId) return;
    fill(root, h('p', { class: 'error', role: 'alert' }, t('error.network')));
    return;
  }
  if (routeId !== app.routeId) return;

  const saved = store.get('ur.lobby', {}) || {};
  const state = {
    rules: rules.some((r) => r.id === saved.rules) ? saved.rules : (rules[0] && rules[0].id),
    mode: saved.mode || 'bot',
    bot: saved.bot || '3',
    seat: saved.seat || 'light',
    options: saved.options || {},
    file: null, // {name, text}
  };
  const startPos = startPositionField(preset, state, rules);
  const save = () => store.set('ur.lobby', { rules: state.rules, mode: state.mode, bot: state.bot, seat: state.seat, options: state.options });

  const families = ['race', 'bens', 'tower'];
  const select = h('select', { id: 'ruleset', name: 'rules' },
    families.map((f) => {
      const sets = rules.filter((r) => familyOf(r) === f);
      if (!sets.length) return null;
      return h('optgroup', { label: t('family.' + f) },
        sets.map((r) => h('option', { value: r.id, selected: r.id === state.rules }, ruleName(r.id, r.name))));
    }),
    rules.filter((r) => !families.includes(familyOf(r))).map((r) => h('option', { value: r.id, selected: r.id === state.rules }, ruleName(r.id, r.name))));

  const summaryEl = h('p', { class: 'summary', id: 'ruleset-summary', 'aria-live': 'polite' });
  const rulesLink = h('a', { class: 'rules-link', href: '#' }, t('lobby.rulesLink'));
  const optionsBox = h('div', { class: 'options', id: 'options' });
  const fileInfo = h('p', { class: 'file-info', hidden: true });
  const errorEl = h('p', { class: 'error', role: 'alert' });

  const showRuleSet = async () => {
    const r = rules.find((x) => x.id === state.rules);
    summaryEl.textContent = state.file ? '' : (r ? summary(r.id, r.summary) : '');
    // Perfect play needs a solved table: race rule sets only.
    const perfect = levelSelect.querySelector('option[value=perfect]');
    const race = state.file || (r && familyOf(r) === 'race');
    perfect.hidden = !race;
    perfect.disabled = !race;
    if (!race && levelSelect.value === 'perfect') { levelSelect.value = '5'; state.bot = '5'; }
    solving.update(state.rules, !!state.file);
    rulesLink.href = '#/rules/' + encodeURIComponent(state.file ? state.file.id : state.rules);
    rulesLink.textContent = state.file ? t('lobby.custom.rulesLink', { rules: state.file.rules }) : t('lobby.rulesLink');
    fill(optionsBox);
    if (state.file) return;
    const asked = state.rules;
    let details;
    try { details = await loadDetails(asked); } catch (_) { return; }
    // A slower answer for a rule set chosen before must not draw its options.
    if (asked !== state.rules || state.file) return;
    const opts = normOptions(details.options).map((o) => ({ ...o, description: optionText(state.rules, o) }));
    // Every race rule set takes a number of pieces (`--pieces`); its default is the start's reserve.
    const isRace = r && familyOf(r) === 'race';
    if (isRace && !opts.some((o) => o.name === 'pieces') && details.view) {
      opts.unshift({ name: 'pieces', description: t('lobby.pieces'), default: String(details.view.position.reserve[0]), values: [], min: 1, max: 15, ours: true });
    }
    const chosen = state.options[state.rules] || {};
    const tell = () => {
      const now = state.options[state.rules] || {};
      const pieces = Number(now.pieces || (opts.find((o) => o.name === 'pieces') || {}).default) || null;
      solving.update(state.rules, false, pieces, Object.keys(now).some((k) => k !== 'pieces'));
    };
    tell();
    if (!opts.length) {
      fill(optionsBox, h('p', { class: 'muted' }, t('lobby.noOptions')));
      return;
    }
    fill(optionsBox, 
      h('details', { class: 'option-list' },
        h('summary', {}, t('lobby.options') + ' (' + opts.length + ')'),
        opts.map((o) => optionField(o, chosen[o.name], (v) => {
          const cur = { ...(state.options[state.rules] || {}) };
          if (v === o.default || v === '') delete cur[o.name];
          else cur[o.name] = v;
          state.options[state.rules] = cur;
          save();
          tell();
        }))));
  };

  select.addEventListener('change', () => { state.rules = select.value; save(); showRuleSet(); });

  const modeField = h('fieldset', { class: 'modes' },
    h('legend', {}, t('lobby.mode')),
    ['bot', 'hotseat', 'online'].map((m) => h('label', { class: 'mode' },
      h('input', { type: 'radio', name: 'mode', value: m, checked: state.mode === m, onchange: () => { state.mode = m; save(); syncMode(); } }),
      h('span', { class: 'mode-name' }, t('lobby.mode.' + m)),
      h('span', { class: 'mode-hint' }, t('lobby.mode.' + m + '.hint')))));

  const levelSelect = h('select', { id: 'bot-level', name: 'bot', onchange: (e) => { state.bot = e.target.value; save(); } },
    ['1', '2', '3', '4', '5'].map((n) => h('option', { value: n, selected: state.bot === n },
      n === '1' ? t('lobby.level.1') : n === '5' ? t('lobby.level.5') : t('lobby.level.n', { n }))),
    h('option', { value: 'perfect', selected: state.bot === 'perfect' }, t('lobby.level.perfect')));
  const levelField = h('label', { class: 'field' }, h('span', {}, t('lobby.level')), levelSelect);
  const solving = solvingLine(levelSelect, (id) => (rules.find((x) => x.id === id) || { name: id }).name);

  const seatSelect = h('select', { id: 'seat', name: 'seat', onchange: (e) => { state.seat = e.target.value; save(); } },
    ['light', 'dark', 'random'].map((s) => h('option', { value: s, selected: state.seat === s }, t('lobby.seat.' + s))));
  const seatField = h('label', { class: 'field' }, h('span', {}, t('lobby.seat')), seatSelect);

  const clockField = play.clockField(store.get('ur.clock', ''), (value) => store.set('ur.clock', value));
  const syncMode = () => {
    levelField.hidden = state.mode !== 'bot';
    seatField.hidden = state.mode === 'hotseat';
    clockField.hidden = state.mode !== 'online';
  };

  const fileInput = h('input', { type: 'file', id: 'rules-file', accept: '.toml,.json,.txt,text/plain,application/toml' });
  const clearFile = h('button', { type: 'button', class: 'link', hidden: true }, t('lobby.custom.clear'));
  const fileError = h('div', { class: 'error file-error', id: 'rules-file-error', role: 'alert' });
  // Back to the built-in rule sets: a new choice never leaves the old file loaded.
  const dropFile = () => {
    state.file = null;
    fileInfo.hidden = true;
    clearFile.hidden = true;
    select.disabled = false;
    fill(fileError);
    showRuleSet();
  };
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files && fileInput.files[0];
    dropFile();
    if (!f) return;
    if (f.size > MAX_RULES_FILE) {
      fill(fileError, h('p', {}, t('lobby.custom.tooLarge', { size: f.size, max: MAX_RULES_FILE })));
      fileInput.value = '';
      return;
    }
    const text = await f.text();
    fileInfo.textContent = t('lobby.custom.checking', { name: f.name });
    fileInfo.hidden = false;
    state.checking = checkRulesFile(text);
    const verdict = await state.checking;
    state.checking = null;
    if (fileInput.files[0] !== f) return; // another file was chosen meanwhile
    if (!verdict.ok) {
      fileInfo.hidden = true;
      showProblems(fileError, f.name, verdict);
      fileInput.value = '';
      return;
    }
    state.file = { name: f.name, text, id: verdict.info.id, rules: verdict.info.name };
    fileInfo.textContent = t('lobby.custom.loaded', { name: f.name });
    clearFile.hidden = false;
    select.disabled = true;
    showRuleSet();
  });
  clearFile.addEventListener('click', () => {
    fileInput.value = '';
    dropFile();
  });

  const start = h('button', { type: 'submit', class: 'primary big', id: 'start' }, t('lobby.start'));
  const form = h('form', { class: 'lobby-form', onsubmit: async (e) => {
    e.preventDefault();
    // A file being checked decides what Start sends.
    if (state.checking) await state.checking;
    errorEl.textContent = '';
    start.disabled = true;
    start.textContent = t('lobby.starting');
    const body = { mode: state.mode };
    if (state.file) body.rules_file = state.file.text;
    else {
      body.rules = state.rules;
      body.options = state.options[state.rules] || {};
    }
    if (state.mode === 'bot') body.bot = state.bot;
    if (state.mode !== 'hotseat') body.seat = state.seat;
    const clock = state.mode === 'online' ? play.presetClock(store.get('ur.clock', '')) : null;
    if (clock) body.clock = clock;
    if (startPos.value()) body.position = startPos.value();
    try {
      const res = await fetchJSON('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const r = rules.find((x) => x.id === state.rules);
      rememberGame(res.id, {
        token: res.token, seat: res.seat, invite: res.invite, watch: res.watch, mode: state.mode,
        name: state.file ? state.file.name : (r ? r.name : state.rules), lobby: body,
      });
      go('#/game/' + encodeURIComponent(res.id));
    } catch (err) {
      errorEl.textContent = t('lobby.error', { message: errorText(err) });
      start.disabled = false;
      start.textContent = t('lobby.start');
    }
  } },
  h('section', { class: 'card' },
    h('label', { class: 'field', for: 'ruleset' }, h('span', {}, t('lobby.ruleset'))),
    select,
    summaryEl,
    rulesLink,
    optionsBox,
    h('details', { class: 'custom' },
      h('summary', {}, t('lobby.custom')),
      h('p', { class: 'muted' }, t('lobby.custom.hint')),
      h('label', { class: 'file' }, h('span', { class: 'sr-only' }, t('lobby.custom')), fileInput),
      fileInfo, fileError, clearFile),
    startPos.el),
  h('section', { class: 'card' }, modeField, h('div', { class: 'row' }, levelField, seatField, clockField), solving.el),
  errorEl,
  start);

  // Games this browser holds a token for.
  const mine = Object.entries(games()).filter(([, g]) => g.token && !g.over).slice(0, 6);
  const resume = mine.length ? h('section', { class: 'card resume' },
    h('h2', {}, t('lobby.resume')),
    h('ul', {}, mine.map(([id, g]) => h('li', {},
      h('a', { href: '#/game/' + encodeURIComponent(id) }, t('lobby.resume.item', { rules: g.name || '?', mode: t('mode.' + (g.mode || 'bot')) })),
      ' ',
      h('button', { type: 'button', class: 'link', onclick: (e) => { forgetGame(id); e.target.closest('li').remove(); } }, t('lobby.forget')))))) : null;

  fill(root, h('div', { class: 'lobby' },
    h('h1', {}, t('lobby.heading')),
    h('p', { class: 'intro' }, t('lobby.intro')),
    form,
    resume));
  syncMode();
  showRuleSet();
}

function optionField(o, value, onChange) {
  const id = 'opt-' + o.name;
  const cur = value === undefined ? o.default : String(value);
  let input;
  if (o.values.length) {
    input = h('select', { id, name: o.name, 'data-option': o.name, onchange: (e) => onChange(e.target.value) },
      o.values.map((v) => h('option', { value: v, selected: v === cur }, v + (v === o.default ? ' (' + t('lobby.default') + ')' : ''))));
  } else {
    input = h('input', { id, name: o.name, 'data-option': o.name, type: 'number', value: cur, min: o.min ?? undefined, max: o.max ?? undefined, onchange: (e) => onChange(e.target.value) });
  }
  return h('div', { class: 'option' },
    h('label', { for: id }, h('code', {}, o.name)),
    input,
    o.description ? h('p', { class: 'muted small', lang: o.ours ? null : 'en' }, o.description) : null);
}

// ------------------------------------------------------------- rules page

async function showRules(id, gameId, routeId) {
  const root = main();
  fill(root, h('p', { class: 'loading' }, t('lobby.loading')));
  let info = null;
  try {
    info = await loadDetails(id);
  } catch (_) {
    info = await customRulesInfo(id, gameId);
  }
  if (routeId !== app.routeId) return;
  if (!info) {
    fill(root, h('p', { class: 'error', role: 'alert' }, t('error.unknown_game')));
    return;
  }
  renderRulesPage(root, {
    info,
    options: normOptions(info.options),
    summary: summary(info.id, info.summary),
    back: gameId ? '#/game/' + encodeURIComponent(gameId) : null,
  });
}

/** A custom rule set's page: a file checked in the lobby, the last game's view, or the game's own start. */
async function customRulesInfo(id, gameId) {
  if (customRules.has(id)) return customRules.get(id);
  const fromView = (view) => ({ id, name: view.rules.name, family: view.rules.family, summary: '', options: [], view });
  if (app.lastView && app.lastView.rules.id === id) return fromView(app.lastView);
  if (!gameId) return null;
  try {
    const setup = await fetchJSON('/api/games/' + encodeURIComponent(gameId));
    return setup && setup.view && setup.view.rules.id === id ? fromView(setup.view) : null;
  } catch (_) {
    return null;
  }
}

// ------------------------------------------------------------- invitation

/** Joins a game by a link's token: keeps the secret out of the address bar
 * (so it is not shared by mistake) but in this browser, so a closed tab comes back. */
function takeSeat(id, token, side = null) {
  holdSeat(id, side, token);
  history.replaceState(null, '', '#/game/' + encodeURIComponent(id));
  closeScreen();
  app.screen = new GameScreen(id, token);
}

/** The pieces of one side at a position, in words. */
function sideCount(view, side) {
  const p = view.position;
  const i = SIDES.indexOf(side);
  const board = p.pieces.filter((x) => x.side === side).reduce((n, x) => n + x.count, 0);
  return t('invite.side', { side: sideName(view, side), board, reserve: p.reserve[i], off: p.off[i] });
}

/**
 * An invitation to an online game, before its seat is taken: the rules,
 * options and start the host chose (the start drawn), who moves first and
 * who plays which side. The page joins only when "Take the seat" is
 * clicked; any other link (a game against a bot, hot-seat, a finished
 * game) joins at once.
 */
async function showInvite(id, token, routeId) {
  const root = main();
  fill(root, h('p', { class: 'loading' }, t('lobby.loading')));
  let setup = null;
  try {
    setup = await fetchJSON('/api/games/' + encodeURIComponent(id) + '?token=' + encodeURIComponent(token));
  } catch (_) { /* the game screen says what is wrong */ }
  if (routeId !== app.routeId) return;
  if (!setup || setup.mode !== 'online' || setup.status !== 'playing' || !SIDES.includes(setup.you)) {
    takeSeat(id, token, setup && SIDES.includes(setup.you) ? setup.you : null);
    return;
  }
  const view = setup.view;
  const you = setup.you;
  const host = SIDES.find((s) => s !== you);
  const options = Object.entries(setup.options || {});
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  svg.setAttribute('id', 'invite-board');
  const row = (key, id, ...value) => [h('dt', {}, t(key)), h('dd', { id }, ...value)];
  const take = h('button', { type: 'button', class: 'primary big', id: 'take-seat', onclick: () => takeSeat(id, token, you) }, t('invite.take'));
  fill(root, h('div', { class: 'lobby invite', id: 'invite' },
    h('h1', {}, t('invite.heading', { rules: ruleName(view.rules.id, view.rules.name) })),
    h('p', { class: 'intro' }, t('invite.intro')),
    h('section', { class: 'card' },
      h('dl', { class: 'invite-facts' },
        row('invite.rules', 'invite-rules', setup.custom ? t('invite.custom', { name: view.rules.name }) : view.rules.name),
        row('invite.options', 'invite-options', options.length ? h('code', {}, options.map(([k, v]) => k + ' = ' + v).join(', ')) : t('invite.options.none')),
        row('invite.start', 'invite-start', ...(setup.start
          ? [t('invite.start.custom') + ' ', h('code', { class: 'position-string' }, setup.start), h('br'), sideCount(view, 'light'), h('br'), sideCount(view, 'dark')]
          : [t('invite.start.usual')])),
        row('invite.first', 'invite-first', setup.first ? sideName(view, setup.first) : '-'),
        row('invite.seats', 'invite-seats', t('invite.seats.text', { host: sideName(view, host), you: sideName(view, you) }))),
      h('div', { class: 'board-wrap' }, svg)),
    take));
  renderBoard(svg, view, { labels: true, flip: you === 'dark', layout: boardLayout() });
}

// ------------------------------------------------------------ game screen

function spotKey(spot, view) {
  if (!spot) return '';
  if (spot.at === 'square') return 'sq:' + spot.square;
  if (spot.at === 'reserve' || spot.at === 'off') {
    // Actions name the mover's reserve; a click names a side.
    const mover = view && view.turn && view.turn.side;
    if (spot.side && mover && spot.side !== mover) return spot.at + ':' + spot.side;
    return spot.at;
  }
  return JSON.stringify(spot);
}

function fmtTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

class GameScreen {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.seq = null;
    this.view = null;
    this.game = null;
    this.seats = null;
    this.deadlines = {}; // side -> epoch ms
    this.selected = null;
    this.pending = null; // several actions between one from and to
    this.sent = null; // {seq, index} of our last action
    this.busy = false;
    this.hint = null;
    this.log = [];
    this.logSteps = 0;
    this.online = false;
    this.everOnline = false;
    this.notFound = false;
    this.timer = setInterval(() => this.tick(), 1000);
    this.clockTimer = setInterval(() => this.drawClocks(), 200);
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.build();
    this.connect();
  }

  info() {
    return games()[this.id] || {};
  }

  // ---- connection

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? '?token=' + encodeURIComponent(this.token) : '';
    const ws = new WebSocket(proto + '//' + location.host + '/ws/' + encodeURIComponent(this.id) + q);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.heard = Date.now();
      this.pinged = Date.now();
      if (this.everOnline) toast(t('game.reconnected'));
      this.online = true;
      this.everOnline = true;
      this.busy = false;
      this.renderStatus();
      this.renderPlayers();
    };
    ws.onmessage = (e) => {
      this.heard = Date.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      this.message(msg);
    };
    ws.onclose = () => this.dropped(ws);
    ws.onerror = () => { /* onclose follows */ };
  }

  // The socket is gone (closed, or silent past KEEPALIVE_DEAD): reconnect after a pause.
  dropped(ws) {
    if (this.ws !== ws) return;
    if (ws.readyState !== WebSocket.CLOSED) {
      this.ws = null;
      try { ws.close(); } catch (_) { /* closing */ }
    }
    this.online = false;
    this.busy = false;
    if (this.closed || this.notFound) return;
    this.renderStatus();
    this.renderPlayers();
    const delay = Math.min(10000, 500 * 2 ** this.retry) * (0.8 + Math.random() * 0.4);
    this.retry += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  // A ping every KEEPALIVE_PING ms; a socket that heard nothing for
  // KEEPALIVE_DEAD ms lost its network without a close: open another.
  keepalive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - this.heard > KEEPALIVE_DEAD) this.dropped(ws);
    else if (now - this.pinged >= KEEPALIVE_PING) {
      this.pinged = now;
      ws.send('{"t":"ping"}');
    }
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      toast(t('game.offline'), 'error');
      return false;
    }
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.clockTimer);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.forcedTimer);
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.close(); } catch (_) { /* closing */ }
    }
  }

  message(msg) {
    switch (msg.t) {
      case 'view': this.onView(msg); break;
      case 'presence': this.onPresence(msg.seats); this.renderPlayers(); this.renderStatus(); break;
      case 'hint': this.onHint(msg); break;
      case 'error': this.onError(msg); break;
      case 'rematch': this.onRematch(msg); break;
      default: break;
    }
  }

  onError(msg) {
    this.busy = false;
    if (msg.code === 'unknown_game') {
      this.notFound = true;
      fill(main(), h('div', { class: 'card' },
        h('p', { class: 'error', role: 'alert' }, t('game.notFound')),
        h('a', { class: 'button primary', href: '#/' }, t('game.newGame'))));
      return;
    }
    if (msg.code === 'bad_token') {
      this.token = null;
    }
    toast(errorText(msg, { ownWords: true }), 'error');
    this.renderControls();
  }

  /** Both players took the rematch: this player's seat in the new game. */
  onRematch(msg) {
    rememberGame(msg.id, { token: msg.token, seat: msg.seat, mode: 'online', name: this.info().name || (this.view && this.view.rules.name) });
    go('#/game/' + encodeURIComponent(msg.id));
  }

  onPresence(seats) {
    if (!seats) return;
    this.seats = seats;
    const now = Date.now();
    for (const side of SIDES) {
      const seat = seats[side];
      if (seat && seat.deadline) {
        // An absolute time in ms, or what is left of it.
        this.deadlines[side] = seat.deadline > 1e12 ? seat.deadline : now + seat.deadline;
      } else delete this.deadlines[side];
    }
  }

  onView(msg) {
    const prev = this.view;
    const prevSeq = this.seq;
    // Views after the first on a connection leave out the board, which
    // never changes in a game.
    if (!msg.view.board && prev) msg.view = { ...msg.view, board: prev.board };
    this.seq = msg.seq;
    this.view = msg.view;
    if (msg.game) {
      this.game = msg.game;
      this.clockAt = Date.now();
      if (msg.game.seats) this.onPresence(msg.game.seats);
    }
    if (this.game && this.game.status === 'over' && !this.view.winner) {
      // Ended by a player's word or the clock, not on the board.
      this.view = { ...this.view, winner: this.game.winner || 'draw', actions: [] };
    }
    if (this.game && this.game.status === 'abandoned' && !this.view.winner) {
      // The game ended without the rules: a player did not come back in time.
      this.view = { ...this.view, winner: this.game.winner || 'draw', actions: [], abandoned: true };
    }
    if (this.game && this.game.status === 'expired') {
      // Nothing was played in it for too long: the server ended it.
      this.view = { ...this.view, actions: [], expired: true };
    }
    app.lastView = msg.view;
    this.busy = false;
    this.selected = null;
    this.pending = null;
    this.hint = null;
    this.addLog(prev, prevSeq, msg);
    const fresh = play.takeLog(this.log, msg);
    if (prev && msg.log_from > 0) this.tellPasses(fresh);
    if (this.view.winner || this.view.expired) rememberGame(this.id, { over: true });
    else if (this.token && this.game && this.game.you) rememberGame(this.id, { name: this.view.rules.name, mode: this.game.mode });
    this.render();
    if (this.moved) this.slides = (this.slides || 0) + slideMove(this.el.svg, this.view, prev, this.moved);
    if (prev && msg.seq !== prevSeq) this.sound(prev);
    this.moved = null;
    this.autoRoll();
    this.playForced();
  }

  /** Plays the only action there is, after a short pause, when the player asked for it. */
  playForced() {
    clearTimeout(this.forcedTimer);
    const v = this.view;
    if (!store.get(OPTIONS.forced, false) || !this.canAct() || v.turn.stage !== 'act' || v.actions.length !== 1 || this.busy) return;
    const seq = this.seq;
    this.forcedTimer = setTimeout(() => { if (this.seq === seq) this.act(v.actions[0].index); }, AUTO_ROLL_MS);
  }

  /** A short sound for a throw, a move and a capture, when the player turned sound on. */
  sound(prev) {
    if (!store.get(SOUND, false) || !window.AudioContext) return;
    const threw = this.view.throw && !sameThrow(prev.throw, this.view.throw);
    const kind = soundOf(prev, this.view, this.moved, threw);
    if (!kind) return;
    this.audio = this.audio || new AudioContext();
    playSound(this.audio, kind);
    this.sounds = (this.sounds || 0) + 1;
  }

  /** Rolls by itself after a short pause, when the player asked for it. */
  autoRoll() {
    clearTimeout(this.autoRollTimer);
    if (!store.get(OPTIONS.autoRoll, false) || !this.canAct() || this.view.turn.stage !== 'roll' || this.busy) return;
    const seq = this.seq;
    this.autoRollTimer = setTimeout(() => { if (this.seq === seq) this.roll(); }, AUTO_ROLL_MS);
  }

  // ---- the move log

  /** Which move the new view shows, to slide its piece. */
  addLog(prev, prevSeq, msg) {
    const view = msg.view;
    if (prev && prevSeq !== null && msg.seq > prevSeq && prev.turn.stage === 'act' && prev.actions.length) {
      let act = null;
      if (this.sent && this.sent.seq === prevSeq) act = prev.actions.find((a) => a.index === this.sent.index);
      if (!act && prev.actions.length === 1) act = prev.actions[0];
      if (!act) act = guessAction(prev, view);
      if (act && act.kind === 'move') { this.lastMove = { from: act.from, to: act.to }; this.moved = this.lastMove; }
    }
    this.sent = null;
  }

  /** A throw that allowed no move: its dice and "the turn passes", for a moment. */
  tellPasses(entries) {
    for (const e of entries) {
      if (e.pass) toast(t('game.pass', { side: sideName(this.view, e.side), text: say(e.words, this.view) }));
      if (e.action === 'draw_offer' && this.game && e.side !== this.game.you) toast(t('game.draw.incoming', { side: sideName(this.view, e.side) }));
    }
  }

  drawClocks() {
    if (this.el && this.el.clocks) play.drawClocks(this.el.clocks, this.game, this.clockAt || Date.now(), this.view);
  }

  // ---- acting

  canAct() {
    const v = this.view;
    const g = this.game;
    if (!v || !g || !this.token || v.winner || v.expired || !v.turn.side) return false;
    return g.you === 'both' || g.you === v.turn.side;
  }

  roll() {
    if (!this.canAct() || this.view.turn.stage !== 'roll' || this.busy) return;
    if (this.send({ t: 'roll', seq: this.seq })) { this.busy = true; this.renderControls(); }
  }

  act(index) {
    if (!this.canAct() || this.busy) return;
    if (this.send({ t: 'act', seq: this.seq, index })) {
      this.sent = { seq: this.seq, index };
      this.busy = true;
      this.selected = null;
      this.pending = null;
      this.renderControls();
    }
  }

  askHint() {
    if (!this.hintAllowed()) return;
    this.send({ t: 'hint', seq: this.seq });
  }

  hintAllowed() {
    return this.game && this.game.mode === 'bot' && hintsWork(this.view) && this.canAct() && this.view.actions.length > 0;
  }

  onHint(msg) {
    if (msg.seq !== this.seq) return;
    this.hint = msg;
    this.renderHint();
  }

  moves() {
    return this.view ? this.view.actions.filter((a) => a.kind === 'move') : [];
  }

  onSpot(spot) {
    if (!this.canAct() || this.view.turn.stage !== 'act' || this.busy) return;
    const v = this.view;
    const k = spotKey(spot, v);
    const moves = this.moves();
    if (this.selected) {
      const sk = spotKey(this.selected, v);
      const hits = moves.filter((a) => spotKey(a.from, v) === sk && spotKey(a.to, v) === k);
      if (hits.length === 1) { this.act(hits[0].index); return; }
      if (hits.length > 1) { this.pending = hits; this.renderBoard(); this.renderControls(); return; }
    }
    const from = moves.filter((a) => a.from && spotKey(a.from, v) === k);
    // One click plays a piece's only move, when the player asked for it.
    if (!this.selected && from.length === 1 && store.get(OPTIONS.oneClick, false)) { this.act(from[0].index); return; }
    if (from.length) {
      this.selected = this.selected && spotKey(this.selected, v) === k ? null : spot;
      this.pending = null;
      this.render();
      return;
    }
    // A destination clicked first: play it when only one move goes there.
    const to = moves.filter((a) => a.to && spotKey(a.to, v) === k && (!a.from || !this.selected));
    if (!this.selected && to.length === 1) { this.act(to[0].index); return; }
    if (!this.selected && to.length > 1) { this.pending = to; this.render(); return; }
    this.selected = null;
    this.pending = null;
    this.render();
  }

  /** The selected piece's destinations where its move captures. */
  captureTargets() {
    if (!this.selected) return [];
    const sk = spotKey(this.selected, this.view);
    return this.moves().filter((a) => a.to && spotKey(a.from, this.view) === sk && (a.words || []).some((w) => w.key === 'fx.captures')).map((a) => a.to);
  }

  targets() {
    if (!this.selected) return [];
    const sk = spotKey(this.selected, this.view);
    const out = [];
    const seen = new Set();
    for (const a of this.moves()) {
      if (spotKey(a.from, this.view) !== sk || !a.to) continue;
      const k = spotKey(a.to, this.view);
      if (!seen.has(k)) { seen.add(k); out.push(a.to); }
    }
    return out;
  }

  key(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || '';
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(tag);
    if (typing) return;
    const onControl = /^(BUTTON|A|SUMMARY)$/.test(tag) || (e.target.getAttribute && e.target.getAttribute('role') === 'button') || (e.target.closest && e.target.closest('svg'));
    if (e.key === 'r' || e.key === 'R' || (e.key === ' ' && !onControl)) {
      if (this.canAct() && this.view.turn.stage === 'roll') { e.preventDefault(); this.roll(); }
    } else if (e.key === 'h' || e.key === 'H') {
      if (this.hintAllowed()) { e.preventDefault(); this.askHint(); }
    } else if (e.key === 'f' || e.key === 'F') {
      const b = document.getElementById('flip-board');
      if (b) { e.preventDefault(); b.click(); }
    } else if (e.key === 'p' || e.key === 'P') {
      const b = document.getElementById('show-path');
      if (b) { e.preventDefault(); b.click(); }
    } else if (e.key === 'Escape') {
      if (this.selected || this.pending) { this.selected = null; this.pending = null; this.render(); }
    } else if (e.key === '?') {
      const keys = this.el.keys;
      keys.hidden = !keys.hidden;
    }
  }

  tick() {
    this.keepalive();
    if (Object.keys(this.deadlines).length) { this.renderPlayers(); this.renderStatus(); }
  }

  // ---- drawing

  build() {
    const el = {};
    el.players = { light: h('div', { class: 'player light', 'data-side': 'light' }), dark: h('div', { class: 'player dark', 'data-side': 'dark' }) };
    el.clocks = play.clockBoxes();
    el.svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    el.svg.setAttribute('class', 'board');
    el.svg.setAttribute('id', 'board');
    el.svg.setAttribute('role', 'group');
    el.boardWrap = h('div', { class: 'board-wrap' }, el.svg);
    el.playersTop = h('div', { class: 'player-slot', id: 'players-top' });
    el.playersBottom = h('div', { class: 'player-slot', id: 'players-bottom' });
    el.status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' }, t('game.loading'));
    el.last = h('p', { class: 'last', id: 'last' });
    el.notes = h('p', { class: 'notes', hidden: true });
    el.controls = h('div', { class: 'controls', id: 'controls' });
    el.choices = h('div', { class: 'choices', id: 'choices', role: 'group' });
    el.hint = h('div', { class: 'hint-box', id: 'hints', hidden: true, 'aria-live': 'polite' });
    el.end = h('div', { class: 'end', id: 'end', hidden: true });
    el.share = h('section', { class: 'share card', id: 'share', hidden: true });
    el.allMoves = h('details', { class: 'all-moves', id: 'all-moves' });
    el.options = h('details', { class: 'play-options', id: 'play-options' });
    el.log = h('ol', { class: 'log', id: 'log' });
    el.keys = h('p', { class: 'keys muted small', hidden: true }, t('game.keys'));
    el.watching = h('p', { class: 'watching', hidden: true });
    el.title = h('h1', { class: 'game-title' });
    el.rulesLink = h('a', { class: 'button', id: 'rules-link', href: '#' }, t('game.rules'));
    el.position = positionLine();
    this.el = el;
    this.show();
  }

  show() {
    const el = this.el;
    fill(main(), h('div', { class: 'game', id: 'game' },
      h('div', { class: 'play' },
        h('div', { class: 'game-head' }, el.title, el.rulesLink),
        el.playersTop,
        el.boardWrap,
        el.playersBottom,
        el.position.el,
        el.notes),
      h('div', { class: 'side' },
        el.status,
        el.last,
        el.watching,
        el.choices,
        el.controls,
        el.hint,
        el.end,
        el.share,
        el.allMoves,
        el.options,
        h('section', { class: 'log-box' }, h('h2', {}, t('game.log')), el.log),
        el.keys)));
    this.renderOptions();
    if (this.view) this.render(true);
  }

  render(words) {
    if (words) this.relabel();
    if (!this.view) return;
    const v = this.view;
    const el = this.el;
    el.title.textContent = ruleName(v.rules.id, v.rules.name);
    el.rulesLink.href = '#/rules/' + encodeURIComponent(v.rules.id) + '?game=' + encodeURIComponent(this.id);
    const root = document.getElementById('game');
    if (root) {
      root.dataset.seq = this.seq;
      root.dataset.stage = v.turn.stage;
      root.dataset.turn = v.turn.side || '';
      root.dataset.you = (this.game && this.game.you) || '';
      root.dataset.mode = (this.game && this.game.mode) || '';
      root.dataset.canAct = this.canAct() ? 'true' : 'false';
      root.dataset.winner = v.winner || '';
    }
    this.renderBoard();
    placePlayers(this);
    el.position.show(v);
    this.renderPlayers();
    this.renderStatus();
    this.renderControls();
    this.renderHint();
    this.renderEnd();
    this.renderShare();
    this.renderAllMoves();
    this.renderLog();
    this.drawClocks();
    el.notes.hidden = !(v.position.notes && v.position.notes.length);
    const notes = v.position.note_words ? v.position.note_words.map((w) => say([w], v)) : v.position.notes || [];
    el.notes.textContent = notes.join(' · ');
    el.watching.hidden = !!(this.game && this.game.you);
    el.watching.textContent = t('game.watching');
  }

  relabel() {
    const el = this.el;
    this.renderOptions();
    el.rulesLink.textContent = t('game.rules');
    el.keys.textContent = t('game.keys');
    const logHead = el.log.parentElement && el.log.parentElement.querySelector('h2');
    if (logHead) logHead.textContent = t('game.log');
  }

  renderBoard() {
    const v = this.view;
    const you = this.game && this.game.you;
    const act = this.canAct() && v.turn.stage === 'act' && !this.busy;
    const targets = this.targets();
    let movable = [];
    if (act) {
      const seen = new Set();
      for (const a of this.moves()) {
        if (!a.from) continue;
        const k = spotKey(a.from, v);
        if (!seen.has(k)) { seen.add(k); movable.push(a.from); }
      }
    }
    const sel = act && this.selected ? (this.selected.at === 'square' ? this.selected.square : this.selected.at) : null;
    // Keep the keyboard's place: the focused square or pile is focused again once redrawn.
    const focused = document.activeElement && this.el.svg.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? ['data-square', 'data-reserve', 'data-off'].map((a) => [a, focused.getAttribute(a)]).find(([, val]) => val !== null) : null;
    renderBoard(this.el.svg, v, {
      onSpot: (spot) => this.onSpot(spot),
      say: (words) => say(words, v),
      caption: (kind, side) => pileCaption(v, kind, side),
      markName: (m) => t('mark.' + m),
      selected: sel,
      targets: act ? targets : [],
      captures: act ? this.captureTargets() : [],
      showPath: store.get('ur.showPath', false) ? (you === 'light' || you === 'dark' ? you : (v.turn.side || 'light')) : null,
      flip: flipped(this),
      layout: boardLayout(),
    });
    this.labelBoard(act ? movable : [], act ? targets : []);
    if (focusKey) {
      const again = this.el.svg.querySelector(`[${focusKey[0]}="${focusKey[1]}"]`);
      if (again && again.focus) again.focus({ preventScroll: true });
    }
  }

  /** Accessible names in the page's language: each square says what stands there and what it can do. */
  labelBoard(movable, targets) {
    const v = this.view;
    const svg = this.el.svg;
    // The board holds buttons: a group, not a picture (an img hides its children).
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', t('game.board') + ': ' + ruleName(v.rules.id, v.rules.name));
    const keys = (list) => new Set(list.map((x) => spotKey(x, v)));
    const canMove = keys(movable);
    const canGo = keys(targets);
    const bySquare = new Map();
    for (const p of v.position.pieces || []) {
      if (!bySquare.has(p.square)) bySquare.set(p.square, []);
      bySquare.get(p.square).push(p);
    }
    // The last move's squares stay tinted until the next one.
    const last = this.lastMove ? [this.lastMove.from, this.lastMove.to].filter((x) => x && x.at === 'square').map((x) => x.square) : [];
    for (const g of svg.querySelectorAll('[data-square]')) {
      const id = Number(g.getAttribute('data-square'));
      g.classList.toggle('last-move', last.includes(id));
      const sq = v.board.squares.find((q) => q.id === id);
      if (!sq) continue;
      const parts = [sq.name];
      for (const m of sq.marks) if (t('mark.' + m) !== 'mark.' + m) parts.push(t('mark.' + m));
      for (const p of bySquare.get(id) || []) {
        const what = p.stack && p.stack.length > 1
          ? t('a11y.stack', { n: p.stack.length, side: sideName(v, p.side) })
          : t('a11y.pieces', { n: p.count || 1, side: sideName(v, p.side) });
        parts.push(what + (p.face ? ' (' + t('face.' + p.face) + ')' : ''));
      }
      const k = 'sq:' + id;
      g.classList.toggle('can-move', canMove.has(k) && !canGo.size);
      if (canMove.has(k)) parts.push(t('a11y.canMove'));
      if (canGo.has(k)) parts.push(t('a11y.moveHere'));
      g.setAttribute('aria-label', parts.join(', '));
    }
    for (const kind of ['reserve', 'off']) {
      for (const side of SIDES) {
        const g = svg.querySelector(`[data-${kind}="${side}"]`);
        if (!g) continue;
        const n = v.position[kind][side === 'light' ? 0 : 1];
        // The visible caption and count first, so the accessible name contains what is seen.
        const parts = [pileCaption(v, kind, side) + ' ' + n, t(kind === 'off' ? offKey(v) : 'spot.reserve', { side: sideName(v, side) })];
        const k = spotKey({ at: kind, side }, v);
        g.classList.toggle('can-move', canMove.has(k) && !canGo.size);
        if (canMove.has(k)) parts.push(t('a11y.canMove'));
        if (canGo.has(k)) parts.push(t('a11y.moveHere'));
        g.setAttribute('aria-label', parts.join(', '));
      }
    }
  }

  seatText(side) {
    const seat = this.seats && this.seats[side];
    if (!seat) return '';
    if (seat.kind === 'bot') return t('game.bot');
    if (!this.online) return t('game.connUnknown');
    const dl = this.deadlines[side];
    if (dl) return t('game.countdown', { time: fmtTime(dl - Date.now()) });
    if (seat.connected) return t('game.connected');
    return this.view && this.game && this.game.mode === 'online' ? t('game.waitingJoin') : t('game.disconnected');
  }

  renderPlayers() {
    if (!this.view) return;
    const v = this.view;
    const you = this.game && this.game.you;
    for (const side of SIDES) {
      const box = this.el.players[side];
      const seat = this.seats && this.seats[side];
      const isTurn = v.turn.side === side && !v.winner;
      const idx = side === 'light' ? 0 : 1;
      const reserve = v.position.reserve ? v.position.reserve[idx] : 0;
      const off = v.position.off ? v.position.off[idx] : 0;
      let dot = seat ? (seat.kind === 'bot' ? 'bot' : (this.deadlines[side] ? 'away' : (seat.connected ? 'on' : 'off'))) : 'none';
      // Our own connection is down: what the server last said of a person is stale.
      if (!this.online && seat && seat.kind !== 'bot') dot = 'unknown';
      box.className = 'player ' + side + (isTurn ? ' turn' : '') + (v.winner === side ? ' won' : '');
      fill(box, 
        h('span', { class: 'disc ' + ((v.sides && v.sides[idx] && v.sides[idx].tone) || side), 'aria-hidden': 'true' }),
        h('span', { class: 'name' }, sideName(v, side)),
        (you === side || (you === 'both')) && this.game.mode !== 'hotseat' ? h('span', { class: 'tag' }, t('game.you')) : null,
        h('span', { class: 'conn ' + dot, 'data-presence': side }, h('span', { class: 'dot', 'aria-hidden': 'true' }), this.seatText(side)),
        h('span', { class: 'counts', 'aria-label': t('spot.reserve', { side: sideName(v, side) }) + ': ' + reserve + ', ' + t(offKey(v), { side: sideName(v, side) }) + ': ' + off },
          '⟲ ' + reserve + '  ' + offSign(v) + ' ' + off));
    }
  }

  statusText() {
    const v = this.view;
    if (!v) return t('game.loading');
    if (v.expired) return t('status.expired');
    if (v.winner) {
      if (v.abandoned) return v.winner === 'draw' ? t('status.abandonedDraw') : t('status.abandoned', { side: sideName(v, v.winner === 'light' ? 'dark' : 'light'), winner: sideName(v, v.winner) });
      const how = play.endText(this.game);
      return this.resultText(v) + (how ? ' (' + how + ')' : '');
    }
    const side = v.turn.side;
    const name = sideName(v, side);
    const stage = v.turn.stage;
    const onlyChoices = stage === 'act' && v.actions.length > 0 && v.actions.every((a) => a.kind === 'choice');
    const thr = v.throw && stage === 'act' ? v.throw.value : null;
    if (this.canAct()) {
      const hot = this.game.mode === 'hotseat' || this.game.you === 'both';
      const throwText = thr === null ? '' : t('status.throw', { value: thr });
      if (this.pending) return t('game.choices');
      if (stage === 'roll') return hot ? t('status.hotRoll', { side: name }) : t('status.yourRoll');
      if (this.selected) return t('status.selected');
      if (onlyChoices) return hot ? t('status.hotChoice', { side: name, throw: throwText }) : t('status.yourChoice', { throw: throwText });
      return hot ? t('status.hotMove', { side: name, throw: throwText }) : t('status.yourMove', { throw: throwText });
    }
    const seat = this.seats && this.seats[side];
    if (seat && seat.kind === 'bot') return t('status.botThinking', { side: name });
    if (seat && this.deadlines[side]) return t('status.waitReconnect', { side: name, time: fmtTime(this.deadlines[side] - Date.now()) });
    if (seat && !seat.connected && this.game && this.game.mode === 'online' && this.game.you) return t('status.waitJoin');
    const throwShort = thr === null ? '' : t('status.throwShort', { value: thr });
    if (stage === 'roll') return t('status.sideRoll', { side: name });
    if (onlyChoices) return t('status.sideChoice', { side: name, throw: throwShort });
    return t('status.sideMove', { side: name, throw: throwShort });
  }

  renderStatus() {
    const el = this.el.status;
    let text = this.statusText();
    if (this.everOnline && !this.online && !this.closed) text = t('game.offline') + ' ' + text;
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle('mine', this.canAct());
    el.classList.toggle('offline', this.everOnline && !this.online);
    const mine = this.canAct();
    document.title = (mine ? '● ' : '') + (this.view ? ruleName(this.view.rules.id, this.view.rules.name) + ' · ' : '') + t('app.title');
  }

  resultText(v) {
    if (v.winner === 'draw') return t('status.draw');
    const you = this.game && this.game.you;
    if (you && you !== 'both') return you === v.winner ? t('status.youWin') : t('status.youLose', { side: sideName(v, v.winner) });
    return t('status.sideWins', { side: sideName(v, v.winner) });
  }

  renderControls() {
    const v = this.view;
    if (!v) return;
    const el = this.el;
    const can = this.canAct();
    const buttons = [];
    if (can && v.turn.stage === 'roll') {
      buttons.push(h('button', { type: 'button', class: 'primary big roll', id: 'roll', title: t('game.rollKey'), disabled: this.busy, onclick: () => this.roll() }, t('game.roll')));
    }
    if (this.game && this.game.mode === 'bot' && !v.winner && hintsWork(v)) {
      buttons.push(h('button', { type: 'button', id: 'hint', title: t('game.hintKey'), disabled: !this.hintAllowed() || this.busy, onclick: () => this.askHint() }, t('game.hint')));
    }
    const showing = !!store.get('ur.showPath', false);
    buttons.push(h('button', { type: 'button', id: 'show-path', 'aria-pressed': showing ? 'true' : 'false', title: t('game.pathKey'), onclick: () => {
      store.set('ur.showPath', !showing);
      this.renderBoard();
      this.renderControls();
    } }, t('game.path')));
    buttons.push(flipButton(this));
    if (this.selected || this.pending) {
      buttons.push(h('button', { type: 'button', class: 'link', onclick: () => { this.selected = null; this.pending = null; this.render(); } }, t('game.cancel')));
    }
    buttons.push(...play.endingButtons(this));
    fill(el.controls, ...buttons);

    // Choices the rules ask in words, and several moves between one pair of squares.
    const choices = this.pending || (can && v.turn.stage === 'act' ? v.actions.filter((a) => a.kind === 'choice') : []);
    fill(el.choices, ...(choices.length ? [
      h('p', { class: 'choices-head' }, t('game.choices')),
      ...choices.map((a) => h('button', { type: 'button', class: 'choice', 'data-action': a.index, disabled: this.busy, onclick: () => this.act(a.index) }, spoken(a, this.view))),
    ] : []));
    el.choices.setAttribute('aria-label', t('game.choices'));
    el.choices.hidden = !choices.length;
  }

  renderHint() {
    const box = this.el.hint;
    const m = this.hint;
    if (!m || !this.view || m.seq !== this.seq) { box.hidden = true; fill(box); return; }
    const byIndex = new Map(this.view.actions.map((a) => [a.index, a]));
    const moves = (m.moves || []).slice().sort((a, b) => b.win - a.win);
    box.hidden = false;
    if (!moves.length) { fill(box, h('p', {}, t('game.hints.none'))); return; }
    const best = moves[0].win;
    fill(box, 
      h('h2', {}, t('game.hints.heading')),
      h('p', { class: 'muted small judge', 'data-judge': m.judge }, judgeText(m.judge)),
      h('ol', { class: 'hints' }, moves.map((mv) => {
        const a = byIndex.get(mv.index);
        const pct = (mv.win * 100).toFixed(1).replace('.', lang() === 'fr' ? ',' : '.') + ' %';
        return h('li', {},
          h('button', { type: 'button', class: 'link', disabled: this.busy, onclick: () => this.act(mv.index) }, a ? spoken(a, this.view) : '#' + mv.index),
          h('span', { class: 'win' + (mv.win === best ? ' best' : '') }, pct),
          mv.win === best ? h('span', { class: 'tag' }, t('game.hints.best')) : null);
      })));
  }

  renderEnd() {
    const v = this.view;
    const box = this.el.end;
    if (!v.winner) { box.hidden = true; fill(box); return; }
    box.hidden = false;
    const info = this.info();
    const online = this.game && this.game.mode === 'online';
    const again = online ? play.rematchButton(this) : info.lobby && this.token ? h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => this.rematch(info.lobby) }, t('game.rematch')) : null;
    fill(box, 
      h('p', { class: 'result' }, this.statusText()),
      h('div', { class: 'row' },
        h('a', { class: 'button', id: 'record', href: '/api/games/' + encodeURIComponent(this.id) + '/record', download: 'ur-' + v.rules.id + '-' + this.id.slice(0, 8) + '.json' }, t('game.record')),
        h('a', { class: 'button', id: 'record-rgn', href: '/api/games/' + encodeURIComponent(this.id) + '/record?format=rgn', download: 'ur-' + v.rules.id + '-' + this.id.slice(0, 8) + '.rgn', title: t('game.recordRgn.title') }, t('game.recordRgn')),
        h('a', { class: 'button', id: 'review-game', href: '#/review/' + encodeURIComponent(this.id) }, t('game.review')),
        again,
        h('a', { class: 'button', id: 'new-game', href: '#/' }, t('game.newGame'))));
  }

  async rematch(body) {
    try {
      const res = await fetchJSON('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const info = this.info();
      rememberGame(res.id, { token: res.token, seat: res.seat, invite: res.invite, watch: res.watch, mode: body.mode, name: info.name, lobby: body });
      go('#/game/' + encodeURIComponent(res.id));
    } catch (err) {
      toast(t('lobby.error', { message: errorText(err) }), 'error');
    }
  }

  renderShare() {
    const box = this.el.share;
    const info = this.info();
    const online = this.game && this.game.mode === 'online';
    if (!online || !this.token || this.view.winner) { box.hidden = true; return; }
    const abs = (link) => (link ? new URL(link, location.origin + '/').href : null);
    const invite = abs(info.invite);
    const watch = abs(info.watch) || (location.origin + '/#/game/' + encodeURIComponent(this.id));
    // With the watch link alone the card's heading names it: its label is for screen readers only.
    const field = (id, label, help, value) => h('div', { class: 'link-field' },
      h('label', { for: id, class: invite ? null : 'sr-only' }, label),
      h('p', { class: 'muted small' }, help),
      h('div', { class: 'copy-row' },
        h('input', { id, type: 'text', readOnly: true, value, onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', onclick: async (e) => {
          const b = e.currentTarget;
          try { await navigator.clipboard.writeText(value); } catch (_) {
            const input = document.getElementById(id);
            input.select();
            try { document.execCommand('copy'); } catch (__) { /* nothing */ }
          }
          b.textContent = t('game.share.copied');
          setTimeout(() => { b.textContent = t('game.share.copy'); }, 1500);
        } }, t('game.share.copy'))));
    box.hidden = false;
    fill(box, 
      h('h2', {}, invite ? t('game.share') : t('game.share.watchLabel')),
      invite ? field('invite-link', t('game.share.inviteLabel'), t('game.share.invite'), invite) : null,
      field('watch-link', t('game.share.watchLabel'), t('game.share.watch'), watch));
  }

  /** The player's own ways of playing: kept in this browser. */
  renderOptions() {
    const box = this.el.options;
    const open = box.open;
    const toggle = (key, id, label) => h('label', { class: 'option-toggle' },
      h('input', { type: 'checkbox', id, checked: !!store.get(key, key === OPTIONS.animate), onchange: (e) => {
        store.set(key, e.target.checked);
        if (key === OPTIONS.autoRoll) this.autoRoll();
        if (key === OPTIONS.forced) this.playForced();
      } }), ' ', label);
    fill(box,
      h('summary', {}, t('game.options')),
      toggle(OPTIONS.autoRoll, 'opt-auto-roll', t('game.opt.autoRoll')),
      toggle(OPTIONS.oneClick, 'opt-one-click', t('game.opt.oneClick')),
      toggle(OPTIONS.forced, 'opt-forced', t('game.opt.forced')),
      toggle(OPTIONS.animate, 'opt-animate', t('game.opt.animate')),
      toggle(OPTIONS.sound, 'opt-sound', t('game.opt.sound')));
    box.open = open;
  }

  renderAllMoves() {
    const box = this.el.allMoves;
    const moves = this.canAct() && this.view.turn.stage === 'act' ? this.moves() : [];
    const open = box.open;
    box.hidden = !moves.length;
    fill(box, 
      h('summary', {}, t('game.allMoves')),
      h('ul', {}, moves.map((a) => h('li', {}, h('button', { type: 'button', class: 'link', 'data-action': a.index, disabled: this.busy, onclick: () => this.act(a.index) }, spoken(a, this.view))))));
    box.open = open;
  }

  renderLog() {
    // The latest steps under the status line: what the other side just did.
    const v = this.view;
    const recent = this.log.slice(-3);
    fill(this.el.last, ...recent.map((e) => h('span', { class: 'by-' + e.side }, play.logText(e, v))));
    this.el.last.hidden = !recent.length;
    const list = this.el.log;
    if (!this.log.length) { fill(list, h('li', { class: 'muted' }, t('game.log.empty'))); return; }
    const items = this.log.map((e) => h('li', { class: 'by-' + e.side + (e.pass ? ' pass' : ''), value: e.n, 'data-n': e.n }, play.logText(e, v)));
    if (v.winner) items.push(h('li', { class: 'event' }, this.statusText()));
    fill(list, ...items);
    list.scrollTop = list.scrollHeight;
  }
}

// The player's options of play, by their keys in the browser's storage.
const OPTIONS = { autoRoll: 'ur.autoRoll', oneClick: 'ur.oneClick', forced: 'ur.forced', animate: MOTION, sound: SOUND };
const AUTO_ROLL_MS = 500;

/** Whether the server answers hints in this game's family (race games only). */
function hintsWork(view) {
  if (!view.rules) return true;
  if (typeof view.rules.hints === 'boolean') return view.rules.hints;
  return !view.rules.family || view.rules.family === 'race';
}

/** Where a hint's win chances come from, in words. */
function judgeText(judge) {
  if (judge === 'table') return t('game.hints.table');
  if (/^net:\d+$/.test(judge || '')) return t('game.hints.network');
  return t('game.hints.search');
}

/** The tower games' off pile holds eliminated pieces, not pieces home. */
function offKey(view) {
  return view.rules && view.rules.family === 'tower' ? 'spot.lost' : 'spot.off';
}

function offSign(view) {
  return view.rules && view.rules.family === 'tower' ? '✕' : '✓';
}

/** An action's or a throw's words in the page's language (its English text if it has none). */
function spoken(x, view) {
  return say(x.words, view) || x.text;
}

function sameThrow(a, b) {
  if (!a || !b) return false;
  return a.value === b.value && a.kind === b.kind && JSON.stringify(a.dice) === JSON.stringify(b.dice);
}

/** Which of the previous view's moves the new position shows (a guess for the log). */
function guessAction(prev, view) {
  const side = prev.turn.side;
  const count = (v, sq) => v.position.pieces.filter((p) => p.square === sq && (p.side === side || (p.stack && p.stack[p.stack.length - 1] === side))).reduce((n, p) => n + (p.count || 1), 0);
  const idx = side === 'light' ? 0 : 1;
  let best = null;
  let bestScore = 0;
  for (const a of prev.actions) {
    if (a.kind !== 'move') continue;
    let score = 0;
    if (a.to && a.to.at === 'square' && count(view, a.to.square) > count(prev, a.to.square)) score += 2;
    if (a.to && a.to.at === 'square' && count(view, a.to.square) > 0) score += 1;
    if (a.to && a.to.at === 'off' && view.position.off[idx] > prev.position.off[idx]) score += 3;
    if (a.from && a.from.at === 'square' && count(view, a.from.square) < count(prev, a.from.square)) score += 2;
    if (a.from && a.from.at === 'reserve' && view.position.reserve[idx] < prev.position.reserve[idx]) score += 2;
    if (score > bestScore) { best = a; bestScore = score; }
  }
  return best;
}

// -------------------------------------------------------------------- start

function start() {
  renderHeader();
  window.addEventListener('hashchange', route);
  onLayoutChange(() => { if (app.screen && app.screen.view) app.screen.renderBoard(); });
  route();
}

start();
