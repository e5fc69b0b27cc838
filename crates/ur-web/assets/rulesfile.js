// A rule-set file chosen in the lobby: checked by the server as soon as it
// is chosen (POST /api/rules/check), its problems listed one by one, and
// its rules kept for its own rules page (#/rules/<its id>).

import { h, fill } from './dom.js';
import { t } from './i18n.js';

/** Checked files' rules by id, for the rules page (GET /api/rules/<id> knows built-in sets only). */
export const customRules = new Map();

/** The server's verdict on `text`: {ok: true, info} or {ok: false, message, problems}. */
export async function checkRulesFile(text) {
  let res;
  let body = null;
  try {
    res = await fetch('/api/rules/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules_file: text }) });
    body = await res.json();
  } catch (_) {
    return { ok: false, message: t('error.network'), problems: [] };
  }
  if (res.ok && body && body.ok) {
    customRules.set(body.id, body);
    return { ok: true, info: body };
  }
  return { ok: false, message: (body && body.message) || res.statusText, problems: (body && body.problems) || [] };
}

/** Fills `box` with why the file `name` was refused: a heading and the problems as a list. */
export function showProblems(box, name, verdict) {
  const list = verdict.problems.length > 1 ? verdict.problems : [];
  fill(box,
    h('p', {}, t('lobby.custom.invalid', { name })),
    list.length ? h('ul', { class: 'problems' }, list.map((p) => h('li', {}, p))) : h('p', {}, verdict.message));
}
