// Fallback for a game without its own browser module: the observation as JSON and the legal actions.
export function title(view) { return view.game; }

export function render(root, view, ctx) {
  const {h, t} = ctx;
  const legal = (view.obs && view.obs.legal_actions) || [];
  root.append(
    h("section.panel", h("h2", t("ui.actions")),
      legal.length ? h("div.actions", ...legal.map((a) => h("button", {disabled: ctx.busy, onclick: () => ctx.act(a)}, a)))
        : h("p.muted", t("ui.waiting"))),
    h("section.panel", h("pre.json", JSON.stringify(view.obs, null, 1))));
}
