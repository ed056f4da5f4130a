// Zauberschmiede in the browser, drawn from one seat's observation only (docs/games/zauberschmiede.md).
// Pick one of the round's dice, then a highlighted place on the sheet (a field, the cauldron, the
// amplifier, a colour box, an amplifier gem) or a transmutation; every click plays one of the seat's
// legal action texts, and the server checks it again. The other sheets are shown as they were at the
// start of the round until the round is over (that is all the observation holds).

export const css = "/games/zauberschmiede/board.css";

const P = "zauberschmiede";
let SHEET = null;                     // the fixed sheet: GET /api/static/zauberschmiede (setup)
let ART = {};                         // "AM1" -> artifact
let tr = (k) => k;                    // ctx.t, set before anything is drawn

export function useTables(data) {
  SHEET = data.sheet;
  ART = Object.fromEntries(SHEET.artifacts.map((a) => [a.id, a]));
}

export async function setup(api) {
  useTables((await api("GET", `/api/static/${P}`)).data);
}

const SCORE_KEYS = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"];
const PIPS = {1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9]};

// --- names -----------------------------------------------------------------------------------------------
const artName = (id) => tr(`${P}.art.${id.toLowerCase()}`);
const colourName = (c) => tr(`${P}.colour.${c}`);

// what a die was used for ("AM1 green", "dust", "amp L2", "amplify AM1", "green 5") in words
function usedLabel(label) {
  const w = label.split(" ");
  if (label === "dust") return tr(`${P}.used.dust`);
  if (w[0] === "amp") return tr(`${P}.used.unlock`, {level: w[1].slice(1)});
  if (w[0] === "amplify") return tr(`${P}.used.amplify`, {artifact: artName(w[1])});
  if (ART[w[0]]) return tr(`${P}.used.charge`, {artifact: artName(w[0]), colour: colourName(w[1])});
  return tr(`${P}.used.upgrade`, {colour: colourName(w[0]), v: w[1]});
}

// an action text in words (the log, the list of every action)
export function describe(text) {
  if (text === null || text === undefined) return tr(`${P}.log.secret`);
  const w = text.split(" ");
  switch (w[0]) {
    case "charge": return tr(`${P}.log.charge`, {artifact: artName(w[1]), colour: colourName(w[2]), v: w[3]});
    case "pay": return w.length > 2 ? tr(`${P}.log.pay_stocks`, {artifact: artName(w[1]), stocks: w.slice(2).map((r) => r.slice(1)).join(", ")})
      : tr(`${P}.log.pay`, {artifact: artName(w[1])});
    case "amplify": return tr(`${P}.log.amplify`, {artifact: artName(w[1]), v: w[2]});
    case "upgrade": return tr(`${P}.log.upgrade`, {colour: colourName(w[1]), v: w[2]});
    case "unlock": return tr(`${P}.log.unlock`, {v: w[1]});
    case "dust": return tr(`${P}.log.dust`, {v: w[1]});
    case "transmute": return tr(`${P}.log.transmute`, {v: w[1], w: w[3]});
    case "end": return tr(`${P}.log.end`);
    default: return text;
  }
}

export function title(view, ctx) {
  if (ctx && ctx.t) tr = ctx.t;
  const o = view.obs;
  return `${tr(`${P}.title`)} · ${tr(`${P}.round_of`, {n: o.round, total: o[P].rounds})}`;
}

function helpButton(ctx, key) {
  return ctx.h("button.help-q", {onclick: (e) => { e.stopPropagation(); ctx.help(key); }, title: tr("ui.help"),
    "aria-label": tr("ui.help")}, "?");
}

function die(h, v, opts = {}) {
  const face = h(`span.die-face${opts.cls || ""}`, {"aria-hidden": "true"},
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => h(`span.pip${PIPS[v].includes(i) ? ".on" : ""}`)));
  return face;
}

// --- the legal actions, indexed for the sheet -----------------------------------------------------------------
function indexLegal(legal) {
  const ix = {charge: {}, amplify: {}, upgrade: {}, unlock: new Set(), dust: new Set(), transmute: {}, pay: {}, end: false};
  for (const a of legal) {
    const w = a.split(" ");
    if (w[0] === "charge") ((ix.charge[w[3]] ||= {})[`${w[1].toUpperCase()} ${w[2]}`] = a);
    else if (w[0] === "amplify") ((ix.amplify[w[2]] ||= {})[w[1].toUpperCase()] = a);
    else if (w[0] === "upgrade") ((ix.upgrade[w[2]] ||= {})[w[1]] = a);
    else if (w[0] === "unlock") ix.unlock.add(w[1]);
    else if (w[0] === "dust") ix.dust.add(w[1]);
    else if (w[0] === "transmute") (ix.transmute[w[1]] ||= []).push(Number(w[3]));
    else if (w[0] === "pay") (ix.pay[w[1].toUpperCase()] ||= []).push(a);
    else if (w[0] === "end") ix.end = true;
  }
  return ix;
}

// --- the dice of the round ------------------------------------------------------------------------------------
function diceTray(ctx, g, sh, ix, mine) {
  const {h} = ctx;
  const sel = ctx.ui.zsDie;
  const dice = sh.dice.map((v, i) => {
    const used = sh.used[i];
    const rolled = g.roll[i];
    const canUse = mine && !used;
    const cls = [used ? "used" : "", sel === i ? "selected" : "", canUse ? "pick" : ""].join(" ");
    return h("div.die", {class: cls, dataset: {die: i, value: v}, role: canUse ? "button" : null, tabindex: canUse ? 0 : null,
      "aria-pressed": canUse ? sel === i : null, "aria-label": tr(`${P}.die_n`, {n: i + 1, v}),
      title: used ? usedLabel(used) : (canUse ? tr(`${P}.pick_die`) : ""),
      onclick: canUse ? () => { ctx.ui.zsDie = sel === i ? null : i; ctx.rerender(); } : null,
      onkeydown: canUse ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.target.click(); } } : null},
    die(h, v), h("span.die-value", String(v)),
    sh.transmuted.includes(i) ? h("span.die-note", tr(`${P}.transmuted_from`, {v: rolled})) : null,
    used ? h("span.die-note.used-for", usedLabel(used)) : null);
  });
  return h("div.dice-tray", {"aria-label": tr(`${P}.dice`)}, ...dice);
}

// what the selected die could do, as buttons (the same targets are highlighted on the sheet)
function dieActions(ctx, sh, ix) {
  const {h} = ctx;
  const i = ctx.ui.zsDie;
  if (i === null || i === undefined || sh.used[i]) return null;
  const v = String(sh.dice[i]);
  const buttons = [];
  const btn = (text, label, cls = "") => buttons.push(h(`button.small${cls}`, {disabled: ctx.busy, dataset: {action: text},
    onclick: () => play(ctx, text)}, label));
  if (ix.dust.has(v)) btn(`dust ${v}`, tr(`${P}.to_cauldron`), ".to-dust");
  if (ix.unlock.has(v)) btn(`unlock ${v}`, tr(`${P}.to_amplifier`), ".to-unlock");
  for (const [c, text] of Object.entries(ix.upgrade[v] || {})) btn(text, tr(`${P}.to_colour_box`, {colour: colourName(c), v}));
  for (const [a, text] of Object.entries(ix.amplify[v] || {})) btn(text, tr(`${P}.to_amplify`, {artifact: artName(a)}));
  const nCharge = Object.keys(ix.charge[v] || {}).length;
  const trans = ix.transmute[v] || [];
  return h("div.die-actions", {"aria-live": "polite"},
    h("div.die-actions-head", die(h, Number(v), {cls: ".small"}), " ",
      nCharge ? tr(`${P}.fields_highlighted`, {n: nCharge}) : tr(`${P}.no_field`)),
    buttons.length ? h("div.actions", ...buttons) : null,
    trans.length ? h("div.transmute-row", h("small", tr(`${P}.transmute_to`)),
      ...trans.map((w) => h("button.small.transmute", {disabled: ctx.busy, dataset: {action: `transmute ${v} to ${w}`},
        onclick: () => play(ctx, `transmute ${v} to ${w}`)}, String(w)))) : null);
}

function play(ctx, text) {
  if (!text.startsWith("transmute")) ctx.ui.zsDie = null;
  ctx.act(text);
}

// --- the sheet --------------------------------------------------------------------------------------------------
function artifactCard(ctx, sh, art, ix, sel, active) {
  const {h} = ctx;
  const vals = sh.fields[art.id];
  const complete = sh.complete.includes(art.id);
  const amplified = sh.amplified.includes(art.id);
  const charged = sh.fully_charged.includes(art.id);
  const v = sel === null ? null : String(sel);
  const chargeable = (v && ix.charge[v]) || {};
  const firstFree = {};
  art.fields.forEach((f, k) => { if (vals[k] === null && firstFree[f.colour] === undefined) firstFree[f.colour] = k; });
  const fields = art.fields.map((f, k) => {
    const text = active && vals[k] === null ? chargeable[`${art.id} ${f.colour}`] : undefined;
    const target = text !== undefined && firstFree[f.colour] === k;
    return h(`span.field.${f.colour}`, {class: [vals[k] !== null ? "filled" : "", target ? "target" : ""].join(" "),
      title: vals[k] !== null ? `${colourName(f.colour)} ${vals[k]}` : tr(`${P}.field_min`, {colour: colourName(f.colour), min: f.min}),
      role: target ? "button" : null, tabindex: target ? 0 : null, dataset: target ? {action: text} : {},
      onclick: target ? () => play(ctx, text) : null,
      onkeydown: target ? (e) => { if (e.key === "Enter") play(ctx, text); } : null},
    vals[k] !== null ? String(vals[k]) : h("small", `≥${f.min}`));
  });
  const ampText = active && v && ix.amplify[v] ? ix.amplify[v][art.id] : undefined;
  const gem = h("span.amp-gem", {class: [amplified ? "crossed" : "", ampText ? "target" : ""].join(" "),
    title: amplified ? tr(`${P}.amplified`) : tr(`${P}.amp_gem`), role: ampText ? "button" : null,
    dataset: ampText ? {action: ampText} : {}, onclick: ampText ? () => play(ctx, ampText) : null}, "◆");
  const dust = h("span.dust-cost", {title: tr(`${P}.dust_cost`, {n: art.dust})},
    ...Array(art.dust).fill(0).map(() => h(`span.dust-dot${complete ? ".crossed" : ""}`, "✦")));
  const pays = active ? (ix.pay[art.id] || []) : [];
  const state = complete ? tr(`${P}.state.complete`) : charged ? tr(`${P}.state.charged`)
    : vals.some((x) => x !== null) ? tr(`${P}.state.partly`, {n: vals.filter((x) => x !== null).length, of: vals.length}) : "";
  return h("div.zs-art", {class: [complete ? "complete" : "", charged && !complete ? "charged" : "", amplified ? "amplified" : ""].join(" "),
    dataset: {art: art.id}},
  h("div.zs-art-head", h("b", artName(art.id)), h("span.base", {title: tr(`${P}.base_help`)}, String(art.base))),
  h("div.fields", ...fields),
  h("div.zs-art-foot", dust, gem, state ? h("span.zs-state", state) : null),
  pays.length ? h("div.pay-row", ...pays.map((text) => h("button.small.primary.pay", {disabled: ctx.busy, dataset: {action: text},
    onclick: () => play(ctx, text)}, payLabel(text)))) : null);
}

function payLabel(text) {
  const w = text.split(" ");
  return w.length > 2 ? tr(`${P}.pay_with`, {stocks: w.slice(2).map((r) => tr(`${P}.stock_of`, {n: r.slice(1)})).join(" + ")})
    : tr(`${P}.pay_fresh`);
}

function sheetGrid(ctx, sh, ix, sel, active) {
  const {h} = ctx;
  const rows = SHEET.categories.map((cat) => {
    const arts = SHEET.artifacts.filter((a) => a.category === cat.id);
    const done = arts.every((a) => sh.complete.includes(a.id));
    return h("div.zs-cat", {dataset: {category: cat.id}},
      h("div.zs-cat-head", h("span", tr(`${P}.cat.${cat.id}`)),
        cat.set ? h("small", {class: done ? "set-done" : "", title: tr(`${P}.set_help`)}, done ? `✓ ${tr(`${P}.set`)}` : tr(`${P}.set`)) : null),
      h("div.zs-cat-arts", ...arts.map((a) => artifactCard(ctx, sh, a, ix, sel, active))));
  });
  return h("div.zs-sheet", ...rows);
}

function sidePanel(ctx, o, sh, ix, sel, active) {
  const {h} = ctx;
  const v = sel === null ? null : String(sel);
  const dustText = active && v && ix.dust.has(v) ? `dust ${v}` : null;
  const boxes = sh.dust_boxes.map((n, r) => h("span.dust-box", {class: r + 1 === o.round && !o.terminal ? "now" : "",
    title: tr(`${P}.round_n`, {n: r + 1})}, n ? String(n) : ""));
  const cauldron = h("div.zs-block.cauldron", {class: dustText ? "target" : "", dataset: dustText ? {action: dustText} : {},
    role: dustText ? "button" : null, onclick: dustText ? () => play(ctx, dustText) : null},
  h("h3", "⚗ ", tr(`${P}.cauldron`), helpButton(ctx, `${P}.topic.dust`)),
  h("div.dust-boxes", ...boxes),
  h("div.small", tr(`${P}.dust_produced`, {n: sh.dust_boxes.reduce((a, b) => a + b, 0)})),
  h("div.small", tr(`${P}.fresh_dust`), ": ", h("b.fresh", String(sh.fresh_dust))),
  h("div.stocks", h("small", tr(`${P}.stocks`), ": "), sh.stocks.length ? sh.stocks.map((s) =>
    h("span.stock", {class: s.spent ? "spent" : ""}, tr(`${P}.stock_line`, {n: s.round, amount: s.amount}))) : h("span.muted.small", "—")));
  const unlockText = active && v && ix.unlock.has(v) ? `unlock ${v}` : null;
  const levels = SHEET.amplifier_level_costs.map((cost, k) => {
    const lvl = k + 1;
    const paid = sh.amp_level >= lvl ? cost : (sh.amp_level + 1 === lvl ? sh.amp_paid : 0);
    return h("span.amp-level", {class: sh.amp_level >= lvl ? "on" : ""},
      h("b", tr(`${P}.level_n`, {n: lvl})), " ", ...Array(cost).fill(0).map((_, j) => h(`span.amp-die${j < paid ? ".paid" : ""}`)));
  });
  const amp = h("div.zs-block.amplifier", {class: unlockText ? "target" : "", dataset: unlockText ? {action: unlockText} : {},
    role: unlockText ? "button" : null, onclick: unlockText ? () => play(ctx, unlockText) : null},
  h("h3", h("span.amp-gem.on", "◆"), " ", tr(`${P}.amplifier`), helpButton(ctx, `${P}.topic.amplifier`)),
  h("div.amp-levels", ...levels));
  const colours = SHEET.colours.map((c) => h("div.colour-row", {dataset: {colour: c}},
    h(`span.colour-name.${c}`, colourName(c)),
    ...SHEET.colour_upgrade_values.map((val) => {
      const marked = sh.upgrades[c].includes(val);
      const text = active && v === String(val) && ix.upgrade[v] ? ix.upgrade[v][c] : undefined;
      return h(`span.colour-box.${c}`, {class: [marked ? "marked" : "", text ? "target" : ""].join(" "),
        dataset: text ? {action: text} : {}, role: text ? "button" : null, onclick: text ? () => play(ctx, text) : null,
        title: tr(`${P}.colour_box`, {colour: colourName(c), v: val})}, String(val));
    }),
    h("small.level", tr(`${P}.level_n`, {n: sh.upgrades[c].length}))));
  const trans = h("div.zs-block.transmute",
    h("h3", tr(`${P}.transmutations`), helpButton(ctx, `${P}.topic.transmutation`)),
    h("div", ...Array(SHEET.transmutations).fill(0).map((_, k) => h("span.trans-box", {class: k < SHEET.transmutations - sh.transmutations_left ? "crossed" : ""}, "⟲")),
      " ", h("small", tr(`${P}.left_n`, {n: sh.transmutations_left}))));
  return h("div.zs-side", cauldron, amp,
    h("div.zs-block.colours", h("h3", tr(`${P}.colours`), helpButton(ctx, `${P}.topic.colours`)), ...colours), trans);
}

function scorePanel(ctx, sh, final) {
  const {h} = ctx;
  return h("div.zs-block.score", {dataset: {seat: sh.seat}},
    h("h3", final ? tr(`${P}.final_score`) : tr(`${P}.score_now`), helpButton(ctx, `${P}.topic.scoring`)),
    h("table.zs-score", ...SCORE_KEYS.map((k) => h("tr", {title: tr(`${P}.score.${k}.help`)},
      h("td.k", k), h("td", tr(`${P}.score.${k}`)), h("td.num", String(sh.score[k])))),
    h("tr.total", h("td"), h("td", tr(`${P}.total`)), h("td.num", String(sh.score.total)))));
}

// --- what to do now ---------------------------------------------------------------------------------------------
function promptPanel(ctx, o, g, me, ix, mine) {
  const {h} = ctx;
  if (o.terminal) return resultPanel(ctx, o, g);
  const cp = o.current_player;
  let text;
  if (mine) {
    const unused = me.used.filter((u) => !u).length;
    const owed = me.amp_paid && !ix.end;
    text = owed ? tr(`${P}.do.unlock`, {n: SHEET.amplifier_level_costs[me.amp_level] - me.amp_paid})
      : tr(`${P}.do.turn`, {n: unused});
  } else {
    text = tr(`${P}.wait`, {name: ctx.seatLabel(cp)});
  }
  const box = h(`section.panel.prompt${mine ? ".mine" : ""}`, {"aria-live": "polite", dataset: {decision: mine ? "turn" : "wait"}},
    h("div.prompt-text", mine ? h("span.you", tr(`${P}.you`)) : h("span.hourglass", ctx.icon("hourglass")), " ", text));
  if (mine && ix.end) {
    box.append(h("div.row", h("button.primary.end-round", {disabled: ctx.busy, onclick: () => endRound(ctx)}, tr(`${P}.end_round`)),
      h("span.muted.small", tr(`${P}.simultaneous`))));
  }
  return box;
}

function endRound(ctx) {
  ctx.act("end");                     // with dice unused the page asks first (harms)
}

// the page's question before an action that harms the acting seat (web/static/confirm.js), as the
// terminal's warnings: ending the round with dice unused (they expire, rules 4.2) and paying with stocks
// that hold more dust than the cost (a stock is spent whole, the rest is lost, rules 6.3)
export function harms(view, text, ctx) {
  const g = view.obs[P];
  const me = g && ctx.seat !== null ? g.sheets[ctx.seat] : null;
  if (!me) return null;
  const w = text.split(" ");
  if (text === "end") {
    const unused = me.used.filter((u) => !u).length;
    return unused ? {title: tr(`${P}.end_round`), text: tr(`${P}.unused_warning`, {n: unused}), ok: tr(`${P}.end_anyway`)} : null;
  }
  if (w[0] === "pay" && w.length > 2 && ART[w[1].toUpperCase()]) {
    const cost = ART[w[1].toUpperCase()].dust;
    const stocks = Object.fromEntries(me.stocks.filter((x) => !x.spent).map((x) => [`r${x.round}`, x.amount]));
    const total = w.slice(2).reduce((sum, r) => sum + (stocks[r] || 0), 0);
    if (total > cost) {
      return {title: describe(text), text: tr(`${P}.confirm_stock_lost`, {total, cost, lost: total - cost}),
        ok: tr(`${P}.pay_anyway`)};
    }
  }
  return null;
}

// the guide's step (web/static/guide.js): an amplifier level half paid, a die picked, dice left or none
export function guide(view, ctx) {
  const o = view.obs;
  const me = o[P] && ctx.seat !== null ? o[P].sheets[ctx.seat] : null;
  if (!me) return null;
  const legal = o.legal_actions || [];
  if (me.amp_paid && !legal.includes("end")) return "unlock";
  if (!me.used.some((u) => !u)) return "end";
  return ctx.ui.zsDie !== null && ctx.ui.zsDie !== undefined ? "place" : "pick";
}

function resultPanel(ctx, o, g) {
  const {h} = ctx;
  const ranked = [...g.sheets].sort((a, b) => b.score.total - a.score.total);
  return h("section.panel.prompt.over",
    h("h2", tr(`${P}.game_over`)),
    h("p", tr(`${P}.end_reason`, {n: o.round})),
    h("table.zs-final",
      h("tr", h("th", ""), ...SCORE_KEYS.map((k) => h("th", {title: tr(`${P}.score.${k}`)}, k)), h("th", tr(`${P}.total`))),
      ...ranked.map((sh) => h("tr", {class: o.winners.includes(sh.seat) ? "winner" : ""},
        h("td", ctx.seatLabel(sh.seat), o.winners.includes(sh.seat) ? " ★" : ""),
        ...SCORE_KEYS.map((k) => h("td.num", String(sh.score[k]))), h("td.num.total", String(sh.score.total))))));
}

// --- the other sheets ----------------------------------------------------------------------------------------------
function otherSheet(ctx, o, sh) {
  const {h} = ctx;
  const open = Boolean(ctx.ui.zsOpen && ctx.ui.zsOpen[sh.seat]);
  const levels = SHEET.colours.map((c) => h(`span.colour-chip.${c}`, {title: colourName(c)}, String(sh.upgrades[c].length)));
  return h("section.panel.zs-other", {dataset: {seat: sh.seat}},
    h("div.board-head", h("h2", ctx.seatLabel(sh.seat)),
      sh.decided && !o.terminal ? h("span.badge", tr(`${P}.decided`)) : null,
      h("span.score", tr(`${P}.points_n`, {n: sh.score.total}))),
    h("div.zs-other-facts",
      h("span", tr(`${P}.complete_n`, {n: sh.complete.length})),
      h("span", tr(`${P}.dust_produced`, {n: sh.dust_boxes.reduce((a, b) => a + b, 0)})),
      h("span", tr(`${P}.amp_level`, {n: sh.amp_level})), h("span", ...levels)),
    !sh.live && !o.terminal ? h("p.muted.small", tr(`${P}.as_of_round_start`)) : null,
    h("button.small.ghost", {onclick: () => { ctx.ui.zsOpen = {...(ctx.ui.zsOpen || {}), [sh.seat]: !open}; ctx.rerender(); }},
      open ? tr(`${P}.hide_sheet`) : tr(`${P}.show_sheet`)),
    open ? h("div.zs-other-sheet", sheetGrid(ctx, sh, indexLegal([]), null, false), sidePanel(ctx, o, sh, indexLegal([]), null, false),
      scorePanel(ctx, sh, o.terminal)) : null);
}

function logPanel(ctx) {
  const {h} = ctx;
  const list = h("ol.log-list");
  let lastRound = null;
  for (const e of ctx.log.slice(-300)) {
    if (e.round !== lastRound && e.round !== null && e.round !== undefined) {
      list.append(h("li.round", tr(`${P}.round_n`, {n: e.round})));
      lastRound = e.round;
    }
    list.append(h("li", {dataset: {seq: e.seq}}, h("span.seq", String(e.seq)), h("b", ctx.seatLabel(e.seat)), " ", describe(e.text)));
  }
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return h("section.panel.log", h("h2", tr("ui.log")), list);
}

function allActions(ctx, legal) {
  const {h} = ctx;
  if (!legal.length) return null;
  return h("details.all-actions", h("summary", tr("ui.all_actions", {n: legal.length})),
    h("div.actions", ...legal.slice(0, 400).map((a) => h("button.small", {disabled: ctx.busy, title: describe(a),
      onclick: () => play(ctx, a)}, a))));
}

// --- the page ---------------------------------------------------------------------------------------------------------
export function render(root, view, ctx) {
  tr = ctx.t;
  const {h} = ctx;
  const o = view.obs;
  const g = o[P];
  const legal = ctx.busy ? [] : (o.legal_actions || []);
  const ix = indexLegal(legal);
  const mine = ctx.seat !== null && o.current_player === ctx.seat && !o.terminal;
  // solo spectators and replays of one seat see that sheet; a spectator of a table sees them all below
  const mySeat = ctx.seat !== null ? ctx.seat : (o.num_players === 1 ? 0 : null);
  const me = mySeat !== null ? g.sheets[mySeat] : null;
  if (ctx.ui.zsKey !== `${view.seq}-${ctx.seat}`) {        // a new state: the die choice starts over
    ctx.ui.zsKey = `${view.seq}-${ctx.seat}`;
    const keep = ctx.ui.zsDie;
    ctx.ui.zsDie = me && keep !== null && keep !== undefined && !me.used[keep] && mine ? keep : null;
  }
  if (me && (ctx.ui.zsDie === undefined || (ctx.ui.zsDie !== null && me.used[ctx.ui.zsDie]))) ctx.ui.zsDie = null;
  const sel = me && ctx.ui.zsDie !== null && ctx.ui.zsDie !== undefined ? me.dice[ctx.ui.zsDie] : null;
  root.classList.add("zs");
  if (ctx.busy) root.classList.add("busy");
  const left = h("div.zs-left", promptPanel(ctx, o, g, me, ix, mine));
  if (me) {
    left.append(h("section.panel.zs-own", {dataset: {seat: me.seat}},
      h("div.board-head", h("h2", ctx.seat !== null ? tr(`${P}.your_sheet`, {name: ctx.seatLabel(me.seat)}) : ctx.seatLabel(me.seat)),
        h("span.roll", tr(`${P}.roll`), ": ", ...g.roll.map((v) => die(h, v, {cls: ".small"})))),
      o.terminal ? null : diceTray(ctx, g, me, ix, mine),
      mine ? dieActions(ctx, me, ix) : null,
      h("div.zs-body", sheetGrid(ctx, me, ix, sel, mine), h("div.zs-right-col", sidePanel(ctx, o, me, ix, sel, mine),
        scorePanel(ctx, me, o.terminal)))));
    if (mine) left.append(allActions(ctx, legal));
  } else {
    left.append(h("section.panel.zs-roll", h("h2", tr(`${P}.roll`)), h("div.dice-tray", ...g.roll.map((v) => h("div.die", die(h, v))))));
  }
  const others = g.sheets.filter((sh) => !me || sh.seat !== me.seat);
  const right = h("div.zs-right", ...others.map((sh) => otherSheet(ctx, o, sh)), logPanel(ctx));
  root.append(h("div.zs-grid", left, right));
}

export function seatTitle(view, seat, who) {
  return who;
}
