// The game's chat (web/chat.py): a panel under the board with the reader's channel — the players' (a seat's
// token) or the spectators' (none) — live over the game's WebSocket ({"type": "chat"}). Messages are drawn
// as text (text nodes, never HTML). After a public game is over a spectator also sees the players' chat.
import {api, currentLang, h, t, toast} from "./common.js";
import {playerName} from "./tables.js";

const chat = {gid: null, token: () => null, seat: () => null, messages: [], after: 0, el: null, list: null,
  input: null, sending: false, older: null, seen: new Set()};

function ensureStyles() {
  if (document.getElementById("chat-css")) return;
  document.head.append(h("link#chat-css", {rel: "stylesheet", href: "/static/chat.css"}));
}

// gid; token() and seat(): the seat on screen (null: a spectator)
export function initChat(gid, token, seat) {
  chat.gid = gid;
  chat.token = token;
  chat.seat = seat;
  ensureStyles();
  chat.list = h("ol.chat-list", {"aria-live": "polite"});
  chat.input = h("input.chat-input", {maxLength: 500, autocomplete: "off"});
  const form = h("form.chat-form", {onsubmit: (e) => { e.preventDefault(); send(); }},
    chat.input, h("button.chat-send", {type: "submit"}, ""));
  chat.el = h("section#chat.panel.chat", h("h2.chat-title", ""), h("p.chat-help.small.muted", ""), chat.list, form);
  refresh();
}

// the sender's name as the seat had it (seats numbered from 1 for people)
function who(m) {
  if (m.name) return m.name;
  return m.seat === null || m.seat === undefined ? t("chat.spectator") : t("ui.seat_n", {n: m.seat + 1});
}

// the time of day in the reader's language (a day's date too when it was not today)
function time(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const lang = currentLang() === "zh" ? "zh-Hant" : currentLang();
  const today = d.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(lang, today ? {timeStyle: "short"} : {dateStyle: "short", timeStyle: "short"}).format(d);
}

function line(m) {
  return h("li.chat-msg", {dataset: {id: m.id, seat: m.seat ?? ""}},
    h("b.chat-who", who(m)), " ", h("span.chat-text", m.text), " ", h("small.chat-at.muted", time(m.at)));
}

function add(messages) {
  for (const m of messages) {
    if (chat.seen.has(m.id)) continue;
    chat.seen.add(m.id);
    chat.messages.push(m);
    chat.after = Math.max(chat.after, m.id);
  }
}

// fetch what came while we were away (first load, a reconnect's welcome)
export async function refresh() {
  if (!chat.gid) return;
  try {
    const q = chat.after ? `?after=${chat.after}` : "";
    const r = await api("GET", `/api/games/${encodeURIComponent(chat.gid)}/chat${q}`, undefined, chat.token());
    add(r.messages);
    draw();
  } catch (e) {
    if (e.status !== 403) console.warn(e);
  }
}

// a game over: a spectator may now read the players' chat (public games; 403 otherwise)
export async function loadOlder(view) {
  if (chat.older !== null || view.status !== "over" || chat.seat() !== null) return;
  chat.older = [];
  try {
    const r = await api("GET", `/api/games/${encodeURIComponent(chat.gid)}/chat?channel=seats`);
    chat.older = r.messages;
    draw();
  } catch {
    chat.older = [];
  }
}

export function chatMessage(m) {
  const mine = chat.seat() !== null ? "seats" : "spectators";
  if (m.channel !== mine) return;
  add([m.message]);
  draw();
}

function draw() {
  if (!chat.el) return;
  const seat = chat.seat() !== null;
  chat.el.querySelector(".chat-title").textContent = t(seat ? "chat.title_seats" : "chat.title_spectators");
  chat.el.querySelector(".chat-help").textContent = t(seat ? "chat.help_seats" : "chat.help_spectators");
  chat.el.querySelector(".chat-send").textContent = t("chat.send");
  chat.input.placeholder = t("chat.placeholder");
  chat.input.setAttribute("aria-label", t("chat.placeholder"));
  const atBottom = chat.list.scrollHeight - chat.list.scrollTop - chat.list.clientHeight < 30;
  const items = chat.messages.map(line);
  if (!items.length) items.push(h("li.chat-empty.muted", t("chat.empty")));
  const older = chat.older && chat.older.length
    ? [h("li.chat-older-title", t("chat.seats_after")), ...chat.older.map(line)] : [];
  chat.list.replaceChildren(...older, ...items);
  if (atBottom) chat.list.scrollTop = chat.list.scrollHeight;
}

async function send() {
  const text = chat.input.value.trim();
  if (!text || chat.sending) return;
  chat.sending = true;
  try {
    const body = {text};
    if (chat.seat() === null && playerName()) body.name = playerName().slice(0, 40);
    const r = await api("POST", `/api/games/${encodeURIComponent(chat.gid)}/chat`, body, chat.token());
    chat.input.value = "";
    add([r.message]);
    draw();
  } catch (e) {
    toast(e.message);
  } finally {
    chat.sending = false;
  }
}

// after every render of the page: the panel sits after the page's own content, outside what the page
// redraws (what is being typed and the focus stay)
export function chatShow(view, after) {
  if (!chat.el) return;
  if (!chat.el.isConnected) after.after(chat.el);
  draw();
  loadOlder(view);
}

// the replay viewer: the chat as the reader may read it, read-only — the players' (a seat's token; without
// one only a public game's, once over: the server refuses the rest) and, once the game is over, the
// spectators'
export async function chatReplay(gid, token, over, after) {
  ensureStyles();
  const box = h("section#chat.panel.chat.chat-replay");
  const path = `/api/games/${encodeURIComponent(gid)}/chat`;
  const channels = [["seats", token, "chat.title_seats"]];
  if (over) channels.push(["spectators", null, "chat.title_spectators"]);
  for (const [channel, tok, title] of channels) {
    try {
      const r = await api("GET", `${path}?channel=${channel}`, undefined, tok);
      if (!r.messages.length) continue;
      box.append(h("h2.chat-title", t(title)), h("ol.chat-list", ...r.messages.map(line)));
    } catch {
      // not for this reader (a private game's players' chat)
    }
  }
  if (box.childElementCount) after.after(box);
}
