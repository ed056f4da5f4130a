// The optional account in the lobby's header: log in or create one (username and password, no e-mail),
// and the account's games on any device: its seats are merged into this browser's list.
import {api, h, modal, setCsrf, t, toast} from "./common.js";

let user = null;

export function currentUser() { return user; }

export async function loadAccount() {
  try {
    const r = await api("GET", "/api/account");
    user = r.user;
    setCsrf(r.csrf);
  } catch { user = null; }
  return user;
}

// the account's seats into this browser's game list (so "Your games" shows them on any device)
export async function syncGames(remember) {
  if (!user) return;
  try {
    const {seats} = await api("GET", "/api/account/games");
    const byGame = {};
    for (const s of seats) (byGame[s.game_id] ||= []).push({seat: s.seat, token: s.token});
    for (const [gid, list] of Object.entries(byGame).reverse()) remember(gid, list);
  } catch (e) { toast(e.message); }
}

// keep seats this browser got (a private game's links) with the account
export async function keepSeats(gid, seats) {
  if (!user) return;
  for (const s of seats) {
    if (!s.token) continue;
    try { await api("POST", "/api/account/seats", {game_id: gid, token: s.token}); } catch { /* kept locally */ }
  }
}

function loginForm(onDone) {
  const name = h("input.username", {autocomplete: "username", maxLength: 30, "aria-label": t("account.username")});
  const pass = h("input.password", {type: "password", autocomplete: "current-password", maxLength: 200,
    "aria-label": t("account.password")});
  const go = async (path) => {
    try {
      const r = await api("POST", path, {username: name.value.trim(), password: pass.value});
      user = r.user;
      setCsrf(r.csrf);
      toast(t("account.welcome", {name: user.username}), "info");
      onDone();
      return true;
    } catch (e) { toast(e.message); return false; }
  };
  const body = h("div.account-form",
    h("div.field", h("label", t("account.username")), name),
    h("div.field", h("label", t("account.password")), pass),
    h("p.small.muted", t("account.help")));
  let close = null;
  const submit = (path) => async () => { if (await go(path)) close(); return false; };
  close = modal(t("account.title"), body, [
    {label: t("account.register"), onclick: submit("/api/account/register")},
    {label: t("account.login"), primary: true, onclick: submit("/api/account/login")}]);
  name.focus();
}

export function accountBox(onChange) {
  if (!user) {
    return h("div.account", h("button.small.login", {onclick: () => loginForm(onChange)}, t("account.login")));
  }
  return h("div.account",
    h("span.small.user-name", {title: t("account.logged_in")}, user.username), " ",
    h("button.small.logout", {onclick: async () => {
      try { await api("POST", "/api/account/logout", {}); } catch (e) { toast(e.message); }
      user = null;
      setCsrf(null);
      onChange();
    }}, t("account.logout")));
}
