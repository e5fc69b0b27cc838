// The game's log as the server keeps it, its clocks, and the players' own
// ways to end it: resign, a draw by agreement, a rematch (docs/serve.md).

import { t, sideName, say } from './i18n.js';
import { h } from './dom.js';

/** Takes a view message's log part: entries from `log_from` on replace what was held. */
export function takeLog(log, msg) {
  if (!Array.isArray(msg.log)) return [];
  const from = Math.min(msg.log_from || 0, log.length);
  log.length = from;
  log.push(...msg.log);
  return msg.log;
}

/** One log entry in the page's language. */
export function logText(e, view) {
  const side = sideName(view, e.side);
  const said = say(e.words, view);
  if (e.throw !== null && e.throw !== undefined) {
    const threw = t('game.log.threw', { side, text: said });
    if (!e.pass) return threw;
    // A zero already says "no move": only the passing turn is left to say.
    const zero = (e.words || []).some((w) => w.key === 'throw.no_move');
    return threw + ' — ' + t(zero ? 'game.log.turnPasses' : 'game.log.pass');
  }
  if (e.action && e.words && e.words[0] && e.words[0].key.startsWith('act.')) return t('game.log.moved', { side, text: said });
  return said;
}

/** How a game ended besides the board: "on time", "by resignation", "by agreement". */
export function endText(game) {
  return game && game.end && game.end !== 'play' ? t('game.end.' + game.end) : '';
}

/** Milliseconds as m:ss, or h:mm:ss, with tenths under ten seconds. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return (Math.floor(left / 100) / 10).toFixed(1);
  const s = Math.ceil(left / 1000);
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const two = (n) => String(n).padStart(2, '0');
  return hms[0] ? `${hms[0]}:${two(hms[1])}:${two(hms[2])}` : `${hms[1]}:${two(hms[2])}`;
}

/** A side's remaining time now, from the clock the server sent at `at`. */
export function remaining(clock, side, at, now = Date.now()) {
  const ms = clock[side + '_ms'];
  return clock.running === side ? ms - (now - at) : ms;
}

/** Whether a side's time is low: under 20 s, or a tenth of its time. */
export function lowTime(clock, ms) {
  return ms < Math.min(20000, clock.initial_s * 100) || ms < 10000;
}

/** The clock boxes of both sides. */
export function clockBoxes() {
  const box = (side) => h('div', { class: 'clock', id: 'clock-' + side, 'data-side': side, hidden: true, role: 'timer', 'aria-live': 'off' });
  return { light: box('light'), dark: box('dark') };
}

/** Draws both clocks now. */
export function drawClocks(boxes, game, at, view) {
  const clock = game && game.clock;
  for (const side of ['light', 'dark']) {
    const el = boxes[side];
    el.hidden = !clock;
    if (!clock) continue;
    const ms = remaining(clock, side, at);
    el.textContent = clockText(ms);
    el.setAttribute('aria-label', t('game.clock.label', { side: sideName(view, side), time: clockText(ms) }));
    el.dataset.ms = String(Math.max(0, Math.round(ms)));
    el.classList.toggle('running', clock.running === side);
    el.classList.toggle('low', lowTime(clock, ms));
  }
}

/** The clock presets of the new-game screen: `value` is `initial+increment`, or `day` for a day per move. */
export const CLOCK_PRESETS = [
  { value: '', clock: null },
  { value: '1+1', clock: { initial_s: 60, increment_s: 1 } },
  { value: '3+2', clock: { initial_s: 180, increment_s: 2 } },
  { value: '5+3', clock: { initial_s: 300, increment_s: 3 } },
  { value: '10+5', clock: { initial_s: 600, increment_s: 5 } },
  { value: 'day', clock: { initial_s: 86400, increment_s: 0, per_move: true } },
];

/** The clock field of the new-game screen (online games). */
export function clockField(value, onChange) {
  const select = h('select', { id: 'clock', name: 'clock', onchange: (e) => onChange(e.target.value) },
    CLOCK_PRESETS.map((p) => h('option', { value: p.value, selected: p.value === (value || '') },
      p.value === '' ? t('lobby.clock.none') : p.value === 'day' ? t('lobby.clock.day') : p.value)));
  return h('label', { class: 'field' }, h('span', {}, t('lobby.clock')), select);
}

/** The clock a preset value gives, or null. */
export function presetClock(value) {
  const p = CLOCK_PRESETS.find((x) => x.value === value);
  return p ? p.clock : null;
}

/**
 * The buttons to end a game in play: resign (confirmed by a second click),
 * and in the tower games online, offer, accept or decline a draw.
 */
export function endingButtons(screen) {
  const v = screen.view;
  const g = screen.game;
  const you = g && g.you;
  if (!v || !g || !you || g.status !== 'playing') return [];
  const me = you === 'both' ? v.turn.side : you;
  const out = [];
  const send = (msg) => { if (screen.send({ ...msg, seq: screen.seq })) screen.busy = true; };
  if (screen.confirmResign) {
    out.push(h('button', { type: 'button', class: 'danger', id: 'resign-confirm', onclick: () => { screen.confirmResign = false; send({ t: 'resign' }); } }, t('game.resign.confirm')));
    out.push(h('button', { type: 'button', class: 'link', id: 'resign-cancel', onclick: () => { screen.confirmResign = false; screen.renderControls(); } }, t('game.cancel')));
  } else {
    out.push(h('button', { type: 'button', id: 'resign', onclick: () => { screen.confirmResign = true; screen.renderControls(); } }, t('game.resign')));
  }
  if (v.rules.family === 'tower' && g.mode !== 'bot' && me) {
    const offer = g.draw_offer;
    if (offer && offer !== me) {
      out.push(h('button', { type: 'button', class: 'primary', id: 'draw-accept', onclick: () => send({ t: 'draw', offer: true }) }, t('game.draw.accept')));
      out.push(h('button', { type: 'button', id: 'draw-decline', onclick: () => send({ t: 'draw', offer: false }) }, t('game.draw.decline')));
    } else {
      out.push(h('button', { type: 'button', id: 'draw-offer', disabled: offer === me, onclick: () => send({ t: 'draw', offer: true }) }, offer === me ? t('game.draw.offered') : t('game.draw.offer')));
    }
  }
  return out;
}

/** The rematch button of a finished online game, for its players. */
export function rematchButton(screen) {
  const g = screen.game;
  if (!g || g.mode !== 'online' || !screen.token || (g.you !== 'light' && g.you !== 'dark')) return null;
  const offered = (g.rematch && g.rematch.offered) || [];
  const mine = offered.includes(g.you);
  const theirs = offered.some((s) => s !== g.you);
  const label = mine ? t('game.rematch.waiting') : theirs ? t('game.rematch.accept') : t('game.rematch.offer');
  return h('button', { type: 'button', class: mine ? '' : 'primary', id: 'rematch', 'aria-pressed': mine ? 'true' : 'false',
    onclick: () => screen.send({ t: 'rematch', accept: !mine }) }, label);
}
