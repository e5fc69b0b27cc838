// The new-game screen's line on the tables the server solves in the
// background (GET /api/solving), and the Perfect bot greyed out with its
// reason while its rule set has no table.
import { t } from './i18n.js';
import { h, fetchJSON } from './dom.js';

const POLL_MS = 5000;

// One entry's words: "Finkel: solving 40 %".
function entryText(e, nameOf) {
  const name = nameOf(e.rules) + (e.options && e.options.pieces ? ' (' + e.options.pieces + ')' : '');
  if (e.state === 'solving') return t('solving.solving', { name, pct: Math.floor(100 * (e.fraction || 0)) });
  if (e.state === 'skipped') return t('solving.skipped', { name, reason: e.reason || '' });
  return t('solving.' + e.state, { name });
}

// Why Perfect cannot play `rules` with `pieces` now, or null when a table
// serves it. Options besides the pieces make another game: no table serves it.
function perfectBlocked(status, rules, pieces, otherOptions) {
  if (otherOptions) return t('solving.perfect.options');
  const fits = (x) => x.rules === rules && (pieces == null || x.pieces === pieces);
  if ((status.stored || []).some(fits)) return null;
  const e = (status.rule_sets || []).find(fits);
  if (e && e.state === 'ready') return null;
  if (e && e.state === 'solving') return t('solving.perfect.solving', { pct: Math.floor(100 * (e.fraction || 0)) });
  if (e && e.state === 'queued') return t('solving.perfect.queued');
  return t('solving.perfect.none');
}

// The status line; `update(rules, custom, pieces, otherOptions)` greys
// Perfect for that game (pieces null while the rule set's count is unknown).
export function solvingLine(levelSelect, nameOf) {
  const el = h('p', { class: 'muted small solving-status', id: 'solving-status', 'aria-live': 'polite', hidden: true });
  let status = null;
  let rules = null;
  let custom = false;
  let pieces = null;
  let otherOptions = false;
  const perfect = levelSelect.querySelector('option[value=perfect]');
  const label = perfect.textContent;
  const apply = () => {
    if (!status) return;
    const sets = status.rule_sets || [];
    el.hidden = !sets.length;
    el.textContent = sets.length ? t('solving.heading') + ' ' + sets.map((e) => entryText(e, nameOf)).join(' · ') : '';
    const why = custom || perfect.hidden ? null : perfectBlocked(status, rules, pieces, otherOptions);
    if (!perfect.hidden) perfect.disabled = !!why;
    perfect.textContent = why ? label + ' (' + why + ')' : label;
    perfect.title = why || '';
    if (why && levelSelect.value === 'perfect') { levelSelect.value = '5'; levelSelect.dispatchEvent(new Event('change')); }
  };
  const poll = async () => {
    try { status = await fetchJSON('/api/solving'); } catch (_) { /* the line waits for the next poll */ }
    apply();
    const busy = status && (status.rule_sets || []).some((e) => e.state === 'queued' || e.state === 'solving');
    if (busy && document.body.contains(el)) setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, 0);
  return { el, update: (id, isCustom, n = null, other = false) => { rules = id; custom = isCustom; pieces = n; otherOptions = other; apply(); } };
}
