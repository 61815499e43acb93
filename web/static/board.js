// The virtual board: taps go to the simulated board; the real pipeline scores them.
"use strict";

let profile = null;

function toast(text, ok) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.className = ok ? "ok show" : "show";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ""; }, ok ? 1200 : 5000);
}

async function tap(path, body) {
  const r = await Skitter.api(path, body);
  if (r.status === 401) Referee.check();
  if (!r.ok) toast(Skitter.errorText(r));
}

function draw(s) {
  const v = s.virtual;
  document.getElementById("no-sim").classList.toggle("hidden", Boolean(v));
  if (!v || !profile) return;
  const st = s.state;
  const turn = st.turn;
  const aim = turn ? `${Skitter.nameOf(s, turn)} shoots at ${Skitter.nameOf(s, turn === "black" ? "white" : "black")}'s fields, ${turn === "black" ? "top" : "bottom"}. ` : "";
  document.getElementById("message").textContent = aim + ((s.words && s.words.board) || s.tracker.message);
  document.getElementById("score").textContent =
    `${Skitter.nameOf(s, "black")} ${st.score.black} : ${st.score.white} ${Skitter.nameOf(s, "white")}`;
  const onBridge = new Set((v.bridges || []).map((b) => b.join("/")));
  Skitter.drawBoard(document.getElementById("vboard"), {
    counts: v.counts, expected: st.board, blocked: st.blocked, colors: st.rules.colors,
    names: s.names, big: v.big,
    differences: s.tracker.mode === "ready" ? {} : s.tracker.differences,
    bridges: profile.bridges.map((f) => ({ fields: f, on: onBridge.has(f.join("/")) })),
    interactive: true,
    onField: (field, long) => tap(long ? "/api/board/remove" : "/api/board/place", { field }),
    onBig: (player) => tap("/api/board/big", { player, on: !v.big[player] }),
    onLaunch: (player) => tap("/api/board/launch", { player }),
    onBridge: (a, b, on) => tap("/api/board/bridge", { fields: [a, b], on }),
  });
}

Referee.wire(document.getElementById("login"));
document.getElementById("lay-out").onclick = () => tap("/api/board/lay-out", {});
Skitter.api("/api/board").then((r) => {
  if (r.ok) profile = r.data.profile;
  if (Skitter.state) draw(Skitter.state);
});
Skitter.onState(draw);
Referee.check();
Skitter.start();
