// Position strings in the page: an address /#/new?rules=finkel&position=...
// opens the lobby with that rule set and start position, a hot-seat game
// starts there (the board draws it), and the game screen shows the string;
// the server refuses a string that does not read, saying why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, waitTurn, waitChange, assertNoErrors } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// Light on 4, 6 and 9 with one borne off; dark on 2 and 13; light to move.
const POSITION = 'l:469.1,2d';

test('an address with a position starts a hot-seat game there', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await page.goto(server.url + '/#/new?rules=finkel&position=' + encodeURIComponent(POSITION));
  await page.waitForSelector('#start-position', { state: 'visible' });
  assert.equal(await page.inputValue('#ruleset'), 'finkel');
  assert.equal(await page.inputValue('#start-position'), POSITION);
  await page.check('input[name=mode][value=hotseat]');
  await page.click('#start');
  await page.waitForFunction(() => window.urApp && window.urApp.screen && window.urApp.screen.view);
  const st = await waitTurn(page);
  assert.equal(st.turn, 'light');
  assert.equal(st.stage, 'roll');

  const view = await page.evaluate(() => window.urApp.screen.view);
  assert.equal(view.position_string, POSITION);
  assert.equal((await page.textContent('#position-string')).trim(), POSITION);
  // The board: the pieces where the string puts them, the rest in reserve or off.
  const squares = (side) => view.position.pieces.filter((p) => p.side === side).map((p) => p.square).sort((a, b) => a - b);
  const onPath = (side, ps) => ps.map((p) => view.board.paths[side === 'light' ? 0 : 1][p - 1]).sort((a, b) => a - b);
  assert.deepEqual(squares('light'), onPath('light', [4, 6, 9]));
  assert.deepEqual(squares('dark'), onPath('dark', [2, 13]));
  assert.deepEqual(view.position.reserve, [3, 5]);
  assert.deepEqual(view.position.off, [1, 0]);
  assert.equal(await page.locator('svg.board g.piece[data-side="light"]').count(), 3);
  assert.equal(await page.locator('svg.board g.piece[data-side="dark"]').count(), 2);

  // After a roll with moves, the string carries the throw.
  for (let i = 0; i < 20; i += 1) {
    const now = await waitTurn(page);
    if (now.stage !== 'roll') break;
    await page.click('#roll');
    await waitChange(page, now.seq);
  }
  const after = await page.evaluate(() => window.urApp.screen.view);
  const shown = (await page.textContent('#position-string')).trim();
  assert.equal(shown, after.position_string);
  if (after.turn.stage === 'act') assert.match(shown, /\/\d+$/);
  assertNoErrors(me);
});

test('the server refuses a position string that does not read', async () => {
  const res = await fetch(server.url + '/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: 'finkel', mode: 'hotseat', position: 'l:469.1,2z' }),
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.code, 'bad_position');
  assert.match(body.message, /at character 10/);
});

test('a capture: the ring shows it, the mover slides in and the taken piece slides home', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  // Light on 5 threw 1; dark stands on 6, a shared square: 5 -> 6 captures.
  await page.goto(server.url + '/#/new?rules=finkel&position=' + encodeURIComponent('l:5,6/1'));
  await page.waitForSelector('#start-position', { state: 'visible' });
  await page.check('input[name=mode][value=hotseat]');
  await page.click('#start');
  const st = await waitTurn(page);
  assert.equal(st.stage, 'act');
  const take = st.actions.find((a) => (a.words || []).some((w) => w.key === 'fx.captures'));
  assert.ok(take, 'a move that captures: ' + JSON.stringify(st.actions.map((a) => a.text)));
  await page.locator(`svg.board [data-square="${take.from.square}"]`).click();
  await page.waitForSelector(`svg.board [data-square="${take.to.square}"].target.capture`);
  const before = await page.evaluate(() => window.urApp.screen.slides || 0);
  await page.locator(`svg.board [data-square="${take.to.square}"]`).click();
  await waitChange(page, st.seq);
  assert.equal(await page.evaluate(() => window.urApp.screen.slides), before + 2, 'two pieces slide');
  const view = await page.evaluate(() => window.urApp.screen.view);
  assert.equal(view.position.reserve[1], 7, 'the dark piece is home');
  await page.waitForFunction(() => !document.querySelector('svg.board .captured'), null, { timeout: 3000 });
  assertNoErrors(me);
  await me.context.close();
});
