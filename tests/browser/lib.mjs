// Helpers of the browser tests: start `ur serve` on a free loopback port with
// a fresh database, launch Debian's Chromium through playwright-core, and play
// through the page as a person would (the Roll button, a click on a piece and
// on a lit destination, a choice button).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const artefacts = path.join(here, 'artefacts');

export const UR_BIN = process.env.UR_BIN || path.join(repo, 'target/debug/ur');
export const CHROMIUM = process.env.UR_CHROMIUM || '/usr/bin/chromium';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Temporary folders (databases, rule-set files) go when the test process ends.
const made = [];
process.on('exit', () => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

export function tmpDir(prefix = 'ur-browser-') {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** `ur serve` on a free port with a fresh (or the given) database. */
export async function startServer({ dir = tmpDir(), port = null, extra = [] } = {}) {
  port = port || (await freePort());
  const db = path.join(dir, 'games.sqlite3');
  // Tables in the test's own folder, and no background solving unless a test asks:
  // nothing is written outside the test, and no solve competes with the browser.
  const own = [];
  if (!extra.includes('--tables')) {
    fs.mkdirSync(path.join(dir, 'tables'), { recursive: true });
    own.push('--tables', path.join(dir, 'tables'));
  }
  if (!extra.includes('--solve')) own.push('--solve', 'none');
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--bot-delay-ms', '0', '--messages-per-second', '500', '--games-per-second', '50', ...own, ...extra];
  const proc = spawn(UR_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' } });
  let output = '';
  proc.stdout.on('data', (d) => { output += d; });
  proc.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`ur serve exited (${proc.exitCode}): ${output}`);
    try {
      const res = await fetch(url + '/api/rules');
      if (res.ok) break;
    } catch (_) { /* not yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`ur serve did not answer on ${url} in 30 s: ${output}`);
    }
    await sleep(100);
  }
  return {
    url, port, dir, db, proc,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/**
 * A browser context of one person: a page whose errors fail the test, and
 * no request leaving the test server.
 */
/** One server and one browser for a test file: started before its tests
 * (handed to `set`), stopped after them. */
export function serverAndBrowser(set) {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launch();
    set(server, browser);
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) await server.stop();
  });
}

export async function person(browser, server, { viewport = { width: 1200, height: 860 }, locale = 'en-GB', colorScheme = 'light', device = {} } = {}) {
  // `device`: more context options, e.g. {hasTouch: true, isMobile: true} for a phone.
  const context = await browser.newContext({ viewport, locale, colorScheme, acceptDownloads: true, ...device });
  const errors = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    // While working on the page: its files from the source tree instead of
    // those embedded in the binary (UR_ASSETS_FROM=crates/ur-web/assets).
    if (process.env.UR_ASSETS_FROM && u.startsWith(server.url)) {
      const p = new URL(u).pathname;
      // Not the document itself: a fulfilled document loses its loopback address and its websockets.
      const file = p.startsWith('/assets/') ? p.slice(8) : null;
      if (file && fs.existsSync(path.resolve(repo, process.env.UR_ASSETS_FROM, file))) {
        const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html' };
        return route.fulfill({ status: 200, contentType: types[file.split('.').pop()] || 'application/octet-stream', body: fs.readFileSync(path.resolve(repo, process.env.UR_ASSETS_FROM, file)) });
      }
    }
    if (u.startsWith(server.url) || u.startsWith(server.url.replace('http', 'ws')) || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    errors.push('request outside the server: ' + u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/WebSocket|ERR_CONNECTION|Failed to load resource/.test(m.text())) errors.push('console: ' + m.text()); });
  return { context, page, errors };
}

/** Through the lobby: pick the rule set, the mode, the bot and the side, and start. */
export async function startInLobby(page, server, { rules, mode = 'bot', bot = '1', seat = 'light', options = {} } = {}) {
  await page.goto(server.url + '/');
  await page.waitForSelector('#ruleset option', { state: 'attached' });
  await page.selectOption('#ruleset', rules);
  await page.check(`input[name=mode][value=${mode}]`);
  if (mode === 'bot') await page.selectOption('#bot-level', bot);
  if (mode !== 'hotseat') await page.selectOption('#seat', seat);
  if (Object.keys(options).length) {
    // The options arrive with the rule set's details: wait for them before opening the list.
    await page.waitForSelector(`[data-option="${Object.keys(options)[0]}"]`, { state: 'attached' });
    await page.click('.option-list summary');
    for (const [k, v] of Object.entries(options)) {
      const el = page.locator(`[data-option="${k}"]`);
      if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(String(v));
      else await el.fill(String(v));
      await el.dispatchEvent('change');
    }
  }
  await page.click('#start');
  await page.waitForFunction(() => window.urApp && window.urApp.screen && window.urApp.screen.view);
  return page.evaluate(() => window.urApp.screen.id);
}

// What the page shows now, read inside the page.
function readState() {
  const s = window.urApp.screen;
  if (!s || !s.view) return null;
  return {
    id: s.id, seq: s.seq, stage: s.view.turn.stage, turn: s.view.turn.side, you: s.game && s.game.you,
    mode: s.game && s.game.mode, canAct: s.canAct(), busy: s.busy, winner: s.view.winner,
    actions: s.view.actions, paths: s.view.board.paths, online: s.online, status: document.getElementById('status').textContent,
  };
}

const READ = `(${readState})()`;

/** What the page shows now. */
export function state(page) {
  return page.evaluate(READ);
}

/** Wait until this page may act, or the game is over; its state then. */
export async function waitTurn(page, timeout = 30000) {
  // The page's policy forbids eval, so the polled predicate is a function
  // calling a reader installed beforehand (an evaluate from the test is not
  // held to the policy; a string predicate polled inside the page would be).
  await page.evaluate(`window.urTestRead = ${readState}`);
  const handle = await page.waitForFunction(() => {
    const s = window.urApp.screen;
    if (!(s && s.view && s.online && !s.busy && (s.view.winner || s.canAct()))) return false;
    return window.urTestRead ? window.urTestRead() : false;
  }, null, { timeout, polling: 'raf' });
  const st = await handle.jsonValue();
  await handle.dispose();
  return st;
}

function spotSelector(spot, side) {
  if (!spot) return null;
  if (spot.at === 'square') return `svg.board [data-square="${spot.square}"]`;
  if (spot.at === 'reserve') return `svg.board [data-reserve="${side}"]`;
  if (spot.at === 'off') return `svg.board [data-off="${side}"]`;
  return null;
}

/** A piece on a square, if the board draws one there; else the square. */
async function pieceOrSquare(page, spot, side) {
  if (spot.at === 'square') {
    const piece = page.locator(`svg.board [data-piece][data-square="${spot.square}"]`);
    if (await piece.count()) return piece.first();
  }
  return page.locator(spotSelector(spot, side)).first();
}

/** Pick an action: mostly the one that goes furthest along the path, so games end. */
export function pickAction(st, rng = Math.random) {
  const acts = st.actions;
  if (!acts.length) return null;
  if (rng() < 0.3) return acts[Math.floor(rng() * acts.length)];
  const path = st.paths[st.turn === 'dark' ? 1 : 0] || [];
  const rank = (a) => {
    if (!a.to) return -1;
    if (a.to.at === 'off') return 1000;
    if (a.to.at === 'square') return path.lastIndexOf(a.to.square);
    return 0;
  };
  return acts.slice().sort((a, b) => rank(b) - rank(a))[0];
}

/** One step as a person: roll, or pick a piece and a lit destination, or a choice button. */
export async function step(page, rng = Math.random, onAction = null) {
  const st = await waitTurn(page);
  if (st.winner) return st;
  if (st.stage === 'roll') {
    await page.locator('#roll').click({ force: true });
  } else {
    const a = pickAction(st, rng);
    if (!a) throw new Error('no action to take: ' + JSON.stringify(st));
    if (onAction) onAction(a, st);
    if (a.kind === 'choice' || !a.to) {
      await page.locator(`#choices button[data-action="${a.index}"]`).click({ force: true });
    } else {
      if (a.from) {
        const from = await pieceOrSquare(page, a.from, st.turn);
        await from.click({ force: true });
        // The destination lights up.
        await page.waitForFunction(() => window.urApp.screen.selected || window.urApp.screen.pending, null, { timeout: 5000 });
        const pending = await page.evaluate(() => !!window.urApp.screen.pending);
        if (pending) {
          await page.click(`#choices button[data-action="${a.index}"]`);
          return waitChange(page, st.seq);
        }
      }
      const to = page.locator(spotSelector(a.to, st.turn)).first();
      await to.click({ force: true });
      const pending = await page.evaluate(() => !!window.urApp.screen.pending);
      if (pending) await page.click(`#choices button[data-action="${a.index}"]`);
    }
  }
  return waitChange(page, st.seq);
}

export async function waitChange(page, seq, timeout = 15000) {
  await page.waitForFunction((q) => {
    const s = window.urApp.screen;
    return s && s.seq !== q;
  }, seq, { timeout, polling: 'raf' });
}

/** Play this page's side (or both sides in hot-seat) until the game ends. */
export async function playToEnd(page, { maxSteps = 3000, rng = seeded(1), onStep = null } = {}) {
  const t0 = Date.now();
  for (let i = 0; i < maxSteps; i += 1) {
    const st = await waitTurn(page, 60000);
    if (st.winner) {
      if (process.env.UR_TEST_VERBOSE) console.log(`# ${st.id}: ${i} steps in ${Date.now() - t0} ms`);
      return st;
    }
    await step(page, rng);
    if (onStep) await onStep(i);
  }
  throw new Error(`the game did not end in ${maxSteps} steps`);
}

/** A small seeded random number generator, so a failing game can be replayed. */
export function seeded(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

/** Create a game through the API (for the screenshots), as the lobby does. */
export async function apiGame(server, body) {
  const res = await fetch(server.url + '/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST /api/games ${res.status}: ${await res.text()}`);
  return res.json();
}

export function assertNoErrors(who) {
  if (who.errors.length) throw new Error(who.errors.join('\n'));
}
