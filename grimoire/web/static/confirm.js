// A question before an action that harms the acting seat's own side, for every game: the game's board
// module (the descriptor's `board`) exports `harms(view, text, ctx)` -> {title, text, ok} for such an
// action (null otherwise), and every way of playing an action on the page — the board's controls, a
// hint's "play this", the generic board — goes through `guardedAct`, which asks before sending.
import {confirmBox} from "./common.js";

export function guardedAct(module, view, ctx, send) {
  return (text) => {
    let warn = null;
    try {
      warn = module && module.harms ? module.harms(view, text, ctx) : null;
    } catch (e) {
      console.error(e);                  // a broken check must not block playing
    }
    if (!warn) return send(text);
    confirmBox(warn.title, warn.text, warn.ok).then((ok) => { if (ok) send(text); });
    return true;
  };
}
