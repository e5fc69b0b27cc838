// Every rule set's rules page, in English and in French, teaches the five
// things (the throw, entering and moving, captures and safe squares, bearing
// off, winning), each with its picture; judgment-call codes stay out of the
// player's text and go to their own section; options are in the page's
// language. A screenshot: docs/screenshots/rules.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, person, assertNoErrors, repo } from './lib.mjs';

let server;
let browser;

serverAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const SECTIONS = ['throw', 'move', 'capture', 'off', 'win'];
const CODE = /\b[DOT]\d\d\b/;

async function readPage(page) {
  return page.evaluate((sections) => {
    const one = (k) => {
      const el = document.getElementById('teach-' + k);
      if (!el) return null;
      return {
        heading: el.querySelector('h2').textContent,
        text: el.querySelector('.teach-text').innerText,
        pictures: el.querySelectorAll('figure svg').length,
        caption: (el.querySelector('figcaption') || {}).textContent || '',
      };
    };
    const judgment = document.getElementById('teach-judgment');
    const options = [...document.querySelectorAll('#rules-options dd')].map((d) => d.textContent);
    return {
      lang: document.documentElement.lang,
      sections: Object.fromEntries(sections.map((k) => [k, one(k)])),
      judgment: judgment ? [...judgment.querySelectorAll('li')].map((li) => li.textContent) : [],
      options,
    };
  }, SECTIONS);
}

test('every rule set\'s rules page teaches the five things with pictures, in English and French', { timeout: 300000 }, async () => {
  const ids = (await (await fetch(server.url + '/api/rules')).json()).map((r) => r.id);
  assert.equal(ids.length, 17);
  for (const [locale, lang] of [['en-GB', 'en'], ['fr-FR', 'fr']]) {
    const who = await person(browser, server, { locale });
    const { page } = who;
    const headings = new Set();
    for (const id of ids) {
      await page.goto(server.url + '/#/rules/' + id);
      await page.waitForSelector('#teach-win');
      const got = await readPage(page);
      assert.equal(got.lang, lang);
      for (const k of SECTIONS) {
        const sec = got.sections[k];
        assert.ok(sec, `${lang} ${id}: section ${k}`);
        assert.ok(sec.text.trim().length > 30, `${lang} ${id} ${k}: "${sec.text}"`);
        assert.ok(sec.pictures >= 1, `${lang} ${id} ${k}: a picture`);
        assert.doesNotMatch(sec.text, CODE, `${lang} ${id} ${k}: no judgment code in the player's text`);
        assert.doesNotMatch(sec.text, /teach\./, `${lang} ${id} ${k}: every string found`);
        headings.add(sec.heading);
      }
      for (const o of got.options) assert.doesNotMatch(o, CODE, `${lang} ${id}: option text "${o}"`);
      const facts = await (await fetch(server.url + '/api/rules/' + id)).json();
      assert.equal(got.judgment.length, facts.teach.judgment.length, `${lang} ${id}: every judgment call listed`);
      for (const j of got.judgment) assert.match(j, CODE, `${lang} ${id}: "${j}" names its code`);
      if (lang === 'fr') {
        for (const o of got.options) assert.doesNotMatch(o, /\b(the|of|or|and|a piece|player)\b/, `${id}: option in French: "${o}"`);
        for (const j of got.judgment) assert.doesNotMatch(j, /\b(the|of|and|a)\b/, `${id}: judgment call in French: "${j}"`);
      }
    }
    assert.equal(headings.size, 5, `${lang}: the same five headings on every page: ${[...headings]}`);
    if (lang === 'en') {
      // The throw table of Finkel: 0 to 4 marked tips, 1/16 to 6/16.
      await page.goto(server.url + '/#/rules/finkel');
      await page.waitForSelector('#teach-throw');
      const throwText = await page.textContent('#teach-throw .teach-text');
      assert.match(throwText, /0 → no move \(6 %\)/);
      assert.match(throwText, /2 → move 2 \(38 %\)/);
      assert.match(await page.textContent('#teach-capture'), /rosettes are safe/);
      assert.ok((await page.locator('#teach-move svg[data-path]').count()) >= 1, 'the move section draws the path');
      // Guard's judgment calls: D57 from max_stack, out of the option's text.
      await page.goto(server.url + '/#/rules/guard-d6');
      await page.waitForSelector('#teach-judgment');
      assert.match(await page.textContent('#teach-judgment'), /D57.*max_stack/);
      assert.doesNotMatch(await page.textContent('#rules-options'), /D57/);
    } else {
      await page.goto(server.url + '/#/rules/finkel');
      await page.waitForSelector('#teach-win');
      await page.setViewportSize({ width: 1000, height: 1500 });
      await page.screenshot({ path: path.join(repo, 'docs/screenshots/rules.png'), fullPage: false });
    }
    assertNoErrors(who);
    await who.context.close();
  }
});
