// "Learn to play": a practice game against the easy AI with a guide above the board that says what to
// click now and why. The words are the game's (its catalog: `<game>.guide.intro`, `<game>.guide.<step>`);
// which step applies is the board module's `guide(view, ctx)` (a name, e.g. "bid"); "wait" (another seat
// decides) and "over" are the page's. A game without its own steps gets the page's general ones
// (`guide.step.<step>`). The lobby's panel (`learnPanel`) starts such a game.
import {api, h, has, markdown, spotlight, t, toast} from "./common.js";

const key = (gid) => `grimoire.guide.${gid}`;

// the game page: is the guide on for this game? (#guide=1 from the lobby turns it on; "Hide" off)
export function guideOn(gid) {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("guide") === "1" && !localStorage.getItem(key(gid))) localStorage.setItem(key(gid), "intro");
  const v = localStorage.getItem(key(gid));
  return v === "intro" || v === "steps";
}

function stepOf(view, seat, module, ctx) {
  if (view.status === "over") return "over";
  if (seat === null || view.obs.current_player !== seat) return "wait";
  let step = null;
  try { step = module && module.guide ? module.guide(view, ctx) : null; } catch (e) { console.error(e); }
  return step || "turn";
}

function words(game, step) {
  if (has(`${game}.guide.${step}`)) return t(`${game}.guide.${step}`);
  return t(`guide.step.${has(`guide.step.${step}`) ? step : "turn"}`);
}

// the panel above the board (null when the guide is off)
export function guidePanel({gid, game, view, seat, module, ctx, rerender}) {
  if (!guideOn(gid)) return null;
  const intro = localStorage.getItem(key(gid)) === "intro";
  const step = intro ? "intro" : stepOf(view, seat, module, ctx);
  const text = intro ? (has(`${game}.guide.intro`) ? t(`${game}.guide.intro`) : t("guide.step.intro")) : words(game, step);
  const set = (v) => { localStorage.setItem(key(gid), v); rerender(); };
  const showMe = () => {
    const el = document.querySelector("main.game .decision") || document.querySelector("main.game button:not([disabled])");
    if (el) spotlight(el);
  };
  return h("section.guide-panel", {"aria-live": "polite", dataset: {step}},
    h("div.guide-head", h("strong", t("guide.title")), " ", h("span.muted.small", t("guide.practice_note"))),
    h("div.guide-text", markdown(text)),
    h("div.row.guide-buttons",
      intro ? h("button.primary.guide-start", {onclick: () => set("steps")}, t("guide.start"))
        : h("button.guide-show", {onclick: showMe, disabled: step === "wait" || step === "over"}, t("guide.show_me")),
      intro ? null : h("button.ghost.guide-intro", {onclick: () => set("intro")}, t("guide.again")),
      h("button.ghost.guide-hide", {onclick: () => set("off")}, t("guide.hide"))));
}

// the lobby: one "Learn to play" button per game with a board; it starts a practice game (the fewest
// seats the game allows, the others played by the easy AI) and opens it with the guide on
export function learnPanel(meta, titleOf, remember, name) {
  const start = async (g, btn) => {
    btn.disabled = true;
    const players = g.player_counts.includes(2) ? 2 : Math.min(...g.player_counts);   // you and the easy AI
    const ai = g.agents.includes("easy") ? "easy" : g.agents[0];
    try {
      const made = await api("POST", "/api/games", {game: g.name, players, practice: true,
        seats: Array.from({length: players}, (_, i) => (i === 0 ? {agent: "human", name: name || ""} : {agent: ai, name: ""}))});
      remember(made.id, made.seats);
      const me = made.seats[0];
      location.href = `/play/${made.id}#seat=0&token=${me.token}&guide=1`;
    } catch (e) {
      toast(e.message);
      btn.disabled = false;
    }
  };
  const games = meta.games.filter((g) => g.has_ui);
  return h("section.panel.learn",
    h("h2", t("guide.learn")),
    h("p.muted", t("guide.learn_help")),
    h("div.learn-games", ...games.map((g) => h("button.learn-game", {dataset: {game: g.name},
      onclick: (e) => start(g, e.currentTarget)}, titleOf(g.name)))));
}
