// Whose turn it is, for every game: "(•) your turn — ..." in the tab title, a browser notification when it
// becomes your turn while the tab is in the background (the Notification API, asked for by a button, never
// on load); and for a slow game (web/turns.py) a bar with the time left for the current move and what
// happens when it runs out, or who lost on time.
import {api, h, t, toast} from "./common.js";

const turn = {gid: null, info: null, askedSeq: -1, slow: null, bar: null, timer: null, mineBefore: null};

export function initTurn(gid) {
  turn.gid = gid;
  turn.bar = h("div.turn-bar", {role: "status"});
}

// the tab's title: a marker in front while the reader must decide (seen in the tab strip)
export function turnTitle(base, mine) {
  return mine ? `(•) ${t("turn.your_turn")} — ${base}` : base;
}

// a notification when the decision comes to the reader and the page is not looked at
export function notifyTurn(mine, gameName) {
  const before = turn.mineBefore;
  turn.mineBefore = mine;
  if (!mine || before !== false || !document.hidden) return;
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const n = new Notification("Grimoire", {body: t("turn.notify_body", {game: gameName}), tag: `grimoire-${turn.gid}`});
    n.onclick = () => { window.focus(); n.close(); };
  } catch {
    // some browsers allow notifications only from a service worker: the title still says it
  }
}

function notifyButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  return h("button.small.ghost.notify-btn", {onclick: async (e) => {
    const answer = await Notification.requestPermission();
    toast(t(answer === "granted" ? "turn.notify_on" : "turn.notify_denied"), "info");
    e.target.remove();
  }}, t("turn.notify"));
}

export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const hr = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d) return hr ? `${t("turn.days", {n: d})} ${t("turn.hours", {n: hr})}` : t("turn.days", {n: d});
  if (hr) return `${t("turn.hours", {n: hr})} ${t("turn.minutes", {n: min})}`;
  return t("turn.minutes", {n: Math.max(min, s ? 1 : 0)});
}

async function ask(view, redraw) {
  if (turn.askedSeq === view.seq || turn.slow === false) return;
  turn.askedSeq = view.seq;
  try {
    turn.info = await api("GET", `/api/games/${encodeURIComponent(turn.gid)}/turn`);
    turn.slow = turn.info.seconds > 0 || turn.info.forfeit !== null;
    redraw();
  } catch {
    turn.askedSeq = -1;
  }
}

// the bar for the view on screen (null: a real-time game); seatLabel(seat) names a seat for people
export function turnBar(view, seat, seatLabel, redraw) {
  ask(view, redraw);
  if (!turn.slow || !turn.info) return null;
  const info = turn.info;
  const bar = turn.bar;
  const forfeit = view.forfeit ?? info.forfeit;
  bar.className = "turn-bar";
  if (forfeit !== null && forfeit !== undefined) {
    bar.classList.add("over");
    bar.replaceChildren(h("span.turn-forfeit", t("turn.forfeit", {name: seatLabel(forfeit)})));
    return bar;
  }
  const parts = [h("span.turn-per-move.muted", t("turn.per_move", {time: duration(info.seconds)}))];
  const cp = view.obs.current_player;
  if (view.status !== "over" && info.due_at && cp !== null && cp !== undefined) {
    const left = (new Date(info.due_at).getTime() - Date.now()) / 1000;
    const mine = seat !== null && cp === seat;
    if (mine) bar.classList.add("mine");
    const text = left <= 0 ? t("turn.overdue")
      : mine ? t("turn.left_you", {time: duration(left)}) : t("turn.left", {name: seatLabel(cp), time: duration(left)});
    parts.unshift(h("span.turn-left", text));
    parts.push(h("span.turn-then.muted", t(info.on_expire === "forfeit" ? "turn.then_forfeit" : "turn.then_ai")));
  }
  if (seat !== null && view.status !== "over") parts.push(notifyButton());
  bar.replaceChildren(...parts.filter(Boolean));
  clearTimeout(turn.timer);
  turn.timer = setTimeout(redraw, 60_000);          // the time left, once a minute
  return bar;
}

// the lobby's choice at creation: the time per move, and what happens when it runs out
export function turnFields(choice, rerender) {
  const slow = choice.deadline !== "none";
  return [
    h("div.field.turn-deadline", h("label", t("turn.deadline")),
      h("select.deadline", {onchange: (e) => { choice.deadline = e.target.value; rerender(); }},
        ...["none", "1d", "3d"].map((v) => h("option", {value: v, selected: v === choice.deadline}, t(`turn.deadline.${v}`))))),
    slow ? h("div.field.turn-expire", h("label", t("turn.on_expire")),
      h("select.on-expire", {onchange: (e) => { choice.on_expire = e.target.value; }},
        ...["ai", "forfeit"].map((v) => h("option", {value: v, selected: v === choice.on_expire}, t(`turn.on_expire.${v}`))))) : null,
    slow ? h("p.option-help", t("turn.help")) : null,
  ];
}
