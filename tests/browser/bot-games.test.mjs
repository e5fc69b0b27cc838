// Full games against a bot, clicked through in the page: Finkel, a booklet
// race set, a marker game (Ben's), Akalandung and a tower game; a custom
// rule-set file; the hint; a closed tab that comes back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serverAndBrowser, person, startInLobby, apiGame, playToEnd, waitTurn, state, step, seeded, assertNoErrors, repo, tmpDir, artefacts, UR_BIN } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The end screen: the result, the record to download, a new game. */
async function checkEnd(page, id) {
  const st = await state(page);
  assert.ok(st.winner, 'the game is over');
  await page.waitForSelector('#end:not([hidden])');
  const result = await page.textContent('#end .result');
  assert.match(result, /win|drawn/i);
  const href = await page.getAttribute('#record', 'href');
  assert.equal(href, `/api/games/${id}/record`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record')]);
  const file = await download.path();
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.ok(record && typeof record === 'object', 'the record is JSON');
  // `ur replay` reads it back to the same end.
  const replay = spawnSync(UR_BIN, ['replay', file], { encoding: 'utf8' });
  assert.equal(replay.status, 0, 'ur replay: ' + replay.stdout + replay.stderr);
  assert.ok(await page.isVisible('#new-game'));
  const log = await page.$$eval('#log li', (items) => items.map((i) => i.textContent));
  assert.ok(log.length > 3, 'the move log lists the game: ' + log.join(' | '));
  return record;
}

// Finkel as it is played (7 pieces); the others shortened where the rules allow.
for (const [rules, seed, extra] of [
  ['finkel', 1, {}],
  ['regency-british-museum', 2, { options: { pieces: '3' } }],
  ['bens-ur', 3, {}],
  ['ludens-akalandung', 4, {}],
  ['vizier-4-pyramids', 5, { options: { tokens_per_player: '3' } }],
]) {
  test(`a full game against a bot: ${rules}`, { timeout: 240000 }, async () => {
    const me = await person(browser, server);
    const { page } = me;
    const id = await startInLobby(page, server, { rules, mode: 'bot', bot: '1', seat: 'light', ...extra });
    const first = await state(page);
    assert.equal(first.you, 'light');
    assert.equal(first.mode, 'bot');
    assert.equal(await page.isVisible('#share'), false, 'no links to share in a bot game');
    const end = await playToEnd(page, { rng: seeded(seed), maxSteps: 4000 });
    assert.ok(end.winner);
    await checkEnd(page, id);
    if (rules === 'finkel') await page.screenshot({ path: path.join(artefacts, 'end-finkel.png'), scale: 'css' });
    assertNoErrors(me);
    await me.context.close();
  });
}

test('options of play: the dice roll by themselves, one click plays a piece\'s only move, pieces slide unless motion is reduced, sound when asked', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light' });
  await page.click('#play-options summary');
  await page.check('#opt-auto-roll');
  await page.check('#opt-one-click');
  assert.ok(await page.isChecked('#opt-animate'), 'pieces slide by default');
  // No Roll button is pressed from here on: every decision comes by itself.
  let oneClicks = 0;
  for (let i = 0; i < 40 && oneClicks < 3; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (st.stage === 'roll') {
      await page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq, { timeout: 5000 });
      continue;
    }
    // A piece with one move: one click on it plays that move.
    const key = (a) => JSON.stringify(a.from);
    const single = st.actions.find((a) => a.kind === 'move' && a.from && st.actions.filter((b) => key(b) === key(a)).length === 1);
    if (single) {
      const at = single.from.at === 'square' ? `[data-square="${single.from.square}"]` : '[data-reserve="light"]';
      await page.locator(`svg.board ${at}`).first().click({ force: true });
      await page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq, { timeout: 5000 });
      const said = await page.evaluate(async (words) => (await import('/assets/i18n.js')).say(words), single.words);
      const log = await page.$$eval('#log li', (l) => l.map((x) => x.textContent));
      assert.ok(log.includes(`Light: ${said}`), `the move was played: Light: ${said}\n${log.slice(-4).join('\n')}`);
      oneClicks += 1;
    } else {
      await step(page, seeded(i));
    }
  }
  assert.ok(oneClicks >= 1, 'a piece with one move was played by one click');
  assert.ok(await page.evaluate(() => window.urApp.screen.slides) > 0, 'moved pieces slide');
  // With reduced motion asked for, nothing slides.
  await page.uncheck('#opt-one-click');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const before = await page.evaluate(() => window.urApp.screen.slides);
  for (let i = 0; i < 6; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (st.stage === 'roll') { await page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq, { timeout: 5000 }); continue; }
    await step(page, seeded(100 + i));
  }
  assert.equal(await page.evaluate(() => window.urApp.screen.slides), before);
  // Sound is off until asked for.
  assert.equal(await page.isChecked('#opt-sound'), false);
  assert.equal(await page.evaluate(() => window.urApp.screen.sounds), undefined, 'no sound by default');
  await page.check('#opt-sound');
  for (let i = 0; i < 6; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (st.stage === 'roll') { await page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq, { timeout: 5000 }); continue; }
    await step(page, seeded(200 + i));
  }
  assert.ok(await page.evaluate(() => window.urApp.screen.sounds) > 0, 'throws and moves make a sound once asked for');
  assertNoErrors(me);
  await me.context.close();
});

/** Plays until a decision with a choice, asks for the hint and checks it lists every choice with its win chance. */
async function hintAtAChoice(page, seedBase, maxSteps) {
  for (let i = 0; i < maxSteps; i += 1) {
    const st = await waitTurn(page);
    if (st.stage === 'act' && st.actions.length > 1) break;
    await step(page, seeded(i + seedBase));
  }
  const st = await state(page);
  assert.equal(st.stage, 'act');
  await page.click('#hint');
  await page.waitForSelector('#hints:not([hidden]) .hints li');
  const items = await page.$$eval('#hints .hints li', (li) => li.map((x) => x.textContent));
  assert.equal(items.length, st.actions.length, items.join(' | '));
  for (const line of items) assert.match(line, /\d+\.\d %/);
  return st;
}

test('the hint lists every open move with its win chance and its judge', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'finkel', mode: 'bot', bot: '2' });
  const st = await hintAtAChoice(page, 10, 60);
  const judge = await page.getAttribute('#hints .judge', 'data-judge');
  await page.screenshot({ path: path.join(artefacts, 'hint-finkel.png'), scale: 'css' });
  assert.ok(judge === 'table' || judge === 'search', judge);
  // The key H asks too; a hint's move can be played from the list.
  await page.click('#hints .hints li button');
  await page.waitForFunction((q) => window.urApp.screen.seq !== q, st.seq);
  assertNoErrors(me);
  await me.context.close();
});

test('beyond the race the hint comes from the rule set\'s network, and says so; without one there is no hint button', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'guard-d6', mode: 'bot', bot: '2' });
  await hintAtAChoice(page, 20, 80);
  assert.match(await page.getAttribute('#hints .judge', 'data-judge'), /^net:\d+$/);
  assert.match(await page.textContent('#hints .judge'), /neural network/);
  await page.screenshot({ path: path.join(artefacts, 'hint-guard-d6.png'), scale: 'css' });
  await me.context.close();

  const other = await person(browser, server);
  const small = await apiGame(server, { rules: 'ravensburg-1977', options: { tokens_per_player: '2' }, mode: 'bot', bot: '2', seat: 'light' });
  await other.page.goto(`${server.url}/#/game/${small.id}?token=${encodeURIComponent(small.token)}`);
  await other.page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view, small.id);
  await waitTurn(other.page);
  assert.equal(await other.page.isVisible('#hint'), false, 'no network for two-token ravensburg-1977: no hint button');
  assertNoErrors(me);
  assertNoErrors(other);
  await other.context.close();
});

test('named birds take their hint from the network: declarations and moves alike', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'v1-named-birds', mode: 'bot', bot: '2' });
  await hintAtAChoice(page, 30, 120);
  assert.equal(await page.getAttribute('#hints .judge', 'data-judge'), 'net:2');
  assert.match(await page.textContent('#hints .judge'), /neural network/);
  await page.screenshot({ path: path.join(artefacts, 'hint-named-birds.png'), scale: 'css' });
  assertNoErrors(me);
  await me.context.close();
});

test('a closed tab comes back through its link and finishes the game', { timeout: 180000 }, async () => {
  const me = await person(browser, server);
  let page = me.page;
  const id = await startInLobby(page, server, { rules: 'finkel', mode: 'bot', bot: '1', options: { pieces: '3' } });
  const rng = seeded(7);
  for (let i = 0; i < 12; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    await step(page, rng);
  }
  const before = await state(page);
  await page.close();
  // The same browser, a new tab, the game's link: the token is in its storage.
  page = await me.context.newPage();
  page.on('pageerror', (e) => me.errors.push('page error: ' + e.message));
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  const back = await state(page);
  assert.equal(back.you, 'light', 'the player, not a watcher');
  assert.ok(back.seq >= before.seq);
  const end = await playToEnd(page, { rng });
  assert.ok(end.winner);
  assertNoErrors(me);
  await me.context.close();
});

test('a custom rule-set file is played against a bot', { timeout: 180000 }, async () => {
  const dir = tmpDir();
  const text = fs.readFileSync(path.join(repo, 'rulesets/finkel.toml'), 'utf8')
    .replace(/^id\s*=.*$/m, 'id = "my-finkel"')
    .replace(/^name\s*=.*$/m, 'name = "My two-piece Finkel"')
    .replace(/^pieces\s*=\s*\d+/m, 'pieces = 2');
  const file = path.join(dir, 'my-finkel.toml');
  fs.writeFileSync(file, text);
  const me = await person(browser, server);
  const { page } = me;
  await page.goto(server.url + '/');
  await page.waitForSelector('#ruleset option', { state: 'attached' });
  await page.click('details.custom summary');
  await page.setInputFiles('#rules-file', file);
  await page.waitForSelector('.file-info:not([hidden])');
  await page.check('input[name=mode][value=bot]');
  await page.selectOption('#bot-level', '1');
  await page.click('#start');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  const name = await page.textContent('.game-title');
  assert.match(name, /two-piece|my-finkel/i);
  const end = await playToEnd(page, { rng: seeded(11) });
  assert.ok(end.winner);
  assertNoErrors(me);
  await me.context.close();
});
