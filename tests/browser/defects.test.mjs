// The trial's page defects (issue 30, item 9), each shown fixed: hints only
// where they work, seats kept when one opens one's own invitation, the tower
// games' signs, colours and plurals, custom rule files checked when chosen,
// the opponent's presence while one's own connection is down, a forced
// single choice played by itself, and accessible names that contain what is
// seen (axe-core).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serverAndBrowser, startServer, person, apiGame, startInLobby, state, step, waitTurn, waitChange, seeded, tmpDir, assertNoErrors, repo } from './lib.mjs';

let server;
let browser;
serverAndBrowser((s, b) => { server = s; browser = b; });

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function openGame(page, g) {
  await page.goto(`${server.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
  await page.waitForFunction((id) => window.urApp.screen && window.urApp.screen.id === id && window.urApp.screen.view && window.urApp.screen.online, g.id);
}

test('Hint is offered in games against a bot where the server answers it: race games, and games with a network', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await openGame(page, await apiGame(server, { rules: 'ravensburg-1977', options: { tokens_per_player: '2' }, mode: 'bot', bot: '1', seat: 'light' }));
  await waitTurn(page);
  assert.equal(await page.locator('#hint').count(), 0, 'no Hint button in a tower game without a network (a two-token variant)');
  await openGame(page, await apiGame(server, { rules: 'bens-ur', mode: 'bot', bot: '1', seat: 'light' }));
  assert.equal(await page.locator('#hint').count(), 1, 'Hint in a marker game with a network');
  await openGame(page, await apiGame(server, { rules: 'guard-d6', mode: 'bot', bot: '1', seat: 'light' }));
  await waitTurn(page);
  assert.equal(await page.locator('#hint').count(), 1, 'Hint in a tower game with a network');
  await openGame(page, await apiGame(server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light' }));
  assert.equal(await page.locator('#hint').count(), 1, 'Hint in a race game');
  assertNoErrors(me);
  await me.context.close();
});

test('opening your own invitation in the same browser keeps the seat you created the game with', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  const id = await startInLobby(page, server, { rules: 'finkel', mode: 'online', seat: 'light' });
  assert.equal((await state(page)).you, 'light');
  const invite = await page.evaluate((gid) => JSON.parse(localStorage.getItem('ur.games'))[gid].invite, id);
  await page.goto(server.url + invite);
  await page.click('#take-seat');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.game && window.urApp.screen.game.you === 'dark');
  const held = await page.evaluate((gid) => JSON.parse(localStorage.getItem('ur.games'))[gid], id);
  assert.ok(held.seats && held.seats.light && held.seats.dark && held.seats.light !== held.seats.dark, JSON.stringify(held));
  // Back to the game from the lobby, as the creator would come back.
  await page.goto(server.url + '/#/');
  await page.goto(`${server.url}/#/game/${id}`);
  await page.waitForFunction((gid) => window.urApp.screen && window.urApp.screen.id === gid && window.urApp.screen.game, id);
  assert.equal((await state(page)).you, 'light', 'the creator comes back as Light');
  // Opening the invitation again goes straight to the Dark seat: no second invitation page.
  await page.goto(server.url + invite);
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.game && window.urApp.screen.game.you === 'dark');
  assertNoErrors(me);
  await me.context.close();
});

test('tower games: eliminated pieces have their own sign, Ravensburg faces are blue and red dots, one quiet turn is singular', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await openGame(page, await apiGame(server, { rules: 'ravensburg-1977', mode: 'hotseat' }));
  const rng = seeded(3);
  for (let i = 0; i < 40; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (await page.locator('svg.board [data-piece]').count() >= 2) break;
    await step(page, rng);
  }
  const counts = await page.locator('.player .counts').allTextContents();
  assert.ok(counts.every((c) => c.includes('✕') && !c.includes('✓')), counts.join(' | '));
  const label = await page.getAttribute('.player.light .counts', 'aria-label');
  assert.match(label, /eliminated/);
  const dots = await page.evaluate(() => [...document.querySelectorAll('svg.board [data-piece] .face-dots')].map((g) => [g.dataset.face, g.querySelector('circle').getAttribute('fill')]));
  assert.ok(dots.length >= 1, 'the pieces on the board show their face');
  for (const [face, fill] of dots) assert.equal(fill, face === 'plain' ? '#2c6fd6' : '#d0302a', face);
  const words = await page.evaluate(async () => {
    const { say, setLang } = await import('/assets/i18n.js');
    const one = [{ key: 'note.quiet', args: { n: 1 } }];
    const two = [{ key: 'note.quiet', args: { n: 2 } }];
    const en = [say(one), say(two)];
    setLang('fr');
    const fr = [say(one), say(two)];
    setLang('en');
    return [...en, ...fr];
  });
  assert.deepEqual(words, ['1 turn without progress', '2 turns without progress', '1 tour sans progrès', '2 tours sans progrès']);
  assertNoErrors(me);
  await me.context.close();
});

test('a custom rule file is checked when chosen: problems listed in the error style, its own rules linked, a refused file unloaded', { timeout: 120000 }, async () => {
  const dir = tmpDir();
  const good = fs.readFileSync(path.join(repo, 'rulesets/finkel.toml'), 'utf8')
    .replace(/^id\s*=.*$/m, 'id = "my-finkel"')
    .replace(/^name\s*=.*$/m, 'name = "My Finkel"');
  const bad = good.replace(/^id\s*=.*$/m, 'id = "a/b"').replace(/^pieces\s*=\s*\d+/m, 'pieces = 0');
  const files = { good: path.join(dir, 'good.toml'), bad: path.join(dir, 'bad.toml'), big: path.join(dir, 'big.toml') };
  fs.writeFileSync(files.good, good);
  fs.writeFileSync(files.bad, bad);
  fs.writeFileSync(files.big, '#'.repeat(70 * 1024));
  const me = await person(browser, server);
  const { page } = me;
  await page.goto(server.url + '/');
  await page.waitForSelector('#ruleset option', { state: 'attached' });
  await page.selectOption('#ruleset', 'finkel');
  await page.click('details.custom summary');
  // An invalid file: refused at once, each problem on its own line, in the error style.
  await page.setInputFiles('#rules-file', files.bad);
  await page.waitForSelector('#rules-file-error li');
  const problems = await page.locator('#rules-file-error li').allTextContents();
  assert.ok(problems.length >= 2, problems.join(' | '));
  assert.ok(problems.some((p) => p.includes("field 'id'")), problems.join(' | '));
  assert.ok(await page.locator('.file-info').isHidden(), 'no green announcement of a refused file');
  const colours = await page.evaluate(() => [getComputedStyle(document.getElementById('rules-file-error')).color, getComputedStyle(document.body).getPropertyValue('--bad')]);
  assert.ok(colours[0] !== 'rgb(47, 107, 54)', `not green: ${colours[0]}`);
  // A valid file: its own rules are one click away.
  await page.setInputFiles('#rules-file', files.good);
  await page.waitForSelector('.file-info:not([hidden])');
  await page.waitForFunction(() => document.querySelector('.rules-link').getAttribute('href') === '#/rules/my-finkel');
  assert.match(await page.textContent('.rules-link'), /My Finkel/);
  assert.equal(await page.locator('#rules-file-error > *').count(), 0);
  // A file too large: refused, and the previous one no longer loaded.
  await page.setInputFiles('#rules-file', files.big);
  await page.waitForSelector('#rules-file-error p');
  assert.ok(await page.locator('.file-info').isHidden());
  await page.check('input[name=mode][value=hotseat]');
  await page.click('#start');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view);
  assert.equal(await page.evaluate(() => window.urApp.screen.view.rules.id), 'finkel', 'Start sends the built-in rule set');
  // A game of the custom file: its rules page, even after a reload.
  await page.goto(server.url + '/');
  await page.waitForSelector('#ruleset option', { state: 'attached' });
  await page.click('details.custom summary');
  await page.setInputFiles('#rules-file', files.good);
  await page.waitForSelector('.file-info:not([hidden])');
  await page.click('.rules-link');
  await page.waitForSelector('#rules-page .summary-text, #rules-page h1');
  assert.match(await page.textContent('#rules-page h1'), /My Finkel/);
  await page.goBack();
  await page.waitForSelector('#rules-file', { state: 'attached' });
  await page.click('details.custom summary');
  await page.setInputFiles('#rules-file', files.good);
  await page.waitForSelector('.file-info:not([hidden])');
  await page.check('input[name=mode][value=hotseat]');
  await page.click('#start');
  await page.waitForFunction(() => window.urApp.screen && window.urApp.screen.view && window.urApp.screen.view.rules.id === 'my-finkel');
  await page.click('#rules-link');
  await page.waitForSelector('#rules-page h1');
  await page.reload();
  await page.waitForSelector('#rules-page h1');
  assert.match(await page.textContent('#rules-page h1'), /My Finkel/);
  assertNoErrors(me);
  await me.context.close();
});

test('while your own connection is down, the opponent is not shown as connected', { timeout: 90000 }, async () => {
  const own = await startServer();
  try {
    const host = await person(browser, own);
    const guest = await person(browser, own);
    const g = await apiGame(own, { rules: 'finkel', mode: 'online', seat: 'light' });
    // A token this browser does not hold yet opens the invitation page first, the creator's too.
    await host.page.goto(`${own.url}/#/game/${g.id}?token=${encodeURIComponent(g.token)}`);
    await host.page.click('#take-seat');
    await guest.page.goto(own.url + g.invite);
    await guest.page.click('#take-seat');
    await host.page.waitForFunction(() => { const e = document.querySelector('[data-presence="dark"]'); return e && e.classList.contains('on'); });
    await own.stop();
    await host.page.waitForFunction(() => window.urApp.screen && !window.urApp.screen.online);
    const presence = await host.page.evaluate(() => [document.querySelector('[data-presence="dark"]').className, document.querySelector('[data-presence="dark"]').textContent]);
    assert.ok(!presence[0].split(' ').includes('on'), presence.join(' '));
    assert.ok(presence[0].split(' ').includes('unknown'), presence.join(' '));
    assert.match(presence[1], /offline/);
    await host.context.close();
    await guest.context.close();
  } finally {
    await own.stop();
  }
});

test('a forced single choice is played by itself when its option is on', { timeout: 90000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await page.goto(server.url + '/');
  await page.evaluate(() => localStorage.setItem('ur.forced', 'true'));
  await openGame(page, await apiGame(server, { rules: 'finkel', mode: 'hotseat' }));
  assert.equal(await page.isChecked('#opt-forced'), true, 'the option shows as on');
  let forced = 0;
  for (let i = 0; i < 60 && forced < 3; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (st.stage === 'roll') {
      await page.click('#roll');
      await waitChange(page, st.seq);
    } else if (st.actions.length === 1) {
      // Nobody clicks: the page plays it.
      await waitChange(page, st.seq);
      forced += 1;
    } else {
      await step(page, seeded(i));
    }
  }
  assert.ok(forced >= 1, 'a single action was played without a click');
  assertNoErrors(me);
  await me.context.close();
});

test('axe-core: no accessible name misses its visible text, every button has a name, contrast holds (race, marker, tower)', { timeout: 120000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  for (const rules of ['finkel', 'bens-ur', 'ravensburg-1977']) {
    await openGame(page, await apiGame(server, { rules, mode: 'hotseat' }));
    const rng = seeded(5);
    for (let i = 0; i < 6; i += 1) {
      const st = await waitTurn(page);
      if (st.winner) break;
      await step(page, rng);
    }
    await page.evaluate(AXE);
    const result = await page.evaluate(() => window.axe.run(document.getElementById('game'), { runOnly: ['label-content-name-mismatch', 'button-name', 'color-contrast'] }));
    const found = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(found, [], rules);
  }
  assertNoErrors(me);
  await me.context.close();
});
