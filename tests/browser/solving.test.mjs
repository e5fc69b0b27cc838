// Exact analysis out of the box: the new-game screen shows the background
// solving, greys Perfect out with its reason while no table fits the game,
// and offers it once the table is solved.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, person, playToEnd, assertNoErrors } from './lib.mjs';

let server;
let browser;

before(async () => {
  // Finkel with two pieces solves in well under a second.
  server = await startServer({ extra: ['--solve', 'finkel:pieces=2'] });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const perfect = (page) => page.$eval('#bot-level option[value=perfect]', (o) => ({ disabled: o.disabled, text: o.textContent }));

test('Perfect is greyed out with its reason until a table fits the game, then plays', { timeout: 180000 }, async () => {
  const ann = await person(browser, server);
  const { page } = ann;
  await page.goto(server.url + '/');
  await page.waitForSelector('#ruleset option', { state: 'attached' });
  await page.selectOption('#ruleset', 'finkel');
  await page.check('input[name=mode][value=bot]');
  await page.waitForFunction(() => /Finkel \(2\)/.test(document.getElementById('solving-status').textContent));
  await page.waitForFunction(() => /ready/.test(document.getElementById('solving-status').textContent), null, { timeout: 120000 });
  // Seven pieces (the default): the table of two does not serve it.
  await page.waitForFunction(() => document.querySelector('#bot-level option[value=perfect]').disabled);
  assert.match((await perfect(page)).text, /no table/);
  // Two pieces: the solved table serves it.
  await page.waitForSelector('[data-option="pieces"]', { state: 'attached' });
  await page.click('.option-list summary');
  await page.fill('[data-option="pieces"]', '2');
  await page.dispatchEvent('[data-option="pieces"]', 'change');
  await page.waitForFunction(() => !document.querySelector('#bot-level option[value=perfect]').disabled);
  assert.doesNotMatch((await perfect(page)).text, /no table/);
  // Another rule set with no table: greyed again.
  await page.selectOption('#ruleset', 'blitz');
  await page.waitForFunction(() => document.querySelector('#bot-level option[value=perfect]').disabled);
  await page.selectOption('#ruleset', 'finkel');
  await page.waitForFunction(() => !document.querySelector('#bot-level option[value=perfect]').disabled);
  await page.selectOption('#bot-level', 'perfect');
  await page.click('#start');
  await page.waitForFunction(() => window.urApp && window.urApp.screen && window.urApp.screen.view);
  const end = await playToEnd(page);
  assert.ok(end.winner, 'the game against Perfect ends');
  assertNoErrors(ann);
  await ann.context.close();
});
