// Undo in the browser: the header's button and Ctrl+Z. The server decides (web/undo.py with the
// core's policy, the terminal's): the page only asks whether the seat may take back its last action
// now (once per seat and state) and sends the request; every page of the game then gets the view.
import {api, h, has, t, toast} from "./common.js";

const asked = new Map();          // "gid|seat|seq|last action" -> "pending" | {possible, code}
let current = null;               // what Ctrl+Z does now (null: nothing to undo)

// an action was taken back: the answers known so far may not hold for the same numbers again
export function forgetUndo() { asked.clear(); }

export function undoReason(code) {
  const key = `undo.refused.${code}`;
  return has(key) ? t(key) : t("undo.refused.undo_nothing");
}

async function send(gid, seat, seq, token) {
  try {
    await api("POST", `/api/games/${encodeURIComponent(gid)}/undo`, {seq}, token);
    toast(t("undo.done"), "info");
  } catch (e) {
    toast(t("ui.rejected", {reason: e.code ? undoReason(e.code) : e.message}));
  }
}

// the button for the seat on screen, or null when its last action is not the game's last one
// (log: the page's log; token: the seat's secret; busy: an action of the seat is on its way)
export function undoButton({gid, view, seat, log, token, busy, rerender}) {
  current = null;
  if (seat === null || !token || view.status === "over" || view.obs.current_player !== seat) return null;
  const last = log.length ? log[log.length - 1] : null;
  if (!last || last.seat !== seat) return null;
  const key = `${gid}|${seat}|${view.seq}|${last.text}`;
  let got = asked.get(key);
  if (got === undefined) {
    asked.set(key, "pending");
    got = "pending";
    api("GET", `/api/games/${encodeURIComponent(gid)}/undo`, undefined, token)
      .then((r) => { asked.set(key, r); rerender(); }, () => asked.set(key, {possible: false, code: "undo_nothing"}));
  }
  const ok = got !== "pending" && got.possible;
  const why = got !== "pending" && !got.possible ? undoReason(got.code) : t("undo.help");
  if (ok && !busy) current = () => send(gid, seat, view.seq, token);
  return h("button.ghost.undo-btn", {disabled: !ok || busy, title: why, "aria-label": `${t("undo.button")}: ${why}`,
    "aria-keyshortcuts": "Control+Z", onclick: () => { if (current) { const go = current; current = null; go(); } }},
  t("undo.button"));
}

// Ctrl+Z (⌘Z) anywhere on the page but in a text field
document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== "z") return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || (e.target && e.target.isContentEditable)) return;
  e.preventDefault();
  if (current) { const go = current; current = null; go(); }
});
