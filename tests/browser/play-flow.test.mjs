// The server-built log across a reload and for a late watcher (passes
// included), a resign, a rematch accepted by both players, and a clocked
// online game in which one side flags.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, state, step, waitTurn, seeded, apiGame, assertNoErrors } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Opens a game link, taking the seat when the page asks. */
async function openLink(page, link) {
  await page.goto(server.url + link);
  await page.waitForFunction(() => document.getElementById('take-seat') || (window.urApp.screen && window.urApp.screen.view));
  if (await page.locator('#take-seat').count()) await page.click('#take-seat');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game);
}

const logOf = (page) => page.evaluate(() => ({
  entries: window.urApp.screen.log.map((e) => JSON.stringify(e)),
  lines: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
}));

const waitWinner = (page, timeout = 30000) => page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.view.winner, null, { timeout });

test('a reload mid-game and a late watcher show the whole log, passes included', { timeout: 300000 }, async () => {
  const ann = await person(browser, server);
  const g = await apiGame(server, { rules: 'finkel', mode: 'hotseat' });
  await openLink(ann.page, g.play);
  const rng = seeded(5);
  let passes = 0;
  for (let i = 0; i < 600 && !passes; i += 1) {
    const st = await waitTurn(ann.page);
    if (st.winner) break;
    await step(ann.page, rng);
    passes = await ann.page.evaluate(() => window.urApp.screen.log.filter((e) => e.pass).length);
  }
  assert.ok(passes > 0, 'a throw with no move was logged');
  const before = await logOf(ann.page);
  assert.ok(before.lines.some((l) => /no move(,| —) the turn passes/.test(l)), before.lines.join('\n'));
  assert.ok(!before.lines.some((l) => /no move.*no move/.test(l)), 'a pass says "no move" once: ' + before.lines.join('\n'));
  assert.equal(before.entries.length, await ann.page.evaluate(() => window.urApp.screen.seq), 'one entry per step');

  await ann.page.reload();
  await ann.page.waitForFunction((n) => window.urApp.screen && window.urApp.screen.log.length === n, before.entries.length);
  assert.deepEqual(await logOf(ann.page), before, 'the reload keeps the whole log');

  const bea = await person(browser, server);
  await openLink(bea.page, g.watch);
  await bea.page.waitForFunction((n) => window.urApp.screen.log.length === n, before.entries.length);
  assert.deepEqual((await logOf(bea.page)).entries, before.entries, 'a late watcher sees the whole log');
  assertNoErrors(ann);
  assertNoErrors(bea);
  await ann.context.close();
  await bea.context.close();
});

test('a player resigns against the bot', { timeout: 120000 }, async () => {
  const ann = await person(browser, server);
  const g = await apiGame(server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light' });
  await openLink(ann.page, g.play);
  await ann.page.click('#resign');
  await ann.page.click('#resign-confirm');
  await waitWinner(ann.page);
  const st = await state(ann.page);
  assert.equal(st.winner, 'dark');
  assert.match(st.status, /resignation/);
  assert.match((await logOf(ann.page)).lines.join('\n'), /resigns/);
  assertNoErrors(ann);
  await ann.context.close();
});

test('both players accept a rematch: a new game with the sides swapped', { timeout: 120000 }, async () => {
  const ann = await person(browser, server);
  const bob = await person(browser, server, { locale: 'fr-FR' });
  const g = await apiGame(server, { rules: 'finkel', mode: 'online', seat: 'light', options: { pieces: 3 } });
  await openLink(ann.page, g.play);
  await openLink(bob.page, g.invite);
  await ann.page.click('#resign');
  await ann.page.click('#resign-confirm');
  await waitWinner(bob.page);
  await ann.page.click('#rematch');
  await bob.page.waitForFunction(() => window.urApp.screen.game.rematch && window.urApp.screen.game.rematch.offered.length === 1);
  await bob.page.click('#rematch');
  for (const p of [ann.page, bob.page]) {
    await p.waitForFunction((old) => window.urApp.screen && window.urApp.screen.id !== old && window.urApp.screen.game, g.id);
  }
  const [a, b] = [await state(ann.page), await state(bob.page)];
  assert.equal(a.id, b.id, 'one new game');
  assert.deepEqual([a.you, b.you], ['dark', 'light'], 'sides swapped');
  assertNoErrors(ann);
  assertNoErrors(bob);
  await ann.context.close();
  await bob.context.close();
});

test('a clocked online game: a side that lets its time run out loses on time', { timeout: 120000 }, async () => {
  const ann = await person(browser, server);
  const bob = await person(browser, server);
  const g = await apiGame(server, { rules: 'finkel', mode: 'online', seat: 'light', clock: { initial_s: 3, increment_s: 0 } });
  await openLink(ann.page, g.play);
  await openLink(bob.page, g.invite);
  assert.ok(await ann.page.isVisible('#clock-light'));
  assert.ok(await ann.page.isVisible('#clock-dark'));
  // Ann throws (the clocks start), and then nobody plays on.
  const st = await waitTurn(ann.page);
  await ann.page.locator('#roll').click();
  await ann.page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq);
  await ann.page.waitForSelector('.clock.running');
  await waitWinner(bob.page);
  const end = await bob.page.evaluate(() => ({ end: window.urApp.screen.game.end, status: document.getElementById('status').textContent }));
  assert.equal(end.end, 'time');
  assert.match(end.status, /on time/);
  const loser = (await state(bob.page)).winner === 'light' ? 'dark' : 'light';
  assert.equal(await bob.page.locator('#clock-' + loser).textContent(), '0.0', 'the loser\'s clock shows no time left');
  assert.ok(await bob.page.locator('#clock-' + loser + '.low').count(), 'and warns');
  assertNoErrors(ann);
  assertNoErrors(bob);
  await ann.context.close();
  await bob.context.close();
});
