// A screenshot of the board of every one of the 17 rule sets, a few moves
// in (tests/browser/artefacts/board-<id>.png), the rules page one click from
// each board, and the page at phone width with nothing scrolling sideways.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launch, person, apiGame, state, step, waitTurn, seeded, assertNoErrors, artefacts } from './lib.mjs';

let server;
let browser;
let rules;

before(async () => {
  server = await startServer();
  browser = await launch();
  rules = await (await fetch(server.url + '/api/rules')).json();
  fs.mkdirSync(artefacts, { recursive: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('GET /api/rules lists the 17 rule sets of three families', () => {
  assert.equal(rules.length, 17, rules.map((r) => r.id).join(' '));
  const families = new Set(rules.map((r) => r.family));
  assert.deepEqual([...families].sort(), ['bens', 'race', 'tower']);
});

test('the board of every rule set, a few moves in, and its rules one click away', { timeout: 240000 }, async () => {
  const me = await person(browser, server, { viewport: { width: 1100, height: 820 } });
  const { page } = me;
  for (const [i, r] of rules.entries()) {
    const g = await apiGame(server, { rules: r.id, mode: 'hotseat' });
    await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
    await page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view, g.id);
    const rng = seeded(100 + i);
    // Some moves, stopping on a decision so the dice and the lit pieces show.
    let steps = 0;
    for (; steps < 40; steps += 1) {
      const st = await waitTurn(page);
      if (st.winner) break;
      if (steps >= 12 && st.stage === 'act' && st.actions.some((a) => a.kind === 'move')) break;
      await step(page, rng);
    }
    const st = await state(page);
    const squares = await page.locator('svg.board [data-square]').count();
    assert.ok(squares >= 12, `${r.id}: the board has its squares (${squares})`);
    // Light up a piece's destinations for the picture.
    const mv = st.actions.find((a) => a.kind === 'move' && a.from);
    if (mv) {
      const sel = mv.from.at === 'square' ? `svg.board [data-square="${mv.from.square}"]` : `svg.board [data-${mv.from.at}="${st.turn}"]`;
      await page.locator(sel).first().click({ force: true });
      await page.waitForFunction(() => window.urApp.screen.selected || window.urApp.screen.pending);
    }
    await page.locator('.play').screenshot({ path: path.join(artefacts, `board-${r.id}.png`), scale: 'css' });
    // The rules, one click from the board, and back.
    await page.click('#rules-link');
    await page.waitForSelector('#rules-page .summary-text');
    if (r.family !== 'tower' || true) await page.waitForSelector('#rules-page svg[data-path]');
    if (i === 0 || r.id === 'regency-murray' || r.id === 'ravensburg-1977') {
      await page.screenshot({ path: path.join(artefacts, `rules-${r.id}.png`), fullPage: true, scale: 'css' });
    }
    await page.click('#back-to-game');
    await page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view, g.id);
  }
  assertNoErrors(me);
  await me.context.close();
});

test('phone width: the board fills the width, the controls stack, nothing scrolls sideways', { timeout: 120000 }, async () => {
  const me = await person(browser, server, { viewport: { width: 375, height: 740 }, locale: 'fr-FR', colorScheme: 'dark' });
  const { page } = me;
  await page.goto(server.url + '/');
  await page.waitForSelector('#options > *');
  await page.screenshot({ path: path.join(artefacts, 'lobby-phone-fr.png'), fullPage: true, scale: 'css' });
  const g = await apiGame(server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light' });
  await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  const rng = seeded(5);
  for (let i = 0; i < 8; i += 1) {
    const st = await waitTurn(page);
    if (st.winner || (i > 4 && st.stage === 'roll')) break;
    await step(page, rng);
  }
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    board: document.querySelector('svg.board').getBoundingClientRect().width,
  }));
  assert.ok(sizes.scroll <= sizes.inner, `no sideways scroll (${sizes.scroll} > ${sizes.inner})`);
  assert.ok(sizes.board >= sizes.inner * 0.85, `the board fills the width (${sizes.board} of ${sizes.inner})`);
  await page.screenshot({ path: path.join(artefacts, 'game-phone-fr.png'), fullPage: true, scale: 'css' });
  assertNoErrors(me);
  await me.context.close();

  const desk = await person(browser, server, { viewport: { width: 1280, height: 860 } });
  await desk.page.goto(server.url + '/');
  await desk.page.waitForSelector('#options > *');
  await desk.page.screenshot({ path: path.join(artefacts, 'lobby-desktop-en.png'), scale: 'css' });
  assertNoErrors(desk);
  await desk.context.close();
});
