// Position strings on the page (docs/positions.md): the lobby's start
// position, filled from an address like #/new?rules=finkel&position=l:469.1,2d,
// and the game screen's current position, small and copyable. The server
// reads and checks every string: this module only carries it.

import { t } from './i18n.js';
import { h } from './dom.js';

/**
 * The lobby's start-position field. `preset` is the address's query (or
 * null): its `rules` picks the rule set when it is a built-in one, and its
 * `position` fills the field. Returns { el, value() }.
 */
export function startPositionField(preset, state, rules) {
  const wanted = preset && preset.get('rules');
  if (wanted && rules.some((r) => r.id === wanted)) state.rules = wanted;
  const input = h('input', {
    type: 'text', id: 'start-position', name: 'position', spellcheck: 'false', autocomplete: 'off',
    value: (preset && preset.get('position')) || '', placeholder: 'l:-,-',
  });
  const el = h('div', { class: 'start-position', hidden: !input.value },
    h('label', { class: 'field', for: 'start-position' }, h('span', {}, t('lobby.position')), input),
    h('p', { class: 'muted small' }, t('lobby.position.hint')),
    h('button', { type: 'button', class: 'link', onclick: () => { input.value = ''; el.hidden = true; } }, t('lobby.position.clear')));
  return { el, value: () => input.value.trim() };
}

/** The game screen's line with the current position string and a copy button. */
export function positionLine() {
  const code = h('code', { id: 'position-string', class: 'position-string' });
  const copy = h('button', { type: 'button', class: 'link small', onclick: async () => {
    try { await navigator.clipboard.writeText(code.textContent); copy.textContent = t('game.position.copied'); } catch (_) { /* no clipboard: the text stays selectable */ }
  } }, t('game.position.copy'));
  const el = h('p', { class: 'position-line muted small' }, h('span', {}, t('game.position') + ' '), code, ' ', copy);
  return {
    el,
    show(view) {
      const text = (view && view.position_string) || '';
      if (code.textContent !== text) copy.textContent = t('game.position.copy');
      code.textContent = text;
      el.hidden = !text;
    },
  };
}
