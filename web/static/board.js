// The virtual board: taps go to the simulated board; the real pipeline scores them.

import { drawBoard } from "./board-drawing.js";
import { h, toast } from "./dom.js";
import { fitHeight } from "./fit.js";
import { Skitter } from "./live.js";
import { Referee } from "./referee-login.js";
import { drawn, staleText } from "./tablet-send.js";
import { num, t } from "./words.js";

let profile = null;

// A refused tap is explained over the spot that was tapped, where the player is looking
// (issue 13, item 14); a refusal of a button (the lay-out) goes to the toast at the bottom.
function hideNote() {
  clearTimeout(noteAt.timer);
  document.getElementById("tap-note").classList.add("hidden");
}

function noteAt(key, text) {
  const target = document.querySelector(`#vboard [data-press-key="${CSS.escape(key)}"]`);
  if (!target) { toast(text); return; }
  const note = document.getElementById("tap-note");
  note.textContent = text;
  note.classList.remove("hidden");
  const wrap = document.getElementById("board-wrap").getBoundingClientRect();
  const spot = (target.querySelector(".field-rect") || target).getBoundingClientRect();
  const box = note.getBoundingClientRect();
  const centre = spot.left - wrap.left + spot.width / 2;
  const left = Math.max(0, Math.min(centre - box.width / 2, wrap.width - box.width));
  // just under the spot, over its lower edge; above it where the board or the screen ends
  // below (the tap scrolled the spot into view, so one of the two is on screen)
  const below = spot.bottom - 8;
  const top = below + box.height > Math.min(wrap.bottom, window.innerHeight)
    ? spot.top - box.height + 8 : below;
  note.style.left = `${left}px`;
  note.style.top = `${Math.max(0, top - wrap.top)}px`;
  clearTimeout(noteAt.timer);
  noteAt.timer = setTimeout(hideNote, 6000);
}

async function tap(path, body, key, done) {
  const r = await Skitter.api(path, body);
  if (r.status === 401) Referee.check();
  if (r.ok) { if (done) toast(done, true); return; }
  if (r.status === 409 && !key) { toast(staleText(r, t("Not laid out"))); return; }
  if (key) noteAt(key, Skitter.errorText(r));
  else toast(Skitter.errorText(r));
}

function draw(s) {
  const v = s.virtual;
  document.getElementById("no-sim").classList.toggle("hidden", Boolean(v));
  if (!v || !profile) return;
  const st = s.state;
  const turn = st.turn;
  // who aims where: the first player sits at the bottom and shoots at the top fields
  const aimArgs = turn && { who: Skitter.nameOf(s, turn),
    other: Skitter.nameOf(s, turn === "black" ? "white" : "black") };
  const aim = !turn ? "" : turn === "black"
    ? t("{who} shoots at {other}'s fields, top.", aimArgs)
    : t("{who} shoots at {other}'s fields, bottom.", aimArgs);
  document.getElementById("aim").textContent = aim;
  document.getElementById("message").textContent = (s.words && s.words.board) || s.tracker.message;
  // each player's name and points on a line of their own: a narrow column beside the words
  document.getElementById("score").replaceChildren(...["black", "white"].flatMap((p) => [
    h("span", { class: "who" }, Skitter.nameOf(s, p)), h("b", {}, String(st.score[p]))]));
  const onBridge = new Set((v.bridges || []).map((b) => b.join("/")));
  // Skitts beyond what a field's cells count lie there unseen, as on a real board.
  const over = v.over || {};
  document.getElementById("full-note").textContent = Object.keys(over).map((f) =>
    t("{where} is full: more than the sensors count ({n} on it, the sensors count " +
      "{sensed}).", { where: Skitter.fieldLabel(s, f), n: v.counts[f], sensed: v.sensed[f] }))
    .join(" ");
  // the words' box keeps its height whatever they say: the board below never moves
  fitHeight(document.getElementById("words"), document.getElementById("words-text"));
  drawFlick(s, v.flick);
  drawBoard(document.getElementById("vboard"), {
    counts: v.counts, expected: st.board, blocked: st.blocked, colors: st.rules.colors,
    names: s.names, fields: (s.words || {}).fields, big: v.big, full: over,
    differences: s.tracker.mode === "ready" ? {} : s.tracker.differences,
    bridges: profile.bridges.map((f) => ({ fields: f, on: onBridge.has(f.join("/")) })),
    interactive: true,
    onField: (field, long) =>
      tap(long ? "/api/board/remove" : "/api/board/place", { field }, `field:${field}`),
    onBig: (player) => tap("/api/board/big", { player, on: !v.big[player] }, `big:${player}`),
    onLaunch: (player) => tap("/api/board/launch", { player }, `launch:${player}`),
    onBridge: (a, b, on) => tap("/api/board/bridge", { fields: [a, b], on }, `bridge:${a}/${b}`),
  });
}

// The physics board: the player due flicks a skitt; it rolls over the cells as the server's
// clock runs (the counts above change as it passes), and the shot counts once it is still.
function showFlick() {
  const speed = Number(document.getElementById("flick-speed").value);
  const angle = Number(document.getElementById("flick-angle").value);
  document.getElementById("flick-speed-shown").textContent =
    t("{speed} m/s", { speed: num(speed / 1000, 2) });
  document.getElementById("flick-angle-shown").textContent = t("{angle}°", { angle: num(angle) });
}

function drawFlick(s, flick) {
  document.body.classList.toggle("physics", Boolean(flick));
  document.getElementById("flick").classList.toggle("hidden", !flick);
  if (!flick) return;
  const speed = document.getElementById("flick-speed");
  [speed.min, speed.max] = flick.speeds;
  const angle = document.getElementById("flick-angle");
  [angle.min, angle.max] = [-flick.max_angle, flick.max_angle];
  showFlick();
  const turn = s.state.turn;
  const go = document.getElementById("flick-go");
  go.disabled = flick.rolling || !turn;
  go.dataset.player = turn || "";
  go.textContent = turn ? t("{who} flicks", { who: Skitter.nameOf(s, turn) }) : t("Flick");
  document.getElementById("rolling").textContent =
    flick.rolling ? t("The skitt is rolling…") : "";
}

for (const id of ["flick-speed", "flick-angle"]) {
  document.getElementById(id).addEventListener("input", showFlick);
}
document.getElementById("flick-go").onclick = (event) => tap("/api/board/flick", {
  player: event.currentTarget.dataset.player,
  speed: Number(document.getElementById("flick-speed").value),
  angle: Number(document.getElementById("flick-angle").value),
}, "");

Referee.wire(document.getElementById("login"));
document.getElementById("vboard").addEventListener("pointerdown", hideNote);
window.addEventListener("resize", hideNote);
// Laying the board out is a decision (taps are physical acts): it carries the state drawn
// when the referee pressed it; the match changed meanwhile, it is refused and the toast says
// what changed.
document.getElementById("lay-out").onclick = () =>
  tap("/api/board/lay-out", drawn(), "", t("The board lies as the match expects"));
Skitter.api("/api/board").then((r) => {
  if (r.ok) profile = r.data.profile;
  if (Skitter.state) draw(Skitter.state);
});
Skitter.onState(draw);
Referee.check();
Skitter.start();
