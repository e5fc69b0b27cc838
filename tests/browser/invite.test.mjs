// An invitation shows what the host chose before the invitee takes the
// seat: the rules, the options, the start position (drawn, as its string
// and in words), who moves first and who plays which side. Opening the
// link takes no seat; "Take the seat" does, and the invitee plays.

import { test } from 'node:test';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, state, step, waitTurn, seeded, assertNoErrors, artefacts } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// Three pieces each: light one on 14 and two borne off, dark one on 1 and
// two waiting; dark to move.
const START = 'd:e.2,1';

/** The game as the server holds it, read as the invitation page does. */
async function setup(id) {
  const res = await fetch(`${server.url}/api/games/${id}`);
  return res.json();
}

test('an invitation shows the options and the start before the seat is taken', { timeout: 120000 }, async () => {
  const alice = await person(browser, server);
  const bob = await person(browser, server);
  const claire = await person(browser, server, { locale: 'fr-FR' });

  // Alice opens the lobby with the start position, picks three pieces and an online game.
  await alice.page.goto(server.url + '/#/new?rules=finkel&position=' + encodeURIComponent(START));
  await alice.page.waitForSelector('#start-position', { state: 'visible' });
  await alice.page.check('input[name=mode][value=online]');
  await alice.page.selectOption('#seat', 'light');
  await alice.page.waitForSelector('[data-option="pieces"]', { state: 'attached' });
  await alice.page.click('.option-list summary');
  await alice.page.fill('[data-option="pieces"]', '3');
  await alice.page.locator('[data-option="pieces"]').dispatchEvent('change');
  await alice.page.click('#start');
  await alice.page.waitForSelector('#share:not([hidden]) #invite-link');
  const id = await alice.page.evaluate(() => window.urApp.screen.id);
  const invite = await alice.page.inputValue('#invite-link');

  // Bob opens the invitation: what Alice chose, and no seat taken.
  await bob.page.goto(invite);
  await bob.page.waitForSelector('#take-seat');
  assert.equal(await bob.page.evaluate(() => window.urApp.screen), null, 'no game screen before the seat is taken');
  assert.equal(await bob.page.textContent('#take-seat'), 'Take the seat');
  assert.match(await bob.page.textContent('#invite-rules'), /Finkel/);
  assert.equal((await bob.page.textContent('#invite-options')).trim(), 'pieces = 3');
  const start = await bob.page.textContent('#invite-start');
  assert.ok(start.includes(START), start);
  assert.ok(start.includes('Light: 1 on the board, 0 waiting to enter, 2 off the board'), start);
  assert.ok(start.includes('Dark: 1 on the board, 2 waiting to enter, 0 off the board'), start);
  assert.equal((await bob.page.textContent('#invite-first')).trim(), 'Dark');
  assert.equal((await bob.page.textContent('#invite-seats')).trim(), 'Your host plays Light; you will play Dark.');
  assert.equal(await bob.page.locator('#invite-board g.piece[data-side="light"]').count(), 1);
  assert.equal(await bob.page.locator('#invite-board g.piece[data-side="dark"]').count(), 1);
  assert.equal((await setup(id)).seats.dark.connected, false, 'reading the invitation joins nobody');
  await bob.page.screenshot({ path: path.join(artefacts, 'invite.png'), scale: 'css' });

  // The same invitation in French.
  await claire.page.goto(invite);
  await claire.page.waitForSelector('#take-seat');
  assert.equal(await claire.page.textContent('#take-seat'), 'Prendre la place');
  assert.match(await claire.page.textContent('#invite'), /Premier à jouer/);

  // Bob takes the seat: he plays dark, and moves first.
  await bob.page.click('#take-seat');
  await bob.page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.game);
  assert.ok(!bob.page.url().includes('token'), 'the token left the address bar');
  const st = await waitTurn(bob.page);
  assert.equal(st.you, 'dark');
  assert.equal(st.turn, 'dark');
  assert.equal((await setup(id)).seats.dark.connected, true);
  await alice.page.waitForFunction(() => window.urApp.screen.seats && window.urApp.screen.seats.dark.connected);
  await step(bob.page, seeded(5));
  assert.ok((await state(bob.page)).seq > st.seq);
  for (const who of [alice, bob, claire]) assertNoErrors(who);
  await Promise.all([alice.context.close(), bob.context.close(), claire.context.close()]);
});
