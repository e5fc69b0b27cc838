// Small DOM helpers shared by the page's modules.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** h('button', {class: 'x', onclick: f}, 'text', child...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.setAttribute('class', v);
    else if (k === 'text') el.textContent = v;
    else if (k in el && typeof v !== 'string' && !(el instanceof SVGElement)) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** JSON from the server, or an Error with the server's message. */
export async function fetchJSON(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    const err = new Error(e.message || 'network');
    err.network = true;
    throw err;
  }
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (_) { body = null; }
  if (!res.ok) {
    const msg = (body && (body.message || body.error)) || text || res.statusText;
    const err = new Error(msg);
    err.status = res.status;
    err.code = body && body.code;
    throw err;
  }
  return body;
}

/** Local storage that never throws (private windows, storage off). */
export const store = {
  get(key, fallback = null) {
    try {
      const v = localStorage.getItem(key);
      return v === null ? fallback : JSON.parse(v);
    } catch (_) { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* storage off */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch (_) { /* storage off */ }
  },
};

/** el.replaceChildren without the nulls and falses that conditional parts leave. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
