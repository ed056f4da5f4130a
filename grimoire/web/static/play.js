// The game page: one WebSocket per seat this browser holds (hot-seat = several), or a spectator's.
// It keeps each seat's latest view, shows the seat that must decide (with a "pass the screen"
// cover between human seats on one screen), and hands drawing to the game's own module
// (/games/<game>/board.js, a file of the game package), which calls ctx.act(text) to play.
import {agentName, api, applyEdits, confirmBox, currentLang, errorText, h, has, icon, langSelect, loadLang, markdown, modal, spotlight, t, toast}
  from "./common.js";
import {chatMessage, chatShow, initChat, refresh as refreshChat} from "./chat.js";
import {initTurn, notifyTurn, turnBar, turnTitle} from "./turn.js";
import {guardedAct} from "./confirm.js";
import {guidePanel} from "./guide.js";
import {forgetUndo, undoButton} from "./undo.js";

const app = document.getElementById("app");
const gid = decodeURIComponent(location.pathname.split("/").pop());
const seatsKey = `grimoire.seats.${gid}`;

// --- which seats does this browser hold? -----------------------------------------------------------
const hash = new URLSearchParams(location.hash.slice(1));
const known = JSON.parse(localStorage.getItem(seatsKey) || "{}");
if (hash.get("token") && hash.get("seat") !== null) {
  known[hash.get("seat")] = hash.get("token");
  localStorage.setItem(seatsKey, JSON.stringify(known));
  const ids = JSON.parse(localStorage.getItem("grimoire.games") || "[]").filter((x) => x !== gid);
  localStorage.setItem("grimoire.games", JSON.stringify([gid, ...ids].slice(0, 50)));
}
let held = {};
if (hash.has("spectate")) held = {};
else if (hash.get("seat") !== null && hash.get("token")) held = {[hash.get("seat")]: hash.get("token")};
else held = known;                                   // #hotseat or a plain reload: every seat we know

const conns = {};            // seat ("spectator" for none) -> Connection
const ui = {};               // state kept across re-renders (bid being typed, payment selection, ...)
let module = null;
let shownSeat = null;        // the seat whose view is on screen
let revealed = null;         // hot-seat: the seat that clicked "show my hand"
let log = [];
let lastGameState = null;
let lastDecision = null;     // the decision last brought into view (seat, sequence number, board's key)
let spotAt = 0;              // when (performance.now()); its flash lasts SPOT_MS (app.css .flash)
const SPOT_MS = 1600;

class Connection {
  constructor(seat, token) {
    this.seat = seat;
    this.token = token;
    this.view = null;
    this.pending = null;
    this.backoff = 500;
    this.nextId = 1;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gid)}`);
    this.ws.onopen = () => {
      this.backoff = 500;
      this.syncing = false;
      // patch: after the welcome, each change comes as the edits from the view sent before (applyEdits)
      this.ws.send(JSON.stringify({type: "join", token: this.token, patch: true}));
      setStatus();
    };
    this.ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    this.ws.onclose = (ev) => {
      setStatus();
      if (ev.code === 4404 || ev.code === 4401) return;             // unknown game or bad token: final
      setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  onMessage(m) {
    if (m.type === "patch") {
      if (!this.view || m.base !== this.view.seq) {        // not from the view we hold: ask for a whole one
        if (!this.syncing) { this.syncing = true; this.ws.send(JSON.stringify({type: "sync"})); }
        return;
      }
      const {obs, hints, base, ...head} = m;
      m = {...this.view, ...head, type: "state", obs: applyEdits(this.view.obs, obs), hints: applyEdits(this.view.hints, hints)};
    }
    if (m.type === "welcome") this.syncing = false;
    if (m.type === "undone") {               // an action was taken back: the whole view, seq goes down
      forgetUndo();
      mergeLog(m.log, true);
      this.view = m;
      this.pending = null;
      render();
    } else if (m.type === "welcome" || m.type === "state") {
      if (this.view && m.seq < this.view.seq) return;
      if (m.type === "welcome") { mergeLog(m.log, true); refreshChat(); } else mergeLog(m.log);
      this.view = m;
      if (this.pending && m.seq > this.pending.seq) this.pending = null;
      render();
    } else if (m.type === "presence") {
      if (this.view) { this.view.seats = m.seats; renderHeaderOnly(); }
    } else if (m.type === "chat") {
      chatMessage(m);
    } else if (m.type === "ack") {
      this.pending = null;
    } else if (m.type === "error") {
      this.pending = null;
      if (m.code === "bad_token" || m.code === "unknown_game") { fatal(errorText(m.code, m.message)); return; }
      toast(t("ui.rejected", {reason: errorText(m.code, m.message, m.retry_after, m.rule, m.reason)}));
      if (m.code === "stale") this.ws.send(JSON.stringify({type: "sync"}));
      render();
    }
  }

  act(text) {
    if (!this.view || this.pending || this.ws.readyState !== WebSocket.OPEN) return false;
    const id = `r${this.nextId++}`;
    this.pending = {id, seq: this.view.seq, text};
    this.ws.send(JSON.stringify({type: "act", id, seq: this.view.seq, action: text}));
    render();
    return true;
  }
}

function mergeLog(entries, full) {
  if (full) log = entries.slice();
  else {
    const have = new Set(log.map((e) => e.seq));
    for (const e of entries) if (!have.has(e.seq)) log.push(e);
    log.sort((a, b) => a.seq - b.seq);
  }
}

function fatal(message) {
  app.replaceChildren(h("header.top", h("a.brand", {href: "/"}, h("span.logo", "✦"), " Grimoire")),
    h("main.fatal", h("h1", t("ui.cannot_open")), h("p", message), h("a.button", {href: "/"}, t("ui.to_lobby"))));
}

function setStatus() {
  const el = document.getElementById("conn");
  if (!el) return;
  const all = Object.values(conns);
  const ok = all.length && all.every((c) => c.ws.readyState === WebSocket.OPEN);
  el.className = `conn ${ok ? "ok" : "down"}`;
  el.title = ok ? t("ui.connected") : t("ui.reconnecting");
  el.textContent = ok ? "●" : "○";
}

// --- choosing the seat on screen ---------------------------------------------------------------------
function anyView() {
  let best = null;
  for (const c of Object.values(conns)) if (c.view && (!best || c.view.seq > best.seq)) best = c.view;
  return best;
}

function pickSeat() {
  const v = anyView();
  if (!v) return null;
  const humanSeats = Object.keys(conns).filter((k) => k !== "spectator").map(Number);
  if (!humanSeats.length) return "spectator";
  const cp = v.obs.current_player;
  if (cp !== null && cp !== undefined && humanSeats.includes(cp)) return cp;
  if (shownSeat !== null && humanSeats.includes(shownSeat)) return shownSeat;
  return humanSeats[0];
}

function seatLabel(view, seat) {
  const s = view.seats[seat];
  if (!s) return t("ui.spectator");
  const who = s.name || (s.agent === "human" ? t("ui.seat_n", {n: seat + 1}) : t("lobby.ai", {level: agentName(view.game, s.agent)}));
  return module && module.seatTitle ? module.seatTitle(view, seat, who, {t, h}) : who;
}

function gameTitle(view) {
  return module && module.title ? module.title(view, {t, h}) : (has(`${view.game}.title`) ? t(`${view.game}.title`) : view.game);
}

// --- drawing --------------------------------------------------------------------------------------------
function header(view, seat) {
  const over = view.status === "over";
  const mine = seat !== null && view.obs.current_player === seat && !over;
  const replayHash = seat !== null ? `#seat=${seat}` : "";
  return h("header.top",
    h("a.brand", {href: "/", title: t("ui.to_lobby")}, h("span.logo", "✦"), h("span.brand-name", " Grimoire")),
    h("div.game-title", gameTitle(view)),
    h("div.spacer"),
    h("nav.header-actions",
      undoButton({gid, view, seat, log, token: seat === null ? null : held[seat], rerender: render,
        busy: Boolean(conns[seat] && conns[seat].pending)}),
      view.practice && mine ? h("button.ghost.hint", {onclick: () => showHint(view, seat), title: t("ui.hint_help")}, "✦ ", t("ui.hint")) : null,
      over ? h("a.button.ghost.replay-link", {href: `/replay/${encodeURIComponent(gid)}${replayHash}`}, t("ui.replay")) : null,
      over ? h("a.button.ghost.review-link", {href: `/review/${encodeURIComponent(gid)}${replayHash}`}, t("ui.review")) : null,
      h("button.ghost.rules-btn", {onclick: () => showRules(view.game)}, t("ui.rules")),
      h("button.ghost.invite-btn", {onclick: showShare}, t("ui.invite")),
      langSelect(render),
      h("span#conn.conn", "○")));
}

function renderHeaderOnly() { render(); }

// a rated game's rating changes, once it is over (GET /api/games/{id}/ratings; 404: not rated)
let ratings = null;
let ratingsAsked = 0;
function ratingsPanel(view) {
  if (view.status !== "over") return null;
  if (!ratings && ratingsAsked < 5) {
    ratingsAsked += 1;
    api("GET", `/api/games/${encodeURIComponent(gid)}/ratings`).then((r) => {
      if (r.status === "done" && r.ratings.length) { ratings = r; render(); } else setTimeout(render, 1000);
    }, (e) => { if (e.status === 404) ratingsAsked = 99; });
  }
  if (!ratings) return null;
  return h("section.rating-changes", h("strong", t("rating.changes")), " ",
    ...ratings.ratings.map((r) => h("span.rating-change", {dataset: {seat: r.seat}},
      `${seatLabel(view, r.seat)}: ${r.before} → ${r.after}`)),
    h("a.small", {href: `/ratings/${view.game}`}, t("rating.leaderboard")));
}

function ctxFor(view, seat) {
  const conn = conns[seat === null ? "spectator" : seat];
  const ctx = {
    t, h, icon, modal, markdown, ui, seat, view, log, lang: currentLang(),
    confirm: confirmBox,
    // a game a seat lost on time (turns.py) is over though its board is not: no controls
    busy: Boolean(conn && conn.pending) || (view.forfeit !== undefined && view.forfeit !== null),
    readonly: false,
    act: null,
    seatLabel: (s) => seatLabel(view, s),
    help: showHelp,
    rerender: render,
    heldSeats: Object.keys(conns).filter((k) => k !== "spectator").map(Number),
  };
  // an action that harms the seat's own side asks first (confirm.js; the game's board declares which)
  ctx.act = guardedAct(module, view, ctx, (text) => (conn ? conn.act(text) : false));
  return ctx;
}

// a decision of the seat on screen that was not there before: bring the board's element for it
// (class "decision") into view and flash it (an auction opened, a payment, a discard, ...). A redraw
// soon after (an answer the page asked for: undo, turn, ratings) replaces that element: the new one
// is aimed at again and keeps the flash, or the redraw would stop the smooth scroll half-way
function focusDecision(view, seat, main) {
  const el = main.querySelector(".decision");
  const mine = seat !== null && view.obs.current_player === seat;
  if (!el || !mine) { lastDecision = null; return; }
  const key = `${seat}|${el.dataset.decision || ""}`;
  const now = performance.now();
  if (key === lastDecision) {
    const since = now - spotAt;
    if (since < SPOT_MS) requestAnimationFrame(() => spotlight(el, Math.max(since, 1)));
    return;
  }
  lastDecision = key;
  spotAt = now;
  requestAnimationFrame(() => spotlight(el));
}

function render() {
  const seatKey = pickSeat();
  if (seatKey === null) return;
  const conn = conns[seatKey];
  if (!conn || !conn.view) return;
  const view = conn.view;
  const seat = seatKey === "spectator" ? null : Number(seatKey);
  const humanHeld = Object.keys(conns).filter((k) => k !== "spectator").length;
  // hot-seat: between two human seats on one screen, hide the hand until the right player clicks
  if (humanHeld > 1 && seat !== null && revealed !== seat) {
    shownSeat = seat;
    app.replaceChildren(header(view, null), h("main.cover",
      h("div.cover-card",
        h("h1", t("ui.pass_screen", {name: seatLabel(view, seat)})),
        h("p", t("ui.pass_screen_help")),
        h("button.primary.big", {id: "reveal", onclick: () => { revealed = seat; render(); }},
          t("ui.show_my_board", {name: seatLabel(view, seat)})))));
    setStatus();
    return;
  }
  shownSeat = seat;
  revealed = seat;
  const mine = seat !== null && view.obs.current_player === seat && view.status !== "over";
  document.title = turnTitle(`Grimoire — ${gameTitle(view)}`, mine);
  notifyTurn(mine, gameTitle(view));
  const y = window.scrollY;
  const main = h("main.game");
  try {
    module.render(main, view, ctxFor(view, seat));
  } catch (e) {
    console.error(e);
    main.append(h("pre.error", String(e.stack || e)));
  }
  const guide = guidePanel({gid, game: view.game, view, seat, module, ctx: ctxFor(view, seat), rerender: render});
  app.replaceChildren(header(view, seat), ...[turnBar(view, seat, (s) => seatLabel(view, s), render),
    ratingsPanel(view), guide].filter(Boolean), main);
  chatShow(view, app);
  if (window.scrollY !== y) window.scrollTo(0, y);   // a re-render keeps the reader where they were
  focusDecision(view, seat, main);
  // for scripts and tests: what is on screen (public to this seat anyway)
  window.grimoirePage = {seq: view.seq, seat, status: view.status, round: view.obs.round,
    mine: seat !== null && view.obs.current_player === seat, busy: Boolean(conn.pending)};
  setStatus();
  if (lastGameState !== view.status && view.status === "over") toast(t("ui.game_over"), "info");
  lastGameState = view.status;
}

// the rules by topic: the game's catalog has each topic in the reader's language
// ("<game>.rules.<topic>"); the engine's English text is the fallback
async function showRules(game) {
  let topics = {};
  try { topics = (await api("GET", `/api/games/${encodeURIComponent(gid)}/rules`)).topics; } catch (e) { toast(e.message); }
  const names = Object.keys(topics);
  const text = (n) => (has(`${game}.rules.${n}`) ? t(`${game}.rules.${n}`) : topics[n]);
  const label = (n) => {
    const head = text(n).split("\n").find((l) => l.startsWith("# "));
    return head ? head.slice(2).replace(/\s*\([^)]*\)\s*$/, "") : n;
  };
  const body = h("div.rules");
  const content = h("div.rules-content");
  const show = (n) => {
    content.replaceChildren(markdown(text(n)));
    for (const b of nav.children) b.classList.toggle("on", b.dataset.topic === n);
  };
  const nav = h("nav.rules-nav", ...names.map((n) => h("button.small", {dataset: {topic: n}, onclick: () => show(n)}, label(n))));
  body.append(nav, content);
  if (names.length) show(names[0]);
  modal(t("ui.rules"), body);
}

function showHelp(key) {
  modal(t(`${key}.name`), h("div.help", markdown(t(`${key}.help`))));
}

// practice games: the hard AI's suggestion for the seat's decision (the server refuses elsewhere)
async function showHint(view, seat) {
  const token = held[seat];
  const body = h("div.hint-body", h("p.muted", t("ui.hint_thinking")));
  const close = modal(t("ui.hint"), body);
  try {
    const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/hint`, undefined, token);
    // the move in words (the game's describe); the action text itself only as a tooltip
    const say = (a) => h("span", {title: a}, module && module.describe ? module.describe(a) : a);
    body.replaceChildren(
      h("p", t("ui.hint_suggests"), " ", h("b.hint-action", say(r.action))),
      r.candidates && r.candidates.length > 1 ? h("ol.hint-list", ...r.candidates.slice(0, 5).map((c) =>
        h("li", say(c.action), " ", h("span.muted", t("ui.hint_share", {p: Math.round(100 * c.share)}))))) : null,
      r.seq === view.seq ? h("div.row", h("button.primary.play-hint", {onclick: () => {
        close(); ctxFor(view, seat).act(r.action);
      }}, t("ui.hint_play"))) : null);
  } catch (e) {
    body.replaceChildren(h("p.bad", e.message));
  }
}

function showShare() {
  const v = anyView();
  const body = h("div.share", h("p", t("ui.share_help")),
    h("p", h("strong", t("lobby.spectators")), ": ", h("code", new URL(`/play/${gid}`, location.origin).href)));
  const mine = JSON.parse(localStorage.getItem(seatsKey) || "{}");
  for (const [seat, token] of Object.entries(mine)) {
    body.append(h("p", h("strong", v ? seatLabel(v, Number(seat)) : seat), ": ",
      h("code", new URL(`/play/${gid}#seat=${seat}&token=${token}`, location.origin).href)));
  }
  modal(t("ui.invite"), body);
}

// --- start ------------------------------------------------------------------------------------------------
(async () => {
  await loadLang();
  let first;
  try {
    first = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    fatal(e.message);
    return;
  }
  try {
    module = await import(`/games/${encodeURIComponent(first.game)}/board.js`);
  } catch {
    module = await import("/static/games/generic.js");
  }
  if (module.setup) {                       // the game's fixed tables, once per page
    try { await module.setup(api); } catch (e) { fatal(e.message); return; }
  }
  if (module.css) {
    document.head.append(h("link", {rel: "stylesheet", href: module.css}));
  }
  const seats = Object.entries(held);
  // the chat of the seat on screen (the players'), or the spectators'
  const chatSeat = () => (seats.length ? (shownSeat ?? Number(seats[0][0])) : null);
  initChat(gid, () => (chatSeat() === null ? null : held[chatSeat()]), chatSeat);
  initTurn(gid);
  if (!seats.length) conns.spectator = new Connection(null, null);
  for (const [seat, token] of seats) conns[seat] = new Connection(Number(seat), token);
})();
