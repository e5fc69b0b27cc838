// The lobby: two browser contexts find each other through quick match and
// both land in the same game, each in a seat; the lobby shows a seek live.

import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, state, waitTurn, assertNoErrors, artefacts, repo } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function quickMatch(page, clock = '3+2') {
  await page.goto(server.url + '/#/lobby');
  await page.waitForSelector('#seek-rules option', { state: 'attached' });
  await page.selectOption('#seek-rules', 'finkel');
  await page.selectOption('#seek-clock', clock);
  await page.click('#quick-match');
}

test('quick match: two players find each other and both land in the same game with seats', { timeout: 120000 }, async () => {
  const alice = await person(browser, server);
  const bob = await person(browser, server, { viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  const carol = await person(browser, server, { viewport: { width: 1000, height: 800 } });

  // Carol watches the lobby: Alice's seek appears there live.
  await carol.page.goto(server.url + '/#/lobby');
  await carol.page.waitForSelector('#seeks');
  await quickMatch(alice.page);
  await alice.page.waitForSelector('#seek-waiting:not([hidden])');
  await carol.page.waitForSelector('#seeks tr.seek');
  assert.match(await carol.page.textContent('#seeks'), /3\+2/);
  await carol.page.screenshot({ path: path.join(artefacts, 'lobby.png'), scale: 'css' });
  fs.mkdirSync(path.join(repo, 'docs/screenshots'), { recursive: true });
  await carol.page.screenshot({ path: path.join(repo, 'docs/screenshots/lobby.png'), scale: 'css' });

  await quickMatch(bob.page);
  // At 390 px, in French, the header with the lobby link and the account menu stays on one line.
  const header = await bob.page.evaluate(() => {
    const items = [...document.querySelectorAll('#top .brand, #top .top-nav > *')].map((e) => e.getBoundingClientRect());
    return { tops: items.map((r) => Math.round(r.top + r.height / 2)), right: Math.max(...items.map((r) => r.right)), width: document.documentElement.clientWidth };
  });
  assert.ok(header.right <= header.width, JSON.stringify(header));
  assert.ok(Math.max(...header.tops) - Math.min(...header.tops) < 12, JSON.stringify(header));
  for (const p of [alice.page, bob.page]) {
    await p.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game, null, { timeout: 20000 });
  }
  const a = await state(alice.page);
  const b = await state(bob.page);
  assert.equal(a.id, b.id, 'the same game');
  assert.ok(['light', 'dark'].includes(a.you) && ['light', 'dark'].includes(b.you));
  assert.notEqual(a.you, b.you, 'one seat each');
  assert.equal(a.mode, 'online');
  // The seek is gone from the lobby.
  await carol.page.waitForFunction(() => !document.querySelector('#seeks tr.seek'));
  for (const who of [alice, bob, carol]) assertNoErrors(who);
  await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()]);
});

test('a seek is accepted from the lobby list, and cancelled seeks leave it', { timeout: 120000 }, async () => {
  const alice = await person(browser, server);
  const bob = await person(browser, server);
  await alice.page.goto(server.url + '/#/lobby');
  await alice.page.waitForSelector('#seek-rules option', { state: 'attached' });
  await alice.page.selectOption('#seek-clock', 'none');
  await alice.page.click('#create-seek');
  await alice.page.waitForSelector('#seek-cancel');
  await bob.page.goto(server.url + '/#/lobby');
  await bob.page.waitForSelector('#seeks tr.seek button.accept');
  await alice.page.click('#seek-cancel');
  await bob.page.waitForFunction(() => !document.querySelector('#seeks tr.seek'));
  await alice.page.click('#create-seek');
  await bob.page.waitForSelector('#seeks tr.seek button.accept');
  await bob.page.click('#seeks tr.seek button.accept');
  for (const p of [alice.page, bob.page]) {
    await p.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game, null, { timeout: 20000 });
  }
  const [a, b] = [await state(alice.page), await state(bob.page)];
  assert.equal(a.id, b.id);
  assert.notEqual(a.you, b.you);
  for (const who of [alice, bob]) assertNoErrors(who);
  await Promise.all([alice.context.close(), bob.context.close()]);
});

test('quick match into a 1+1 game: the side that lets its minute run out loses on time', { timeout: 180000 }, async () => {
  const ann = await person(browser, server);
  const bob = await person(browser, server);
  await quickMatch(ann.page, '1+1');
  await ann.page.waitForSelector('#seek-waiting:not([hidden])');
  await quickMatch(bob.page, '1+1');
  for (const p of [ann.page, bob.page]) {
    await p.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game, null, { timeout: 20000 });
  }
  const a = await state(ann.page);
  assert.equal(a.id, (await state(bob.page)).id, 'the same game');
  const clock = await ann.page.evaluate(() => window.urApp.screen.game.clock);
  assert.equal(clock.initial_s, 60);
  assert.equal(clock.increment_s, 1);
  // Whoever moves first throws (the clocks start), and then nobody plays on.
  const first = a.turn === a.you ? ann.page : bob.page;
  const st = await waitTurn(first);
  await first.locator('#roll').click();
  await first.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq);
  await first.waitForSelector('.clock.running');
  await first.screenshot({ path: path.join(repo, 'docs/screenshots/clocked-game.png'), scale: 'css' });
  for (const p of [ann.page, bob.page]) {
    await p.waitForFunction(() => window.urApp.screen.view && window.urApp.screen.view.winner, null, { timeout: 90000 });
  }
  for (const p of [ann.page, bob.page]) {
    const end = await p.evaluate(() => ({ end: window.urApp.screen.game.end, status: document.getElementById('status').textContent }));
    assert.equal(end.end, 'time');
    assert.match(end.status, /on time/);
  }
  assertNoErrors(ann);
  assertNoErrors(bob);
  await Promise.all([ann.context.close(), bob.context.close()]);
});
