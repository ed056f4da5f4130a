// The lobby: create a game (seats: human or an AI level, a role per seat where the game has one,
// the game's options), share the seat links, or play hot-seat on this screen; and the list of games
// this browser knows. Everything about a game comes from /api/meta (its descriptor): titles, player
// counts, agents, the per-seat role option and the options' JSON schema, rendered generically.
import {agentAbout, agentName, api, currentLang, formatDate, h, has, langSelect, loadLang, t, toast} from "./common.js";
import {accountBox, currentUser, keepSeats, loadAccount, syncGames} from "./account.js";
import {playerName, rememberTable, setPlayerName, tablePanels} from "./tables.js";
import {turnFields} from "./turn.js";
import {learnPanel} from "./guide.js";

const app = document.getElementById("app");
let meta = null;
let created = null;          // the answer of POST /api/games, shown until a new game is made
// options: the values the user set; optionsOpen: whether the options are unfolded
// open: an open table (listed in the lobby, others join) instead of links only
const form = {game: null, players: 2, seats: [], options: {}, optionsOpen: false, practice: false, open: false,
  turn: {deadline: "none", on_expire: "ai"}};

// a slow game's move deadline (turns.py), sent only when there is one
function chosenTurn() { return form.turn.deadline === "none" ? undefined : {...form.turn}; }

export function rememberSeats(gid, seats) {
  const key = `grimoire.seats.${gid}`;
  const known = JSON.parse(localStorage.getItem(key) || "{}");
  for (const s of seats) if (s.token) known[s.seat] = s.token;
  localStorage.setItem(key, JSON.stringify(known));
  const ids = JSON.parse(localStorage.getItem("grimoire.games") || "[]").filter((x) => x !== gid);
  ids.unshift(gid);
  localStorage.setItem("grimoire.games", JSON.stringify(ids.slice(0, 50)));
}

function gameMeta() { return meta.games.find((g) => g.name === form.game); }

function gameTitle(g) { return (g.titles && g.titles[currentLang()]) || g.title; }

function titleOf(name) {
  const g = meta.games.find((x) => x.name === name);
  return g ? gameTitle(g) : name;
}

// a translation from the first catalog key that exists, else the fallback text
function label(keys, fallback) {
  const key = keys.find((k) => has(k));
  return key ? t(key) : fallback;
}

function pickGame(g) {
  form.game = g.name;
  localStorage.setItem("grimoire.lastGame", g.name);
  form.players = g.default_players;
  form.seats = [];
  form.options = {};
}

function ensureSeats() {
  while (form.seats.length < form.players) {
    const i = form.seats.length;
    form.seats.push({agent: i === 0 ? "human" : defaultAi(), name: i === 0 ? playerName() : "", role: "random"});
  }
  form.seats.length = form.players;
}

function defaultAi() {
  const levels = gameMeta().agents;
  return levels.includes("medium") ? "medium" : levels[0];
}

function agentLabel(a, game = form.game) {
  return a === "human" ? t("lobby.human") : t("lobby.ai", {level: agentName(game, a)});
}

// the levels first (easy, medium, hard, expert), then the game's own agents and the generic ones
function agentOrder(list) {
  const rank = (a) => ["easy", "medium", "hard", "expert"].indexOf(a);
  return [...list].sort((a, b) => ((rank(a) + 5) % 5 - (rank(b) + 5) % 5) || a.localeCompare(b));
}

// --- the game's options, from their JSON schema ------------------------------------------------------
function optionLabel(g, name, prop) { return label([`${g.name}.option.${name}`, `option.${name}`], prop.title || name); }

function roleLabel(g, value) { return label([`${g.name}.role.${value}`], value); }

function resolve(schema, prop) {
  const ref = prop.$ref || (prop.allOf && prop.allOf.length === 1 && prop.allOf[0].$ref);
  return ref ? {...schema.$defs[ref.split("/").pop()], ...prop} : prop;
}

// what input an option gets: a checkbox, a number, a choice or a text; null for lists and objects
// (those are set through the API or `grimoire play -o key=value`)
function inputKind(schema, prop) {
  prop = resolve(schema, prop);
  const alts = prop.anyOf ? prop.anyOf.filter((x) => x.type !== "null").map((x) => resolve(schema, x)) : [prop];
  if (alts.length !== 1) return null;
  const a = alts[0];
  if (a.enum) return {kind: "enum", values: a.enum};
  if (a.type === "boolean") return {kind: "boolean"};
  if (a.type === "integer" || a.type === "number") return {kind: "number", min: a.minimum, max: a.maximum};
  if (a.type === "string") return {kind: "text"};
  return null;
}

function optionField(g, schema, name, prop) {
  const kind = inputKind(schema, prop);
  if (!kind) return null;
  const title = optionLabel(g, name, prop);
  const help = label([`${g.name}.option.${name}.help`, `option.${name}.help`], prop.description || "");
  const set = form.options;
  const value = name in set ? set[name] : prop.default;
  const helpLine = help ? h("p.option-help", help) : null;
  let input;
  if (kind.kind === "boolean") {
    return [h("label.check.option", {dataset: {option: name}},
      h("input", {type: "checkbox", checked: Boolean(value), onchange: (e) => { set[name] = e.target.checked; }}),
      " ", title), helpLine];
  } else if (kind.kind === "enum") {
    input = h("select", {onchange: (e) => { set[name] = e.target.value; }},
      ...kind.values.map((v) => h("option", {value: v, selected: v === value},
        label([`${g.name}.option.${name}.${v}`], String(v)))));
  } else if (kind.kind === "number") {
    input = h("input", {type: "number", min: kind.min, max: kind.max, value: value ?? "",
      placeholder: value === null || value === undefined
        ? label([`${g.name}.option.${name}.unset`, `option.${name}.unset`], t("lobby.unset")) : "",
      oninput: (e) => { set[name] = e.target.value; }});
  } else {
    input = h("input", {value: value ?? "", oninput: (e) => { set[name] = e.target.value; }});
  }
  return [h("div.field.option", {dataset: {option: name}}, h("label", title), input), helpLine];
}

function optionFields(g) {
  const schema = g.options_schema || {properties: {}};
  const roleOption = g.roles && g.roles.option;
  return Object.entries(schema.properties || {})
    .filter(([name]) => name !== roleOption)
    .map(([name, prop]) => optionField(g, schema, name, prop))
    .filter(Boolean);
}

// the options to send: those the user changed from their defaults, with their schema's type
function chosenOptions(g) {
  const schema = g.options_schema || {properties: {}};
  const out = {};
  for (const [name, raw] of Object.entries(form.options)) {
    const prop = schema.properties[name];
    const kind = prop && inputKind(schema, prop);
    if (!kind) continue;
    let v = raw;
    if (kind.kind === "number") {
      if (String(raw).trim() === "") continue;
      v = Number(raw);
    }
    if (v !== prop.default) out[name] = v;
  }
  return out;
}

// one role per seat: nothing if every seat is left to chance (the game draws them), else the seats
// left to chance get roles drawn here from those nobody chose
function chosenRoles(g) {
  const picked = form.seats.map((s) => s.role);
  if (picked.every((r) => r === "random")) return null;
  const pool = g.roles.values.filter((v) => !picked.includes(v));
  return picked.map((r) => {
    if (r !== "random") return r;
    const rnd = new Uint32Array(1);
    crypto.getRandomValues(rnd);
    return pool.splice(rnd[0] % pool.length, 1)[0];
  });
}

function seatRow(i) {
  const s = form.seats[i];
  const g = gameMeta();
  const agents = ["human", ...agentOrder(g.agents)];
  const roleSchema = g.roles && (g.options_schema.properties || {})[g.roles.option];
  // an open table: seat 1 is the creator's (with a name), the other people's seats are free for anyone
  const openSeat = form.open && i > 0 && s.agent === "human";
  const humanLabel = form.open ? (i === 0 ? t("tables.you") : t("tables.open_seat")) : t("lobby.human");
  return h("div.seat-row", {dataset: {seat: i}},
    h("span.seat-no", t("lobby.seat_n", {n: i + 1})),
    h("select.agent", {"aria-label": t("lobby.player_kind"), disabled: form.open && i === 0,
      onchange: (e) => { s.agent = e.target.value; render(); }},
    ...agents.map((a) => h("option", {value: a, selected: a === s.agent, title: a === "human" ? "" : agentAbout(g.name, a)},
      a === "human" ? humanLabel : agentLabel(a)))),
    openSeat || (form.open && s.agent !== "human") ? h("span.name.muted.small", openSeat ? t("tables.free_seat") : "") :
      h("input.name", {placeholder: form.open ? t("tables.your_name") : s.agent === "human" ? t("lobby.name_placeholder")
        : t("lobby.ai_name"), value: s.name, maxLength: 40, "aria-label": t("lobby.name"),
      oninput: (e) => { s.name = e.target.value; if (i === 0) setPlayerName(e.target.value.trim()); }}),
    !form.open && g.roles ? h("select.role", {"aria-label": optionLabel(g, g.roles.option, roleSchema || {}),
      onchange: (e) => { s.role = e.target.value; }},
      h("option", {value: "random", selected: s.role === "random"}, t("lobby.random_role")),
      ...g.roles.values.map((c) => h("option", {value: c, selected: c === s.role}, roleLabel(g, c)))) : null,
    s.agent === "human" ? null : h("small.agent-about", agentAbout(g.name, s.agent)));
}

async function openTable(btn) {
  const g = gameMeta();
  const name = form.seats[0].name.trim();
  if (!name) { toast(t("tables.name_needed")); return; }
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/tables", {game: form.game, options: chosenOptions(g), name, lang: currentLang(),
      rated: Boolean(form.rated), turn: chosenTurn(), seats: form.seats.map((s, i) => ({agent: i === 0 ? "human" : s.agent}))});
    rememberTable(r.id, r.seat, r.token);
    render();
  } catch (e) {
    toast(e.message);
  } finally {
    btn.disabled = false;
  }
}

async function create(btn) {
  if (form.open) return openTable(btn);
  btn.disabled = true;
  const g = gameMeta();
  const options = chosenOptions(g);
  const roles = g.roles ? chosenRoles(g) : null;
  if (roles) options[g.roles.option] = roles;
  try {
    created = await api("POST", "/api/games", {
      game: form.game, players: form.players, options, practice: form.practice, turn: chosenTurn(),
      seats: form.seats.map((s) => ({agent: s.agent, name: s.name.trim()})),
    });
    rememberSeats(created.id, created.seats);
    keepSeats(created.id, created.seats);
    render();
  } catch (e) {
    toast(e.message);
  } finally {
    btn.disabled = false;
  }
}

function link(path) { return new URL(path, location.origin).href; }

function copyButton(text) {
  return h("button.small", {onclick: async (e) => {
    try { await navigator.clipboard.writeText(text); e.target.textContent = t("lobby.copied"); }
    catch { window.prompt(t("lobby.copy_this"), text); }
  }}, t("lobby.copy"));
}

function createdPanel() {
  if (!created) return null;
  const humans = created.seats.filter((s) => s.token);
  const hot = link(`/play/${created.id}#hotseat`);
  return h("section.panel.created", {id: "created"},
    h("h2", t("lobby.created_title")),
    h("p", t("lobby.created_help")),
    h("table.links",
      ...created.seats.map((s) => h("tr",
        h("td", t("lobby.seat_n", {n: s.seat + 1})),
        h("td", s.name || agentLabel(s.agent)),
        s.url ? h("td.url", h("a", {href: s.url, target: "_blank", class: "seat-link"}, t("lobby.seat_link"))) :
          h("td.muted", t("lobby.ai_plays")),
        h("td", s.url ? copyButton(link(s.url)) : null))),
      h("tr", h("td", t("lobby.spectators")), h("td", ""),
        h("td.url", h("a", {href: created.spectator_url, target: "_blank"}, t("lobby.watch_link"))),
        h("td", copyButton(link(created.spectator_url))))),
    h("div.row",
      humans.length ? h("a.button.primary", {href: hot, id: "play-here"},
        humans.length > 1 ? t("lobby.play_hotseat") : t("lobby.play_here")) : null,
      h("a.button", {href: created.spectator_url}, t("lobby.watch"))));
}

async function gamesPanel() {
  const ids = JSON.parse(localStorage.getItem("grimoire.games") || "[]");
  const box = h("section.panel.games", h("h2", t("lobby.your_games")));
  if (!ids.length) {
    box.append(h("p.muted", t("lobby.no_games")));
    return box;
  }
  try {
    const {games} = await api("GET", `/api/games?ids=${ids.slice(0, 50).join(",")}&limit=50`);
    const tbl = h("table.game-list");
    for (const g of games) {
      const seats = JSON.parse(localStorage.getItem(`grimoire.seats.${g.id}`) || "{}");
      const mine = Object.keys(seats).length;
      const over = g.status === "over";
      tbl.append(h("tr", {dataset: {game: g.id}},
        h("td", h("a", {href: `/play/${g.id}#hotseat`}, titleOf(g.game)), h("div.muted.small", formatDate(g.updated_at))),
        h("td", g.seats.map((s) => s.name || agentLabel(s.agent, g.game)).join(", ")),
        h("td", over ? t("lobby.status_over") : t("lobby.status_active", {n: g.seq}),
          !over && g.current_player !== null && seats[g.current_player] ? h("span.badge.turn.your-turn", t("turn.your_turn")) : null,
          h("div.small", mine ? t("lobby.my_seats", {n: mine}) : t("lobby.spectator"))),
        h("td.links", over ? [h("a.small", {href: `/replay/${g.id}`}, t("ui.replay")), " · ",
          h("a.small", {href: `/review/${g.id}`}, t("ui.review"))] : null)));
    }
    box.append(h("div.table-scroll", tbl));
  } catch (e) {
    box.append(h("p.muted", e.message));
  }
  return box;
}

async function render() {
  ensureSeats();
  const g = gameMeta();
  const counts = g.player_counts;
  const header = h("header.top",
    h("div.brand", h("span.logo", "✦"), " Grimoire"),
    h("div.spacer"),
    h("a.small.ratings-link", {href: `/ratings/${form.game}`}, t("rating.leaderboard")),
    accountBox(async () => { await syncGames(rememberSeats); render(); }),
    langSelect(render));
  const newGame = h("section.panel.new-game",
    h("h2", t("lobby.new_game")),
    h("div.field", h("label", t("lobby.game")),
      h("select.game", {onchange: (e) => { pickGame(meta.games.find((x) => x.name === e.target.value)); render(); }},
        // a game without its own board is played on the generic one (legal actions as buttons)
        ...meta.games.map((x) => h("option", {value: x.name, selected: x.name === form.game},
          gameTitle(x) + (x.has_ui ? "" : ` (${t("lobby.generic_board")})`))))),
    h("div.field", h("label", t("lobby.players")),
      h("div.counts", ...counts.map((n) => h(`button.count${n === form.players ? ".on" : ""}`,
        {onclick: () => { form.players = n; render(); }, "aria-pressed": n === form.players}, String(n))))),
    h("div.seats", ...form.seats.map((_, i) => seatRow(i))),
    h("label.check.open-table", {title: t("tables.open_help")},
      h("input", {type: "checkbox", checked: form.open, onchange: (e) => {
        form.open = e.target.checked;
        // an open table waits for people: its seats are free for them (the creator may set AI seats)
        if (form.open) { for (const x of form.seats) x.agent = "human"; form.practice = false; }
        render();
      }}), " ", t("tables.open_table")),
    h("p.option-help", form.open ? t("tables.open_help") : t("tables.private_help")),
    form.open ? h("label.check.rated", {title: t("tables.rated_help")},
      h("input", {type: "checkbox", checked: Boolean(form.rated) && Boolean(currentUser()), disabled: !currentUser(),
        onchange: (e) => { form.rated = e.target.checked; }}), " ", t("tables.rated_game")) : null,
    form.open ? h("p.option-help", currentUser() ? t("tables.rated_help") : t("tables.rated_login")) : null,
    form.open ? null : h("label.check.practice", {title: t("lobby.practice_help")},
      h("input", {type: "checkbox", checked: form.practice, onchange: (e) => { form.practice = e.target.checked; }}),
      " ", t("lobby.practice")),
    form.open ? null : h("p.option-help", t("lobby.practice_help")),
    ...turnFields(form.turn, render),
    h("details.options", {open: form.optionsOpen, ontoggle: (e) => { form.optionsOpen = e.target.open; }},
      h("summary", t("lobby.options")), ...optionFields(g)),
    h("div.row", h("button.primary.create", {onclick: (e) => create(e.target)},
      form.open ? t("tables.open_create") : t("lobby.create"))));
  const panels = tablePanels(meta, (tbl, me) => {
    rememberSeats(tbl.id, [{seat: me.seat, token: me.token}]);
    location.href = `/play/${tbl.id}#seat=${me.seat}&token=${me.token}`;
  });
  const intro = h("section.intro", h("h1", t("lobby.title")), h("p", t("lobby.intro")),
    learnPanel(meta, titleOf, rememberSeats, playerName()));
  const main = h("main.lobby-main", intro, h("div.lobby-grid", h("div", panels.mine, newGame, createdPanel()),
    h("div", panels.open, await gamesPanel())));
  app.replaceChildren(header, main);
  document.title = `Grimoire — ${t("lobby.title")}`;
  if (created) document.getElementById("created")?.scrollIntoView({block: "nearest"});
}

(async () => {
  await loadLang();
  meta = await api("GET", "/api/meta");
  if (await loadAccount()) await syncGames(rememberSeats);
  const last = localStorage.getItem("grimoire.lastGame");
  pickGame(meta.games.find((x) => x.name === last) || meta.games.find((x) => x.has_ui) || meta.games[0]);
  render();
})();
