// Accounts in the header: a small menu to sign in, register or sign out.
// The session is an HttpOnly cookie: this page only asks who it is.

import { t, errorText } from './i18n.js';
import { h, fill, fetchJSON } from './dom.js';

let who = undefined; // undefined: not asked yet; null: nobody

const send = (method, url, body) =>
  fetchJSON(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });

/** The account signed in (its name), or null. */
export async function session() {
  if (who === undefined) {
    try { who = (await fetchJSON('/api/session')).name; } catch (_) { who = null; }
  }
  return who;
}

/** The account menu for the header; `changed()` is called after a sign-in or sign-out. */
export function accountMenu(changed, toast) {
  const menu = h('details', { class: 'account-menu', id: 'account-menu' });
  const render = () => {
    const summary = h('summary', { class: 'top-link', id: 'account-button', 'aria-label': who ? t('acct.menuOf', { name: who }) : t('acct.signIn') },
      who ? who : t('acct.signIn'));
    if (who) {
      fill(menu, summary, h('div', { class: 'account-panel' },
        h('a', { href: '#/player/' + encodeURIComponent(who), id: 'my-page', onclick: () => { menu.open = false; } }, t('acct.myPage')),
        h('button', { type: 'button', id: 'sign-out', class: 'button secondary', onclick: signOut }, t('acct.signOut'))));
      return;
    }
    const name = h('input', { id: 'acct-name', name: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' });
    const password = h('input', { id: 'acct-password', type: 'password', name: 'password', autocomplete: 'current-password', required: true, minlength: 8, maxlength: 200 });
    const error = h('p', { class: 'form-error', id: 'acct-error', role: 'alert' });
    const act = (url) => async (e) => {
      e.preventDefault();
      try {
        who = (await send('POST', url, { name: name.value, password: password.value })).name;
        menu.open = false;
        render();
        changed();
      } catch (err) { error.textContent = errorText(err); }
    };
    fill(menu, summary, h('form', { class: 'account-panel', onsubmit: act('/api/session') },
      h('label', {}, t('acct.name'), name),
      h('label', {}, t('acct.password'), password),
      h('p', { class: 'muted' }, t('acct.rules')),
      error,
      h('div', { class: 'account-buttons' },
        h('button', { type: 'submit', id: 'sign-in', class: 'button primary' }, t('acct.signIn')),
        h('button', { type: 'button', id: 'register', class: 'button', onclick: act('/api/accounts') }, t('acct.register')))));
  };
  async function signOut() {
    try { await send('DELETE', '/api/session'); } catch (e) { toast(errorText(e), 'error'); return; }
    who = null;
    menu.open = false;
    render();
    changed();
  }
  render();
  if (who === undefined) session().then(render);
  return menu;
}
