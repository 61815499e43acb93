// Shot review: replay one step of the match log from what the sensors recorded.
// The referee page opens it from the log (a "review" button on each row); the scoreboard
// mirrors it when the referee chooses to show it there (Review.mirror on each state).

import { Skitter } from "./live.js";
import { drawBoard } from "./board-drawing.js";
import { h, $, toast } from "./dom.js";
import { num, t } from "./words.js";
import { drawn, staleText } from "./tablet-send.js";

export const Review = (() => {
  const SPEEDS = { "1": 1, "0.25": 0.25 };
  let data = null;      // the review of the open step (GET /api/match/log/{seq}/review)
  let index = 0;        // the frame shown
  let at = 0;           // ms into the timeline
  let playing = null;   // {speed, from, started} while playing
  let shown = false;    // mirrored on the scoreboard
  let mirrorData = null;
  let mirrorKey = "";
  let mirrorTimer = null;

  function frameAt(frames, ms) {
    let i = 0;
    while (i + 1 < frames.length && frames[i + 1].ms <= ms) i++;
    return i;
  }

  // The board of one frame, with the bridges a skitt lay on (a chain shows on the board).
  function boardOf(s, frame, review) {
    const big = {};
    for (const [p, on] of Object.entries(frame.big || {})) big[p] = on ? "center" : null;
    const on = new Set((frame.bridges || []).map((b) => b.join("/")));
    const bridges = ((review && review.bridges) || []).map((f) => ({ fields: f, on: on.has(f.join("/")) }));
    return { counts: frame.counts, big, colors: s.state.rules.colors, names: s.names,
             fields: (s.words || {}).fields, bridges };
  }

  function changeWords(frame, i, total) {
    if (frame.cell === undefined) return t("the board at rest before the shot");
    return frame.on
      ? t("change {i} of {total}: a skitt arrived on {place}", { i, total, place: frame.place })
      : t("change {i} of {total}: a skitt left {place}", { i, total, place: frame.place });
  }

  // -- the referee's panel ------------------------------------------------------------------

  let seen = null;  // the state shown when the review opened: what an amendment is made on
  async function open(seq) {
    stop();
    seen = Skitter.state ? { seq: Skitter.state.seq, boot: Skitter.state.boot } : null;
    const r = await Skitter.api(`/api/match/log/${seq}/review`);
    const panel = $("review");
    if (!r.ok) { panel.hidden = false; $("review-body").textContent = Skitter.errorText(r); return; }
    data = r.data;
    index = 0;
    at = 0;
    panel.hidden = false;
    render();
    panel.scrollIntoView({ block: "start" });
  }

  function render() {
    const s = Skitter.state;
    if (!data || !s) return;
    const frames = data.frames;
    const total = Math.max(0, frames.length - 1);
    const end = data.settled_ms || 0;
    $("review-title").textContent = t("Review of step {n}", { n: data.seq });
    const sensed = data.source === "sensor";
    $("review-body").replaceChildren(h("div", { class: "review-words" },
      h("p", {}, h("strong", {}, sensed ? t("The sensors concluded:")
        : t("Entered by hand:")), " ",
        h("span", { id: "review-concluded" }, data.recorded)),
      h("p", {}, h("strong", {}, t("The match recorded:")), " ", data.recorded),
      data.ruling ? h("p", { class: "review-ruling", id: "review-ruling" }, data.ruling) : null,
      h("p", { class: "muted" }, t("Score after this step: {score}", { score: data.score })),
      data.later.length ? [h("p", {}, h("strong", {}, t("Later:"))),
        h("ul", {}, data.later.map((l) => h("li", {}, l)))] : null,
      data.note ? h("p", { class: "review-note" }, data.note) : null));
    const has = frames.length > 0;
    $("review-player").hidden = !has;
    if (!has) return;
    index = Math.min(index, total);
    const frame = frames[index];
    drawBoard($("review-board"), boardOf(s, frame, data));
    const scrub = $("review-scrub");
    scrub.max = String(Math.max(end, frames[total].ms));
    scrub.value = String(Math.round(at));
    $("review-time").textContent =
      t("{at} s of {end} s", { at: num(at / 1000, 2),
        end: num(Math.max(end, frames[total].ms) / 1000, 2) });
    $("review-change").textContent = changeWords(frame, index, total);
    $("review-cell").textContent = frame.where
      ? t("sensor detail: {where}", { where: frame.where }) : "";
    $("review-prev").disabled = index === 0;
    $("review-next").disabled = index === total;
    $("review-amend").hidden = !data.can_amend;
    $("review-show").textContent = shown ? t("End the review on the scoreboard")
      : t("Show the review on the scoreboard");
  }

  function go(i) {
    if (!data || !data.frames.length) return;
    stop();
    index = Math.max(0, Math.min(i, data.frames.length - 1));
    at = data.frames[index].ms;
    render();
    sync();
  }

  function seek(ms) {
    if (!data) return;
    at = ms;
    index = frameAt(data.frames, ms);
    render();
  }

  function play(speed) {
    if (!data || !data.frames.length) return;
    const end = Math.max(data.settled_ms || 0, data.frames[data.frames.length - 1].ms);
    if (at >= end) at = 0;
    playing = { speed, from: at, started: performance.now() };
    sync();
    const tick = () => {
      if (!playing) return;
      const ms = playing.from + (performance.now() - playing.started) * playing.speed;
      seek(Math.min(ms, end));
      if (ms >= end) { playing = null; sync(); return; }
      playing.frame = requestAnimationFrame(tick);
    };
    tick();
  }

  function stop() {
    if (playing && playing.frame) cancelAnimationFrame(playing.frame);
    playing = null;
  }

  // Showing the review on the scoreboard is a change like any other: it carries the state
  // the referee saw when they opened the review (ending it, the state drawn now). Made after
  // the match changed, it is refused (409) and the toast says what changed; the review then
  // counts as seen on the match as it is, so the next tap goes through.
  function refused(r) {
    if (r.status === 409) {
      seen = drawn();
      toast(staleText(r, t("Not shown on the scoreboard")));
    } else toast(Skitter.errorText(r));
  }

  async function sync() {
    if (!shown || !data) return true;
    const mine = seen || drawn();
    const r = await Skitter.api("/api/referee/review-show", {
      seq: data.seq, ms: Math.round(at), playing: !!playing, speed: playing ? playing.speed : 1,
      seen: mine.seq, boot: mine.boot,
    });
    if (!r.ok) refused(r);
    return r.ok;
  }

  async function toggleShow() {
    if (!data) return;
    shown = !shown;
    if (shown) shown = await sync();
    else {
      const now = drawn();
      const r = await Skitter.api("/api/referee/review-show",
        { seq: null, seen: now.seq, boot: now.boot });
      if (!r.ok) refused(r);
    }
    render();
  }

  async function amend(form) {
    const extra = {};
    const off = Number(form.elements.off_board.value || 0);
    if (off) extra.off_board = off;
    if (form.elements.invalid.checked) extra.invalid = true;
    if (!Object.keys(extra).length) { toast(t("nothing to add to the shot")); return; }
    const r = await Skitter.api("/api/match/amend",
      { ...extra, seq: seen ? seen.seq : Skitter.state.seq, boot: seen ? seen.boot : undefined });
    if (!r.ok) { toast(Skitter.errorText(r)); return; }  // a 409 says what changed
    toast(t("the last shot was amended"), true);
    form.reset();
    await open(data.seq);  // the review stays on the shot, now with its amendment
  }

  async function close() {
    stop();
    if (shown) await toggleShow();
    data = null;
    $("review").hidden = true;
  }

  function wire() {
    const log = $("log");
    if (!log || !$("review")) return;
    log.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-review]");
      if (b) open(Number(b.dataset.review));
    });
    $("review-prev").onclick = () => go(index - 1);
    $("review-next").onclick = () => go(index + 1);
    $("review-play").onclick = () => play(1);
    $("review-slow").onclick = () => play(SPEEDS["0.25"]);
    $("review-pause").onclick = () => { stop(); sync(); };
    $("review-scrub").oninput = (ev) => { stop(); seek(Number(ev.target.value)); };
    $("review-scrub").onchange = () => sync();
    $("review-close").onclick = close;
    $("review-show").onclick = toggleShow;
    $("review-download").onclick = () => {
      if (data) window.location.href = `/api/match/log/${data.seq}/review-file`;
    };
    $("review-amend").onsubmit = (ev) => { ev.preventDefault(); amend(ev.target); };
  }

  // The review's row button, for the referee's log table.
  function button(entry) {
    return h("button", { class: "secondary review-open", type: "button",
      dataset: { review: String(entry.seq) } }, t("review"));
  }

  // -- the scoreboard's mirror ----------------------------------------------------------------

  async function mirror(s) {
    const box = $("review-mirror");
    if (!box) return;
    const want = s.review_shown;
    clearInterval(mirrorTimer);
    mirrorTimer = null;
    if (!want) { box.hidden = true; return; }
    // the step's words change when the match's log does (an amendment): fetched again then
    const key = `${want.seq}/${s.match_id}/${s.log_length}`;
    if (!mirrorData || mirrorKey !== key) {
      const r = await Skitter.api(`/api/match/log/${want.seq}/review`);
      if (!r.ok) { box.hidden = true; return; }
      mirrorData = r.data;
      mirrorKey = key;
    }
    box.hidden = false;
    const amended = mirrorData.amended;
    $("review-mirror-words").textContent = (amended
      ? t("Replay of the shot, amended: {what}", { what: amended })
      : t("Replay of the shot: {what}", { what: mirrorData.recorded })) +
      ((amended ? mirrorData.amended_ruling : mirrorData.ruling) ? " " + t("(ruled invalid)") : "");
    const frames = mirrorData.frames;
    if (!frames.length) return;
    const end = Math.max(mirrorData.settled_ms || 0, frames[frames.length - 1].ms);
    const started = performance.now();
    const draw = () => {
      const ms = want.playing
        ? Math.min(end, want.ms + (performance.now() - started) * want.speed) : want.ms;
      drawBoard($("review-mirror-board"), boardOf(s, frames[frameAt(frames, ms)], mirrorData));
      if (ms >= end) { clearInterval(mirrorTimer); mirrorTimer = null; }
    };
    draw();
    if (want.playing) mirrorTimer = setInterval(draw, 50);
  }

  return { wire, open, button, mirror };
})();
