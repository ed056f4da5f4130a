// The Scepter of Zavandor in the browser, drawn from one seat's observation only.
// Every button plays one of the seat's legal action texts (obs.legal_actions); nothing else is
// clickable, and the server checks everything again. The engine's default payment / discard come
// as hints (view.hints), never in the observation.

export const css = "/games/zavandor/board.css";

// The game's fixed tables (gem VP, track costs, artifact decks / minimum bids / VP, sentinels, the
// concentrated cards' values) come from the engine: GET /api/static/zavandor, loaded once by setup()
// before the first render (the browser revalidates it with its ETag).
let GEMS = [];
let GEM_VP = {};
let COLOURS = [];
let CONC = {};
let LETTER = {};
let TRACKS = [];
let TRACK_COST = {};
let ART = {};                          // artifact -> [deck letter, minimum bid, VP] (rules 2.8)
let SENTINELS = [];
let SENTINEL_MIN = 0;
let SENTINELS_TO_END = 5;

export function useTables(data) {
  GEMS = data.gems.map((g) => g.id);
  GEM_VP = Object.fromEntries(data.gems.map((g) => [g.id, g.vp]));
  COLOURS = data.cards.map((c) => c.colour);
  CONC = Object.fromEntries(data.cards.map((c) => [c.colour, c.concentrated_value]));
  LETTER = Object.fromEntries(COLOURS.map((c) => [c, c[0]]));      // "pay 7b 9g" (docs/games/zavandor.md)
  TRACKS = data.tracks.map((tk) => tk.id);
  TRACK_COST = Object.fromEntries(data.tracks.map((tk) => [tk.id, tk.cost_by_level]));
  ART = Object.fromEntries(data.artifacts.map((a) => [a.id, [a.deck, a.min_bid, a.vp]]));
  SENTINELS = data.sentinels.map((x) => x.id);
  SENTINEL_MIN = data.sentinel_min_bid;
  SENTINELS_TO_END = data.sentinels_to_end;
}

// "3/5" while the end is ahead; past it (more sentinels sold in the last round) just the count, never "6/5"
const soldOf = (n) => (n <= SENTINELS_TO_END ? `${n}/${SENTINELS_TO_END}` : String(n));

export async function setup(api) {
  useTables((await api("GET", "/api/static/zavandor")).data);
}

const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#ca6f1e", "#117a65"];

// --- small helpers -------------------------------------------------------------------------------------
function dustUnits(v) {               // hand-limit count of v dust in the fewest tokens (rules 7.6, 2.5)
  if (v <= 0) return 0;
  if (v === 1 || v === 3) v -= 1;
  let tens = Math.floor(v / 10);
  if ((v % 10 === 1 || v % 10 === 3) && tens) tens -= 1;
  let r = v - 10 * tens;
  let units = 3 * tens;
  if (r % 2) { units += 2; r -= 5; }
  return units + r / 2;
}
const representable = (v) => v === 0 || (v >= 2 && v !== 3);

// view.obs is the core's envelope (round, current_player, terminal, winners, legal_actions, ...) with
// Zavandor's own part under "zavandor" (docs/games/zavandor.md); the board reads one merged object.
function gameView(env) {
  return {...env.zavandor, round: env.round, current_player: env.current_player, over: env.terminal,
    winners: env.winners, legal_actions: env.legal_actions};
}

export function title(view, ctx) {
  if (ctx && ctx.t) tr = ctx.t;
  const o = view.obs;
  return `${tr("zavandor.title")} · ${tr("zavandor.round", {n: o.round})}`;
}

let tr = (k) => k;   // set at each render to ctx.t

function itemName(item) {
  return ART[item] ? tr(`zavandor.art.${item}.name`) : tr(`zavandor.sent.${item}.name`);
}

export function describe(text) {
  if (text === null || text === undefined) return "…";
  const w = text.split(" ");
  const k = w[0];
  const gem = (g) => tr(`zavandor.gem.${g}.name`);
  switch (k) {
    case "buy": return tr(w[2] === "inactive" ? "zavandor.log.buy_inactive" : "zavandor.log.buy", {gem: gem(w[1])});
    case "sell": return w[1] === "active" ? tr("zavandor.log.sell_active", {gem: gem(w[2])}) : tr("zavandor.log.sell", {gem: gem(w[1])});
    case "activate": return tr("zavandor.log.activate", {gem: gem(w[1])});
    case "deactivate": return tr("zavandor.log.deactivate", {gem: gem(w[1])});
    case "token": return tr("zavandor.log.token", {n: w[1]});
    case "advance": return tr("zavandor.log.advance", {track: tr(`zavandor.track.${w[1]}.name`)});
    case "auction": return tr("zavandor.log.auction", {item: itemName(w[1])});
    case "bid": return tr("zavandor.log.bid", {n: w[1]});
    case "pass": return tr("zavandor.log.pass");
    case "pay": return w.length > 1 ? tr("zavandor.log.pay_items", {items: w.slice(1).join(" ")}) : tr("zavandor.log.pay");
    case "end": return tr("zavandor.log.end");
    case "skip": return tr("zavandor.log.skip");
    case "lose": return tr("zavandor.log.lose", {gem: gem(w[1])});
    case "discard": return w.length > 1 ? tr("zavandor.log.discard_items", {items: w.slice(1).join(" ")}) : tr("zavandor.log.discard");
    case "give": return tr("zavandor.log.give", {items: w[1]});                // a factored payment step
    case "drop": return tr("zavandor.log.discard_items", {items: w[1]});
    case "keep": return tr("zavandor.log.keep", {n: w[1].slice(1)});
    default: return text;
  }
}

export function seatTitle(view, seat, who, ctx) {
  if (ctx && ctx.t) tr = ctx.t;
  const p = view.obs.zavandor.players[seat];
  return p ? `${who} (${tr(`zavandor.char.${p.character}`)})` : who;
}

// --- pieces ------------------------------------------------------------------------------------------------
function gemIcon(h, g, extra = "") {
  return h(`span.gem.${g}${extra}`, {title: tr(`zavandor.gem.${g}.name`)}, tr(`zavandor.gem.${g}.letter`));
}

function energyCard(h, value, colour, opts = {}) {
  return h(`span.ecard.${colour}${opts.selected ? ".selected" : ""}${opts.onclick ? ".pick" : ""}`,
    {title: `${tr(`zavandor.colour.${colour}`)} ${value}`, onclick: opts.onclick, role: opts.onclick ? "button" : null,
      "aria-pressed": opts.onclick ? Boolean(opts.selected) : null}, String(value));
}

function cardBack(h, colour, n) {
  return h(`span.ecard.back.${colour}`, {title: tr("zavandor.cards_of", {n, colour: tr(`zavandor.colour.${colour}`)})},
    n > 1 ? `${n}×` : "?");
}

function concCard(h, colour, opts = {}) {
  return h(`span.ecard.conc.${colour}${opts.selected ? ".selected" : ""}${opts.onclick ? ".pick" : ""}`,
    {title: tr("zavandor.concentrated_card", {v: CONC[colour]}), onclick: opts.onclick, role: opts.onclick ? "button" : null},
    h("small", "✧"), String(CONC[colour]));
}

function dustChip(h, v, title) {
  return h("span.dust", {title: title || tr("zavandor.dust_help")}, "✦ ", String(v));
}

function helpButton(ctx, key) {
  return ctx.h("button.help-q", {onclick: (e) => { e.stopPropagation(); ctx.help(key); }, title: tr("ui.help"),
    "aria-label": tr("ui.help")}, "?");
}

function seatName(ctx, seat) { return ctx.seatLabel(seat); }

function disc(h, seat) { return h("span.disc", {style: {background: SEAT_COLOURS[seat % 6]}}); }

// --- the turn-order strip (VP track) ------------------------------------------------------------------------
function orderStrip(ctx, o) {
  const {h} = ctx;
  const auc = o.auction;
  const tiles = o.turn_order.map((s) => {
    const p = o.players[s];
    const m = o.modifiers[s];
    const seatInfo = ctx.view.seats[s] || {};
    const classes = [s === o.active_player ? "active" : "", s === o.current_player ? "deciding" : "",
      s === ctx.seat ? "me" : "", p.eliminated ? "out" : "", auc && auc.passed.includes(s) ? "passed" : ""].join(" ");
    const now = Object.values(p.score_now).reduce((a, b) => a + b, 0);
    return h("div.order-tile", {class: classes, dataset: {seat: s}},
      h("div.order-card", p.turn_order_card || "–"),
      h("div.order-who",
        h("div.order-name", disc(h, s), " ", ctx.seatLabel(s),
          seatInfo.agent === "human" ? h("span.online", {class: seatInfo.online ? "on" : "off",
            title: seatInfo.online ? tr("ui.online") : tr("ui.offline")}, "●") : h("span.badge", "AI")),
        h("div.order-sub",
          (m.artifact || m.sentinel) ? h("span.mod", {title: tr("zavandor.modifier_help")},
            `${m.artifact > 0 ? "+" : ""}${m.artifact} / ${m.sentinel > 0 ? "+" : ""}${m.sentinel}`) : null,
          p.eliminated ? h("span.badge.bad", tr("zavandor.eliminated")) : null,
          s === o.active_player ? h("span.badge.turn", tr("zavandor.their_turn")) : null,
          auc && auc.passed.includes(s) ? h("span.badge", tr("zavandor.passed")) : null)),
      h("div.order-vp", {title: tr("zavandor.vp_help", {now})}, h("b", String(p.vp)), h("small", tr("zavandor.vp"))));
  });
  return h("section.order-strip", {"aria-label": tr("zavandor.turn_order")},
    h("div.strip-label", tr("zavandor.turn_order"), helpButton(ctx, "zavandor.topic.turn_order")), ...tiles,
    h("div.sentinel-count", {title: tr("zavandor.sentinels_sold_help")},
      h("b", soldOf(o.sentinels_sold)), h("small", tr("zavandor.sentinels_sold"))));
}

// --- what to do now --------------------------------------------------------------------------------------------
function promptPanel(ctx, o, legal) {
  const {h} = ctx;
  const d = o.decision;
  if (o.over) {
    const best = Math.max(...o.players.map((p) => p.vp));
    return h("section.panel.prompt.over",
      h("h2", tr("zavandor.game_over")),
      h("p", tr(`zavandor.end_reason.${o.end_reason || "sentinels"}`)),
      h("ol.result", ...[...o.players].sort((a, b) => b.vp - a.vp).map((p) =>
        h("li", {class: o.winners.includes(p.seat) ? "winner" : ""}, disc(h, p.seat), " ", ctx.seatLabel(p.seat),
          ` — ${p.vp} ${tr("zavandor.vp")}`, o.winners.includes(p.seat) && p.vp === best ? " ★" : ""))),
      h("a.button", {href: `/api/games/${ctx.view.game_id}/record`, download: `zavandor-${ctx.view.game_id}.json`},
        tr("zavandor.download_record")));
  }
  const mine = ctx.seat !== null && d && d.seat === ctx.seat;
  const who = d ? ctx.seatLabel(d.seat) : "";
  let text;
  if (!mine) {
    text = tr(`zavandor.wait.${d.kind}`, {name: who, item: d.item ? itemName(d.item) : ""});
  } else if (d.kind === "turn") {
    text = tr("zavandor.do.turn");
  } else {
    const me = o.players[ctx.seat];
    text = tr(`zavandor.do.${d.kind}`, {item: d.item ? itemName(d.item) : "", n: d.advances || 1,
      count: me.hand_count, limit: me.hand_limit});
  }
  const focus = mine && !["bid", "apay", "discard"].includes(d.kind);
  const box = h(`section.panel.prompt${mine ? ".mine" : ""}${focus ? ".decision" : ""}`,
    {"aria-live": "polite", dataset: focus ? {decision: `${d.kind}-${d.kind === "turn" ? ctx.view.obs.round : ctx.view.seq}`} : {}},
    h("div.prompt-text", mine ? h("span.you", tr("zavandor.you")) : h("span.hourglass", ctx.icon("hourglass")), " ", text));
  if (mine && d.kind === "turn") {
    const groups = [["a", "zavandor.group.a"], ["b", "zavandor.group.b"], ["c", "zavandor.group.c"]];
    box.append(h("div.groups", ...groups.map(([g, key], i) => {
      const done = d.groups_done & (1 << i);
      const cls = d.group === g ? "now" : done ? "done" : "";
      return h("span.group", {class: cls, title: tr("zavandor.group_help")}, tr(key),
        d.group === g ? ` · ${tr("zavandor.group_now")}` : done ? " ✓" : "");
    }), helpButton(ctx, "zavandor.topic.turn")));
    if (legal.has("end")) {
      box.append(h("div.row", h("button.primary.end-turn", {disabled: ctx.busy, onclick: () => endTurn(ctx)},
        tr("zavandor.end_turn"))));
    }
  }
  if (mine && d.kind === "free") {
    box.append(h("div.actions", ...TRACKS.filter((tk) => legal.has(`advance ${tk}`)).map((tk) =>
      h("button", {disabled: ctx.busy, onclick: () => ctx.act(`advance ${tk}`)}, tr(`zavandor.track.${tk}.name`))),
    legal.has("skip") ? h("button.ghost", {disabled: ctx.busy, onclick: () => ctx.act("skip")}, tr("zavandor.skip")) : null));
  }
  if (mine && d.kind === "ftoken") {
    box.append(h("div.actions", ...[20, 25, 30, 35, 40].filter((p) => legal.has(`token ${p}`)).map((p) =>
      h("button.token-btn", {disabled: ctx.busy, onclick: () => ctx.act(`token ${p}`)}, tr("zavandor.take_token", {n: p}))),
    legal.has("skip") ? h("button.ghost", {disabled: ctx.busy, onclick: () => ctx.act("skip")}, tr("zavandor.skip")) : null));
  }
  if (mine && d.kind === "lose") {
    box.append(h("div.actions", ...GEMS.filter((g) => legal.has(`lose ${g}`)).map((g) =>
      h("button", {disabled: ctx.busy, onclick: () => ctx.act(`lose ${g}`)}, gemIcon(h, g), " ",
        tr("zavandor.lose_gem", {gem: tr(`zavandor.gem.${g}.name`)})))));
  }
  return box;
}

// ending the turn (the page asks first over the hand limit: `harms`)
function endTurn(ctx) {
  ctx.act("end");
}

// the page's question before an action that harms the acting seat (web/static/confirm.js):
// - ending the turn over the hand limit: in phase 4 the surplus must be discarded (rules 8.1);
// - a bid above what the seat can pay: the curse of the 9 Sages eliminates it (rules 7.5).
export function harms(view, text, ctx) {
  const o = gameView(view.obs);
  const me = o && o.players ? o.players[ctx.seat] : null;
  if (!me) return null;
  if (text === "end" && me.hand_count > me.hand_limit) {
    return {title: tr("zavandor.hand_limit_title"), text: tr("zavandor.end_over_limit", {count: me.hand_count, limit: me.hand_limit}),
      ok: tr("zavandor.end_anyway")};
  }
  if (text.startsWith("bid ")) {
    const b = Number(text.slice(4));
    const bids = (o.legal_actions || []).filter((x) => x.startsWith("bid ")).map((x) => Number(x.slice(4)));
    const hi = bids.length ? Math.max(...bids) : null;
    if (hi === null || b > hi) {
      return {title: tr("zavandor.curse_title"), text: hi === null ? tr("zavandor.curse_warning_none", {n: b})
        : tr("zavandor.curse_warning", {n: b, max: hi}), ok: tr("zavandor.bid_anyway")};
    }
  }
  return null;
}

// opening an auction first pays the open purchases the default way (7.6): say so, not silently
async function openAuction(ctx, o, item) {
  const tab = o.tab;
  const need = tab && tab.seat === ctx.seat ? Math.max(0, tab.owed - tab.credit) : 0;
  if (need > 0) {
    const pay = ctx.view.hints && ctx.view.hints.pay && ctx.view.hints.pay.text;
    const ok = await ctx.confirm(tr("zavandor.open_auction"),
      tr("zavandor.auction_pays_tab", {need, items: pay ? pay.slice(4) : "—"}), tr("zavandor.open_auction"));
    if (!ok) return;
  }
  ctx.act(`auction ${item}`);
}

// --- auction ------------------------------------------------------------------------------------------------------
function auctionPanel(ctx, o, legal) {
  const {h} = ctx;
  const a = o.auction;
  if (!a) return null;
  const mine = ctx.seat !== null && o.decision && o.decision.kind === "bid" && o.decision.seat === ctx.seat;
  const bids = [...legal].filter((x) => x.startsWith("bid ")).map((x) => Number(x.slice(4)));
  const lo = a.high_bid === null ? a.min_bid : a.high_bid + 1;
  const hi = bids.length ? Math.max(...bids) : null;
  const stillIn = o.turn_order.filter((s) => !a.passed.includes(s) && !o.players[s].eliminated);
  const box = h(`section.panel.auction${mine ? ".decision" : ""}`, {"aria-label": tr("zavandor.auction"),
    dataset: mine ? {decision: `bid-${a.item}`} : {}},
    h("h2", tr("zavandor.auction"), ": ", itemName(a.item), helpButton(ctx, ART[a.item] ? `zavandor.art.${a.item}` : `zavandor.sent.${a.item}`)),
    h("div.auction-facts",
      h("div", h("small", tr("zavandor.min_bid")), h("b", String(a.min_bid))),
      h("div", h("small", tr("zavandor.high_bid")), h("b.high", a.high_bid === null ? "—" : String(a.high_bid))),
      h("div", h("small", tr("zavandor.high_bidder")), h("b", a.high_bidder === null ? "—" : ctx.seatLabel(a.high_bidder))),
      ctx.seat !== null && a.price_for[String(ctx.seat)] !== undefined ? h("div", h("small", tr("zavandor.your_price_now")),
        h("b", String(a.price_for[String(ctx.seat)]))) : null),
    h("div.bidders", h("small", tr("zavandor.bidders")), " ",
      ...o.turn_order.map((s) => h("span.bidder", {class: a.passed.includes(s) ? "out" : (s === a.high_bidder ? "lead" : "")},
        disc(h, s), " ", ctx.seatLabel(s), a.passed.includes(s) ? ` (${tr("zavandor.passed")})` : ""))),
    h("p.muted.small", tr("zavandor.auction_note", {n: stillIn.length})));
  if (mine) {
    const key = `bid-${ctx.view.seq}`;
    if (ctx.ui.bidKey !== key) { ctx.ui.bidKey = key; ctx.ui.bid = lo; }
    const offset = (a.price_for[String(ctx.seat)] ?? 0) - (a.high_bid ?? a.min_bid);
    const input = h("input.bid-input", {type: "number", min: lo, step: 1, value: ctx.ui.bid, "aria-label": tr("zavandor.your_bid"),
      oninput: (e) => { ctx.ui.bid = Number(e.target.value); update(); }});
    const priceLine = h("span.price-line");
    const bidBtn = h("button.primary.bid", {onclick: () => placeBid()});
    const update = () => {
      const b = Number(ctx.ui.bid);
      const price = Math.max(0, b + offset);
      const curse = hi === null || b > hi;
      priceLine.textContent = tr("zavandor.you_would_pay", {price});
      priceLine.className = `price-line${curse ? " curse" : ""}`;
      bidBtn.textContent = tr("zavandor.bid_n", {n: b});
      bidBtn.disabled = ctx.busy || !(b >= lo) || !Number.isInteger(b);
    };
    const placeBid = () => ctx.act(`bid ${Number(ctx.ui.bid)}`);     // over `hi`: the page asks (harms)
    const step = (n) => h("button.small", {onclick: () => { ctx.ui.bid = Math.max(lo, Number(ctx.ui.bid) + n); input.value = ctx.ui.bid; update(); }},
      n > 0 ? `+${n}` : String(n));
    update();
    box.append(h("div.bid-controls",
      step(-1), input, step(1), step(5), step(10),
      h("button.small", {onclick: () => { ctx.ui.bid = lo; input.value = lo; update(); }}, tr("zavandor.lowest")),
      hi !== null ? h("button.small", {onclick: () => { ctx.ui.bid = hi; input.value = hi; update(); }}, tr("zavandor.highest_safe", {n: hi})) : null,
      bidBtn,
      legal.has("pass") ? h("button.pass", {disabled: ctx.busy, onclick: () => ctx.act("pass")}, tr("zavandor.pass")) : null),
    priceLine,
    h("p.muted.small", hi === null ? tr("zavandor.cannot_afford") : tr("zavandor.safe_range", {lo, hi})));
  }
  return box;
}

// --- paying and discarding: pick cards, concentrated cards and dust --------------------------------------------------
function chooser(ctx, o, me, mode, hint, legal) {
  const {h} = ctx;
  const key = `${mode}-${ctx.view.seq}`;
  const cards = me.card_values || [];
  if (ctx.ui.selKey !== key) {
    ctx.ui.selKey = key;
    const used = new Set();
    const pick = new Set();
    for (const [v, c] of (hint && hint.cards) || []) {
      const i = cards.findIndex(([cv, cc], j) => cv === v && cc === c && !used.has(j));
      if (i >= 0) { used.add(i); pick.add(i); }
    }
    ctx.ui.sel = {cards: pick, conc: {...((hint && hint.concentrated) || {})}, dust: (hint && hint.dust) || 0,
      engine: Boolean(hint && hint.text)};
  }
  const sel = ctx.ui.sel;
  const box = h(`div.chooser.${mode}`);
  const redraw = () => box.replaceWith(chooser(ctx, o, me, mode, hint, legal));
  const cardRow = h("div.hand-row", ...cards.map(([v, c], i) => energyCard(h, v, c, {selected: sel.cards.has(i),
    onclick: () => { if (sel.cards.has(i)) sel.cards.delete(i); else sel.cards.add(i); sel.engine = false; redraw(); }})));
  const concRow = h("div.hand-row");
  for (const c of COLOURS) {
    for (let k = 0; k < me.concentrated[c]; k++) {
      const on = k < (sel.conc[c] || 0);
      concRow.append(concCard(h, c, {selected: on, onclick: () => {
        sel.conc[c] = on ? (sel.conc[c] || 1) - 1 : (sel.conc[c] || 0) + 1; sel.engine = false; redraw(); }}));
    }
  }
  const dustInput = h("input.dust-input", {type: "number", min: 0, max: me.dust, value: sel.dust, "aria-label": tr("zavandor.dust"),
    onchange: (e) => { sel.dust = Math.max(0, Math.min(me.dust, Number(e.target.value) || 0)); sel.engine = false; redraw(); }});
  const cardValue = [...sel.cards].reduce((s, i) => s + cards[i][0], 0);
  const concValue = COLOURS.reduce((s, c) => s + (sel.conc[c] || 0) * CONC[c], 0);
  const total = cardValue + concValue + Number(sel.dust);
  const words = [...[...sel.cards].map((i) => `${cards[i][0]}${LETTER[cards[i][1]]}`),
    ...COLOURS.flatMap((c) => Array(sel.conc[c] || 0).fill(`c${CONC[c]}`)), ...(sel.dust ? [`d${sel.dust}`] : [])];
  let status;
  let ok;
  let text;
  if (mode === "pay") {
    const need = hint.need;
    const change = total - need;
    ok = total >= need && representable(Number(sel.dust)) && representable(me.dust - Number(sel.dust));
    status = total >= need ? tr("zavandor.pay_status", {total, need, change}) : tr("zavandor.pay_short", {total, need});
    text = sel.engine && hint.text ? "pay" : `pay ${words.join(" ")}`;
  } else {
    const leftCards = cards.length - sel.cards.size;
    const leftConc = COLOURS.reduce((s, c) => s + me.concentrated[c] - (sel.conc[c] || 0), 0);
    const units = leftCards + 3 * leftConc + dustUnits(me.dust - Number(sel.dust));
    ok = units <= me.hand_limit && representable(me.dust - Number(sel.dust));
    status = tr("zavandor.discard_status", {units, limit: me.hand_limit, total});
    text = sel.engine && hint && hint.text ? "discard" : (words.length ? `discard ${words.join(" ")}` : "discard");
  }
  box.append(
    h("p.small.muted", tr(mode === "pay" ? "zavandor.pay_pick" : "zavandor.discard_pick")),
    cardRow, concRow,
    h("div.dust-row", dustChip(h, me.dust), " ", tr("zavandor.dust_to_use"), " ", dustInput),
    h("div.chooser-status", {class: ok ? "ok" : "bad"}, status),
    h("div.row",
      h("button.primary.do-pay", {disabled: ctx.busy || !ok, onclick: () => ctx.act(text)},
        mode === "pay" ? tr("zavandor.pay_selected") : tr("zavandor.discard_selected")),
      hint && hint.text ? h("button.ghost", {onclick: () => { ctx.ui.selKey = null; redraw(); }}, tr("zavandor.engine_choice"))
        : h("button.engine-direct", {disabled: ctx.busy || !legal.has(mode), onclick: () => ctx.act(mode)}, tr("zavandor.engine_direct"))));
  return box;
}

function payPanel(ctx, o, me, legal) {
  const {h} = ctx;
  if (!o.tab || o.tab.seat !== ctx.seat) return null;
  const hint = (ctx.view.hints && ctx.view.hints.pay) || {need: o.tab.owed - o.tab.credit};
  const apay = o.decision && o.decision.kind === "apay";
  const box = h(`section.panel.pay${apay ? ".mine.decision" : ""}`, {dataset: apay ? {decision: `apay-${o.decision.item}`} : {}},
    h("h2", apay ? tr("zavandor.pay_for", {item: itemName(o.decision.item)}) : tr("zavandor.open_purchases"), helpButton(ctx, "zavandor.topic.payment")),
    h("div.tab-line", tr("zavandor.tab_line", {owed: o.tab.owed, credit: o.tab.credit, need: Math.max(0, o.tab.owed - o.tab.credit)})));
  if (legal.has("pay") && hint.need > 0) box.append(chooser(ctx, o, me, "pay", hint, legal));
  else if (legal.has("pay")) box.append(h("div.row", h("button.primary.do-pay", {disabled: ctx.busy, onclick: () => ctx.act("pay")}, tr("zavandor.collect"))));
  const sells = [];
  for (const g of GEMS) {
    if (legal.has(`sell ${g}`)) sells.push(h("button.small", {disabled: ctx.busy, onclick: () => ctx.act(`sell ${g}`)}, gemIcon(h, g), " ", tr("zavandor.sell_inactive_n", {v: me.sale_values[g]})));
    if (legal.has(`sell active ${g}`)) sells.push(h("button.small", {disabled: ctx.busy, onclick: () => ctx.act(`sell active ${g}`)}, gemIcon(h, g), " ", tr("zavandor.sell_active_n", {v: me.sale_values[g]})));
  }
  if (apay && sells.length) box.append(h("div.sell-row", h("small", tr("zavandor.sell_to_pay")), ...sells));
  if (!legal.has("pay") && apay) box.append(h("p.bad", tr("zavandor.must_sell")));
  return box;
}

function discardPanel(ctx, o, me, legal) {
  const {h} = ctx;
  if (!legal.has("discard")) return null;
  const hint = (ctx.view.hints && ctx.view.hints.discard) || {};
  return h("section.panel.discard.mine.decision", {dataset: {decision: "discard"}},
    h("h2", tr("zavandor.hand_limit_title"), helpButton(ctx, "zavandor.topic.hand_limit")),
    h("p", tr("zavandor.hand_limit_line", {count: me.hand_count, limit: me.hand_limit})),
    chooser(ctx, o, me, "discard", hint, legal));
}

// --- a player's board ----------------------------------------------------------------------------------------------
function handPanel(ctx, p, own) {
  const {h} = ctx;
  const cards = own ? (p.card_values || []).map(([v, c]) => energyCard(h, v, c)) :
    COLOURS.filter((c) => p.cards[c]).map((c) => cardBack(h, c, p.cards[c]));
  const conc = COLOURS.flatMap((c) => Array(p.concentrated[c]).fill(0).map(() => concCard(h, c)));
  const under = p.under_card;
  const underN = COLOURS.reduce((s, c) => s + under.cards[c], 0);
  const b = p.card_value_bounds;
  return h("div.hand",
    h("div.hand-row", cards.length ? cards : h("span.muted.small", tr("zavandor.no_cards")), conc, dustChip(h, p.dust)),
    h("div.hand-facts",
      h("span", {class: p.hand_count > p.hand_limit ? "over" : "", title: tr("zavandor.hand_count_help")},
        tr("zavandor.hand_count", {count: p.hand_count, limit: p.hand_limit})),
      own && p.energy !== undefined ? h("span", {title: tr("zavandor.energy_help")}, tr("zavandor.energy", {n: p.energy})) : null,
      own && p.capacity !== undefined ? h("span", {title: tr("zavandor.capacity_help")}, tr("zavandor.capacity", {n: p.capacity})) : null,
      !own && b.max ? h("span.muted", {title: tr("zavandor.bounds_help")}, tr("zavandor.bounds", {min: b.min, avg: b.avg, max: b.max})) : null),
    (underN || under.dust) ? h("div.under", {title: tr("zavandor.under_help")}, tr("zavandor.under_card"), ": ",
      own && p.under_card_values ? p.under_card_values.map(([v, c]) => energyCard(h, v, c)) :
        COLOURS.filter((c) => under.cards[c]).map((c) => cardBack(h, c, under.cards[c])),
      under.dust ? dustChip(h, under.dust) : null) : null);
}

function gemsPanel(ctx, p, own, legal) {
  const {h} = ctx;
  const slots = [];
  for (const g of GEMS) for (let k = 0; k < p.gems_active[g]; k++) slots.push(h("span.slot.filled", gemIcon(h, g)));
  while (slots.length < p.slots) slots.push(h("span.slot", {title: tr("zavandor.free_slot")}));
  const inactive = GEMS.flatMap((g) => Array(p.gems_inactive[g]).fill(0).map(() => gemIcon(h, g, ".inactive")));
  const box = h("div.gems-area",
    h("div.spiral", h("small", tr("zavandor.spiral"), helpButton(ctx, "zavandor.topic.gems")), h("div.slots", ...slots)),
    h("div.pentagon", h("small", tr("zavandor.pentagon")), h("div.slots", inactive.length ? inactive : h("span.muted.small", "—"))));
  if (!own) return box;
  const rows = GEMS.map((g) => {
    const acts = [];
    const btn = (text, label, cls = "") => legal.has(text) ?
      acts.push(h(`button.small${cls}`, {disabled: ctx.busy, onclick: () => ctx.act(text), dataset: {action: text}}, label)) : null;
    btn(`buy ${g}`, tr("zavandor.buy"), ".buy");
    btn(`buy ${g} inactive`, tr("zavandor.buy_inactive"));
    btn(`activate ${g}`, tr("zavandor.activate"));
    btn(`deactivate ${g}`, tr("zavandor.deactivate"));
    btn(`sell ${g}`, tr("zavandor.sell"));
    btn(`sell active ${g}`, tr("zavandor.sell_active"));
    return h("tr", {dataset: {gem: g}},
      h("td.gem-name", gemIcon(h, g), " ", tr(`zavandor.gem.${g}.name`), helpButton(ctx, `zavandor.gem.${g}`)),
      h("td.num", {title: tr("zavandor.cost_help")}, String(p.gem_costs[g])),
      h("td.num", {title: tr("zavandor.sale_help")}, String(p.sale_values[g])),
      h("td.num", String(GEM_VP[g])),
      h("td.num", `${p.gems_active[g]} / ${p.gems_inactive[g]}`),
      h("td.gem-actions", acts));
  });
  box.append(h("table.gem-table",
    h("tr", h("th", tr("zavandor.gem")), h("th", tr("zavandor.cost")), h("th", tr("zavandor.sale")), h("th", tr("zavandor.vp")),
      h("th", tr("zavandor.active_inactive")), h("th", "")), ...rows));
  return box;
}

function knowledgePanel(ctx, p, own, legal) {
  const {h} = ctx;
  const rows = TRACKS.map((tk) => {
    const lv = p.knowledge[tk];
    const boxes = [1, 2, 3, 4].map((l) => h("span.level", {class: l <= lv ? "on" : "", title: tr("zavandor.level_cost", {l, c: TRACK_COST[tk][l - 1]})},
      own ? String(TRACK_COST[tk][l - 1]) : String(l)));
    const adv = `advance ${tk}`;
    return h("tr", {dataset: {track: tk}},
      h("td.track-name", tr(`zavandor.track.${tk}.name`), helpButton(ctx, `zavandor.track.${tk}`)),
      h("td.levels", ...boxes),
      own ? h("td", legal.has(adv) && (!ctx.view.obs.zavandor.decision || ctx.view.obs.zavandor.decision.kind === "turn") ?
        h("button.small", {disabled: ctx.busy, onclick: () => ctx.act(adv)}, tr("zavandor.advance_cost", {c: TRACK_COST[tk][lv]})) : null) : null);
  });
  const tokens = [20, 25, 30, 35, 40].map((price) => {
    const left = p.tokens_left.includes(price);
    const can = own && legal.has(`token ${price}`) && ctx.view.obs.zavandor.decision && ctx.view.obs.zavandor.decision.kind === "turn";
    return can ? h("button.token.buyable", {disabled: ctx.busy, onclick: () => ctx.act(`token ${price}`), title: tr("zavandor.buy_token", {n: price})}, String(price)) :
      h("span.token", {class: left ? "" : "used", title: left ? tr("zavandor.token_left") : tr("zavandor.token_bought")}, String(price));
  });
  return h("div.knowledge",
    h("table.tracks", ...rows),
    h("div.tokens", h("small", tr("zavandor.tokens"), helpButton(ctx, "zavandor.topic.knowledge")), ...tokens,
      h("span.pentagon-tokens", {title: tr("zavandor.pentagon_tokens_help")}, tr("zavandor.pentagon_tokens", {n: p.pentagon_tokens})),
      p.paid_advance_used ? h("span.badge", tr("zavandor.advanced_this_round")) : null));
}

function ownedPanel(ctx, p) {
  const {h} = ctx;
  const arts = Object.entries(p.artifacts).map(([k, n]) => h("span.chip.art", {title: tr(`zavandor.art.${k}.short`),
    onclick: () => ctx.help(`zavandor.art.${k}`)}, itemName(k), n > 1 ? ` ×${n}` : ""));
  const sents = p.sentinels.map((s) => h("span.chip.sent", {title: tr(`zavandor.sent.${s}.short`), onclick: () => ctx.help(`zavandor.sent.${s}`)}, itemName(s)));
  return h("div.owned", arts.length || sents.length ? [...arts, ...sents] : h("span.muted.small", tr("zavandor.nothing_owned")));
}

function board(ctx, o, p, own, legal) {
  const {h} = ctx;
  const s = p.score_now;
  return h(`section.panel.board${own ? ".own" : ".other"}${p.eliminated ? ".out" : ""}`, {dataset: {seat: p.seat}},
    h("div.board-head", disc(h, p.seat), h("h2", own ? tr("zavandor.your_board", {name: ctx.seatLabel(p.seat)}) : ctx.seatLabel(p.seat)),
      h("span.char", {title: tr(`zavandor.char.${p.character}.help`)}, tr(`zavandor.char.${p.character}`)),
      h("span.card-no", p.turn_order_card || ""),
      h("span.score", {title: tr("zavandor.score_now_help")}, tr("zavandor.score_line", {vp: p.vp, now: s.gems + s.knowledge + s.artifacts + s.sentinels}))),
    handPanel(ctx, p, own),
    gemsPanel(ctx, p, own, legal),
    knowledgePanel(ctx, p, own, legal),
    ownedPanel(ctx, p));
}

// --- the offer: artifacts, sentinels, supplies ---------------------------------------------------------------------
function market(ctx, o, legal) {
  const {h} = ctx;
  const me = ctx.seat !== null ? o.players[ctx.seat] : null;
  const myTurn = o.decision && o.decision.kind === "turn" && o.decision.seat === ctx.seat;
  const seen = new Set();
  const arts = o.display.map((k) => {
    const [deck, min, vp] = ART[k];
    const first = !seen.has(k);
    seen.add(k);
    const can = first && myTurn && legal.has(`auction ${k}`);
    return h("div.art-card", {dataset: {item: k}},
      h("div.art-head", h("span.deck", deck), h("b", itemName(k)), helpButton(ctx, `zavandor.art.${k}`)),
      h("div.art-effect", tr(`zavandor.art.${k}.short`)),
      h("div.art-foot",
        h("span", {title: tr("zavandor.min_bid")}, tr("zavandor.min_short", {n: min})),
        h("span.vp", tr("zavandor.vp_n", {n: vp})),
        me && me.prices_at_min[k] !== undefined ? h("span.yourprice", {title: tr("zavandor.price_at_min_help")}, tr("zavandor.you_pay", {n: me.prices_at_min[k]})) : null),
      can ? h("button.small.primary.open-auction", {disabled: ctx.busy, onclick: () => openAuction(ctx, o, k)}, tr("zavandor.open_auction")) : null);
  });
  const owners = {};
  for (const p of o.players) for (const s of p.sentinels) owners[s] = p.seat;
  const sents = SENTINELS.map((s) => {
    const avail = o.sentinels_available.includes(s);
    const can = avail && myTurn && legal.has(`auction ${s}`);
    return h("div.sent-tile", {class: avail ? "" : "sold", dataset: {item: s}},
      h("div.art-head", h("b", itemName(s)), helpButton(ctx, `zavandor.sent.${s}`)),
      h("div.art-effect", tr(`zavandor.sent.${s}.short`)),
      avail ? null : h("div.owner", owners[s] !== undefined ? [disc(h, owners[s]), " ", ctx.seatLabel(owners[s])] : tr("zavandor.removed")),
      can ? h("button.small.primary.open-auction", {disabled: ctx.busy, onclick: () => openAuction(ctx, o, s)}, tr("zavandor.open_auction")) : null);
  });
  return h("section.panel.market",
    h("h2", tr("zavandor.artifacts_on_offer"), helpButton(ctx, "zavandor.topic.artifacts")),
    h("div.art-row", arts.length ? arts : h("p.muted", tr("zavandor.no_artifacts"))),
    h("div.stack-line", tr("zavandor.artifact_stack"), ": ",
      ...Object.entries(o.artifact_stack).map(([L, n]) => h("span.stack", `${L} ${n}`))),
    h("h2", tr("zavandor.sentinels"), helpButton(ctx, "zavandor.topic.sentinels"),
      h("small.sub", me ? tr("zavandor.sentinel_price", {min: SENTINEL_MIN, you: me.prices_at_min.sentinel})
        : tr("zavandor.sentinel_min", {min: SENTINEL_MIN}))),
    h("div.sent-row", ...sents),
    h("div.supply",
      h("span", tr("zavandor.gem_supply"), ": ", ...GEMS.map((g) => h("span.supply-gem", gemIcon(h, g), String(o.gem_supply[g])))),
      h("span", tr("zavandor.decks"), ": ", ...COLOURS.map((c) => h("span.deck-count", {title: tr("zavandor.discards", {list: Object.entries(o.decks[c].discards).map(([v, n]) => `${v}×${n}`).join(" ") || "—"})},
        cardBack(h, c, 1), String(o.decks[c].cards))))));
}

function logPanel(ctx) {
  const {h} = ctx;
  const list = h("ol.log-list");
  let lastRound = null;
  for (const e of ctx.log.slice(-300)) {
    if (e.round !== lastRound && e.round !== null && e.round !== undefined) {
      list.append(h("li.round", tr("zavandor.round", {n: e.round})));
      lastRound = e.round;
    }
    list.append(h("li", {dataset: {seq: e.seq}}, h("span.seq", String(e.seq)), disc(h, e.seat), " ",
      h("b", ctx.seatLabel(e.seat)), " ", describe(e.text)));
  }
  const box = h("section.panel.log", h("h2", tr("ui.log")), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return box;
}

function allActions(ctx, legal) {
  const {h} = ctx;
  if (!legal.size) return null;
  return h("details.all-actions", h("summary", tr("ui.all_actions", {n: legal.size})),
    h("div.actions", ...[...legal].slice(0, 400).map((a) => h("button.small", {disabled: ctx.busy, onclick: () => {
      if (a.startsWith("bid ")) ctx.ui.bid = Number(a.slice(4));
      ctx.act(a);
    }, title: describe(a)}, a))));
}

// --- the page ----------------------------------------------------------------------------------------------------------
export function render(root, view, ctx) {
  tr = ctx.t;
  const {h} = ctx;
  const o = gameView(view.obs);
  const legal = new Set(o.legal_actions || []);
  if (ctx.busy) legal.clear();
  const me = ctx.seat !== null ? o.players[ctx.seat] : null;
  const left = h("div.zav-left",
    promptPanel(ctx, o, legal),
    auctionPanel(ctx, o, legal),
    me ? payPanel(ctx, o, me, legal) : null,
    me ? discardPanel(ctx, o, me, legal) : null,
    me ? board(ctx, o, me, true, legal) : null,
    market(ctx, o, legal),
    me ? allActions(ctx, legal) : null);
  const others = o.players.filter((p) => p.seat !== ctx.seat);
  const right = h("div.zav-right",
    h("div.others", ...others.map((p) => board(ctx, o, p, false, legal))),
    logPanel(ctx));
  root.classList.add("zav");
  if (ctx.busy) root.classList.add("busy");
  root.append(orderStrip(ctx, o), h("div.zav-grid", left, right));
}

// the guide's step (web/static/guide.js): the kind of the seat's decision (turn, bid, apay, discard, ...)
export function guide(view) {
  const d = gameView(view.obs).decision;
  return d ? d.kind : null;
}

export function rulesIntro(t) {
  return null && t;
}
