// Accounts: two players register in the header's menu, meet through a
// rated quick match, play to the end, and both ratings change; the player
// page (rating chart, archive opening the review) and the leaderboard show it.

import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, state, step, seeded, sleep, assertNoErrors, artefacts, repo } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function register(page, name) {
  await page.goto(server.url + '/#/lobby');
  await page.click('#account-button');
  await page.fill('#acct-name', name);
  await page.fill('#acct-password', 'password-' + name);
  await page.click('#register');
  await page.waitForFunction((n) => document.getElementById('account-button').textContent === n, name);
}

async function ratedQuickMatch(page) {
  await page.goto(server.url + '/#/lobby');
  await page.waitForSelector('#seek-rules option', { state: 'attached' });
  await page.selectOption('#seek-rules', 'finkel');
  await page.selectOption('#seek-clock', 'none');
  await page.check('#seek-rated');
  await page.click('#quick-match');
}

/** The one of these pages whose turn it is; null when the game is over. */
async function whoseTurn(pages, timeout = 30000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    for (const p of pages) {
      const st = await state(p);
      if (st && st.winner) return null;
      if (st && st.canAct && st.online && !st.busy) return p;
    }
    await sleep(15);
  }
  throw new Error('nobody could act for ' + timeout + ' ms');
}

test('two accounts play a rated game: both ratings change, on the player page, archive and leaderboard', { timeout: 600000 }, async () => {
  const alice = await person(browser, server);
  const bob = await person(browser, server, { locale: 'fr-FR' });
  await register(alice.page, 'alice');
  await register(bob.page, 'bob');
  await ratedQuickMatch(alice.page);
  await alice.page.waitForSelector('#seek-waiting:not([hidden])');
  await ratedQuickMatch(bob.page);
  const pages = [alice.page, bob.page];
  for (const p of pages) await p.waitForFunction(() => window.urApp.screen && window.urApp.screen.game, null, { timeout: 20000 });
  const id = (await state(alice.page)).id;
  const game = await alice.page.evaluate(() => window.urApp.screen.game);
  assert.equal(game.rated, true);
  assert.deepEqual(Object.values(game.players).sort(), ['alice', 'bob']);

  const rng = seeded(7);
  for (let moves = 0; ; moves++) {
    const p = await whoseTurn(pages);
    if (!p) break;
    await step(p, rng);
    if (moves > 5000) throw new Error('the game did not end');
  }
  const winnerSide = (await state(alice.page)).winner;
  const winner = game.players[winnerSide];
  const loser = winner === 'alice' ? 'bob' : 'alice';

  // The player pages: a rating away from 1500, a chart, the game in the archive.
  for (const [name, who] of [[winner, alice], [loser, bob]]) {
    await who.page.goto(server.url + '/#/player/' + name);
    await who.page.waitForSelector('#player-page', { timeout: 20000 });
    // The rating is applied just after the end: reload until it shows.
    for (let i = 0; !(await who.page.locator('.rating-block[data-rules=finkel]').count()); i++) {
      assert.ok(i < 100, 'the rating never showed');
      await sleep(100);
      await who.page.goto(server.url + '/#/player/' + name + '?' + i);
      await who.page.waitForSelector('#player-page');
    }
    const line = await who.page.textContent('.rating-block[data-rules=finkel] .rating-line');
    const rating = Number(line.match(/(\d+)/)[1]);
    if (name === winner) assert.ok(rating > 1500, line);
    else assert.ok(rating < 1500, line);
    assert.ok(await who.page.isVisible('.rating-block svg.rating-chart'));
    assert.equal(await who.page.locator(`#archive tr[data-game="${id}"]`).count(), 1);
  }
  fs.mkdirSync(path.join(repo, 'docs/screenshots'), { recursive: true });
  await alice.page.goto(server.url + '/#/player/' + winner);
  await alice.page.waitForSelector('.rating-block svg.rating-chart');
  await alice.page.screenshot({ path: path.join(repo, 'docs/screenshots/player.png'), scale: 'css', fullPage: true });
  await alice.page.screenshot({ path: path.join(artefacts, 'player.png'), scale: 'css' });
  assert.match(await alice.page.textContent(`#archive tr[data-game="${id}"] .result`), /Won|Lost/);
  // The archive opens the game's review.
  await alice.page.click(`#archive tr[data-game="${id}"] a.review-link`);
  await alice.page.waitForFunction((g) => location.hash === '#/review/' + g, id);

  // The leaderboard: the winner first.
  await bob.page.goto(server.url + '/#/leaderboard/finkel');
  await bob.page.waitForSelector('#leaderboard tr.leader');
  const names = await bob.page.$$eval('#leaderboard tr.leader td:nth-child(2)', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(names, [winner, loser]);

  // Signing out, then in again.
  await bob.page.click('#account-button');
  await bob.page.click('#sign-out');
  await bob.page.waitForFunction(() => document.getElementById('account-button').textContent !== 'bob');
  await bob.page.click('#account-button');
  await bob.page.fill('#acct-name', 'bob');
  await bob.page.fill('#acct-password', 'wrong-password');
  await bob.page.click('#sign-in');
  await bob.page.waitForSelector('#acct-error:not(:empty)');
  await bob.page.fill('#acct-password', 'password-bob');
  await bob.page.click('#sign-in');
  await bob.page.waitForFunction(() => document.getElementById('account-button').textContent === 'bob');
  for (const who of [alice, bob]) assertNoErrors(who);
  await Promise.all([alice.context.close(), bob.context.close()]);
});
