// Hot-seat on one device to the end, the first turns with the keyboard only;
// the page reconnecting by itself after the server is killed and restarted;
// the page in French and back; every English word has a French one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startServer, person, startInLobby, state, step, waitTurn, waitChange, playToEnd, seeded, assertNoErrors } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Tab until the element matching `selector` has the focus. */
async function tabTo(page, selector, max = 80) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const ok = await page.evaluate((sel) => {
      const a = document.activeElement;
      return !!a && a.matches(sel);
    }, selector);
    if (ok) return;
  }
  throw new Error('Tab never reached ' + selector);
}

function spotSel(spot, side) {
  if (spot.at === 'square') return `svg.board [data-square="${spot.square}"], svg.board [data-piece][data-square="${spot.square}"]`;
  return `svg.board [data-${spot.at}="${side}"]`;
}

test('hot-seat: both sides on one device to the end, first turns by keyboard', { timeout: 240000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'finkel', mode: 'hotseat', options: { pieces: '2' } });
  const first = await state(page);
  assert.equal(first.you, 'both');
  assert.equal(first.mode, 'hotseat');

  // Keyboard: R rolls; Tab reaches a movable piece, Enter picks it, Tab to
  // the lit destination, Enter moves.
  let keyed = 0;
  for (let i = 0; i < 40 && keyed < 3; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    if (st.stage === 'roll') {
      await page.locator('body').focus();
      await page.keyboard.press('r');
      await waitChange(page, st.seq);
      continue;
    }
    const a = st.actions.find((x) => x.kind === 'move' && x.from && x.to);
    if (!a) {
      await page.click(`#choices button[data-action="${st.actions[0].index}"]`);
      await waitChange(page, st.seq);
      continue;
    }
    await page.locator('body').focus();
    await tabTo(page, spotSel(a.from, st.turn));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.urApp.screen.selected);
    await tabTo(page, spotSel(a.to, st.turn));
    await page.keyboard.press('Enter');
    await waitChange(page, st.seq);
    keyed += 1;
  }
  assert.ok(keyed >= 1, 'moves made with the keyboard');

  const end = await playToEnd(page, { rng: seeded(3) });
  assert.ok(end.winner);
  const status = await page.textContent('#status');
  assert.match(status, /wins|drawn/);
  assertNoErrors(me);
  await me.context.close();
});

test('a piece can be dragged to its square, and arrow keys walk the board', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const { page } = me;
  await startInLobby(page, server, { rules: 'finkel', mode: 'hotseat' });
  // Arrow keys: from the middle row's fourth square (id 11 on the 3x8 board) right, back, down.
  await page.focus('svg.board [data-square="11"]');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('data-square'));
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), '12');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), '11');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), '19');
  // A drag from the reserve to a lit square plays the move.
  let st = await waitTurn(page);
  while (st.stage === 'roll') {
    await page.locator('#roll').click();
    await waitChange(page, st.seq);
    st = await waitTurn(page);
  }
  const a = st.actions.find((x) => x.kind === 'move' && x.from && x.from.at === 'reserve' && x.to.at === 'square');
  assert.ok(a, 'the first move enters a piece');
  const centre = async (sel) => { const b = await page.locator(sel).first().boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const [x0, y0] = await centre(`svg.board [data-reserve="${st.turn}"]`);
  const [x1, y1] = await centre(`svg.board [data-square="${a.to.square}"]`);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 5 });
  assert.equal(await page.locator('.drag-ghost').count(), 1, 'a disc follows the pointer');
  await page.mouse.move(x1, y1, { steps: 5 });
  await page.mouse.up();
  await waitChange(page, st.seq);
  const after = await state(page);
  const pieces = await page.evaluate(() => window.urApp.screen.view.position.pieces);
  assert.ok(pieces.some((p) => p.square === a.to.square && p.side === st.turn), 'the dragged piece stands on its square');
  assert.equal(await page.locator('.drag-ghost').count(), 0);
  assert.ok(after.seq > st.seq);
  assertNoErrors(me);
  await me.context.close();
});

test('the page follows the browser language, switches, and remembers', { timeout: 60000 }, async () => {
  const fr = await person(browser, server, { locale: 'fr-FR' });
  await fr.page.goto(server.url + '/');
  await fr.page.waitForSelector('#start');
  assert.equal(await fr.page.textContent('#start'), 'Commencer la partie');
  assert.equal(await fr.page.getAttribute('html', 'lang'), 'fr');
  const missing = await fr.page.evaluate(async () => (await import('/assets/i18n.js')).missing());
  assert.deepEqual(missing, [], 'every string in both languages');
  await fr.page.selectOption('#lang', 'en');
  await fr.page.waitForFunction(() => document.getElementById('start').textContent === 'Start the game');
  await fr.page.reload();
  await fr.page.waitForSelector('#start');
  assert.equal(await fr.page.textContent('#start'), 'Start the game', 'the choice is remembered');
  // The rules page of a rule set, in French, with its path drawn.
  await fr.page.selectOption('#lang', 'fr');
  await fr.page.goto(server.url + '/#/rules/regency-murray');
  await fr.page.waitForSelector('#rules-page svg[data-path="light"] .rp-num');
  const nums = await fr.page.$$eval('#rules-page svg[data-path="light"] .rp-num', (t) => t.map((x) => x.textContent));
  assert.ok(nums.some((n) => n.includes('27')), 'Murray\'s 27-square path is numbered: ' + nums.join(' '));
  assert.match(await fr.page.textContent('#rules-page h1'), /Règles/);
  assertNoErrors(fr);
  await fr.context.close();
});

test('a game in French says its moves, throws, notes and log in French', { timeout: 180000 }, async () => {
  const fr = await person(browser, server, { locale: 'fr-FR' });
  const { page } = fr;
  // Words of the server's English texts that the French page must not show.
  const english = /\b(marked|enter|then|roll again|rolls again|captures|the turn|throw again|prisoners?|move \d|leave the board|jump|Warrior|Twins|held|procedure|blank|wins)\b/i;
  // One rule set of each family, and the named birds' declarations.
  for (const rules of ['finkel', 'bens-ur', 'ludens-akalandung', 'vizier-4-pyramids', 'v1-named-birds']) {
    await startInLobby(page, server, { rules, mode: 'hotseat' });
    const rng = seeded(5);
    let decisions = 0;
    for (let i = 0; i < 36; i += 1) {
      const st = await waitTurn(page);
      if (st.winner) break;
      if (st.stage === 'act') {
        const texts = await page.evaluate(() => [
          ...[...document.querySelectorAll('#choices button, #all-moves button')].map((b) => b.textContent),
          ...[...document.querySelectorAll('svg.board .dice-text, svg.board .throw-table title, .notes, #log')].map((e) => e.textContent),
        ]);
        for (const x of texts) assert.doesNotMatch(x, english, `${rules}: "${x}"`);
        assert.ok(texts.some((x) => /pointes? marquée|un \d|tout blanc/.test(x)), `${rules}: the dice are told in French: ${texts.join(' | ')}`);
        decisions += 1;
      }
      await step(page, rng);
    }
    assert.ok(decisions >= 3, `${rules}: ${decisions} decisions seen`);
  }
  assertNoErrors(fr);
  await fr.context.close();
});

test('the page runs only its own scripts: injected markup cannot run any', { timeout: 60000 }, async () => {
  const me = await person(browser, server);
  const res = await me.page.goto(server.url + '/');
  const csp = res.headers()['content-security-policy'] || '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /connect-src 'self'/);
  assert.equal(res.headers()['referrer-policy'], 'no-referrer');
  await me.page.waitForSelector('#start');
  // Markup with an inline handler, as an injection would bring: refused, not run.
  await me.page.evaluate(() => {
    const box = document.createElement('div');
    box.innerHTML = '<img src="/no-such-picture" onerror="window.injected = true">';
    document.body.append(box);
  });
  await me.page.waitForTimeout(500);
  assert.equal(await me.page.evaluate(() => window.injected), undefined);
  assert.ok(me.errors.some((e) => /Content Security Policy/.test(e)), 'the browser says why: ' + me.errors.join('\n'));
  await me.context.close();
});

test('the page reconnects by itself when the server restarts, and the game goes on', { timeout: 120000 }, async () => {
  const own = await startServer();
  const me = await person(browser, own);
  const { page } = me;
  await startInLobby(page, own, { rules: 'finkel', mode: 'bot', bot: '1', options: { pieces: '2' } });
  const rng = seeded(9);
  for (let i = 0; i < 6; i += 1) {
    const st = await waitTurn(page);
    if (st.winner) break;
    await step(page, rng);
  }
  const before = await state(page);
  // A crash: the page says it lost the server, then finds it again on the same address.
  await own.stop('SIGKILL');
  await page.waitForFunction(() => !window.urApp.screen.online, null, { timeout: 10000 });
  assert.match(await page.textContent('#status'), /reconnecting/i);
  const again = await startServer({ dir: own.dir, port: own.port });
  try {
    await page.waitForFunction(() => window.urApp.screen.online, null, { timeout: 20000 });
    const back = await waitTurn(page);
    assert.ok(back.seq >= before.seq, 'every acknowledged step is still there');
    const end = await playToEnd(page, { rng });
    assert.ok(end.winner);
    assertNoErrors(me);
  } finally {
    await me.context.close();
    await again.stop();
  }
});
