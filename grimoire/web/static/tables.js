// Open tables in the lobby: the list of games waiting for players (filter by game and language, Join),
// and the tables this browser sits at (who is seated; the creator kicks or starts early with AI seats).
// A seat's token is kept here (localStorage) and opens the seat once the table has become a game.
import {agentName, api, currentLang, formatDate, h, has, t, toast} from "./common.js";
import {duration} from "./turn.js";

const KEY = "grimoire.tables";
const filter = {game: "", lang: ""};
let meta = null;
let onStarted = null;
let listBox = null;
let mineBox = null;
let timer = null;

export function myTables() { return JSON.parse(localStorage.getItem(KEY) || "{}"); }

function saveTables(all) { localStorage.setItem(KEY, JSON.stringify(all)); }

export function rememberTable(id, seat, token) {
  const all = myTables();
  all[id] = {seat, token};
  saveTables(all);
}

function forget(id) {
  const all = myTables();
  delete all[id];
  saveTables(all);
}

export function playerName() { return localStorage.getItem("grimoire.name") || ""; }

export function setPlayerName(name) { localStorage.setItem("grimoire.name", name); }

function titleOf(name) {
  const g = meta.games.find((x) => x.name === name);
  return g ? ((g.titles && g.titles[currentLang()]) || g.title) : name;
}

function optionText(game, name, value) {
  const key = [`${game}.option.${name}`, `option.${name}`].find((k) => has(k));
  const label = key ? t(key) : name;
  const vkey = `${game}.option.${name}.${value}`;
  const shown = typeof value === "boolean" ? (value ? t("tables.yes") : t("tables.no"))
    : has(vkey) ? t(vkey) : String(value);
  return `${label}: ${shown}`;
}

function seatText(game, s) {
  if (s.agent !== "human") return t("lobby.ai", {level: agentName(game, s.agent)});
  return s.taken ? s.name : t("tables.free_seat");
}

async function join(tbl) {
  let name = playerName().trim();
  if (!name) {
    name = (window.prompt(t("tables.your_name")) || "").trim();
    if (!name) return;
    setPlayerName(name);
  }
  try {
    const r = await api("POST", `/api/tables/${tbl.id}/join`, {name});
    rememberTable(tbl.id, r.seat, r.token);
    toast(t("tables.joined"), "info");
    refresh();
  } catch (e) { toast(e.message); }
}

function tableRow(tbl, mine) {
  const seats = tbl.seats.map((s) => h(`span.table-seat${s.taken ? "" : ".free"}`,
    {dataset: {seat: s.seat}}, `${s.seat + 1}. ${seatText(tbl.game, s)}`));
  const opts = Object.entries(tbl.options || {}).map(([k, v]) => optionText(tbl.game, k, v));
  return h("tr.open-table", {dataset: {table: tbl.id}},
    h("td", h("strong", titleOf(tbl.game)),
      h("div.small.muted", t("tables.players_n", {n: tbl.players}), " · ", tbl.lang.toUpperCase(),
        tbl.rated ? [" · ", h("span.badge", t("tables.rated"))] : null,
        tbl.turn_seconds ? [" · ", h("span.badge.turn", t("turn.per_move", {time: duration(tbl.turn_seconds)}))] : null),
      opts.length ? h("div.small.muted.table-options", opts.join(" · ")) : null),
    h("td", h("div.table-seats", ...seats), h("div.small.muted", t("tables.free_n", {n: tbl.free}))),
    h("td.small.muted", formatDate(tbl.created_at)),
    h("td", mine ? h("span.small", t("tables.you_sit")) :
      h("button.primary.small.join", {onclick: () => join(tbl)}, t("tables.join"))));
}

async function drawList() {
  const q = new URLSearchParams();
  if (filter.game) q.set("game", filter.game);
  if (filter.lang) q.set("lang", filter.lang);
  let tables = [];
  try { ({tables} = await api("GET", `/api/tables?${q}`)); } catch (e) {
    listBox.replaceChildren(h("p.muted", e.message));
    return;
  }
  const mine = myTables();
  listBox.replaceChildren(tables.length
    ? h("div.table-scroll", h("table.open-tables", ...tables.map((x) => tableRow(x, x.id in mine))))
    : h("p.muted", t("tables.none")));
}

async function drawMine() {
  const mine = myTables();
  const boxes = [];
  for (const [id, me] of Object.entries(mine)) {
    let tbl;
    try { tbl = await api("GET", `/api/tables/${id}`, undefined, me.token); } catch (e) {
      if (e.status === 404) forget(id);
      continue;
    }
    if (tbl.status === "started" && tbl.you !== undefined) {
      forget(id);
      onStarted(tbl, me);
      return;
    }
    if (tbl.status !== "open" || tbl.you === undefined) { forget(id); toast(t("tables.removed")); continue; }
    const levels = meta.games.find((g) => g.name === tbl.game)?.agents || [];
    const level = h("select.start-level", {"aria-label": t("tables.ai_level")},
      ...levels.map((a) => h("option", {value: a, selected: a === "medium"}, agentName(tbl.game, a))));
    boxes.push(h("div.my-table", {dataset: {table: id}},
      h("h3", titleOf(tbl.game), tbl.rated ? h("span.badge", t("tables.rated")) : null,
        tbl.turn_seconds ? h("span.badge.turn", t("turn.per_move", {time: duration(tbl.turn_seconds)})) : null),
      h("p.small.muted", t("tables.waiting_help")),
      h("ul.table-seats", ...tbl.seats.map((s) => h("li", {dataset: {seat: s.seat}},
        `${t("lobby.seat_n", {n: s.seat + 1})}: ${seatText(tbl.game, s)}`, s.seat === tbl.you ? ` (${t("tables.you")})` : "",
        tbl.owner && s.taken && s.agent === "human" && s.seat !== tbl.you
          ? h("button.small.kick", {onclick: async () => {
            try { await api("POST", `/api/tables/${id}/kick`, {seat: s.seat}, me.token); refresh(); }
            catch (e) { toast(e.message); }
          }}, t("tables.kick")) : null))),
      h("div.row",
        tbl.owner ? [h("label.small", t("tables.ai_level"), " ", level),
          h("button.primary.start", {onclick: async () => {
            try { await api("POST", `/api/tables/${id}/start`, {agent: level.value}, me.token); refresh(); }
            catch (e) { toast(e.message); }
          }}, t("tables.start_now"))] : null,
        h("button.leave", {onclick: async () => {
          try { await api("POST", `/api/tables/${id}/leave`, {}, me.token); forget(id); refresh(); }
          catch (e) { toast(e.message); }
        }}, tbl.owner ? t("tables.close") : t("tables.leave")))));
  }
  mineBox.replaceChildren(...(boxes.length ? [h("h2", t("tables.my_tables")), ...boxes] : []));
  mineBox.hidden = !boxes.length;
}

export async function refresh() {
  if (!listBox) return;
  await Promise.all([drawList(), drawMine()]);
}

// the panels (built once per lobby render; their contents are redrawn every few seconds)
export function tablePanels(metaIn, started) {
  meta = metaIn;
  onStarted = started;
  const langs = ["en", "hu", "de", "zh"];
  const gameSel = h("select.filter-game", {"aria-label": t("tables.filter_game"),
    onchange: (e) => { filter.game = e.target.value; drawList(); }},
  h("option", {value: ""}, t("tables.all_games")),
  ...meta.games.map((g) => h("option", {value: g.name, selected: g.name === filter.game}, titleOf(g.name))));
  const langSel = h("select.filter-lang", {"aria-label": t("tables.filter_lang"),
    onchange: (e) => { filter.lang = e.target.value; drawList(); }},
  h("option", {value: ""}, t("tables.all_languages")),
  ...langs.map((l) => h("option", {value: l, selected: l === filter.lang}, t(`tables.lang.${l}`))));
  const nameInput = h("input.player-name", {value: playerName(), maxLength: 40, placeholder: t("tables.your_name"),
    "aria-label": t("tables.your_name"), oninput: (e) => setPlayerName(e.target.value)});
  listBox = h("div.open-list", h("p.muted", "…"));
  mineBox = h("section.panel.my-tables", {hidden: true});
  const open = h("section.panel.open-tables-panel",
    h("h2", t("tables.open_tables")),
    h("p.small.muted", t("tables.help")),
    h("div.row.filters", h("label.small", t("tables.your_name"), " ", nameInput)),
    h("div.row.filters", gameSel, langSel),
    listBox);
  clearInterval(timer);
  timer = setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  refresh();
  return {open, mine: mineBox};
}
