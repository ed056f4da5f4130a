// The replay viewer: step through a game's actions, forwards and backwards, as any seat or as a
// spectator, drawn by the game's own board (read-only). A finished game's log is public: every seat
// may be chosen. While a game runs, only the seats this browser holds (and the spectators' view),
// up to the present: what those seats saw anyway.
import {agentName, api, currentLang, h, has, icon, langSelect, loadLang, markdown, modal, t, toast} from "./common.js";
import {chatReplay} from "./chat.js";

const app = document.getElementById("app");
const gid = decodeURIComponent(location.pathname.split("/").pop());
const hash = new URLSearchParams(location.hash.slice(1));
const tokens = JSON.parse(localStorage.getItem(`grimoire.seats.${gid}`) || "{}");
const cache = new Map();           // "seat|seq" -> view
const ui = {};
let module = null;
let info = null;                   // the spectators' view of the game now (seats, status, total)
let seat = hash.has("seat") && hash.get("seat") !== "" ? Number(hash.get("seat")) : null;
let seq = hash.has("seq") ? Number(hash.get("seq")) : null;
let view = null;
let timer = null;

function over() { return info.status === "over"; }

function allowedSeats() {
  return over() ? info.seats.map((s) => s.seat) : Object.keys(tokens).map(Number);
}

function seatLabel(v, s) {
  const x = v.seats[s];
  if (!x) return t("ui.spectator");
  const who = x.name || (x.agent === "human" ? t("ui.seat_n", {n: s + 1}) : t("lobby.ai", {level: agentName(v.game, x.agent)}));
  return module && module.seatTitle ? module.seatTitle(v, s, who, {t, h}) : who;
}

function gameTitle(v) {
  return module && module.title ? module.title(v, {t, h}) : (has(`${v.game}.title`) ? t(`${v.game}.title`) : v.game);
}

async function fetchView(s, n) {
  const key = `${s}|${n}`;
  if (!cache.has(key)) {
    const q = new URLSearchParams({seq: String(n)});
    if (s !== null) q.set("seat", String(s));
    cache.set(key, api("GET", `/api/games/${encodeURIComponent(gid)}/replay?${q}`, undefined, s !== null ? tokens[s] : undefined));
  }
  try {
    return await cache.get(key);
  } catch (e) {
    cache.delete(key);
    throw e;
  }
}

async function go(n) {
  n = Math.max(0, Math.min(info.seq, n));
  try {
    view = await fetchView(seat, n);
  } catch (e) {
    toast(e.message);
    return;
  }
  seq = n;
  history.replaceState(null, "", `#${seat !== null ? `seat=${seat}&` : ""}seq=${seq}`);
  render();
  if (seq < info.seq) fetchView(seat, seq + 1).catch(() => {});     // the next step, ahead of time
}

function stopPlaying() { if (timer) { clearInterval(timer); timer = null; } }

function togglePlay() {
  if (timer) { stopPlaying(); render(); return; }
  timer = setInterval(() => { if (seq >= info.seq) { stopPlaying(); render(); } else go(seq + 1); }, 900);
  render();
}

function describe(text) {
  if (text === null || text === undefined) return t("ui.secret_action");
  return module && module.describe ? module.describe(text) : text;
}

function controls() {
  const entry = seq > 0 ? view.log.find((e) => e.seq === seq) : null;
  const seats = allowedSeats();
  const slider = h("input.replay-slider", {type: "range", min: 0, max: info.seq, value: seq, "aria-label": t("replay.position"),
    oninput: (e) => { stopPlaying(); go(Number(e.target.value)); }});
  const btn = (cls, label, title, onclick, disabled) => h(`button.${cls}`, {title, "aria-label": title, onclick, disabled}, label);
  return h("section.panel.replay-bar",
    h("div.replay-controls",
      btn("first", icon("first"), t("replay.first"), () => { stopPlaying(); go(0); }, seq === 0),
      btn("prev", icon("prev"), t("replay.prev"), () => { stopPlaying(); go(seq - 1); }, seq === 0),
      btn("play", icon(timer ? "pause" : "play"), timer ? t("replay.pause") : t("replay.play"), togglePlay,
        seq >= info.seq && !timer),
      btn("next", icon("next"), t("replay.next"), () => { stopPlaying(); go(seq + 1); }, seq >= info.seq),
      btn("last", icon("last"), t("replay.last"), () => { stopPlaying(); go(info.seq); }, seq >= info.seq),
      slider,
      h("span.replay-pos", t("replay.step", {n: seq, total: info.seq}))),
    h("div.replay-controls",
      h("label", {for: "replay-seat"}, t("replay.view_as")),
      h("select#replay-seat.replay-seat", {onchange: (e) => { seat = e.target.value === "" ? null : Number(e.target.value); go(seq); }},
        h("option", {value: "", selected: seat === null}, t("ui.spectator")),
        ...seats.map((s) => h("option", {value: s, selected: s === seat}, seatLabel(view, s)))),
      entry ? h("span.replay-action", h("b", seatLabel(view, entry.seat)), " ", describe(entry.text)) : h("span.muted", t("replay.start"))),
    over() ? null : h("p.muted.small", t("replay.running_note")));
}

function render() {
  const main = h("main.game");
  const ctx = {
    t, h, icon, modal, markdown, ui, seat, view, log: view.log, lang: currentLang(), busy: true, readonly: true,
    act: () => false, confirm: async () => false, seatLabel: (s) => seatLabel(view, s),
    help: (key) => modal(t(`${key}.name`), h("div.help", markdown(t(`${key}.help`)))), rerender: render, heldSeats: [],
  };
  try {
    module.render(main, view, ctx);
  } catch (e) {
    console.error(e);
    main.append(h("pre.error", String(e.stack || e)));
  }
  main.classList.add("replay-board");
  const header = h("header.top",
    h("a.brand", {href: "/", title: t("ui.to_lobby")}, h("span.logo", "✦"), h("span.brand-name", " Grimoire")),
    h("div.game-title", gameTitle(view), " · ", t("ui.replay")),
    h("div.spacer"),
    h("nav.header-actions",
      h("a.button.ghost", {href: `/play/${encodeURIComponent(gid)}`}, t("replay.to_game")),
      over() ? h("a.button.ghost", {href: `/review/${encodeURIComponent(gid)}${seat !== null ? `#seat=${seat}` : ""}`}, t("ui.review")) : null,
      langSelect(render)));
  const y = window.scrollY;
  app.replaceChildren(header, h("div.replay-wrap", controls()), main);
  window.scrollTo(0, y);
  document.title = `Grimoire — ${gameTitle(view)} · ${t("ui.replay")}`;
  window.grimoirePage = {seq: view.seq, seat, status: view.status, round: view.obs.round, mine: false, busy: false, replay: true,
    total: info.seq};
}

document.addEventListener("keydown", (e) => {
  if (!view || e.target.closest("input, select, textarea") || document.querySelector(".modal-back")) return;
  const step = {ArrowLeft: -1, ArrowRight: 1}[e.key];
  if (step) { e.preventDefault(); stopPlaying(); go(seq + step); }
  if (e.key === "Home") { e.preventDefault(); stopPlaying(); go(0); }
  if (e.key === "End") { e.preventDefault(); stopPlaying(); go(info.seq); }
});

(async () => {
  await loadLang();
  try {
    info = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    app.replaceChildren(h("main.fatal", h("h1", t("ui.cannot_open")), h("p", e.message), h("a.button", {href: "/"}, t("ui.to_lobby"))));
    return;
  }
  try {
    module = await import(`/games/${encodeURIComponent(info.game)}/board.js`);
  } catch {
    module = await import("/static/games/generic.js");
  }
  if (module.setup) await module.setup(api);
  if (module.css) document.head.append(h("link", {rel: "stylesheet", href: module.css}));
  if (seat !== null && !allowedSeats().includes(seat)) seat = null;
  await go(seq === null || Number.isNaN(seq) ? (over() ? 0 : info.seq) : seq);
  chatReplay(gid, Object.values(tokens)[0] || null, over(), app);
})();
