// The post-game review: for each decision of a chosen seat, the move the hard AI prefers and the
// projected points the played move gave away (biggest first), and every seat's projected score over
// the game as a chart. Computed on the server once the game is over (POST, then polled).
import {agentName, api, h, has, langSelect, loadLang, t, toast} from "./common.js";

const app = document.getElementById("app");
const gid = decodeURIComponent(location.pathname.split("/").pop());
const hash = new URLSearchParams(location.hash.slice(1));
const tokens = JSON.parse(localStorage.getItem(`grimoire.seats.${gid}`) || "{}");
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#ca6f1e", "#117a65", "#7b7d7d", "#b7950b"];
let module = null;
let info = null;
let seat = null;
let result = null;
let poll = null;
let outcomeKind = "points";   // the game's descriptor: "points" or "win" (GET /api/meta), until a result says

function seatLabel(s) {
  const x = info.seats[s];
  if (!x) return t("ui.spectator");
  const who = x.name || (x.agent === "human" ? t("ui.seat_n", {n: s + 1}) : t("lobby.ai", {level: agentName(info.game, x.agent)}));
  return module && module.seatTitle ? module.seatTitle(info, s, who, {t, h}) : who;
}

function gameTitle() {
  return module && module.title ? module.title(info, {t, h}) : (has(`${info.game}.title`) ? t(`${info.game}.title`) : info.game);
}

const describe = (a) => (module && module.describe ? module.describe(a) : a);
const num = (x) => (x === null || x === undefined ? "—" : (Math.round(x * 10) / 10).toLocaleString());
// the game's measure (its descriptor's outcome): "points", or "win" (scores 1/0: projections are win chances)
const winMeasure = () => (result && result.measure ? result.measure : outcomeKind) === "win";
const measured = (x) => (winMeasure() ? (x === null || x === undefined ? "—" : `${Math.round(100 * x)}%`) : num(x));
// a key with its win-measure variant ("review.final" -> "review.final_win") where the game is won or lost
const mk = (key) => (winMeasure() ? `${key}_win` : key);
function outcome(s) {
  if (!winMeasure()) return String(result.scores[s]);
  if (!result.winners || !result.winners.length) return t("review.draw");
  return result.winners.includes(s) ? t("review.won") : t("review.lost");
}

async function start() {
  clearTimeout(poll);
  result = null;
  render();
  try {
    result = await api("POST", `/api/games/${encodeURIComponent(gid)}/review`, {seat});
  } catch (e) {
    toast(e.message);
    return;
  }
  render();
  follow();
}

function follow() {
  clearTimeout(poll);
  if (!result || result.status !== "running") return;
  poll = setTimeout(async () => {
    try {
      result = await api("GET", `/api/games/${encodeURIComponent(gid)}/review?seat=${seat}`);
      render();
    } catch (e) {
      toast(e.message);
    }
    follow();
  }, 1500);
}

// every seat's projected score at the reviewed decisions (x: the action's number), as an SVG chart
function chart(points) {
  if (points.length < 2) return h("p.muted", t("review.chart_empty"));
  const W = 720;
  const H = 260;
  const pad = {l: 40, r: 12, t: 12, b: 28};
  const xs = points.map((p) => p.index);
  const all = points.flatMap((p) => p.scores);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = winMeasure() ? 0 : Math.min(0, ...all);
  const y1 = winMeasure() ? 1 : Math.max(1, ...all);
  const X = (x) => pad.l + ((x - x0) / Math.max(1, x1 - x0)) * (W - pad.l - pad.r);
  const Y = (y) => H - pad.b - ((y - y0) / (y1 - y0)) * (H - pad.t - pad.b);
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = el("svg", {viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "img", "aria-label": t(mk("review.chart_title"))});
  for (let k = 0; k <= 4; k++) {
    const v = y0 + ((y1 - y0) * k) / 4;
    svg.append(el("line", {x1: pad.l, x2: W - pad.r, y1: Y(v), y2: Y(v), class: "grid"}));
    svg.append(el("text", {x: pad.l - 6, y: Y(v) + 4, "text-anchor": "end", class: "tick"},
      winMeasure() ? `${Math.round(100 * v)}%` : String(Math.round(v))));
  }
  svg.append(el("text", {x: W / 2, y: H - 6, "text-anchor": "middle", class: "tick"}, t("review.x_axis")));
  const n = points[0].scores.length;
  for (let s = 0; s < n; s++) {
    const d = points.map((p, i) => `${i ? "L" : "M"}${X(p.index).toFixed(1)},${Y(p.scores[s]).toFixed(1)}`).join(" ");
    svg.append(el("path", {d, fill: "none", stroke: SEAT_COLOURS[s % SEAT_COLOURS.length], "stroke-width": s === seat ? 3 : 1.6,
      class: s === seat ? "mine" : ""}));
  }
  for (const m of (result.mistakes || []).slice(0, 5)) {
    const p = points.find((q) => q.index === m.index);
    if (p) svg.append(el("circle", {cx: X(p.index), cy: Y(p.scores[seat]), r: 5, class: "mistake"}));
  }
  const legend = h("div.legend", ...Array.from({length: n}, (_, s) =>
    h("span", h("span.swatch", {style: {background: SEAT_COLOURS[s % SEAT_COLOURS.length]}}), " ", seatLabel(s))));
  return h("div.chart-box", svg, legend);
}

function mistakesTable() {
  const rows = (result.mistakes || []).slice(0, 30);
  if (!rows.length) return h("p.muted", result.status === "done" ? t("review.no_mistakes") : t("review.none_yet"));
  return h("div.table-scroll", h("table.review-table",
    h("tr", h("th", "#"), h("th", t("review.col_round")), h("th", t("review.col_played")), h("th", t("review.col_best")),
      h("th", t(mk("review.col_loss"))), h("th", "")),
    ...rows.map((m) => h("tr", {class: m.loss > 0 ? "" : "muted"},
      h("td", String(m.seq)), h("td", m.round === null ? "—" : String(m.round)),
      h("td", h("span.act", describe(m.played)), h("code", m.played)),
      h("td", h("span.act", describe(m.best)), h("code", m.best)),
      h("td.num", h("b", measured(m.loss))),
      h("td", h("a", {href: `/replay/${encodeURIComponent(gid)}#seat=${seat}&seq=${m.index}`}, t("review.show")))))));
}

function body() {
  if (info.status !== "over") {
    return h("section.panel", h("h2", t("review.title")), h("p", t("review.not_over")),
      h("a.button", {href: `/play/${encodeURIComponent(gid)}`}, t("replay.to_game")));
  }
  const picker = h("section.panel.review-pick",
    h("h2", t("review.title")),
    h("p.muted", t(mk("review.intro"))),
    h("div.row",
      h("label", {for: "review-seat"}, t("review.seat")),
      h("select#review-seat", {onchange: (e) => { seat = Number(e.target.value); result = null; render(); }},
        ...info.seats.map((s) => h("option", {value: s.seat, selected: s.seat === seat}, seatLabel(s.seat)))),
      h("button.primary.start-review", {onclick: start, disabled: Boolean(result && result.status === "running")},
        result ? t("review.again") : t("review.start"))));
  if (!result) return picker;
  const pct = result.total ? Math.round((100 * result.done) / result.total) : 100;
  const status = result.status === "running"
    ? h("div.progress", h("div.bar", {style: {width: `${pct}%`}}), h("span", t("review.progress", {done: result.done, total: result.total})))
    : result.status === "failed" ? h("p.bad", result.error) : null;
  const summary = h("section.panel.review-summary",
    status,
    h("div.facts",
      h("div", h("small", t("review.decisions")), h("b", String(result.done))),
      h("div", h("small", t("review.agreement")), h("b", `${Math.round(100 * result.agreement)}%`)),
      h("div", h("small", t(mk("review.total_loss"))), h("b", measured(result.total_loss))),
      h("div", h("small", t(mk("review.final"))), h("b.final", outcome(seat)))));
  return h("div.review-main", picker, summary,
    h("section.panel", h("h2", t(mk("review.chart_title"))), h("p.muted.small", t(mk("review.chart_note"))), chart(result.chart || [])),
    h("section.panel", h("h2", t("review.mistakes")), h("p.muted.small", t("review.mistakes_note")), mistakesTable()),
    h("p.muted.small", t("review.method", {playouts: result.settings.playouts, steps: result.settings.max_steps})));
}

function render() {
  const header = h("header.top",
    h("a.brand", {href: "/", title: t("ui.to_lobby")}, h("span.logo", "✦"), h("span.brand-name", " Grimoire")),
    h("div.game-title", gameTitle(), " · ", t("ui.review")),
    h("div.spacer"),
    h("nav.header-actions",
      h("a.button.ghost", {href: `/replay/${encodeURIComponent(gid)}${seat !== null ? `#seat=${seat}` : ""}`}, t("ui.replay")),
      langSelect(render)));
  app.replaceChildren(header, h("main.review-page", body()));
  document.title = `Grimoire — ${gameTitle()} · ${t("ui.review")}`;
  window.grimoirePage = {review: result ? result.status : null, done: result ? result.done : 0};
}

(async () => {
  await loadLang();
  try {
    info = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
  } catch (e) {
    app.replaceChildren(h("main.fatal", h("h1", t("ui.cannot_open")), h("p", e.message), h("a.button", {href: "/"}, t("ui.to_lobby"))));
    return;
  }
  try {
    const meta = await api("GET", "/api/meta");
    const entry = meta.games.find((g) => g.name === info.game);
    if (entry && entry.outcome) outcomeKind = entry.outcome;
  } catch { /* points, the default */ }
  try {
    module = await import(`/games/${encodeURIComponent(info.game)}/board.js`);
    if (module.setup) await module.setup(api);
  } catch {
    module = null;
  }
  const wanted = hash.get("seat");
  seat = wanted !== null && wanted !== "" ? Number(wanted)
    : (Object.keys(tokens).length ? Number(Object.keys(tokens)[0]) : 0);
  if (!(seat >= 0 && seat < info.seats.length)) seat = 0;
  render();
  if (info.status === "over") {        // a review already made (or running) for this seat is shown at once
    try {
      result = await api("GET", `/api/games/${encodeURIComponent(gid)}/review?seat=${seat}`);
      render();
      follow();
    } catch { /* none yet */ }
  }
})();
