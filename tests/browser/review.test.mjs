// The review: the html file of `ur review --format html` opened from disk
// with every request outside it refused (its chart, its boards, and the
// numbers of `ur review --json` for the same game), and the browser app's
// review of a finished game against a bot and of an uploaded record, with
// a click on the chart jumping to the move.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { serverAndBrowser, person, startInLobby, playToEnd, seeded, assertNoErrors, tmpDir, artefacts, UR_BIN } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

function ur(args) {
  const r = spawnSync(UR_BIN, args, { encoding: 'utf8', env: { ...process.env, UR_TABLES: tmpDir('ur-no-tables-') } });
  assert.equal(r.status, 0, `ur ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** A full game of Finkel, a greedy bot against a random one, saved; its review as html and as JSON. */
function reviewedGame() {
  const dir = tmpDir();
  const game = path.join(dir, 'g.json');
  ur(['play', '--quiet', '--save', game, '--light', 'greedy', '--dark', 'random', '--seed', '11']);
  const html = path.join(dir, 'review.html');
  ur(['review', game, '--depth', '2', '--format', 'html', '-o', html, '--quiet']);
  const json = JSON.parse(ur(['review', game, '--depth', '2', '--json', '--quiet']));
  return { game, html, json };
}

/** A number as the page shows it: `12.34 pp`, `−0.5 pp`, `+3.10 pp`, `7 (54 %)`. */
function shown(text) {
  const m = /([+−-]?)(\d+(?:[.,]\d+)?)/.exec(text);
  assert.ok(m, `a number in '${text}'`);
  const v = Number(m[2].replace(',', '.'));
  return m[1] === '−' || m[1] === '-' ? -v : v;
}

/** The table's cell for a side and a total. */
function cell(page, side, key) {
  return page.textContent(`#review-totals [data-side="${side}"][data-total="${key}"]`);
}

/** Whether a row of the step list is inside its scrolled box. */
function rowInView(page, step) {
  return page.evaluate((i) => {
    const row = document.getElementById('step-' + i).getBoundingClientRect();
    const box = document.querySelector('.steps-wrap').getBoundingClientRect();
    return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
  }, step);
}

/** A click on an error's mark on the chart selects its row in the list and scrolls to it. */
async function chartJumps(page) {
  const marks = page.locator('#review-chart .err-mark');
  const count = await marks.count();
  assert.ok(count > 0, 'the chart marks the errors');
  const mark = marks.nth(count - 1);
  const step = Number(await mark.getAttribute('data-step'));
  await mark.click();
  await page.waitForSelector(`#step-${step}.selected`);
  assert.equal(await page.getAttribute('#review-chart', 'data-selected'), String(step));
  assert.ok(await rowInView(page, step), 'the move is scrolled into view');
  // A click on the plot picks the nearest step too: a tenth of the way in,
  // on the far side of the line from it (where no error is marked).
  const plot = page.locator('#review-chart .plot');
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  const lightWin = await page.evaluate(() => window.urReview.doc.light_win);
  const target = Math.round(0.1 * lightWin.length) - 1;
  const y = lightWin[target] > 0.5 ? 0.97 : 0.03;
  await plot.click({ position: { x: box.width * 0.1, y: box.height * y }, force: true });
  const picked = Number(await page.getAttribute('#review-chart', 'data-selected'));
  assert.ok(Math.abs(picked - target) <= 1, `the click picked step ${picked}, near ${target}`);
  await page.waitForSelector(`#step-${picked}.selected`);
  assert.ok(await rowInView(page, picked));
  assert.equal(await page.locator('.review-steps tr.selected').count(), 1);
}

test('the html review file: no request leaves it; the chart, the boards and the numbers of --json', { timeout: 180000 }, async () => {
  const { html, json } = reviewedGame();
  const url = pathToFileURL(html).href;
  const context = await browser.newContext({ viewport: { width: 1200, height: 1560 }, locale: 'en-GB', colorScheme: 'light' });
  const errors = [];
  const requests = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith('data:')) return route.continue();
    errors.push('request outside the file: ' + u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('request', (r) => { if (r.url() !== url && !r.url().startsWith('data:')) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  await page.goto(url);
  await page.waitForSelector('#review-chart polyline.win-line');

  // The chart: a point per step and the start; a mark per error.
  const steps = await page.evaluate(() => JSON.parse(document.getElementById('review-data').textContent).steps.length);
  const points = await page.getAttribute('#review-chart polyline.win-line', 'points');
  assert.equal(points.trim().split(/\s+/).length, steps + 1);
  const decisions = json.notes.filter((n) => n.kind === 'decision');
  const bad = decisions.filter((n) => ['inaccuracy', 'mistake', 'blunder'].includes(n.verdict));
  assert.ok(bad.length > 0, 'a random player makes errors');
  assert.equal(await page.locator('#review-chart .err-mark').count(), bad.length);

  // The boards: one per error, each with its squares, pieces and arrows drawn.
  const cards = page.locator('.review-error');
  assert.equal(await cards.count(), bad.length);
  for (let i = 0; i < Math.min(bad.length, 5); i += 1) {
    const card = cards.nth(i);
    assert.ok(await card.locator('svg.board .square').count() >= 20, 'the board is drawn');
    assert.ok(await card.locator('svg.board .move-arrow.best').count() + await card.locator('svg.board [data-dice]').count() > 0);
  }

  // Per-player totals as shown, against --json.
  for (const [k, side] of ['light', 'dark'].entries()) {
    const s = json.sides[k];
    for (const key of ['decisions', 'inaccuracies', 'mistakes', 'blunders']) {
      assert.equal(shown(await cell(page, side, key)), s[key], `${side} ${key}`);
    }
    assert.equal(shown(await cell(page, side, 'best')), s.best, `${side} best`);
    const near = (text, value, digits) => Math.abs(shown(text) - 100 * value) <= 0.5 * 10 ** -digits + 1e-9;
    assert.ok(near(await cell(page, side, 'total_loss'), s.total_loss, 2), `${side} total loss`);
    assert.ok(near(await cell(page, side, 'luck'), s.luck, 2), `${side} luck`);
    assert.ok(near(await cell(page, side, 'error_rate'), s.decisions ? s.total_loss / s.decisions : 0, 3), `${side} error rate`);
    const won = json.winner === side ? 1 : 0;
    assert.equal(shown(await cell(page, side, 'result')), won);
    const adjusted = won - (s.luck - json.sides[1 - k].luck);
    assert.ok(Math.abs(shown(await cell(page, side, 'luck_adjusted')) - adjusted) <= 0.0005 + 1e-9, `${side} luck-adjusted`);
  }
  // Each error's loss as shown, against the decision's note.
  const byAction = new Map(json.notes.map((n) => [n.action, n]));
  const shownLosses = await page.$$eval('.review-error', (els) => els.map((e) => ({ step: Number(e.dataset.step), loss: e.querySelector('.loss').textContent })));
  const index = await page.evaluate(() => JSON.parse(document.getElementById('review-data').textContent).steps.map((s) => s.index));
  for (const { step, loss } of shownLosses) {
    const note = byAction.get(index[step]);
    assert.equal(note.kind, 'decision');
    assert.ok(Math.abs(shown(loss) - 100 * note.loss) <= 0.005 + 1e-9, `error at action ${note.action}: ${loss} vs ${note.loss}`);
  }
  // Luck per roll in the list.
  const rolls = json.notes.filter((n) => n.kind === 'roll');
  assert.equal(await page.locator('.review-steps tr.roll').count(), rolls.length);

  // The top of the page: the chart, the totals, the steps and the first boards.
  await page.screenshot({ path: path.join(artefacts, 'review-html.png') });
  await chartJumps(page);
  assert.deepEqual(requests, [], 'no request beyond the file');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the app reviews a finished game against a bot, and an uploaded record', { timeout: 240000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  const id = await startInLobby(page, server, { rules: 'finkel', mode: 'bot', bot: '1', seat: 'light', options: { pieces: '3' } });
  await playToEnd(page, { rng: seeded(21) });
  await page.waitForSelector('#end:not([hidden]) #review-game');
  await page.click('#review-game');
  await page.waitForSelector('#review-chart polyline.win-line', { timeout: 120000 });
  assert.equal(await page.evaluate(() => location.hash), `#/review/${id}`);
  const doc = await (await fetch(`${server.url}/api/games/${id}/review`)).json();
  assert.equal(doc.steps.length, doc.light_win.length);
  assert.equal(await page.locator('.review-steps tr.step').count(), doc.steps.length);
  for (const [k, side] of ['light', 'dark'].entries()) {
    assert.equal(shown(await cell(page, side, 'decisions')), doc.totals[k].decisions);
  }
  await page.screenshot({ path: path.join(artefacts, 'review-app.png'), fullPage: false });
  await chartJumps(page);

  // The same game's record uploaded on the review screen gives the same review.
  const record = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  const file = path.join(tmpDir(), 'game.json');
  fs.writeFileSync(file, record);
  await page.click('#nav-review');
  await page.waitForSelector('#review-file');
  assert.equal(await page.locator('#review-chart').count(), 0);
  await page.setInputFiles('#review-file', file);
  await page.waitForSelector('#review-chart polyline.win-line', { timeout: 120000 });
  assert.equal(await page.locator('.review-steps tr.step').count(), doc.steps.length);
  // A file that is no record is refused in words.
  const junk = path.join(tmpDir(), 'junk.json');
  fs.writeFileSync(junk, '{"not": "a record"}');
  await page.setInputFiles('#review-file', junk);
  await page.waitForSelector('.review-upload .error:not(:empty)');
  assert.match(await page.textContent('.review-upload .error'), /not a valid game record/);
  assertNoErrors(me);
  await me.context.close();

  // A game still in play has no review yet.
  const res = await fetch(`${server.url}/api/games/${'0'.repeat(32)}/review`);
  assert.equal(res.status, 404);
});

test('a tower game judged by rollouts: the judge named with how sure it is, and every value with its ±', { timeout: 180000 }, async () => {
  const dir = tmpDir();
  const game = path.join(dir, 'tower.json');
  ur(['play', '--quiet', '--rules', 'guard-d6', '--save', game, '--light', 'greedy', '--dark', 'random', '--seed', '3']);
  const html = path.join(dir, 'tower.html');
  const judge = ['--trials', '16', '--seed', '2', '--quiet'];
  ur(['review', game, '--format', 'html', '-o', html, ...judge]);
  const json = JSON.parse(ur(['review', game, '--json', ...judge]));
  const context = await browser.newContext({ viewport: { width: 1200, height: 1400 }, locale: 'fr-FR', colorScheme: 'dark' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector('#review-chart polyline.win-line');

  // The judge in words (French here) and how sure it is, as --json says.
  assert.equal(await page.getAttribute('.review-judge', 'data-judge'), json.judge);
  assert.match(await page.textContent('.review-judge'), /16 parties jouées depuis chaque choix.*95 %/);
  const sure = page.locator('.review-sure');
  assert.equal(await sure.getAttribute('data-sure'), String(json.sureness.sure_verdicts));
  assert.equal(await sure.getAttribute('data-verdicts'), String(json.sureness.verdicts));
  assert.match(await sure.textContent(), /Degré de certitude : pertes à ±\d+,\d pp près/);

  // Each error on its board, its loss shown with the loss's ± as --json has them.
  const notes = new Map(json.notes.map((n) => [n.step, n]));
  const bad = json.notes.filter((n) => ['inaccuracy', 'mistake', 'blunder'].includes(n.verdict));
  const cards = page.locator('.review-error');
  assert.equal(await cards.count(), bad.length);
  assert.ok(bad.length > 0, 'a random player errs');
  assert.ok(await cards.first().locator('svg.board').count() === 1, 'the tower board is drawn');
  const index = await page.evaluate(() => window.urReview.doc.steps.map((s) => s.index));
  const losses = await page.$$eval('.review-error', (els) => els.map((e) => ({ step: Number(e.dataset.step), text: e.querySelector('.loss').textContent })));
  for (const { step, text } of losses) {
    const note = notes.get(index[step]);
    const m = /([\d,]+) pp ±([\d,]+)/.exec(text);
    assert.ok(m, `a loss with its interval: '${text}'`);
    const num = (x) => Number(x.replace(',', '.'));
    assert.ok(Math.abs(num(m[1]) - 100 * note.loss.mean) <= 0.005 + 1e-9, `${text} vs ${note.loss.mean}`);
    assert.ok(Math.abs(num(m[2]) - 100 * note.loss.half) <= 0.005 + 1e-9, `${text} vs ±${note.loss.half}`);
  }
  // Every roll's luck with its ±, every judged decision's loss too.
  const rolls = json.notes.filter((n) => n.kind === 'roll').length;
  assert.equal(await page.locator('.review-steps tr.roll td.luck[data-interval]:not([data-interval=""])').count(), rolls);
  assert.match(await page.locator('.review-steps tr.roll td.luck').first().textContent(), /±\d/);
  const decisions = json.notes.filter((n) => n.kind === 'decision').length;
  assert.equal(await page.locator('.review-steps tr.decision td.loss[data-interval]:not([data-interval=""])').count(), decisions);
  // The moves and throws in French too, as the page says them.
  const words = await page.$$eval('.review-steps td, .review-error dd', (els) => els.map((e) => e.textContent).join(' | '));
  assert.doesNotMatch(words, /\b(marked|then|carrying|prisoners?|move \d|enter|throw again|threw|backward)\b/i);
  assert.match(words, /un \d\s*: avance de \d/);
  assert.match(words, /→/);
  await page.screenshot({ path: path.join(artefacts, 'review-tower.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
