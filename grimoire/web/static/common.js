// Shared helpers: translations (JSON catalogs from /api/i18n), DOM building, the JSON API.

const LANG_KEY = "grimoire.lang";
const catalogs = {};
let lang = "en";
let languages = null;          // code -> name in that language, from GET /api/i18n

export function currentLang() { return lang; }

export async function loadLang(wanted) {
  if (!languages) languages = (await (await fetch("/api/i18n")).json()).languages;
  const pick = wanted || localStorage.getItem(LANG_KEY) || (navigator.language || "en").slice(0, 2);
  lang = pick in languages ? pick : "en";
  for (const l of new Set(["en", lang])) {
    if (!catalogs[l]) {
      const r = await fetch(`/api/i18n/${l}`);
      catalogs[l] = await r.json();
    }
  }
  localStorage.setItem(LANG_KEY, lang);
  document.documentElement.lang = lang === "zh" ? "zh-Hant" : lang;
  return lang;
}

// t("key", {n: 3}) -> the text in the current language (English, then the key itself, as fallbacks)
export function t(key, params) {
  let s = (catalogs[lang] && catalogs[lang][key]) ?? (catalogs.en && catalogs.en[key]) ?? key;
  if (params) {
    // "{n|seat|seats}": singular or plural by the number n (grimoire/core/text.py reads the same)
    s = s.replace(/\{(\w+)\|([^{}|]*)\|([^{}|]*)\}/g,
      (m, k, one, other) => (k in params ? (Math.abs(Number(params[k])) === 1 ? one : other) : m));
    for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  }
  return s;
}

// dates and times in the reader's language (not the browser's US default)
export function formatDate(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return new Intl.DateTimeFormat(lang === "zh" ? "zh-Hant" : lang, {dateStyle: "medium", timeStyle: "short"}).format(d);
}

// an agent's name in the current language: the interface's "ai.<name>", else the game's
// "<game>.ai.<name>", else the name itself
export function agentName(game, name) {
  for (const key of [`ai.${name}`, `${game}.ai.${name}`]) if (has(key)) return t(key);
  return name;
}

// what an agent is like, in a short line for players ("plays any legal move: ..."); "" if unknown
export function agentAbout(game, name) {
  for (const key of [`${game}.ai.${name}.about`, `ai.${name}.about`]) if (has(key)) return t(key);
  return "";
}

export function has(key) { return Boolean((catalogs[lang] && catalogs[lang][key]) || (catalogs.en && catalogs.en[key])); }

// h("div.card.red", {onclick, title}, "text", child, ...) -> element
export function h(spec, attrs, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className += " " + v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// the account session's CSRF token (account.js): sent with every request that changes something
let csrfToken = null;
export function setCsrf(value) { csrfToken = value; }

// Small inline SVG icons for symbols that fonts without emoji draw as empty boxes (first, last, pause, hourglass, card back):
// icon("first") -> <svg class="icon"> in the text's colour and size
const ICONS = {
  first: "M6 5h2v14H6zM19 5v14L9 12z",
  prev: "M17 5v14L7 12z",
  next: "M7 5v14l10-7z",
  play: "M3 5v14l9-7zM12 5v14l9-7z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  last: "M5 5v14l10-7zM16 5h2v14h-2z",
  hourglass: "M6 2h12v2h-1.2c-.3 3-1.9 5.3-4 8 2.1 2.7 3.7 5 4 8H18v2H6v-2h1.2c.3-3 1.9-5.3 4-8-2.1-2.7-3.7-5-4-8H6z",
  cards: "M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm1 3v14h8V5z",
};

export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill-rule", "evenodd");
  svg.append(path);
  return svg;
}

export async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrfToken && method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  let r;
  try {
    r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch {                     // no answer at all (offline, server down): the browser's words are English
    const err = new Error(t("error.network"));
    err.code = "network";
    throw err;
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const e = (data && data.error) || {};
    const wait = e.retry_after ?? r.headers.get("Retry-After");
    // an answer without our error (e.g. a proxy's page): the generic text, not "HTTP 502"
    const err = new Error(errorText(e.code || "http_error", e.message || `HTTP ${r.status}`, wait, e.rule, e.reason));
    err.status = r.status;
    err.code = e.code;
    err.retryAfter = wait;
    throw err;
  }
  return data;
}

// an error from the server in the reader's language (its code's text, with the wait it asks for; a refused
// move with the game's words for why, [catalog key, values], a value {key} being a catalog text itself);
// the server's English message only for a code no catalog knows
export function errorText(code, message, wait, rule, reason) {
  if (code === "illegal" && Array.isArray(reason) && has(reason[0])) {
    const values = {};
    for (const [k, v] of Object.entries(reason[1] || {})) values[k] = v && typeof v === "object" ? t(v.key) : v;
    return t("error.illegal_reason", {reason: t(reason[0], values), rule: rule || "?"});
  }
  const key = `error.${code}`;
  if (!code || !has(key)) return message;
  return t(key, {seconds: wait === undefined || wait === null ? 5 : wait, rule: rule || "?"});
}

export function langSelect(onchange) {
  const sel = h("select.lang", {"aria-label": "Language", title: t("ui.language")},
    ...Object.entries(languages || {en: "English"}).map(([v, label]) =>
      h("option", {value: v, selected: v === lang}, label)));
  sel.addEventListener("change", async () => { await loadLang(sel.value); onchange(); });
  return sel;
}

let toastTimer = null;
export function toast(message, kind = "error") {
  let el = document.getElementById("toast");
  if (!el) {
    el = h("div#toast");
    document.body.append(el);
  }
  el.className = `toast ${kind} show`;
  el.textContent = message;
  el.setAttribute("role", "alert");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), kind === "error" ? 7000 : 3000);
}

// popups: Esc or a click outside closes the topmost one; focus moves into it and back afterwards
const openModals = [];
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && openModals.length) {
    e.preventDefault();
    openModals[openModals.length - 1]();
  }
});

export function modal(title, body, buttons = [], onClose = null) {
  const before = document.activeElement;
  const close = () => {
    const i = openModals.indexOf(close);
    if (i < 0) return;
    openModals.splice(i, 1);
    back.remove();
    if (onClose) onClose();
    if (before && before.focus && document.contains(before)) before.focus();
  };
  const closeBtn = h("button.close", {onclick: close, "aria-label": t("ui.close"), title: t("ui.close_esc")}, "×");
  const back = h("div.modal-back", {onclick: (e) => { if (e.target === back) close(); }},
    h("div.modal", {role: "dialog", "aria-modal": "true", "aria-label": title},
      h("div.modal-head", h("h2", title), closeBtn),
      h("div.modal-body", body),
      buttons.length ? h("div.modal-foot", ...buttons.map((b) =>
        h(`button${b.primary ? ".primary" : ""}`, {onclick: () => { if (b.onclick() !== false) close(); }}, b.label))) : null));
  document.body.append(back);
  openModals.push(close);
  const first = back.querySelector(".modal-foot button.primary") || closeBtn;
  first.focus();
  return close;
}

// a question before a consequential click: resolves true (go on) or false
export function confirmBox(title, text, okLabel) {
  return new Promise((resolve) => {
    let answer = false;
    modal(title, typeof text === "string" ? h("p", text) : text, [
      {label: t("ui.cancel"), onclick: () => true},
      {label: okLabel, primary: true, onclick: () => { answer = true; }}], () => resolve(answer));
  });
}

// bring an element into view (unless it is already) and flash it, for a decision that just arrived.
// since (ms): the page redrew the same decision that long after its spotlight — aim again (the redraw
// replaced the element and may have stopped a smooth scroll) and go on with the flash where it was
export function spotlight(el, since = 0) {
  if (!el) return;
  const r = el.getBoundingClientRect();
  const header = document.querySelector("header.top");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  if (r.top < top || r.bottom > window.innerHeight) {
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({block: r.height > window.innerHeight - top ? "start" : "center", behavior: smooth ? "smooth" : "auto"});
  }
  el.classList.remove("flash");
  void el.offsetWidth;                 // restart the animation
  el.style.animationDelay = since ? `-${Math.round(since)}ms` : "";
  el.classList.add("flash");
}

// A tiny Markdown subset for the rules help: headings, tables, code, **bold**, `code`, paragraphs.
export function markdown(text) {
  const out = h("div.md");
  const lines = text.split("\n");
  let i = 0;
  const inline = (s) => {
    const span = h("span");
    const parts = s.split(/(`[^`]+`|\*\*[^*]+\*\*)/g);
    for (const p of parts) {
      if (p.startsWith("`") && p.endsWith("`") && p.length > 1) span.append(h("code", p.slice(1, -1)));
      else if (p.startsWith("**") && p.endsWith("**")) span.append(h("strong", p.slice(2, -2)));
      else span.append(p);
    }
    return span;
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const buf = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) buf.push(lines[i++]);
      i++;
      out.append(h("pre", buf.join("\n")));
    } else if (/^#{1,4} /.test(line)) { out.append(h("h3", inline(line.replace(/^#+ /, "")))); i++; }
    else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const list = h(/^\s*\d+\./.test(line) ? "ol" : "ul");
      while (i < lines.length && /^\s*([-*]|\d+\.) /.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.) /, "");
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.) /.test(lines[i])) item += " " + lines[i++].trim();
        list.append(h("li", inline(item)));
      }
      out.append(list);
    }
    else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (r) => r.split("|").slice(1, -1).map((c) => c.trim());
      const table = h("table.md-table");
      rows.forEach((r, k) => {
        if (k === 1 && /^[-| ]+$/.test(r)) return;
        table.append(h("tr", ...cells(r).map((c) => h(k === 0 ? "th" : "td", inline(c)))));
      });
      out.append(table);
    } else if (line.trim() === "") { i++; }
    else {
      const buf = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(#{1,4} |\||```|\s*([-*]|\d+\.) )/.test(lines[i])) buf.push(lines[i++]);
      out.append(h("p", inline(buf.join(" "))));
    }
  }
  return out;
}

// A view with the edits of a "patch" message applied (grimoire/web/delta.py says what they mean):
// ["s", path, value] set (a list index equal to its length appends), ["d", path] delete a key,
// ["l", path, k, n, tail] keep a list's items k .. k+n-1 and append tail. The old view is not changed
// (what was drawn from it stays as it was): every object on an edited path is copied once.
export function applyEdits(value, edits) {
  const copied = new Set();
  const own = (x) => {
    if (copied.has(x)) return x;
    const c = Array.isArray(x) ? x.slice() : {...x};
    copied.add(c);
    return c;
  };
  const list = (x, k, n, tail) => { const c = x.slice(k, k + n).concat(tail); copied.add(c); return c; };
  let root = value;
  for (const [op, path, a, b, c] of edits) {
    if (!path.length) {
      if (op === "s") root = a; else if (op === "l") root = list(root, a, b, c);
      continue;
    }
    root = own(root);
    let parent = root;
    for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]] = own(parent[path[i]]);
    const last = path[path.length - 1];
    if (op === "s") parent[last] = a;
    else if (op === "d") delete parent[last];
    else if (op === "l") parent[last] = list(parent[last], a, b, c);
  }
  return root;
}
