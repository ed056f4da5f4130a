// Shuluri Viadal in the browser: an SVG hex arena drawn from one seat's observation only.
// Every control plays one of the seat's legal action texts (obs.legal_actions); the server checks
// everything again. Hovering a field shows its zone and terrain, the line of fire from the selected
// character (computed here from the arena's fixed tables and the figures on the board, as the engine
// does, 20.1.10) and whether that character reaches it this step (view.hints.reach).

export const css = "/games/shuluri/board.css";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 15;                              // hex radius in px
const SQ3 = Math.sqrt(3);
const TEAM = ["#c0392b", "#2471a3", "#1e8449", "#8e44ad"];
const LETTERS = "abcd";
const ROLE_ORDER = ["gl", "wl", "xb", "d1", "d2"];
const ROLE_MARK = {gl: "G", wl: "W", xb: "X", d1: "1", d2: "2"};
const SPELL_TYPES = ["none", "curse", "poison", "lightning", "special"];

// --- the fixed tables (GET /api/static/shuluri) ------------------------------------------------------------
let S = null;                                // the static data
let FIELD = {};                              // "q,r" -> field record
let WALL = {};                               // "a|b" -> wall record (both orders)
let GATE_OF_FIELD = {};                      // "q,r" -> [gate ids]
let TRAP_AT = {};                            // "q,r" -> trap number
let SPELL = {};                              // key -> spell record
let TRAP = {};                               // number -> trap record

export function useTables(data) {
  S = data;
  FIELD = Object.fromEntries(data.fields.map((f) => [f.id, f]));
  WALL = {};
  for (const w of data.walls) { WALL[`${w.a}|${w.b}`] = w; WALL[`${w.b}|${w.a}`] = w; }
  GATE_OF_FIELD = {};
  for (const g of data.gates) for (const f of g.fields) (GATE_OF_FIELD[f] = GATE_OF_FIELD[f] || []).push(g.id);
  TRAP_AT = Object.fromEntries(data.trap_fields.map((f, i) => [f, i + 1]));
  SPELL = Object.fromEntries(data.spells.map((s) => [s.key, s]));
  TRAP = Object.fromEntries(data.traps.map((t) => [t.number, t]));
}

export async function setup(api) {
  useTables((await api("GET", "/api/static/shuluri")).data);
}

let tr = (k) => k;                           // ctx.t, set at each render

// --- geometry ------------------------------------------------------------------------------------------------
const qr = (id) => id.split(",").map(Number);
const fid = (q, r) => `${q},${r}`;
function centre(id) {
  const [q, r] = qr(id);
  return [SIZE * SQ3 * (q + r / 2), -SIZE * 1.5 * r];
}
function hexPoints(id) {
  const [cx, cy] = centre(id);
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i + 30);
    pts.push(`${(cx + SIZE * Math.cos(a)).toFixed(1)},${(cy + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}
const DELTAS = {e: [1, 0], ne: [0, 1], nw: [-1, 1], w: [-1, 0], sw: [0, -1], se: [1, -1]};
function step(id, dir) {
  const [q, r] = qr(id);
  const [dq, dr] = DELTAS[dir];
  return fid(q + dq, r + dr);
}
function hexDist(a, b) {
  const [qa, ra] = qr(a);
  const [qb, rb] = qr(b);
  const dq = qa - qb, dr = ra - rb;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}
function blockDist(a, b) {
  const [a1, b1] = FIELD[a].block;
  const [a2, b2] = FIELD[b].block;
  const da = a1 - a2, db = b1 - b2;
  return (Math.abs(da) + Math.abs(db) + Math.abs(da + db)) / 2;
}

// the rounded line between two fields with the spec's nudge (20.1.10)
function cubeRound(x, y, z) {
  let rx = Math.round(x), ry = Math.round(y), rz = Math.round(z);
  const dx = Math.abs(rx - x), dy = Math.abs(ry - y), dz = Math.abs(rz - z);
  if (dx > dy && dx > dz) rx = -ry - rz;
  else if (dy > dz) ry = -rx - rz;
  else rz = -rx - ry;
  return [rx, rz];
}
function hexLine(a, b) {
  const [qa, ra] = qr(a);
  const [qb, rb] = qr(b);
  const n = hexDist(a, b);
  if (n === 0) return [a];
  const e = S.line_nudge;
  const ax = qa + e[0], ay = -qa - ra + e[1], az = ra + e[2];
  const bx = qb + e[0], by = -qb - rb + e[1], bz = rb + e[2];
  const out = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const [q, r] = cubeRound(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t);
    out.push(fid(q, r));
  }
  return out;
}

// the line of fire from field a to field b as the engine counts it (C11.3, C11.4)
function lineOfFire(g, a, b, shooter, target, ignoreWalls) {
  const line = hexLine(a, b);
  const res = {line, blocked: null, B: 0, W: 0, L: 0, N: 0};
  if (line.some((f) => !FIELD[f])) { res.blocked = "rim"; return res; }
  const at = figuresAt(g);
  for (let i = 0; i + 1 < line.length; i++) {
    const u = line[i], v = line[i + 1];
    if (String(FIELD[u].block) !== String(FIELD[v].block)) res.B++;
    const w = WALL[`${u}|${v}`];
    if (!w || ignoreWalls) continue;
    if (w.gate && g.gates[w.gate].open) {
      const gate = S.gates.find((x) => x.id === w.gate);
      const body = gate.fields.some((f) => (at[f] || []).some((x) => !x.sneak && x.name !== shooter && x.name !== target));
      if (body) { res.blocked = "gate"; return res; }
      continue;
    }
    if (w.kind === "quarter") { res.blocked = "wall"; return res; }
    res.W++;
  }
  for (const f of line.slice(1, -1)) res.L += (at[f] || []).filter((x) => !x.sneak).length;
  res.N = Math.min(2, (at[b] || []).filter((x) => x.name !== target).length);
  return res;
}

// --- the observation -----------------------------------------------------------------------------------------
function game(view) { return view.obs.shuluri; }
function figuresAt(g) {
  if (g._at) return g._at;
  const at = {};
  for (const f of g.figures) if (f.alive && f.field) (at[f.field] = at[f.field] || []).push(f);
  Object.defineProperty(g, "_at", {value: at, enumerable: false});
  return at;
}
function figByName(g, name) { return g.figures.find((f) => f.name === name); }
function roleName(role, zombie) { return zombie ? tr("shuluri.zombie") : tr(`shuluri.role.${role}`); }
function figLabel(g, name) {
  const f = figByName(g, name);
  if (!f) return name;
  return `${roleName(f.role, f.zombie)} ${f.name}`;
}
function spellName(key) { return tr(`shuluri.spell.${key}`); }
function trapName(n) { return tr(`shuluri.trap.${n}`); }
function teamColour(seat) { return TEAM[seat % 4]; }

export function title(view, ctx) {
  if (ctx && ctx.t) tr = ctx.t;
  const o = view.obs;
  return `${tr("shuluri.title")} · ${tr("shuluri.round", {n: o.round || 0})}`;
}

export function seatTitle(view, seat, who, ctx) {
  if (ctx && ctx.t) tr = ctx.t;
  const g = game(view);
  const t = g && g.teams[seat];
  return t ? `${who} (${tr("shuluri.team", {letter: t.letter.toUpperCase()})})` : who;
}

// --- legal actions, parsed -----------------------------------------------------------------------------------
function parseLegal(texts) {
  const out = {all: texts, byFig: {}, other: []};
  for (const a of texts) {
    const w = a.split(" ");
    if (ROLE_ORDER.includes(w[0]) && w.length >= 2) (out.byFig[w[0]] = out.byFig[w[0]] || []).push(a);
    else out.other.push(a);
  }
  return out;
}
// the actions of a role that target a figure (attack, shoot, throw, cast, ranged trap)
function targetActions(legal, role, figName) {
  const mine = legal.byFig[role] || [];
  const out = mine.filter((a) => {
    const w = a.split(" ");
    return (["attack", "shoot", "javelin", "net"].includes(w[1]) && w[2] === figName) ||
      (w[1] === "cast" && w[3] === figName);
  });
  for (const a of legal.other) {
    const w = a.split(" ");
    if (w[0] === "trap" && w[2] === figName) out.push(a);
  }
  return out;
}

// --- action texts and events in words (the same catalog keys as the terminal's phrases.py) -------------------
const AMULETS = ["poison", "lightning", "curse"];
const RESIST_VALUES = [2, 3];
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const has = (k) => tr(k) !== k;
function roleWord(code) { return tr(`shuluri.role.${code}`); }
// 'bgl' -> 'Gladiator bgl', 'zbd1' -> 'Zombie zbd1' (the name stays: it is what the map and the log use)
function figWord(name) {
  if (!name) return "";
  if (name.startsWith("z") && name.length > 3) return tr("shuluri.term.fig", {role: tr("shuluri.zombie"), name});
  const code = name.slice(1);
  return ROLE_ORDER.includes(code) ? tr("shuluri.term.fig", {role: roleWord(code), name}) : name;
}
// a seat as the page names it (its player and team), else "seat n" counted from 1
let seatName = null;                         // ctx.seatLabel, set at each render
function seatWord(i) { return seatName ? seatName(Number(i)) : tr("shuluri.term.seat", {n: Number(i) + 1}); }
function dirWord(d) { return tr(`shuluri.dir.${d}`); }
function weaponWord(k) { return has(`shuluri.weapon.${k}`) ? tr(`shuluri.weapon.${k}`) : k; }
function halfWord(k) {
  k = Number(k);
  return tr("shuluri.half", {k: k + 1, q1: k % 4 + 1, q2: (k + 1) % 4 + 1});
}
export function endReason(reason) {
  if (!reason) return "";
  const key = `shuluri.end.${reason.replace(/ /g, "_")}`;
  return has(key) ? tr(key) : reason;
}
const fieldOrFig = (w) => (w.includes(",") ? w : figWord(w));

function figureAction(code, verb, rest) {
  const who = roleWord(code);
  switch (verb) {
    case "move": case "sneak": case "disengage": return tr(`shuluri.log.${verb}`, {who, dir: dirWord(rest[0])});
    case "attack": return tr(rest[1] ? `shuluri.log.attack_${rest[1]}` : "shuluri.log.attack", {who, target: figWord(rest[0])});
    case "shoot": case "javelin": case "net": case "order": return tr(`shuluri.log.${verb}`, {who, target: figWord(rest[0])});
    case "cast": {
      const spell = spellName(rest[0]);
      if (!rest[1]) return tr("shuluri.log.cast_self", {who, spell});
      if (rest[1].includes(",")) return tr("shuluri.log.cast_at", {who, spell, field: rest[1]});
      return tr("shuluri.log.cast", {who, spell, target: figWord(rest[1])});
    }
    case "open": case "close": return tr(`shuluri.log.${verb}`, {who, gate: rest[0]});
    case "wield": return tr("shuluri.log.wield", {who, weapon: weaponWord(rest[0])});
    case "cloud": return tr("shuluri.term.act.cloud", {who, k: rest[0], dir: dirWord(rest[1])});
    default: return rest.length ? null : tr(`shuluri.log.${verb}`, {who});
  }
}

function plainAction(w) {
  const head = w[0];
  if (ROLE_ORDER.includes(head) && w.length >= 2) return figureAction(head, w[1], w.slice(2));
  switch (head) {
    case "end": return tr("shuluri.end_step");
    case "pass": return w[1] ? tr("shuluri.pass_all") : tr("shuluri.pass");
    case "trap": return w[2] ? tr("shuluri.log.trap_on", {n: w[1], trap: trapName(w[1]), target: figWord(w[2])})
      : tr("shuluri.log.trap", {n: w[1], trap: trapName(w[1])});
    case "dodge": return tr("shuluri.term.act.dodge");
    case "no": return tr(`shuluri.term.act.no_${w[1]}`);
    case "push": case "shove": return tr(`shuluri.term.act.${head}`, {dir: dirWord(w[1])});
    case "effect": return tr("shuluri.term.act.effect", {choice: tr(`shuluri.choice.${w[1]}`)});
    case "chain": return w[1] === "stop" ? tr("shuluri.term.act.chain_stop") : tr("shuluri.term.act.chain", {target: figWord(w[1])});
    case "enemy": return tr("shuluri.term.act.enemy", {target: figWord(w[1])});
    case "order":
      if (w[1] === "guard" && !w[2].includes(",")) return tr("shuluri.log.order_guard_gate", {gate: w[2]});
      return tr(`shuluri.log.order_${w[1]}`, {field: w[2], target: fieldOrFig(w[2])});
    case "side": return halfWord(w[1]);
    case "first": return tr("shuluri.take_first");
    case "weapon": return tr("shuluri.starting_weapon", {w: weaponWord(w[1])});
    case "deploy": return tr("shuluri.term.act.deploy", {who: roleWord(w[1]), field: w[2]});
    case "name": return tr("shuluri.term.act.name", {who: w.slice(1).map(roleWord).join(", ")});
    case "traps": return tr("shuluri.term.act.traps", {roles: w.slice(1).map(roleWord).join(", ")});
    case "amulets": return tr("shuluri.term.act.amulets", {items: w.slice(1).map((r, i) =>
      tr("shuluri.term.to", {what: tr(`shuluri.amulet.${AMULETS[i]}`), who: roleWord(r)})).join("; ")});
    case "resist": return tr("shuluri.term.act.resist", {items: w.slice(1).map((r, i) =>
      tr("shuluri.term.to", {what: `ME ${RESIST_VALUES[i]}`, who: roleWord(r)})).join("; ")});
    case "vials": case "potions": return tr(`shuluri.term.act.${head}`, {roles: w.slice(1).map(roleWord).join(", ")});
    default: return null;
  }
}

// an action text in words ("wl cast acid 3,-2" -> "Warlock casts Acid Cloud at 3,-2"); for the board, the hint,
// the replay and the review (the pages call it without a game state: it needs none)
export function describe(text) {
  if (text === null || text === undefined) return tr("shuluri.secret_action");
  let out = null;
  try { out = plainAction(String(text).split(" ")); } catch { out = null; }
  return out ? cap(out) : String(text);
}

// an event argument in words, by its name (events.py's convention: a player is a 0-based seat index)
function argWords(name, v) {
  switch (name) {
    case "player": case "player2": return seatWord(v);
    case "players": return v.map(seatWord).join(", ");
    case "half": return String(v + 1);
    case "fig": case "target": case "zombie": return figWord(v);
    case "figs": return v.map(figWord).join(", ");
    case "spell": return spellName(v);
    case "trap": return `${v} (${trapName(v)})`;
    case "weapon": case "wield": return weaponWord(v);
    case "dir": return dirWord(v);
    case "amulet": return tr(`shuluri.amulet.${v}`);
    case "skill": return tr(`shuluri.skill.${v === "break" ? "weapon_break" : v}`);
    case "reason": return endReason(v);
    case "stat": return has(`shuluri.stat.${String(v).toLowerCase()}`) ? tr(`shuluri.stat.${String(v).toLowerCase()}`) : String(v);
    case "cards": return v.map(([c, r]) => tr("shuluri.term.to", {what: String(c), who: roleWord(r)})).join(", ");
    case "amulets": return v.map((r, i) => tr("shuluri.term.to", {what: tr(`shuluri.amulet.${AMULETS[i]}`), who: roleWord(r)})).join(", ");
    case "resist": return v.map((r, i) => tr("shuluri.term.to", {what: `ME ${RESIST_VALUES[i]}`, who: roleWord(r)})).join(", ");
    case "roles": return v.map(roleWord).join(", ");
    default: return String(v);
  }
}

// the observation's events in the reader's language, from event_data ([key, args] per English line)
function eventLines(g) {
  const lines = g.events || [];
  const data = g.event_data;
  if (!data || data.length !== lines.length) return lines.slice();
  return data.map(([key, args], i) => {
    const ck = `shuluri.event.${key}`;
    if (!has(ck)) return lines[i];
    const params = {};
    for (const [k, v] of Object.entries(args || {})) params[k] = argWords(k, v);
    const text = tr(ck, params);
    return text.includes("{") ? lines[i] : cap(text);
  });
}

// --- the SVG arena ---------------------------------------------------------------------------------------------
function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

function regionClass(f) {
  if (f.zone === "C") return "zone-c";
  return `zone-${f.zone.toLowerCase()} q${f.quarter % 2}`;
}

// what clicking a field does now (null: nothing): one legal action, or a choice among several
function fieldActions(ctx, g, legal, id) {
  const ui = ctx.ui;
  const d = g.decision;
  if (!d || d.seat !== ctx.seat) return [];
  if (d.kind === "deploy") return legal.all.filter((a) => a === `deploy ${deployRole(ctx, legal)} ${id}`);
  if (d.kind === "push" || d.kind === "shove") {
    const who = d.kind === "push" ? d.pusher : d.target;
    const f = figByName(g, who);
    return f ? legal.all.filter((a) => a.startsWith(`${d.kind} `) && step(f.field, a.split(" ")[1]) === id) : [];
  }
  if (d.kind === "order") return legal.all.filter((a) => a === `order goto ${id}` || a === `order guard ${id}`);
  if (d.kind !== "act") return [];
  if (ui.spell) {
    const sp = SPELL[ui.spell];
    if (sp && sp.target === "area") return legal.all.filter((a) => a === `wl cast ${ui.spell} ${id}`);
  }
  const sel = selectedFigure(ctx, g, legal);
  if (!sel) return [];
  const role = sel.role;
  const out = [];
  for (const a of legal.byFig[role] || []) {
    const w = a.split(" ");
    if (["move", "sneak", "disengage"].includes(w[1]) && step(sel.field, w[2]) === id) out.push(a);
    if (w[1] === "cloud") {
      const area = g.areas.filter((x) => x.spell === "acid" && x.caster === sel.name)[Number(w[2]) - 1];
      if (area && step(area.centre, w[3]) === id) out.push(a);
    }
  }
  // one click moves: the mode the player picked (sneak) if it is legal there, else a plain move
  if (out.length > 1) {
    const pref = out.find((a) => a.split(" ")[1] === (ui.mode || "move"));
    return [pref || out.find((a) => a.split(" ")[1] === "move") || out[0]];
  }
  return out;
}

function selectedFigure(ctx, g, legal) {
  const d = g.decision;
  if (!d || d.kind !== "act" || d.seat !== ctx.seat) return null;
  const mine = (g.step && g.step.named || []).map((n) => figByName(g, n)).filter((f) => f && f.seat === ctx.seat && legal.byFig[f.role]);
  if (!mine.length) return null;
  let f = mine.find((x) => x.name === ctx.ui.selected);
  if (!f) { f = mine[0]; ctx.ui.selected = f.name; }
  return f;
}

// --- zoom and pan (phones: hexes big enough to tap) -----------------------------------------------------------
const PHONE_ZOOM = 2.6;
const MAX_ZOOM = 4;
function ownGladiatorField(ctx, g) {
  const f = g.figures.find((x) => x.seat === ctx.seat && x.role === "gl" && !x.zombie && x.alive && x.field);
  return f ? f.field : null;
}
// the visible part of the arena: all of it at zoom 1, else a window around ui.centre (or the followed field)
function viewWindow(full, ui, follow) {
  const z = Math.max(1, Math.min(MAX_ZOOM, ui.zoom || 1));
  if (z === 1) return full;
  const w = full[2] / z, hgt = full[3] / z;
  const c = ui.centre || (follow ? centre(follow) : [full[0] + full[2] / 2, full[1] + full[3] / 2]);
  const x = Math.max(full[0], Math.min(full[0] + full[2] - w, c[0] - w / 2));
  const y = Math.max(full[1], Math.min(full[1] + full[3] - hgt, c[1] - hgt / 2));
  return [x, y, w, hgt];
}
function viewBox(full, ui, follow) { return viewWindow(full, ui, follow).map((x) => x.toFixed(1)).join(" "); }

// one finger drags the zoomed arena, two pinch it; a drag is not a click
function panAndPinch(svg, full, ui, follow) {
  const pts = new Map();
  let start = null;
  const win = () => viewWindow(full, ui, follow);
  const setCentre = (c) => { ui.centre = c; svg.setAttribute("viewBox", viewBox(full, ui, follow)); };
  svg.addEventListener("pointerdown", (e) => {
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    const w = win();
    start = {pts: new Map(pts), centre: [w[0] + w[2] / 2, w[1] + w[3] / 2], zoom: ui.zoom, moved: false};
  });
  svg.addEventListener("pointermove", (e) => {
    if (!start || !pts.has(e.pointerId)) return;
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    const scale = win()[2] / svg.getBoundingClientRect().width;     // svg units per screen pixel
    if (pts.size >= 2 && start.pts.size >= 2) {
      const [a, b] = [...pts.values()];
      const [a0, b0] = [...start.pts.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]), d0 = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) || 1;
      ui.zoom = Math.max(1, Math.min(MAX_ZOOM, start.zoom * d / d0));
      start.moved = true;
      setCentre(start.centre);
      svg.classList.toggle("zoomed", ui.zoom > 1);
      return;
    }
    const p0 = start.pts.get(e.pointerId);
    if (!p0 || ui.zoom <= 1) return;
    const dx = e.clientX - p0[0], dy = e.clientY - p0[1];
    if (!start.moved && Math.hypot(dx, dy) < 8) return;
    start.moved = true;
    setCentre([start.centre[0] - dx * scale, start.centre[1] - dy * scale]);
  });
  const end = (e) => {
    pts.delete(e.pointerId);
    if (start && start.moved) ui.dragged = true;
    if (!pts.size) start = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("click", (e) => {
    if (ui.dragged) { ui.dragged = false; e.stopPropagation(); e.preventDefault(); }
  }, true);
}

function zoomBar(ctx) {
  const {h} = ctx;
  const ui = ctx.ui;
  const set = (z) => { ui.zoom = Math.max(1, Math.min(MAX_ZOOM, z)); if (ui.zoom === 1) ui.centre = null; ctx.rerender(); };
  return h("div.zoom-bar",
    h("button.small.zoom-out", {title: tr("shuluri.zoom_out"), "aria-label": tr("shuluri.zoom_out"), disabled: ui.zoom <= 1,
      onclick: () => set(ui.zoom <= 1.5 ? 1 : ui.zoom / 1.5)}, "−"),
    h("button.small.zoom-in", {title: tr("shuluri.zoom_in"), "aria-label": tr("shuluri.zoom_in"), disabled: ui.zoom >= MAX_ZOOM,
      onclick: () => set((ui.zoom || 1) * 1.5)}, "+"),
    h("button.small.zoom-follow", {title: tr("shuluri.zoom_follow"), "aria-label": tr("shuluri.zoom_follow"),
      onclick: () => { ui.centre = null; if (ui.zoom <= 1) ui.zoom = PHONE_ZOOM; ctx.rerender(); }}, "◎"));
}

// what the colours and marks of the arena mean
function legend(ctx) {
  const {h} = ctx;
  const sw = (cls) => h(`span.lg-swatch.${cls}`);
  const item = (mark, key) => h("li", mark, " ", tr(`shuluri.legend.${key}`));
  return h("details.legend", {open: ctx.ui.legendOpen || null, ontoggle: (e) => { ctx.ui.legendOpen = e.target.open; }},
    h("summary", tr("shuluri.legend")),
    h("ul",
      item(sw("legal"), "move"), item(sw("reach"), "reach"), item(h("span.lg-ring.target"), "target"),
      item(h("span.lg-ring.selected"), "selected"), item(h("span.lg-ring.acting"), "acting"),
      item(h("span.lg-mark.trapnum", "7"), "trap"), item(h("span.lg-mark", "⚔"), "heap"), item(h("span.lg-mark", "✝"), "corpse"),
      item(h("span.lg-line.gate-closed"), "gate_closed"), item(h("span.lg-line.gate-open"), "gate_open"),
      item(sw("zone-c"), "zone_c"), item(sw("zone-r1"), "zone_r1"), item(sw("zone-r2"), "zone_r2"),
      h("li", ["gl", "wl", "xb", "d1", "d2"].map((r) => `${ROLE_MARK[r]} ${roleWord(r)}`).join(" · "), ` · Z ${tr("shuluri.zombie")}`)));
}

function arena(ctx, g, legal) {
  const {h} = ctx;
  const ui = ctx.ui;
  const at = figuresAt(g);
  const sel = selectedFigure(ctx, g, legal);
  const reach = (sel && ctx.view.hints && ctx.view.hints.reach && ctx.view.hints.reach[sel.name]) || {};
  const d = g.decision;
  const mine = d && d.seat === ctx.seat;
  const xs = S.fields.map((f) => centre(f.id)[0]);
  const ys = S.fields.map((f) => centre(f.id)[1]);
  const pad = SIZE * 1.6;
  const full = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad,
    Math.max(...ys) - Math.min(...ys) + 2 * pad];
  // a phone starts zoomed in (hexes big enough to tap), following the selected character
  if (ui.zoom === undefined) ui.zoom = window.innerWidth < 700 ? PHONE_ZOOM : 1;
  const follow = (sel && sel.field) || ownGladiatorField(ctx, g);
  if (ui.followed !== follow) { ui.followed = follow; ui.centre = null; }
  const svg = svgEl("svg", {class: `arena${ui.zoom > 1 ? " zoomed" : ""}`, viewBox: viewBox(full, ui, follow), role: "img",
    "aria-label": tr("shuluri.arena")});
  panAndPinch(svg, full, ui, follow);
  const heapOwner = {};
  for (const t of g.teams) for (const hp of t.heaps) heapOwner[hp] = t.seat;
  const areaAt = {};
  for (const a of g.areas) for (const f of a.fields) (areaAt[f] = areaAt[f] || []).push(a.spell);
  const corpses = new Set(g.corpses.map((c) => c.field));
  // the targets of the selected figure (or of the chosen spell)
  const targetNames = new Set();
  if (mine && d.kind === "act" && sel) {
    for (const a of legal.byFig[sel.role] || []) {
      const w = a.split(" ");
      if (["attack", "shoot", "javelin", "net"].includes(w[1])) targetNames.add(w[2]);
      if (w[1] === "cast" && w[3] && !w[3].includes(",") && (!ui.spell || ui.spell === w[2])) targetNames.add(w[3]);
    }
    for (const a of legal.other) if (a.startsWith("trap ") && a.split(" ")[2]) targetNames.add(a.split(" ")[2]);
  }
  if (mine && ["chain", "enemy"].includes(d.kind)) for (const a of legal.all) if (a.split(" ")[1] !== "stop") targetNames.add(a.split(" ")[1]);
  if (mine && d.kind === "order") for (const a of legal.all) if (a.startsWith("order attack ")) targetNames.add(a.split(" ")[2]);
  const fieldsLayer = svgEl("g", {class: "fields"});
  const fieldActs = {};
  const marks = svgEl("g", {class: "marks"});
  for (const f of S.fields) {
    const acts = fieldActions(ctx, g, legal, f.id);
    fieldActs[f.id] = acts;
    const cls = ["hex", regionClass(f)];
    if (reach[f.id] !== undefined && f.id !== (sel && sel.field)) cls.push("reach");
    if (acts.length) cls.push("legal");
    for (const a of areaAt[f.id] || []) cls.push(`area-${a}`);
    if (ui.hover === f.id) cls.push("hover");
    const poly = svgEl("polygon", {points: hexPoints(f.id), class: cls.join(" "), "data-field": f.id,
      "data-action": acts.length === 1 ? acts[0] : null,
      onmouseenter: () => { ui.hover = f.id; ui.pinned = false; showHover(ctx, g, f.id, sel); },
      onclick: () => {
        if (acts.length === 1 && !ctx.busy) { ctx.act(acts[0]); return; }
        ui.hover = f.id; ui.pinned = true; showHover(ctx, g, f.id, sel);   // a tap shows the field (phones have no hover)
      }});
    fieldsLayer.append(poly);
    const [cx, cy] = centre(f.id);
    if (TRAP_AT[f.id] && !(at[f.id] || []).length) {
      marks.append(svgEl("text", {x: cx, y: cy + 4, class: "trapnum"}, String(TRAP_AT[f.id])));
    }
    if (heapOwner[f.id] !== undefined || S.heaps.includes(f.id)) {
      marks.append(svgEl("text", {x: cx, y: cy + 4, class: "heap",
        fill: heapOwner[f.id] !== undefined ? teamColour(heapOwner[f.id]) : "#7a6a4f"}, "⚔"));
    }
    if (corpses.has(f.id)) marks.append(svgEl("text", {x: cx + 6, y: cy - 4, class: "corpse"}, "✝"));
  }
  svg.append(fieldsLayer);
  // walls and gates on the field edges
  const walls = svgEl("g", {class: "walls"});
  for (const w of S.walls) {
    const [ax, ay] = centre(w.a);
    const [bx, by] = centre(w.b);
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    const len = Math.hypot(bx - ax, by - ay);
    const px = -(by - ay) / len * SIZE / 2, py = (bx - ax) / len * SIZE / 2;
    const open = w.gate && g.gates[w.gate].open;
    const cls = w.gate ? `gate ${open ? "open" : "closed"}` : `wall ${w.kind}`;
    walls.append(svgEl("line", {x1: (mx + px).toFixed(1), y1: (my + py).toFixed(1), x2: (mx - px).toFixed(1),
      y2: (my - py).toFixed(1), class: cls, "data-gate": w.gate || null}));
  }
  svg.append(walls);
  for (const g2 of S.gates) {
    const [ax, ay] = centre(g2.fields[0]);
    const [bx, by] = centre(g2.fields[1]);
    marks.append(svgEl("text", {x: ((ax + bx) / 2).toFixed(1), y: ((ay + by) / 2 - 3).toFixed(1), class: "gate-id"}, g2.id));
  }
  // towers (scenery): where each quarter wall meets the inner wall
  for (const ang of S.towers.angles) {
    const a = ang * Math.PI / 180;
    const x = SIZE * SQ3 * S.towers.radius * Math.cos(a), y = -SIZE * SQ3 * S.towers.radius * Math.sin(a);
    marks.append(svgEl("rect", {x: (x - 5).toFixed(1), y: (y - 5).toFixed(1), width: 10, height: 10, rx: 2, class: "tower"}));
  }
  svg.append(marks);
  // deployment: the fields of the role being deployed
  // the line of fire of the selected figure to the hovered field
  const overlay = svgEl("g", {class: "overlay", id: "lof"});
  svg.append(overlay);
  // figures
  const figs = svgEl("g", {class: "figures"});
  for (const [fld, list] of Object.entries(at)) {
    const [cx, cy] = centre(fld);
    list.sort((a, b) => (a.role === "gl" ? -1 : 0) - (b.role === "gl" ? -1 : 0) || a.seat - b.seat);
    list.forEach((f, i) => {
      const off = list.length === 1 ? [0, 0] : [[-5, -4], [5, -4], [0, 5]][i] || [0, 0];
      const x = cx + off[0], y = cy + off[1];
      const r = list.length === 1 ? 9 : 6.5;
      const actions = mine ? targetActions(legal, sel ? sel.role : "", f.name) : [];
      let clickActs = actions;
      if (mine && ["chain", "enemy"].includes(d.kind)) clickActs = legal.all.filter((a) => a === `${d.kind} ${f.name}`);
      if (mine && d.kind === "order") clickActs = legal.all.filter((a) => a === `order attack ${f.name}`);
      if (ui.spell) clickActs = clickActs.filter((a) => a.startsWith(`wl cast ${ui.spell} `) || !a.startsWith("wl cast"));
      const own = f.seat === ctx.seat;
      const selectable = mine && d.kind === "act" && own && legal.byFig[f.role] && (g.step.named || []).includes(f.name);
      const cls = ["fig", `team${f.seat}`, f.zombie ? "zombie" : f.role, f.sneak ? "sneaking" : "", f.down ? "down" : "",
        sel && sel.name === f.name ? "selected" : "", clickActs.length || targetNames.has(f.name) ? "target" : "",
        selectable ? "selectable" : "",
        (g.step && (g.step.named || []).includes(f.name)) ? "acting" : ""].filter(Boolean).join(" ");
      const grp = svgEl("g", {class: cls, "data-fig": f.name,
        "data-action": clickActs.length === 1 ? clickActs[0] : null,
        onclick: (ev) => {
          ev.stopPropagation();
          if (ctx.busy) return;
          // a green field is a move: its figures (one of ours too) do not take the click from it
          if (!clickActs.length && fieldActs[fld] && fieldActs[fld].length === 1) { ctx.act(fieldActs[fld][0]); return; }
          if (selectable && !clickActs.length) {
            ui.selected = f.name; ui.spell = null; ui.hover = fld; ui.pinned = true; ctx.rerender(); return;
          }
          if (clickActs.length === 1) play(ctx, g, clickActs[0]);
          else if (clickActs.length > 1) chooseAction(ctx, g, clickActs, figLabel(g, f.name));
          else { ui.hover = fld; ui.pinned = true; showHover(ctx, g, fld, sel); }
        },
        onmouseenter: () => { ui.hover = fld; showHover(ctx, g, fld, sel); }},
      svgEl("title", {}, `${figLabel(g, f.name)} · ${tr("shuluri.ep")} ${Math.max(0, f.ep)}/${f.max_ep}`),
      svgEl(f.zombie ? "rect" : "circle", f.zombie ? {x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 2} : {cx: x, cy: y, r},
      ),
      svgEl("text", {x, y: y + (r > 7 ? 4 : 3)}, f.zombie ? "Z" : ROLE_MARK[f.role]));
      grp.firstElementChild.nextElementSibling.setAttribute("fill", teamColour(f.seat));
      figs.append(grp);
    });
  }
  svg.append(figs);
  // leaving the arena clears what the pointer showed, not what a tap (phones) or a click chose to show
  svg.addEventListener("mouseleave", () => { if (!ui.pinned) { ui.hover = null; showHover(ctx, g, null, sel); } });
  const box = h("div.arena-box", svg, zoomBar(ctx), h("div#hex-info.hex-info", h("span.muted", tr("shuluri.hover_help"))),
    legend(ctx));
  requestAnimationFrame(() => { if (ui.hover) showHover(ctx, g, ui.hover, sel); });
  return box;
}

function chooseAction(ctx, g, actions, title) {
  const {h} = ctx;
  const close = ctx.modal(title, h("div.choice-list", ...actions.map((a) => h("button", {dataset: {action: a},
    onclick: () => { close(); play(ctx, g, a); }}, describe(a)))));
}

// the hover panel: zone, terrain, the figures there, reach and line of fire of the selected figure
function showHover(ctx, g, id, sel) {
  const {h} = ctx;
  const box = document.getElementById("hex-info");
  const layer = document.getElementById("lof");
  if (!box) return;
  if (layer) layer.replaceChildren();
  if (!id || !FIELD[id]) { box.replaceChildren(h("span.muted", tr("shuluri.hover_help"))); return; }
  const f = FIELD[id];
  const zone = f.zone === "C" ? tr("shuluri.zone.c") : tr(`shuluri.zone.${f.zone.toLowerCase()}`, {k: f.quarter + 1});
  const terrain = [];
  if (TRAP_AT[id]) terrain.push(tr("shuluri.terrain.trap", {n: TRAP_AT[id]}));
  if (S.heaps.includes(id)) terrain.push(tr("shuluri.terrain.heap"));
  for (const gid of GATE_OF_FIELD[id] || []) terrain.push(tr(g.gates[gid].open ? "shuluri.terrain.gate_open" : "shuluri.terrain.gate_closed", {gate: gid}));
  for (const a of g.areas) if (a.fields.includes(id)) terrain.push(tr("shuluri.terrain.area", {spell: spellName(a.spell), n: a.until_round}));
  for (const c of g.corpses) if (c.field === id) terrain.push(tr("shuluri.terrain.corpse", {who: c.name}));
  const here = (figuresAt(g)[id] || []).map((x) => `${figLabel(g, x.name)} (${Math.max(0, x.ep)}/${x.max_ep})`);
  const lines = [h("div.hex-title", h("b", id), " · ", zone, terrain.length ? ` · ${terrain.join(" · ")}` : "")];
  if (here.length) lines.push(h("div", here.join(", ")));
  if (sel && sel.field && sel.field !== id) {
    const reach = ctx.view.hints && ctx.view.hints.reach && ctx.view.hints.reach[sel.name];
    if (reach) {
      lines.push(h("div", reach[id] !== undefined ? tr("shuluri.reach_yes", {who: sel.name, n: reach[id]})
        : tr("shuluri.reach_no", {who: sel.name})));
    }
    const tgt = (figuresAt(g)[id] || []).find((x) => x.seat !== sel.seat);
    const lof = lineOfFire(g, sel.field, id, sel.name, tgt ? tgt.name : null, false);
    const bd = blockDist(sel.field, id);
    let text;
    if (lof.blocked) text = tr(`shuluri.lof_blocked_${lof.blocked}`, {n: bd});
    else text = tr("shuluri.lof", {n: bd, b: lof.B, w: lof.W, l: lof.L, nn: lof.N, def: 2 * (lof.B + lof.W + lof.L + lof.N)});
    lines.push(h("div", {class: lof.blocked ? "bad" : "ok"}, text));
    if (layer) {
      const pts = lof.line.filter((x) => FIELD[x]).map((x) => centre(x).map((v) => v.toFixed(1)).join(",")).join(" ");
      layer.append(svgEl("polyline", {points: pts, class: lof.blocked ? "lof blocked" : "lof"}));
    }
  }
  box.replaceChildren(...lines);
}

// --- the panels ---------------------------------------------------------------------------------------------------
// --- playing an action -------------------------------------------------------------------------------------------
function sameSide(g, a, b) {
  const al = g.alliances || [];
  return a === b || (al[a] !== undefined && al[a] === al[b]);
}
// the seat's partner in pairs mode (null otherwise)
function partnerOf(g, seat) {
  if (g.mode !== "pairs" || seat === null || seat === undefined) return null;
  const p = g.teams.map((t) => t.seat).find((x) => x !== seat && sameSide(g, x, seat));
  return p === undefined ? null : p;
}
// play an action (the page asks first when `harms` says it hurts one's own side)
function play(ctx, g, text) {
  ctx.act(text);
}

// the page's question before an action that harms the acting seat's side (web/static/confirm.js):
// a harmful spell (rules 4.3: damage, curses) on a figure of one's own side or of the partner's
export function harms(view, text, ctx) {
  const g = game(view);
  const w = text.split(" ");
  if (!g || w[1] !== "cast" || !SPELL[w[2]] || !SPELL[w[2]].harmful) return null;
  const caster = g.figures.find((f) => f.seat === ctx.seat && f.role === w[0] && !f.zombie);
  const target = w[3] && !w[3].includes(",") ? figByName(g, w[3]) : (w[3] ? null : caster);
  if (!target || !sameSide(g, target.seat, ctx.seat)) return null;
  return {title: tr("shuluri.confirm_harm_title"), text: tr("shuluri.confirm_harm", {spell: spellName(w[2]), target: figWord(target.name)}),
    ok: tr("shuluri.confirm_harm_ok")};
}

function actionButton(ctx, g, text, label, cls = "") {
  return ctx.h(`button${cls}`, {disabled: ctx.busy, dataset: {action: text}, onclick: () => play(ctx, g, text),
    title: describe(text)}, label || describe(text));
}

function statusStrip(ctx, g, view) {
  const {h} = ctx;
  const st = g.step;
  const items = g.teams.map((t) => {
    const gl = g.figures.find((f) => f.seat === t.seat && f.role === "gl" && !f.zombie);
    const alive = g.figures.filter((f) => f.seat === t.seat && f.alive && !f.zombie).length;
    const info = view.seats[t.seat] || {};
    return h("div.team-tile", {class: `${st && st.seat === t.seat ? "active" : ""} ${t.seat === ctx.seat ? "me" : ""} ${t.out ? "out" : ""}`,
      style: {borderColor: teamColour(t.seat)}, dataset: {seat: t.seat}},
    h("div.team-name", h("span.chip", {style: {background: teamColour(t.seat)}}, t.letter.toUpperCase()), " ",
      ctx.seatLabel(t.seat), info.agent && info.agent !== "human" ? h("span.badge", "AI") : null),
    h("div.team-facts",
      h("span", {title: tr("shuluri.gladiator_ep")}, `G ${gl ? Math.max(0, gl.ep) : 0}/${gl ? gl.max_ep : 0}`),
      h("span", {title: tr("shuluri.fighters_alive")}, `👤 ${alive}`),
      h("span", {title: tr("shuluri.strategist_man")}, `MAN ${t.strategist_man}`),
      h("span", {title: tr("shuluri.cards_in_hand")}, ctx.icon("cards"), ` ${t.cards_in_hand}`),
      h("span", {title: tr("shuluri.discs_left")}, `◉ ${t.discs_left}`)),
    partnerOf(g, t.seat) !== null ? h("div.team-facts.allied", tr("shuluri.allied", {name: tr("shuluri.team",
      {letter: g.teams[partnerOf(g, t.seat)].letter.toUpperCase()})})) : null);
  });
  let stepText = g.phase === "setup" ? tr("shuluri.setup_phase") : "";
  if (st) {
    stepText = tr(`shuluri.step.${st.kind}`, {i: st.index, of: st.of, who: ctx.seatLabel(st.seat)});
    stepText += " · " + (st.kind === "glad" ? tr("shuluri.glad_man", {n: st.gladiator_man}) : tr("shuluri.pool_man", {n: st.pool}));
  }
  const partner = partnerOf(g, ctx.seat);
  return h("section.status-strip", h("div.step-info", h("b", tr("shuluri.round", {n: view.obs.round || 0})), " · ", stepText,
    partner !== null ? h("div.partner", tr("shuluri.your_partner", {name: ctx.seatLabel(partner)})) : null),
  ...items);
}

function promptPanel(ctx, g, legal) {
  const {h} = ctx;
  const d = g.decision;
  const view = ctx.view;
  if (view.obs.terminal) {
    const w = view.obs.winners;
    return h("section.panel.prompt.over", h("h2", tr("shuluri.game_over")),
      h("p", w.length ? tr("shuluri.winners", {names: w.map((s) => ctx.seatLabel(s)).join(", ")}) : tr("shuluri.draw")),
      h("p.muted.end-reason", cap(endReason(g.end_reason))),
      h("a.button", {href: `/api/games/${view.game_id}/record`, download: `shuluri-${view.game_id}.json`}, tr("shuluri.download_record")));
  }
  if (!d) return h("section.panel.prompt", "…");
  const mine = ctx.seat !== null && d.seat === ctx.seat;
  const box = h(`section.panel.prompt${mine ? ".mine" : ""}`, {"aria-live": "polite"},
    h("div.prompt-text", mine ? h("span.you", tr("shuluri.you")) : h("span.hourglass", ctx.icon("hourglass")), " ",
      mine ? tr(`shuluri.do.${d.kind}`, promptParams(g, d)) : tr("shuluri.wait", {name: ctx.seatLabel(d.seat), what: tr(`shuluri.what.${d.kind}`)})));
  if (!mine) return box;
  const panel = {
    act: actPanel, name: namePanel, react: reactPanel, dodge: simplePanel, push: simplePanel, shove: simplePanel,
    effect: simplePanel, enemy: simplePanel, chain: simplePanel, order: orderPanel, traps: trapsPanel,
    amulets: amuletsPanel, resist: resistPanel, vials: itemsPanel, potions: itemsPanel, side: sidePanel,
    weapon: weaponPanel, deploy: deployPanel,
  }[d.kind];
  if (d.kind === "react" && maybeAutoPass(ctx, g, legal)) { box.append(h("p.small.muted", tr("shuluri.auto_passing"))); return box; }
  if (panel) box.append(panel(ctx, g, legal, d));
  return box;
}

function promptParams(g, d) {
  const p = {};
  if (d.mover) p.mover = figLabel(g, d.mover);
  if (d.attacker) p.attacker = figLabel(g, d.attacker);
  if (d.target) p.target = figLabel(g, d.target);
  if (d.victim) p.victim = figLabel(g, d.victim);
  if (d.zombie) p.zombie = figLabel(g, d.zombie);
  if (d.spell) p.spell = spellName(d.spell);
  if (d.from) p.from = figLabel(g, d.from);
  if (d.pusher) p.pusher = figLabel(g, d.pusher);
  if (d.other) p.other = figLabel(g, d.other);
  for (const k of Object.keys(d)) if (!(k in p) && typeof d[k] !== "object") p[k] = d[k];
  return p;
}

function simplePanel(ctx, g, legal) {
  return ctx.h("div.actions", ...legal.all.map((a) => actionButton(ctx, g, a)));
}

function orderPanel(ctx, g, legal) {
  const {h} = ctx;
  const attacks = legal.all.filter((a) => a.startsWith("order attack "));
  const gates = legal.all.filter((a) => /^order guard [IMW]\d$/.test(a));
  return h("div", h("p.small.muted", tr("shuluri.order_help")),
    h("div.actions", ...attacks.map((a) => actionButton(ctx, g, a)), ...gates.map((a) => actionButton(ctx, g, a, tr("shuluri.guard_gate", {gate: a.split(" ")[2]})))));
}

function namePanel(ctx, g, legal) {
  const {h} = ctx;
  return h("div.actions.name-options", ...legal.all.map((a) => actionButton(ctx, g, a,
    a.split(" ").slice(1).map((r) => `${tr(`shuluri.role.${r}`)}`).join(" + "), ".name-btn")));
}

function reactPanel(ctx, g, legal, d) {
  const {h} = ctx;
  const traps = legal.all.filter((a) => a.startsWith("trap "));
  return h("div",
    h("div.actions.trap-cards", ...traps.map((a) => {
      const n = Number(a.split(" ")[1]);
      return h("button.trap-card", {disabled: ctx.busy, dataset: {action: a}, onclick: () => ctx.act(a)},
        h("b", `${n}. ${trapName(n)}`), h("small", tr(`shuluri.trap.${n}.effect`)), h("small.cost", tr("shuluri.cost_man", {n: TRAP[n].cost})));
    })),
    h("div.actions", legal.all.includes("pass") ? actionButton(ctx, g, "pass", tr("shuluri.pass"), ".pass") : null,
      legal.all.includes("pass all") ? actionButton(ctx, g, "pass all", tr("shuluri.pass_all")) : null),
    autoPassToggle(ctx));
}

// the trap window after every enemy move: a setting (kept in this browser) passes it without asking
const AUTO_PASS_KEY = "grimoire.shuluri.autopass";
function autoPass() { try { return localStorage.getItem(AUTO_PASS_KEY) === "1"; } catch { return false; } }
function autoPassToggle(ctx) {
  const {h} = ctx;
  if (ctx.readonly) return null;
  return h("label.check.auto-pass", h("input", {type: "checkbox", checked: autoPass(), onchange: (e) => {
    try { localStorage.setItem(AUTO_PASS_KEY, e.target.checked ? "1" : "0"); } catch { /* private mode: this page only */ }
    ctx.rerender();
  }}), " ", tr("shuluri.auto_pass"));
}
function maybeAutoPass(ctx, g, legal) {
  const d = g.decision;
  if (ctx.readonly || ctx.busy || !d || d.kind !== "react" || d.seat !== ctx.seat || !autoPass()) return false;
  if (!legal.all.includes("pass")) return false;
  if (ctx.ui.autoPassed !== ctx.view.seq) {
    ctx.ui.autoPassed = ctx.view.seq;
    setTimeout(() => ctx.act("pass"), 0);
  }
  return true;
}

function actPanel(ctx, g, legal) {
  const {h} = ctx;
  const ui = ctx.ui;
  const sel = selectedFigure(ctx, g, legal);
  const box = h("div.act");
  const named = (g.step && g.step.named || []).map((n) => figByName(g, n)).filter((f) => f && f.seat === ctx.seat);
  if (named.length > 1) {
    box.append(h("div.who", h("small", tr("shuluri.acting")), ...named.map((f) => h("button.small", {
      class: sel && sel.name === f.name ? "on" : "", disabled: !legal.byFig[f.role],
      onclick: () => { ui.selected = f.name; ui.spell = null; ctx.rerender(); }}, figLabel(g, f.name)))));
  }
  const man = ctx.view.hints && ctx.view.hints.man;
  if (sel && man && man[sel.name] !== undefined) box.append(h("p.small", tr("shuluri.man_left", {who: figLabel(g, sel.name), n: man[sel.name]})));
  if (sel) {
    const acts = legal.byFig[sel.role] || [];
    const modes = new Set(acts.filter((a) => ["move", "sneak", "disengage"].includes(a.split(" ")[1])).map((a) => a.split(" ")[1]));
    if (modes.size) {
      box.append(h("p.small.muted", tr("shuluri.move_help")));
      if (modes.has("sneak")) {
        box.append(h("label.check", h("input", {type: "checkbox", checked: ui.mode === "sneak",
          onchange: (e) => { ui.mode = e.target.checked ? "sneak" : "move"; ctx.rerender(); }}), " ", tr("shuluri.sneak_mode")));
      }
    }
    const simple = acts.filter((a) => ["hide", "run", "aim", "coat", "drink", "drop", "pickup", "stand", "bell", "wield",
      "open", "close", "order"].includes(a.split(" ")[1]));
    if (simple.length) box.append(h("div.actions.skills", ...simple.map((a) => actionButton(ctx, g, a))));
    // spells as a panel: pick one, then its target on the arena (or here)
    const casts = acts.filter((a) => a.split(" ")[1] === "cast");
    if (casts.length) {
      const keys = [...new Set(casts.map((a) => a.split(" ")[2]))];
      const button = (k) => {
        const mineCasts = casts.filter((a) => a.split(" ")[2] === k);
        return h("button.spell-btn", {class: ui.spell === k ? "on" : "", dataset: {spell: k}, title: tr(`shuluri.spell.${k}.short`),
          onclick: () => {
            if (mineCasts.length === 1 && !mineCasts[0].split(" ")[3]) { play(ctx, g, mineCasts[0]); return; }
            ui.spell = ui.spell === k ? null : k; ctx.rerender();
          }}, h("span.lv", String(SPELL[k].level)), spellName(k));
      };
      // grouped by type (the spell's school), each by level
      const groups = SPELL_TYPES.map((tp) => [tp, keys.filter((k) => SPELL[k].type === tp)
        .sort((x, y) => SPELL[x].level - SPELL[y].level)]).filter(([, ks]) => ks.length);
      const box2 = h("div.spells", h("h3", tr("shuluri.spells")), ...groups.map(([tp, ks]) => h("div.spell-group", {dataset: {type: tp}},
        h("small.spell-school", cap(tr(`shuluri.type.${tp}`))), h("div.spell-grid", ...ks.map(button)))));
      if (ui.spell && keys.includes(ui.spell)) {
        const k = ui.spell;
        const sp = SPELL[k];
        const mineCasts = casts.filter((a) => a.split(" ")[2] === k);
        const rng = sp.range === "touch" ? tr("shuluri.touch") : (sp.range === "self" || sp.range === "area_self") ? tr("shuluri.self") : sp.range;
        box2.append(h("div.spell-detail",
          h("b", spellName(k)), ` · ${tr("shuluri.level", {n: sp.level})} · ${tr(`shuluri.type.${sp.type}`)} · ${tr("shuluri.range", {r: rng})}`,
          h("small.spell-help", tr(`shuluri.spell.${k}.short`)),
          h("p.small.muted", tr("shuluri.spell_target_help")),
          h("div.actions", ...mineCasts.map((a) => actionButton(ctx, g, a,
            a.split(" ")[3] ? (a.split(" ")[3].includes(",") ? a.split(" ")[3] : figLabel(g, a.split(" ")[3])) : tr("shuluri.himself"))))));
      }
      box.append(box2);
    }
    const clouds = acts.filter((a) => a.split(" ")[1] === "cloud");
    if (clouds.length) box.append(h("div.actions", ...clouds.map((a) => actionButton(ctx, g, a))));
  }
  // the seat's ranged traps (the holder on its field)
  const rtraps = legal.other.filter((a) => a.startsWith("trap "));
  if (rtraps.length) box.append(h("div.traps", h("h3", tr("shuluri.ranged_traps")), h("div.actions", ...rtraps.map((a) => actionButton(ctx, g, a)))));
  box.append(h("div.row", legal.all.includes("end") ? actionButton(ctx, g, "end", tr("shuluri.end_step"), ".primary.end-step") : null));
  return box;
}

// --- setup panels -----------------------------------------------------------------------------------------------
function rolesSelect(ctx, key, value, allowed, onchange) {
  const {h} = ctx;
  return h("select", {dataset: {key}, onchange: (e) => onchange(e.target.value)},
    ...allowed.map((r) => h("option", {value: r, selected: r === value}, tr(`shuluri.role.${r}`))));
}

function trapsPanel(ctx, g, legal) {
  const {h} = ctx;
  const me = g.teams[ctx.seat];
  const key = `traps-${ctx.view.seq}`;
  if (ctx.ui.setupKey !== key) {
    ctx.ui.setupKey = key;
    ctx.ui.pick = me.hand.map((c) => (TRAP[c.card].kind === "ranged" ? "d1" : "gl"));
  }
  const pick = ctx.ui.pick;
  const text = `traps ${pick.join(" ")}`;
  return h("div.setup",
    h("p.small", tr("shuluri.traps_help")),
    ...me.hand.map((c, i) => h("div.setup-row", h("span.trap-chip", `${c.card}. ${trapName(c.card)}`),
      h("small.muted", ` ${tr(`shuluri.kind.${TRAP[c.card].kind}`)} · ${tr(`shuluri.trap.${c.card}.effect`)} `),
      rolesSelect(ctx, `card${i}`, pick[i], ROLE_ORDER, (v) => { pick[i] = v; ctx.rerender(); }))),
    h("div.row", h("button.primary.confirm", {disabled: ctx.busy || !legal.all.includes(text), dataset: {action: text},
      onclick: () => ctx.act(text)}, tr("shuluri.confirm_secret"))));
}

function distinctPanel(ctx, g, legal, head, slots, allowed, help) {
  const {h} = ctx;
  const key = `${head}-${ctx.view.seq}`;
  if (ctx.ui.setupKey !== key) {
    ctx.ui.setupKey = key;
    const first = legal.all.find((a) => a.startsWith(`${head} `));
    ctx.ui.pick = first ? first.split(" ").slice(1) : [];
    const pref = {amulets: ["xb", "gl", "wl"], resist: ["xb", "gl"], vials: ["xb", "d1"], potions: ["gl", "wl"]}[head];
    if (pref && legal.all.includes(`${head} ${pref.join(" ")}`)) ctx.ui.pick = pref.slice();
  }
  const pick = ctx.ui.pick;
  const text = `${head} ${pick.join(" ")}`;
  const ok = legal.all.includes(text);
  return h("div.setup",
    h("p.small", help),
    ...slots.map((label, i) => h("div.setup-row", h("span.slot-label", label), " ",
      rolesSelect(ctx, `${head}${i}`, pick[i], allowed, (v) => { pick[i] = v; ctx.rerender(); }))),
    ok ? null : h("p.bad.small", tr("shuluri.distinct_needed")),
    h("div.row", h("button.primary.confirm", {disabled: ctx.busy || !ok, dataset: {action: text}, onclick: () => ctx.act(text)},
      tr("shuluri.confirm_secret"))));
}

function amuletsPanel(ctx, g, legal) {
  return distinctPanel(ctx, g, legal, "amulets", ["poison", "lightning", "curse"].map((k) => tr(`shuluri.amulet.${k}`)),
    ROLE_ORDER, tr("shuluri.amulets_help"));
}
function resistPanel(ctx, g, legal) {
  return distinctPanel(ctx, g, legal, "resist", ["ME 2", "ME 3"], ROLE_ORDER.filter((r) => r !== "wl"), tr("shuluri.resist_help"));
}
function itemsPanel(ctx, g, legal, d) {
  const slots = [1, 2].map((n) => tr(`shuluri.${d.kind}_n`, {n}));
  const help = tr(`shuluri.${d.kind}_help`);
  return distinctPanel(ctx, g, legal, d.kind, slots, ROLE_ORDER, help);
}

function sidePanel(ctx, g, legal) {
  const {h} = ctx;
  return h("div.setup", h("p.small", tr("shuluri.side_help")),
    h("div.actions", ...legal.all.map((a) => actionButton(ctx, g, a, a === "first" ? tr("shuluri.take_first")
      : halfWord(a.split(" ")[1]), ".side-btn"))));
}

function weaponPanel(ctx, g, legal) {
  const {h} = ctx;
  return h("div.setup", h("p.small", tr("shuluri.weapon_help")),
    h("div.actions.weapons", ...legal.all.map((a) => {
      const k = a.split(" ")[1];
      const w = S.weapons[k];
      return h("button.weapon-btn", {disabled: ctx.busy, dataset: {action: a}, onclick: () => ctx.act(a)},
        h("b", tr(`shuluri.weapon.${k}`)), h("small", `TE ${w.te} · VE ${w.ve}`),
        h("small.muted", w.skills.length ? w.skills.map((s) => tr(`shuluri.skill.${s}`)).join(", ") : tr("shuluri.no_skills")));
    })));
}

// the character being deployed: the one picked, else the first still to deploy
function deployRole(ctx, legal) {
  const roles = ROLE_ORDER.filter((r) => legal.all.some((a) => a.startsWith(`deploy ${r} `)));
  if (!roles.includes(ctx.ui.deployRole)) ctx.ui.deployRole = roles[0];
  return ctx.ui.deployRole;
}

function deployPanel(ctx, g, legal) {
  const {h} = ctx;
  const roles = ROLE_ORDER.filter((r) => legal.all.some((a) => a.startsWith(`deploy ${r} `)));
  deployRole(ctx, legal);
  return h("div.setup", h("p.small", tr("shuluri.deploy_help")),
    h("div.actions", ...roles.map((r) => h("button.small", {class: ctx.ui.deployRole === r ? "on" : "", dataset: {role: r},
      onclick: () => { ctx.ui.deployRole = r; ctx.rerender(); }}, tr(`shuluri.role.${r}`)))),
    h("details.all-deploy", h("summary", tr("shuluri.deploy_fields")),
      h("div.actions", ...legal.all.filter((a) => a.startsWith(`deploy ${ctx.ui.deployRole} `)).map((a) => actionButton(ctx, g, a, a.split(" ")[2])))));
}

// --- figures, secrets, events -------------------------------------------------------------------------------------
function figuresPanel(ctx, g) {
  const {h} = ctx;
  const rows = g.figures.map((f) => {
    const now = f.now || {};
    const eff = f.effects.map((e) => `${tr(e.source === "spell" ? `shuluri.spell.${e.key}` : `shuluri.trap.${e.key.slice(4)}`)}${e.until_round ? ` ≤${e.until_round}` : ""}`);
    const state = [];
    if (f.sneak) state.push(tr(`shuluri.${f.sneak}`));
    if (f.down) state.push(tr("shuluri.down"));
    if (f.role === "gl" && !f.zombie && f.weapon) state.push(f.weapon === "?" ? "?" : tr(`shuluri.weapon.${f.weapon}`));
    if (f.exposed_to && f.exposed_to.daggers) state.push(tr("shuluri.exposed_daggers"));
    else if (f.exposed_to && f.exposed_to.crossbow) state.push(tr("shuluri.exposed_crossbow"));
    if (f.amulet && f.amulet !== "?") state.push(tr(`shuluri.amulet.${f.amulet}`));
    return h("tr", {class: `${f.alive ? "" : "dead"} ${f.seat === ctx.seat ? "own" : ""}`, dataset: {fig: f.name},
      onmouseenter: () => { if (f.field) { ctx.ui.hover = f.field; showHover(ctx, g, f.field, null); } }},
    h("td", h("span.chip", {style: {background: teamColour(f.seat)}}, f.zombie ? "Z" : ROLE_MARK[f.role]), " ", f.name),
    h("td", f.field || "—"),
    h("td.num", `${Math.max(0, f.ep)}/${f.max_ep}`),
    h("td.num", `${f.stp}/${f.stp_max}`),
    h("td.num", String(now.te ?? "?")), h("td.num", String(now.ve ?? "?")), h("td.num", now.ce ? String(now.ce) : "–"),
    h("td.num", String(now.move ?? "?")),
    h("td.num", f.role === "gl" && !f.zombie ? `${f.javelins}/${f.nets}` : (["xb", "d1", "d2"].includes(f.role) && !f.zombie ? String(f.ammo) : "")),
    h("td.state", [...state, ...eff].join(" · ")));
  });
  return h("section.panel.figures", h("h2", tr("shuluri.figures")),
    h("div.table-scroll", h("table.fig-table", h("tr", ...["fig", "field", "ep", "stp", "te", "ve", "ce", "move", "ammo", "state"].map((k) =>
      h(["fig", "field", "state"].includes(k) ? "th" : "th.num", tr(`shuluri.col.${k}`)))), ...rows)));
}

function secretsPanel(ctx, g) {
  const {h} = ctx;
  if (ctx.seat === null) return null;
  const me = g.teams[ctx.seat];
  if (!me || !me.hand) return null;
  const mine = g.figures.filter((f) => f.seat === ctx.seat && !f.zombie);
  return h("section.panel.secrets", h("h2", tr("shuluri.your_secrets")),
    h("div.cards", ...me.hand.map((c) => h("div.card-chip", {title: tr(`shuluri.trap.${c.card}.effect`)},
      h("b", `${c.card}. ${trapName(c.card)}`), h("small", `${tr(`shuluri.kind.${c.kind}`)} · ${tr("shuluri.cost_man", {n: TRAP[c.card].cost})}${c.holder ? ` · ${c.holder}` : ""}`)))),
    h("div.discs", h("small", tr("shuluri.discs")), ...me.discs.map((lv) => h("span.disc-chip", String(lv)))),
    me.starting_weapon ? h("div.small", tr("shuluri.starting_weapon", {w: tr(`shuluri.weapon.${me.starting_weapon}`)})) : null,
    h("div.small", mine.filter((f) => f.amulet).map((f) => `${f.name}: ${tr(`shuluri.amulet.${f.amulet}`)}`).join(" · ")),
    h("div.small", mine.filter((f) => f.role !== "wl" && f.me).map((f) => `${f.name}: ME ${f.me}`).join(" · ")),
    autoPassToggle(ctx));
}

function gatesPanel(ctx, g) {
  const {h} = ctx;
  return h("div.gates-line", h("small", tr("shuluri.gates")), ...Object.entries(g.gates).map(([id, st]) =>
    h("span.gate-chip", {class: st.open ? "open" : "closed", title: st.jammed_until ? tr("shuluri.jammed", {n: st.jammed_until}) : ""}, id)));
}

function eventsPanel(ctx, g) {
  const {h} = ctx;
  const list = h("ol.event-list", ...eventLines(g).slice(-40).map((e) => h("li", e)));
  const actions = h("ol.log-list", ...ctx.log.slice(-60).map((e) => h("li", {dataset: {seq: e.seq}},
    h("span.chip", {style: {background: teamColour(e.seat || 0)}}, LETTERS[e.seat || 0].toUpperCase()), " ",
    e.text === null ? tr("shuluri.secret_action") : describe(e.text))));
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; actions.scrollTop = actions.scrollHeight; });
  return h("section.panel.events", h("h2", tr("shuluri.events")), list, h("h2", tr("ui.log")), actions);
}

function allActions(ctx, g, legal) {
  const {h} = ctx;
  if (!legal.all.length) return null;
  return h("details.all-actions", h("summary", tr("ui.all_actions", {n: legal.all.length})),
    h("div.actions", ...legal.all.slice(0, 600).map((a) => h("button.small", {disabled: ctx.busy, dataset: {action: a},
      onclick: () => play(ctx, g, a), title: a}, describe(a)))));
}

// --- the page ----------------------------------------------------------------------------------------------------
export function render(root, view, ctx) {
  tr = ctx.t;
  seatName = ctx.seatLabel;
  const g = game(view);
  const texts = (view.obs.legal_actions || []);
  const legal = parseLegal(ctx.busy ? [] : texts);
  // re-render in place (selection, hover, spell choice) without waiting for the server
  ctx.rerender = () => { root.replaceChildren(); render(root, view, ctx); };
  if (ctx.ui.seq !== view.seq) { ctx.ui.seq = view.seq; ctx.ui.spell = null; }
  root.classList.add("shul");
  if (ctx.busy) root.classList.add("busy");
  // for scripts and tests: the kind of decision this seat has to make now ("" if none)
  const d = g.decision;
  root.dataset.decision = d && d.seat === ctx.seat && !view.obs.terminal && texts.length ? d.kind : "";
  const left = ctx.h("div.shul-left", arena(ctx, g, legal), gatesPanel(ctx, g));
  const right = ctx.h("div.shul-right", promptPanel(ctx, g, legal), secretsPanel(ctx, g), allActions(ctx, g, legal), eventsPanel(ctx, g));
  root.append(statusStrip(ctx, g, view), ctx.h("div.shul-grid", left, right), figuresPanel(ctx, g));
}

// the guide's step (web/static/guide.js): the seat's decision, grouped as the guide explains them
const GUIDE_STEPS = {weapon: "secret", traps: "secret", amulets: "secret", potions: "secret", vials: "secret",
  resist: "secret", side: "side", deploy: "deploy", name: "name", act: "act"};
export function guide(view) {
  const g = game(view);
  const d = g && g.decision;
  return d ? (GUIDE_STEPS[d.kind] || "react") : null;
}

export function rulesIntro(t) {
  return null && t;
}
