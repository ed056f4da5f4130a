// The lobby: create a game (seats: human or an AI level, characters), share the seat links, or play
// hot-seat on this screen; and the list of games this browser knows.
import {api, h, langSelect, loadLang, t, toast} from "./common.js";

const app = document.getElementById("app");
let meta = null;
let created = null;          // the answer of POST /api/games, shown until a new game is made
const form = {game: "zavandor", players: 3, seats: [], options: {max_rounds: "", strict_subphases: true}};

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

function ensureSeats() {
  while (form.seats.length < form.players) {
    const i = form.seats.length;
    form.seats.push({agent: i === 0 ? "human" : defaultAi(), name: "", character: "random"});
  }
  form.seats.length = form.players;
}

function defaultAi() {
  const levels = gameMeta().agents;
  return levels.includes("medium") ? "medium" : levels[0];
}

function agentLabel(a) { return a === "human" ? t("lobby.human") : t("lobby.ai", {level: t(`ai.${a}`)}); }

function seatRow(i) {
  const s = form.seats[i];
  const g = gameMeta();
  const agents = ["human", ...g.agents];
  return h("div.seat-row", {dataset: {seat: i}},
    h("span.seat-no", t("lobby.seat_n", {n: i + 1})),
    h("select.agent", {"aria-label": t("lobby.player_kind"), onchange: (e) => { s.agent = e.target.value; render(); }},
      ...agents.map((a) => h("option", {value: a, selected: a === s.agent}, agentLabel(a)))),
    h("input.name", {placeholder: s.agent === "human" ? t("lobby.name_placeholder") : t("lobby.ai_name"),
      value: s.name, maxLength: 40, "aria-label": t("lobby.name"), oninput: (e) => { s.name = e.target.value; }}),
    g.characters ? h("select.character", {"aria-label": t("lobby.character"),
      onchange: (e) => { s.character = e.target.value; }},
      h("option", {value: "random", selected: s.character === "random"}, t("lobby.random_character")),
      ...g.characters.map((c) => h("option", {value: c, selected: c === s.character}, t(`zav.char.${c}`)))) : null);
}

async function create(btn) {
  btn.disabled = true;
  const g = gameMeta();
  const options = {};
  if (g.characters) options.characters = form.seats.map((s) => s.character);
  if (String(form.options.max_rounds).trim()) options.max_rounds = Number(form.options.max_rounds);
  if (g.name === "zavandor") options.strict_subphases = form.options.strict_subphases;
  try {
    created = await api("POST", "/api/games", {
      game: form.game, players: form.players, options,
      seats: form.seats.map((s) => ({agent: s.agent, name: s.name.trim()})),
    });
    rememberSeats(created.id, created.seats);
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
      tbl.append(h("tr",
        h("td", h("a", {href: `/play/${g.id}#hotseat`}, g.id)),
        h("td", g.seats.map((s) => s.name || agentLabel(s.agent)).join(", ")),
        h("td", g.status === "over" ? t("lobby.status_over") : t("lobby.status_active", {n: g.seq})),
        h("td", mine ? t("lobby.my_seats", {n: mine}) : t("lobby.spectator")),
        h("td", new Date(g.updated_at).toLocaleString())));
    }
    box.append(tbl);
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
    langSelect(render));
  const newGame = h("section.panel.new-game",
    h("h2", t("lobby.new_game")),
    h("div.field", h("label", t("lobby.game")),
      h("select.game", {onchange: (e) => { form.game = e.target.value; form.seats = []; render(); }},
        ...meta.games.map((x) => h("option", {value: x.name, selected: x.name === form.game, disabled: !x.has_ui},
          x.title + (x.has_ui ? "" : ` (${t("lobby.terminal_only")})`))))),
    h("div.field", h("label", t("lobby.players")),
      h("div.counts", ...counts.map((n) => h(`button.count${n === form.players ? ".on" : ""}`,
        {onclick: () => { form.players = n; render(); }, "aria-pressed": n === form.players}, String(n))))),
    h("div.seats", ...form.seats.map((_, i) => seatRow(i))),
    h("details.options", h("summary", t("lobby.options")),
      h("div.field", h("label", t("lobby.max_rounds")),
        h("input", {type: "number", min: 1, max: 99, value: form.options.max_rounds, placeholder: t("lobby.no_limit"),
          oninput: (e) => { form.options.max_rounds = e.target.value; }})),
      g.name === "zavandor" ? h("label.check", h("input", {type: "checkbox", checked: form.options.strict_subphases,
        onchange: (e) => { form.options.strict_subphases = e.target.checked; }}), " ", t("lobby.strict_subphases")) : null),
    h("div.row", h("button.primary.create", {onclick: (e) => create(e.target)}, t("lobby.create"))));
  const intro = h("section.intro", h("h1", t("lobby.title")), h("p", t("lobby.intro")));
  const main = h("main.lobby-main", intro, h("div.lobby-grid", h("div", newGame, createdPanel()), await gamesPanel()));
  app.replaceChildren(header, main);
  document.title = `Grimoire — ${t("lobby.title")}`;
  if (created) document.getElementById("created")?.scrollIntoView({block: "nearest"});
}

(async () => {
  await loadLang();
  meta = await api("GET", "/api/meta");
  const first = meta.games.find((x) => x.has_ui) || meta.games[0];
  form.game = first.name;
  form.players = Math.min(Math.max(3, first.player_counts[0]), first.player_counts.at(-1));
  render();
})();
