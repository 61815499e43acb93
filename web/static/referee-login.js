// The referee login used by the tablet, the referee display and the virtual board.

import { Skitter } from "./live.js";
import { t } from "./words.js";

export const Referee = (() => {
  let loggedIn = false;
  const listeners = [];
  const forms = [];
  // Counts logins and logouts, begun and done: a session answer asked before the latest of
  // them is out of date (a referee who logs in while the page is still asking must not be
  // logged out by the late "no session").
  let moves = 0;
  async function check() {
    const asked = moves;
    const r = await Skitter.api("/api/referee/session");
    if (!r.ok || asked !== moves) return;  // unreachable, or overtaken by a login or logout
    const was = loggedIn;
    set(Boolean(r.data && r.data.referee));
    if (was && !loggedIn) {  // the PIN was changed, or the session was logged out
      for (const form of forms) {
        form.querySelector(".msg").textContent = t(
          "Signed out (the referee PIN was changed or the session ended): log in again");
      }
    }
  }
  function set(value) {
    loggedIn = value;
    document.body.classList.toggle("referee", value);
    for (const fn of listeners) fn(value);
  }
  async function login(pin) {
    moves += 1;
    const r = await Skitter.api("/api/referee/login", { pin });
    moves += 1;
    if (r.ok) set(true);
    return r;
  }
  async function logout() {
    moves += 1;
    await Skitter.api("/api/referee/logout", {});
    moves += 1;
    set(false);
  }
  // Wire a login form: <form class="login"><input name="pin"><button></button><p class="msg">
  // After a wrong PIN the button waits out the server's delay, counting down.
  function wire(form) {
    forms.push(form);
    const button = form.querySelector("button[type=submit]");
    const label = button.textContent;
    let timer = null;
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (button.disabled) return;
      const input = form.querySelector("input[name=pin]");
      const msg = form.querySelector(".msg");
      const r = await login(input.value);
      input.value = "";
      if (r.ok) { msg.textContent = ""; return; }
      const why = r.status === 429 ? t("Too many wrong PINs")
        : r.status === 401 ? t("Wrong PIN") : Skitter.errorText(r);
      let left = r.retryAfter;
      const tick = () => {
        msg.textContent = left > 0 ? t("{why}: try again in {n} s", { why, n: left })
          : t("{why}: try again", { why });
        button.disabled = left > 0;
        button.textContent = left > 0 ? `${label} (${left})` : label;
        if (left-- > 0) timer = setTimeout(tick, 1000);
      };
      clearTimeout(timer);
      tick();
    });
  }
  document.addEventListener("skitter-connected", () => { check(); });
  return { check, login, logout, wire, get loggedIn() { return loggedIn; },
           onChange(fn) { listeners.push(fn); fn(loggedIn); } };
})();
