// The leaderboard of one game (/ratings/<game>): accounts by rating per player count, and the fixed
// ratings of the AI levels (measured in the arena), so a player sees which level matches him.
import {agentName, api, currentLang, h, langSelect, loadLang, t, toast} from "./common.js";
import {accountBox, currentUser, loadAccount} from "./account.js";

const app = document.getElementById("app");
const game = decodeURIComponent(location.pathname.split("/").pop());
let players = null;
let meta = null;

function titleOf(name) {
  const g = meta && meta.games.find((x) => x.name === name);
  return g ? ((g.titles && g.titles[currentLang()]) || g.title) : name;
}

async function render() {
  let board;
  try {
    board = await api("GET", `/api/ratings/${encodeURIComponent(game)}${players ? `?players=${players}` : ""}`);
  } catch (e) {
    app.replaceChildren(h("main.lobby-main", h("p", e.message), h("a", {href: "/"}, t("ui.to_lobby"))));
    return;
  }
  players = board.players;
  const me = currentUser();
  const header = h("header.top",
    h("a.brand", {href: "/", title: t("ui.to_lobby")}, h("span.logo", "✦"), h("span.brand-name", " Grimoire")),
    h("div.game-title", titleOf(game)),
    h("div.spacer"),
    accountBox(render),
    langSelect(render));
  const counts = h("div.counts", ...board.player_counts.map((n) => h(`button.count${n === players ? ".on" : ""}`,
    {onclick: () => { players = n; render(); }, "aria-pressed": n === players}, String(n))));
  const people = board.players_ranked.length
    ? h("div.table-scroll", h("table.leaderboard.people",
      h("tr", h("th", "#"), h("th", t("rating.player")), h("th.num", t("rating.rating")), h("th.num", t("rating.games"))),
      ...board.players_ranked.map((p, i) => h(`tr${me && me.username === p.username ? ".me" : ""}`,
        {dataset: {player: p.username}},
        h("td", String(i + 1)), h("td", p.username), h("td.num", p.rating.toFixed(1)), h("td.num", String(p.games))))))
    : h("p.muted", t("rating.nobody"));
  const ai = h("div.table-scroll", h("table.leaderboard.ai",
    h("tr", h("th", t("rating.ai_level")), h("th.num", t("rating.rating"))),
    ...board.ai.map((a) => h("tr", {dataset: {level: a.level}},
      h("td", agentName(game, a.level)), h("td.num", a.rating.toFixed(1))))));
  app.replaceChildren(header, h("main.lobby-main",
    h("section.intro", h("h1", t("rating.title", {game: titleOf(game)})), h("p", t("rating.help"))),
    h("div.lobby-grid",
      h("section.panel", h("h2", t("rating.players")), h("div.field", h("label", t("lobby.players")), counts), people),
      h("section.panel", h("h2", t("rating.ai_levels")), h("p.small.muted", t("rating.ai_help")),
        board.ai.length ? ai : h("p.muted", t("rating.no_ai"))))));
  document.title = `Grimoire — ${t("rating.title", {game: titleOf(game)})}`;
}

(async () => {
  await loadLang();
  try { meta = await api("GET", "/api/meta"); } catch (e) { toast(e.message); }
  await loadAccount();
  render();
})();
