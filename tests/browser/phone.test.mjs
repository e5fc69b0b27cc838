// A board for each player: a whole game on a phone (390 x 844, touch) played
// with finger drags, every tap target at least 44 x 44 CSS px and every board
// text readable; the flip button; the Dark seat's side nearest to its player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, person, apiGame, waitTurn, waitChange, pickAction, step, seeded, assertNoErrors, repo } from './lib.mjs';

let server;
let browser;
serverAndBrowser((s, b) => { server = s; browser = b; });

const PHONE = { viewport: { width: 390, height: 844 }, device: { hasTouch: true, isMobile: true } };
const shots = path.join(repo, 'docs/screenshots');

/** Interactive elements on show smaller than 44 x 44 CSS px (a checkbox or radio counts its label). */
function smallTargets() {
  const sel = 'a[href], button, input, select, summary, textarea, [role=button], [tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (e.closest('[hidden]') || e.closest('details:not([open]) > :not(summary)')) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const label = (e.type === 'checkbox' || e.type === 'radio' || e.type === 'file') ? e.closest('label') : null;
    const r = (label || e).getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) {
      out.push(`${e.tagName.toLowerCase()}#${e.id || ''}.${String(e.className.baseVal ?? e.className).replace(/\s+/g, '.')} "${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30)}" ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
    }
  }
  return out;
}

/** The smallest board text on screen, in CSS px (square labels, pile captions, the throw's words). */
function smallestBoardText() {
  let min = Infinity;
  for (const e of document.querySelectorAll('svg.board .square-label, svg.board .pile-caption, svg.board .dice-text')) {
    const r = e.getBoundingClientRect();
    if (r.height) min = Math.min(min, r.height);
  }
  return min;
}

/** A finger drag on the screen, from one element's centre to another's, as the touchscreen reports it. */
async function touchDrag(page, cdp, from, to) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  assert.ok(a && b, 'both ends of the drag are on screen');
  const p0 = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  const p1 = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [p0] });
  const steps = 8;
  for (let i = 1; i <= steps; i += 1) {
    const p = { x: p0.x + ((p1.x - p0.x) * i) / steps, y: p0.y + ((p1.y - p0.y) * i) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** Taps a button until the page acts on it: a synthesized click is lost when a layout shift moves the button under the finger. */
async function tapUntilSent(page, locator, seq) {
  for (let i = 0; i < 5; i += 1) {
    await locator.tap();
    try {
      await page.waitForFunction((q) => window.urApp.screen.seq !== q || window.urApp.screen.busy, seq, { timeout: 5000 });
      return;
    } catch (_) { /* the tap missed: again */ }
  }
  throw new Error('five taps on the button changed nothing');
}

function spotLocator(page, spot, side) {
  if (spot.at === 'square') return page.locator(`svg.board [data-square="${spot.square}"]`);
  return page.locator(`svg.board [data-${spot.at}="${side}"]`);
}

test('a whole Finkel game on a phone, played with finger drags, no tap target under 44 px', { timeout: 600000 }, async () => {
  const me = await person(browser, server, PHONE);
  const { page } = me;
  const g = await apiGame(server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light' });
  await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  const cdp = await me.context.newCDPSession(page);
  assert.equal(await page.getAttribute('#board', 'data-layout'), 'tall', 'the phone gets the tall layout');
  const head = await page.evaluate(() => ({ h: document.getElementById('top').getBoundingClientRect().height, w: document.documentElement.scrollWidth }));
  assert.ok(head.h < 64, `the header fits one line (${head.h} px high)`);
  assert.ok(head.w <= 390, `nothing scrolls sideways (${head.w} px wide)`);
  const rng = seeded(7);
  let drags = 0;
  let checked = 0;
  for (let i = 0; i < 3000; i += 1) {
    const st = await waitTurn(page, 60000);
    if (st.winner) break;
    if (i % 25 === 0) {
      assert.deepEqual(await page.evaluate(smallTargets), [], `step ${i}: tap targets under 44 px`);
      const text = await page.evaluate(smallestBoardText);
      assert.ok(text >= 11, `step ${i}: board texts are at least 11 px (${text})`);
      checked += 1;
    }
    if (st.stage === 'roll') {
      await tapUntilSent(page, page.locator('#roll'), st.seq);
    } else {
      const a = pickAction(st, rng);
      if (a.kind === 'choice' || !a.to || !a.from) {
        await tapUntilSent(page, page.locator(`#choices button[data-action="${a.index}"]`), st.seq);
      } else {
        await touchDrag(page, cdp, spotLocator(page, a.from, st.turn), spotLocator(page, a.to, st.turn));
        drags += 1;
        // Two moves between the same squares ask which: a button.
        await page.waitForFunction((q) => window.urApp.screen.seq !== q || window.urApp.screen.pending || window.urApp.screen.busy, st.seq, { timeout: 10000 });
        if (await page.evaluate(() => !!window.urApp.screen.pending)) await tapUntilSent(page, page.locator(`#choices button[data-action="${a.index}"]`), st.seq);
      }
    }
    await waitChange(page, st.seq);
  }
  const end = await waitTurn(page);
  assert.ok(end.winner, 'the game ended');
  assert.ok(drags >= 20, `the moves were finger drags (${drags})`);
  assert.ok(checked >= 2);
  assert.deepEqual(await page.evaluate(smallTargets), [], 'tap targets at the end');
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'phone.png'), scale: 'css' });
  assertNoErrors(me);
  await me.context.close();
});

test('the flip button turns the board, and the game remembers it', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  const g = await apiGame(server, { rules: 'finkel', mode: 'hotseat' });
  const other = await apiGame(server, { rules: 'finkel', mode: 'hotseat' });
  await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  const layout = () => page.evaluate(() => {
    const y = (sel) => document.querySelector(sel).getBoundingClientRect().top;
    return {
      flip: document.getElementById('board').dataset.flip,
      lightBelow: y('svg.board [data-reserve="light"]') > y('svg.board [data-reserve="dark"]'),
      lightRowBelow: y('svg.board [data-name="a1"]') > y('svg.board [data-name="a3"]'),
      bottomPlayer: document.querySelector('#players-bottom .player').dataset.side,
    };
  });
  assert.deepEqual(await layout(), { flip: 'false', lightBelow: true, lightRowBelow: true, bottomPlayer: 'light' }, 'hot-seat: light nearest, as always');
  assert.equal(await page.getAttribute('#flip-board', 'aria-pressed'), 'false');
  await page.click('#flip-board');
  assert.deepEqual(await layout(), { flip: 'true', lightBelow: false, lightRowBelow: false, bottomPlayer: 'dark' }, 'flipped');
  assert.equal(await page.getAttribute('#flip-board', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  assert.equal((await layout()).flip, 'true', 'the game remembers its flip');
  await page.goto(`${server.url}/#/game/${other.id}?token=${encodeURIComponent(other.token)}`);
  await page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view, other.id);
  assert.equal((await layout()).flip, 'false', 'another game is not flipped');
  await page.keyboard.press('f');
  assert.equal((await layout()).flip, 'true', 'the f key flips too');
  // The desktop picture: a few moves in, a piece picked up.
  const rng = seeded(12);
  for (let i = 0; i < 14; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (i >= 8 && st.stage === 'act' && st.actions.some((a) => a.kind === 'move' && a.from)) break;
    await step(page, rng);
  }
  const st = await waitTurn(page);
  const mv = st.actions.find((a) => a.kind === 'move' && a.from);
  if (mv) await spotLocator(page, mv.from, st.turn).click({ force: true });
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'game.png'), scale: 'css' });
  assertNoErrors(me);
  await me.context.close();
});

test('the Dark seat sees its own side nearest, and its invitee the same', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  const g = await apiGame(server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'dark' });
  await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game);
  const facts = await page.evaluate(() => {
    const y = (sel) => document.querySelector(sel).getBoundingClientRect().top;
    return {
      flip: document.getElementById('board').dataset.flip,
      darkBelow: y('svg.board [data-reserve="dark"]') > y('svg.board [data-reserve="light"]'),
      darkRowBelow: y('svg.board [data-name="a3"]') > y('svg.board [data-name="a1"]'),
      bottomPlayer: document.querySelector('#players-bottom .player').dataset.side,
    };
  });
  assert.deepEqual(facts, { flip: 'true', darkBelow: true, darkRowBelow: true, bottomPlayer: 'dark' });
  // An online game's Dark invitee: the invitation's board is turned the same way.
  const online = await apiGame(server, { rules: 'finkel', mode: 'online', seat: 'light' });
  const guest = await person(browser, server);
  await guest.page.goto(server.url + online.invite);
  await guest.page.waitForSelector('#invite-board [data-reserve]');
  assert.equal(await guest.page.getAttribute('#invite-board', 'data-flip'), 'true');
  assertNoErrors(me);
  assertNoErrors(guest);
  await me.context.close();
  await guest.context.close();
});

test('a board too long for the phone turns a quarter: Aseb and every other rule set keep 44 px squares', { timeout: 120000 }, async () => {
  const me = await person(browser, server, PHONE);
  const { page } = me;
  const rules = await (await fetch(server.url + '/api/rules')).json();
  for (const r of rules) {
    const g = await apiGame(server, { rules: r.id, mode: 'hotseat' });
    await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
    await page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view, g.id);
    const layout = await page.getAttribute('#board', 'data-layout');
    assert.equal(layout, r.id === 'aseb' ? 'portrait' : 'tall', r.id);
    assert.deepEqual(await page.evaluate(smallTargets), [], `${r.id}: tap targets under 44 px`);
    const text = await page.evaluate(smallestBoardText);
    assert.ok(text >= 11, `${r.id}: board texts are at least 11 px (${text})`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), `${r.id}: nothing scrolls sideways`);
  }
  assertNoErrors(me);
  await me.context.close();
});
