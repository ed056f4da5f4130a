// The board of a game without its own browser module: who decides, the legal actions as buttons,
// the scores, the log and the game's part of the observation as a tree. It knows no game: the title
// comes from the catalog ("<game>.title") or the descriptor, everything else from the envelope.

export function title(view, ctx) {
  const key = `${view.game}.title`;
  return ctx && ctx.t && ctx.t(key) !== key ? ctx.t(key) : view.game;
}

function tree(h, value, depth = 0) {
  if (value === null || typeof value !== "object") return h("code", JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (!entries.length) return h("code", Array.isArray(value) ? "[]" : "{}");
  const simple = entries.every(([, v]) => v === null || typeof v !== "object");
  if (simple && entries.length <= 12) {
    return h("span.tree-inline", ...entries.map(([k, v], i) =>
      h("span", i ? ", " : "", Array.isArray(value) ? "" : h("span.tree-key", `${k}: `), h("code", JSON.stringify(v)))));
  }
  return h("details.tree", {open: depth < 1},
    h("summary", Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`),
    h("ul", ...entries.map(([k, v]) => h("li", h("span.tree-key", `${k}: `), tree(h, v, depth + 1)))));
}

export function render(root, view, ctx) {
  const {h, t} = ctx;
  const o = view.obs;
  const legal = ctx.busy ? [] : (o.legal_actions || []);
  const mine = ctx.seat !== null && o.current_player === ctx.seat && !o.terminal;
  const who = o.current_player === null || o.current_player === undefined ? "" : ctx.seatLabel(o.current_player);
  const prompt = o.terminal
    ? h("section.panel.prompt.over", h("h2", t("ui.game_over")),
      h("ol.result", ...o.scores.map((sc, i) => [i, sc]).sort((a, b) => b[1] - a[1]).map(([i, sc]) =>
        h("li", {class: o.winners.includes(i) ? "winner" : ""}, ctx.seatLabel(i), ` — ${sc}`, o.winners.includes(i) ? " ★" : ""))))
    : h(`section.panel.prompt${mine ? ".mine.decision" : ""}`, {dataset: mine ? {decision: String(view.seq)} : {}},
      h("p", mine ? t("ui.your_decision") : t("ui.waiting_for", {name: who})),
      mine ? h("div.actions", ...legal.map((a) => h("button", {disabled: ctx.busy, onclick: () => ctx.act(a)}, a))) : null);
  const scores = h("section.panel",
    h("h2", t("ui.scores"), o.round !== null && o.round !== undefined ? h("small.muted", ` · ${t("ui.round_n", {n: o.round})}`) : null),
    h("table.scores", ...o.scores.map((sc, i) => h("tr", h("td", ctx.seatLabel(i)), h("td.num", String(sc))))));
  const list = h("ol.log-list", ...ctx.log.slice(-200).map((e) =>
    h("li", {dataset: {seq: e.seq}}, h("span.seq", String(e.seq)), h("b", ctx.seatLabel(e.seat)), " ", e.text ?? t("ui.secret_action"))));
  root.classList.add("generic");
  root.append(h("div.generic-grid",
    h("div", prompt, h("section.panel", h("h2", t("ui.observation")), tree(h, o[view.game] ?? o))),
    h("div", scores, h("section.panel.log", h("h2", t("ui.log")), list))));
}
