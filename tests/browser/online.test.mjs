// Two browser contexts play online by the invitation link to the end; a
// third watches through the watch link, sees every move and cannot act. The
// invited player closes the tab: the other sees "disconnected" and a
// countdown; the invited player comes back through the same link and
// finishes.

import { test } from 'node:test';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, startInLobby, state, step, waitTurn, seeded, sleep, assertNoErrors, artefacts } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function openLink(who, link) {
  const page = who.page;
  await page.goto(link);
  // An invitation this browser holds no seat by yet shows the game first (invite.test.mjs).
  await page.waitForFunction(() => document.getElementById('take-seat') || (window.urApp.screen && window.urApp.screen.view));
  if (await page.locator('#take-seat').count()) await page.click('#take-seat');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game);
  return page;
}

/** The one of these pages whose turn it is, once it may act; null when the game is over. */
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

test('online by link: two players to the end, a watcher sees each move and cannot act, a dropped player comes back', { timeout: 300000 }, async () => {
  const alice = await person(browser, server);
  const bob = await person(browser, server, { viewport: { width: 400, height: 860 }, locale: 'fr-FR' });
  const carol = await person(browser, server, { viewport: { width: 1000, height: 800 } });

  const id = await startInLobby(alice.page, server, { rules: 'finkel', mode: 'online', seat: 'light', options: { pieces: '3' } });
  // The page shows the invitation and the watch links.
  await alice.page.waitForSelector('#share:not([hidden]) #invite-link');
  const invite = await alice.page.inputValue('#invite-link');
  const watch = await alice.page.inputValue('#watch-link');
  assert.match(invite, new RegExp(`#/game/${id}\\?token=`));
  assert.match(watch, new RegExp(`#/game/${id}$`));
  assert.ok(!watch.includes('token'), 'the watch link holds no token');
  // Alice waits for her friend.
  await alice.page.waitForFunction(() => /friend|ami/i.test(document.getElementById('status').textContent) || window.urApp.screen.canAct());

  await openLink(bob, invite);
  await openLink(carol, watch);
  const b0 = await state(bob.page);
  const c0 = await state(carol.page);
  assert.equal(b0.you, 'dark');
  assert.equal(c0.you, null, 'the watch link watches');
  assert.ok(await carol.page.isVisible('.watching'));
  // The invitation's token left the address bar.
  assert.ok(!bob.page.url().includes('token'));

  const players = [alice.page, bob.page];
  const rng = seeded(21);
  let moves = 0;
  let dropped = false;
  for (;;) {
    const p = await whoseTurn(players);
    if (!p) break;
    const before = await state(p);
    await step(p, rng);
    const after = await state(p);
    moves += 1;
    // The watcher sees the same view, move by move.
    await carol.page.waitForFunction((q) => window.urApp.screen.seq >= q, after.seq, { timeout: 10000 });
    const c = await state(carol.page);
    assert.equal(c.canAct, false);
    assert.equal(await carol.page.locator('#roll').count(), 0, 'no Roll button for a watcher');
    assert.equal(await carol.page.locator('#choices button').count(), 0, 'no choice buttons for a watcher');
    void before;

    if (moves === 6) {
      // The watcher tries to act anyway, through the page's own socket: refused.
      await carol.page.evaluate(() => {
        const s = window.urApp.screen;
        s.ws.send(JSON.stringify({ t: 'roll', seq: s.seq }));
      });
      await carol.page.waitForSelector('#toast.show');
      const seqAfter = (await state(alice.page)).seq;
      assert.equal((await state(carol.page)).seq, seqAfter, 'the game is unchanged');
    }

    if (moves === 10 && !dropped) {
      // Bob closes his tab: Alice sees him disconnected with a countdown.
      dropped = true;
      await bob.page.close();
      await alice.page.waitForFunction(() => {
        const el = document.querySelector('[data-presence="dark"]');
        return el && /\d+:\d\d/.test(el.textContent);
      }, null, { timeout: 15000 });
      const presence = await alice.page.textContent('[data-presence="dark"]');
      assert.match(presence, /disconnected.*\d+:\d\d/i);
      assert.match(await alice.page.textContent('#status'), /\d+:\d\d|your turn/i);
      await alice.page.screenshot({ path: path.join(artefacts, 'online-opponent-disconnected.png'), scale: 'css' });
      // He comes back through the same link, in a new tab.
      bob.page = await bob.context.newPage();
      bob.page.on('pageerror', (e) => bob.errors.push('page error: ' + e.message));
      await openLink(bob, invite);
      assert.equal((await state(bob.page)).you, 'dark');
      await alice.page.waitForFunction(() => {
        const el = document.querySelector('[data-presence="dark"]');
        return el && !/\d+:\d\d/.test(el.textContent);
      }, null, { timeout: 15000 });
      players[1] = bob.page;
    }
    if (moves > 3000) throw new Error('the game did not end');
  }
  const a = await state(alice.page);
  const b = await state(bob.page);
  await carol.page.waitForFunction(() => window.urApp.screen.view.winner);
  assert.ok(a.winner && a.winner === b.winner);
  assert.ok(dropped, 'the game lasted long enough to drop a player');
  const ra = await alice.page.textContent('#status');
  const rb = await bob.page.textContent('#status');
  assert.ok(/You win|Vous avez gagné/.test(ra + rb), ra + ' / ' + rb);
  for (const who of [alice, bob, carol]) assertNoErrors(who);
  await Promise.all([alice.context.close(), bob.context.close(), carol.context.close()]);
  void waitTurn;
});
