// The live state stream every board page follows: the latest snapshot, the API calls that
// bring a newer one, and the words of a refusal. The snapshot carries every word a page
// shows about the players (their names, fields, handicaps, effects): a page never makes them.

import { api as call, errorText as refusal, socket } from "./api.js";
import { h } from "./dom.js";
import { t } from "./words.js";

const listeners = [];
let state = null;
let connected = false;

function accept(snapshot) {
  // A snapshot is complete: show it when it is newer, or from a restarted server.
  if (!snapshot || typeof snapshot.seq !== "number") return;
  if (state && snapshot.boot === state.boot && snapshot.seq <= state.seq) return;
  state = snapshot;
  document.body.dataset.seq = String(snapshot.seq);
  for (const fn of listeners) {
    try { fn(state); } catch (err) { console.error(err); }
  }
}

function setLink(ok) {
  // Back after a drop (perhaps a restarted server, which forgets sessions): pages that
  // hold a login check it again before the next tap.
  if (ok && !connected) document.dispatchEvent(new Event("skitter-connected"));
  connected = ok;
  const el = document.getElementById("live-status");
  if (el) el.textContent = ok ? t("live") : t("reconnecting…");
}

async function api(path, body, method) {
  const result = await call(path, body, method);
  const data = result.data;
  if (data && data.seq !== undefined && data.state) accept(data);
  if (result.status === 409 && data && data.state) accept(data.state);
  return result;
}

// A 409 says what changed meanwhile (the server's words) and that nothing was done.
function errorText(result, plain) {
  const text = refusal(result, plain);
  if (result.status !== 409) return text;
  const what = (result.data && result.data.meanwhile) || [];
  const said = what.join("; ");
  return t("Not done: someone else changed the match first.") +
    (said ? ` ${said[0].toUpperCase()}${said.slice(1)}.` : "") +
    " " + t("This page now shows the match as it is.");
}

// The server names every side (a name, or the seat in words) and every field ("Bo's red"):
// a page never shows a colour of a seat.
function nameOf(s, player) { return (s && s.names && s.names[player]) || ""; }
function fieldLabel(s, field) {
  return (s && s.words && s.words.fields && s.words.fields[field]) || "";
}

// `skip`: kinds the page says elsewhere (the TV's turn line asks for the shoot-off already)
function renderAlerts(box, s, skip = []) {
  box.replaceChildren(...(s.alerts || []).filter((a) => !skip.includes(a.kind)).map((a) =>
    h("div", { class: `alert alert-${a.kind}` }, a.message)));
}

function start() {
  socket("/ws", accept, setLink);
  api("/api/state").then((r) => { if (r.ok) accept(r.data); });
}

export const Skitter = {
  get state() { return state; },
  onState(fn) { listeners.push(fn); if (state) fn(state); },
  start, api, errorText, renderAlerts, nameOf, fieldLabel,
  get connected() { return connected; },
};
