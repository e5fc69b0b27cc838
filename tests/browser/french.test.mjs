// The French page shows no English: bot games of a race, a marker and a
// tower rule set (their log, tooltips and accessible labels), their rules
// pages, a review and a server error, all read for English words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, person, startInLobby, playToEnd, step, waitTurn, seeded, assertNoErrors } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

// English words the French page must not show. Words both languages share
// (rosette, refuge, options, passes, chance) and proper names are not here.
const ENGLISH = /\b(the|and|with|of|captures|plays?|enter|off|wins?|rolls?|throws?|moves?|prisoners?|safe|extra_roll|plain|blank|dotted|promoted|light's|pieces|rollout|square|again|turn|marked|eliminates|frees|converts|carrying|backward|towers|viziers|Black|White|Light|Dark)\b/;

/** Every text of the page a reader meets beyond the board's drawing: the log, tooltips, accessible labels, alerts. */
function readTexts(page, scope = 'body') {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel) || document.body;
    const out = [];
    const log = document.getElementById('log');
    if (log) out.push(['log', log.textContent]);
    for (const el of root.querySelectorAll('[title]')) out.push(['title', el.getAttribute('title')]);
    for (const el of root.querySelectorAll('title')) out.push(['svg title', el.textContent]);
    for (const el of root.querySelectorAll('[aria-label]')) out.push(['aria-label', el.getAttribute('aria-label')]);
    for (const el of root.querySelectorAll('p.error, [role=alert], .toast')) out.push(['error', el.textContent]);
    return out;
  }, scope);
}

function assertFrench(texts, where) {
  for (const [kind, text] of texts) {
    assert.doesNotMatch(text || '', ENGLISH, `${where}, ${kind}: "${text}"`);
  }
}

for (const [rules, options, steps] of [
  ['finkel', { pieces: '2' }, 0],
  ['bens-ur', {}, 60],
  ['ravensburg-1977', {}, 60],
]) {
  test(`French, a bot game of ${rules}: its log, tooltips and labels have no English`, { timeout: 600000 }, async () => {
    const fr = await person(browser, server, { locale: 'fr-FR' });
    const { page } = fr;
    const id = await startInLobby(page, server, { rules, mode: 'bot', bot: '1', seat: 'light', options });
    const rng = seeded(11);
    let seen = 0;
    if (steps === 0) {
      await playToEnd(page, { rng, onStep: async () => { seen += 1; if (seen % 5 === 0) assertFrench(await readTexts(page), rules); } });
    } else {
      for (let i = 0; i < steps; i += 1) {
        const st = await waitTurn(page);
        if (st.winner) break;
        if (st.stage === 'act' && i % 4 === 0) assertFrench(await readTexts(page), rules);
        await step(page, rng);
      }
    }
    assertFrench(await readTexts(page), rules);
    const title = await page.evaluate(() => document.title);
    assert.doesNotMatch(title, ENGLISH, 'the page title names the rule set in French');
    const log = await page.textContent('#log');
    assert.ok(log.length > 20, `${rules}: the log tells the game: ${log}`);

    if (steps === 0) {
      // The review of the finished game, in French: the judge, the options, the sides.
      await page.waitForSelector('#end:not([hidden]) #review-game');
      await page.click('#review-game');
      // A review judged by rollouts takes a while on a busy machine; a refusal shows at once.
      await page.waitForSelector('#review-chart polyline.win-line, main p.error[role=alert]:not(:empty)', { timeout: 300000 });
      assertFrench(await readTexts(page, 'main'), 'review');
      assert.equal(await page.locator('main p.error[role=alert]:not(:empty)').count(), 0, await page.textContent('main'));
      assert.equal(await page.evaluate(() => location.hash), `#/review/${id}`);
      const review = await page.evaluate(() => document.querySelector('main').innerText);
      assert.doesNotMatch(review, /pieces=|rollout:|light's/);
      assert.match(review, /2 pions/);
      assertFrench(await readTexts(page, 'main'), 'review');
    }
    // Its rules page, in French.
    await page.goto(server.url + '/#/rules/' + rules);
    await page.waitForSelector('#teach-win');
    const words = await page.evaluate(() => document.querySelector('#rules-page').innerText);
    for (const line of words.split('\n')) {
      // Option names and their values are the rule files' own identifiers.
      if (/^[a-z0-9_]+( |$)/.test(line) || /docs\/rules/.test(line)) continue;
      assert.doesNotMatch(line, ENGLISH, `${rules} rules page: "${line}"`);
    }
    assertFrench(await readTexts(page, '#rules-page'), rules + ' rules page');
    assertNoErrors(fr);
    await fr.context.close();
  });
}

test('French: a server error is told in French by its code', { timeout: 60000 }, async () => {
  const fr = await person(browser, server, { locale: 'fr-FR' });
  const { page } = fr;
  await page.goto(server.url + '/#/new?rules=finkel&position=' + encodeURIComponent('l:469.1,2z'));
  await page.waitForSelector('#start-position', { state: 'visible' });
  await page.check('input[name=mode][value=hotseat]');
  await page.click('#start');
  await page.waitForFunction(() => [...document.querySelectorAll('.error')].some((e) => e.textContent.trim()));
  const shown = await page.$$eval('.error', (els) => els.map((e) => e.textContent).join(' '));
  assert.match(shown, /Cette position ne se joue pas/);
  assert.doesNotMatch(shown, ENGLISH);
  // A code the page has no words for still reads in French, naming the code.
  const other = await page.evaluate(async () => (await import('/assets/i18n.js')).errorText({ code: 'new_code', message: 'some English' }));
  assert.equal(other, 'Le serveur a refusé (new_code).');
  fr.errors.splice(0); // the refused start is logged by the browser as a failed request
  await fr.context.close();
});

test('French: a refused sign-in and an unknown player are told in French', { timeout: 60000 }, async () => {
  const fr = await person(browser, server, { locale: 'fr-FR' });
  const { page } = fr;
  await page.goto(server.url + '/#/lobby');
  await page.click('#account-button');
  await page.fill('#acct-name', 'nobody-here');
  await page.fill('#acct-password', 'wrong-password');
  await page.click('#sign-in');
  await page.waitForSelector('#acct-error:not(:empty)');
  const said = await page.textContent('#acct-error');
  assert.match(said, /Nom ou mot de passe erroné/);
  assert.doesNotMatch(said, ENGLISH);
  await page.goto(server.url + '/#/player/nobody-here');
  await page.waitForSelector('.player-page .form-error');
  const missing = await page.textContent('.player-page .form-error');
  assert.equal(missing, 'Aucun joueur ne porte ce nom.');
  fr.errors.splice(0); // the refusals are logged by the browser as failed requests
  await fr.context.close();
});
