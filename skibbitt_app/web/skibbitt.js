// Skibbitt's page: the title screen and the game. Puzzles (and every Triplitt's score and
// name) come from the server; this page keeps the player's moves, bookmarks, hints and timer.
import { play } from "./sound.js";
import { drawTile, letterOf, tileSvg } from "./tile-art.js";
import { WORDS } from "./words.js";

{
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const lang = chooseLanguage();
  const W = WORDS[lang];
  const LEVELS = { easy: 1, standard: 2, expert: 3 };
  const STORE = { muted: "skibbitt.muted", quality: "skibbitt.quality", used: "skibbitt.hintsUsed",
    solved: "skibbitt.solved", level: "skibbitt.level" };

  function chooseLanguage() {
    const asked = params.get("lang");
    if (asked && WORDS[asked]) return asked;
    for (const l of navigator.languages || []) {
      const code = l.slice(0, 2).toLowerCase();
      if (WORDS[code]) return code;
    }
    return "en";
  }
  function t(key, vars) {
    let s = W[key] !== undefined ? W[key] : WORDS.en[key];
    for (const [k, v] of Object.entries(vars || {})) s = s.replace("{" + k + "}", v);
    return s;
  }
  function stored(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }

  // ---- the state: one owner, drawn by draw() ----
  let P = null;           // the puzzle from the server
  let S = null;           // the player's game
  let level = stored(STORE.level, "standard");
  if (!LEVELS[level]) level = "standard";

  function newGame(puzzle) {
    P = puzzle;
    P.k = LEVELS[P.difficulty];
    P.index = {};
    P.tiles.forEach((tile, i) => { P.index[tile.code] = i; });
    P.bestIdx = P.best.map((codes) => codes.map((c) => P.index[c]).sort((a, b) => a - b));
    S = { round: 0, chosen: [], work: [], marks: [], finished: false, revealed: false,
      peeked: false, hintRounds: [], start: performance.now(), stop: null, note: "" };
  }
  const roundOf = (i) => (i < 3 + P.k ? 0 : i < 3 + 2 * P.k ? 1 : 2);
  const key = (idx) => idx.slice().sort((a, b) => a - b).join(",");
  const same = (a, b) => a.length === b.length && key(a) === key(b);
  const scored = (idx) => P.triplitts[key(idx)];
  function pool(round) {
    const fresh = P.tiles.map((_, i) => i).filter((i) => roundOf(i) === round);
    return round === 0 ? fresh : S.chosen[round - 1].concat(fresh);
  }
  function status(i) {
    const round = S.finished ? 2 : S.round;
    if (roundOf(i) > round) return "future";
    if (!S.finished && pool(round).includes(i)) {
      return round > 0 && S.chosen[round - 1].includes(i) ? "carried" : "available";
    }
    return S.chosen.some((c) => c.includes(i)) ? "played" : "rejected";
  }
  const playable = (i) => !S.finished && ["available", "carried", "future"].includes(status(i));
  const total = () => S.chosen.reduce((sum, c) => sum + scored(c).score, 0);

  // ---- drawing ----
  function tileWords(tile) {
    return W.colors[tile.color - 1] + " " + W.shapes[tile.shape - 1] + " " + letterOf(tile);
  }
  function tileButton(i, interactive) {
    const tile = P.tiles[i];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile";
    b.dataset.code = tile.code;
    b.innerHTML = tileSvg(tile);
    if (!interactive) { b.tabIndex = -1; b.setAttribute("aria-label", tileWords(tile)); return b; }
    const st = status(i);
    b.dataset.status = st;
    b.classList.add(st);
    if (S.work.includes(i)) b.classList.add("in-work");
    b.setAttribute("aria-pressed", S.work.includes(i) ? "true" : "false");
    const stWord = st === "future" ? t("status_future", { n: roundOf(i) + 1 }) : t("status_" + st);
    b.setAttribute("aria-label", tileWords(tile) + ", " + stWord);
    b.title = b.getAttribute("aria-label");
    b.addEventListener("click", () => toggle(i));
    return b;
  }
  function miniTiles(idx) {
    const span = document.createElement("span");
    span.className = "tiles mini";
    idx.forEach((i) => span.appendChild(tileButton(i, false)));
    return span;
  }

  function draw() {
    document.body.dataset.screen = "game";
    document.body.dataset.round = String(S.round + 1);
    document.body.dataset.state = S.finished ? (total() === P.max_score ? "won" : "lost") : "playing";
    $("title-screen").hidden = true;
    $("game-screen").hidden = false;
    $("kind").textContent = P.kind === "daily" ? t("kind_daily", { date: P.date }) : t("kind_single", { seed: P.seed });
    $("level").textContent = t(P.difficulty);
    $("level").className = "badge " + P.difficulty;
    const rounds = $("rounds");
    rounds.textContent = "";
    for (let r = 0; r < 3; r++) {
      const li = document.createElement("li");
      li.textContent = t("round_n", { n: r + 1 });
      if (!S.finished && r === S.round) { li.className = "current"; li.setAttribute("aria-current", "step"); }
      else if (r < S.round || S.finished) li.className = "done";
      rounds.appendChild(li);
    }
    $("score").textContent = String(total());
    drawDeal();
    drawWork();
    drawChain();
    drawMarks();
    drawResult();
    drawMute();
    tick();
  }
  function drawDeal() {
    const deal = $("deal");
    deal.textContent = "";
    for (let r = 0; r < 3; r++) {
      const box = document.createElement("div");
      box.className = "deal-round" + (!S.finished && r === S.round ? " current" : "");
      box.dataset.round = String(r + 1);
      const h = document.createElement("h3");
      h.textContent = t("round_n", { n: r + 1 });
      const row = document.createElement("div");
      row.className = "tile-row";
      P.tiles.forEach((_, i) => { if (roundOf(i) === r) row.appendChild(tileButton(i, true)); });
      box.append(h, row);
      deal.appendChild(box);
    }
  }
  function drawWork() {
    const slots = $("slots");
    slots.textContent = "";
    for (let j = 0; j < 3; j++) {
      if (j < S.work.length) {
        const b = tileButton(S.work[j], true);
        b.classList.remove("in-work");
        b.dataset.slot = String(j);
        slots.appendChild(b);
      } else {
        const s = document.createElement("span");
        s.className = "slot";
        slots.appendChild(s);
      }
    }
    if (S.work.length === 3) {
      const tr = scored(S.work);
      $("work-name").textContent = tr.name + " — " + t("points", { n: tr.score });
    } else {
      $("work-name").textContent = [t("pick_three"), t("pick_two"), t("pick_one")][S.work.length];
    }
    $("work-note").textContent = S.note;
    const inPool = S.work.length === 3 && S.work.every((i) => pool(S.round).includes(i));
    $("select").disabled = S.finished || !inPool;
    $("clear").disabled = S.work.length === 0;
    $("undo").disabled = S.chosen.length === 0;
    $("bookmark").disabled = S.work.length !== 3 || S.marks.length >= 10;
    $("hint").textContent = t("hint", { n: hintsLeft() });
    $("hint").disabled = S.finished;
    $("reveal").disabled = S.revealed;
  }
  function chainColumn(title, chains, compare) {
    const col = document.createElement("div");
    col.className = "chain-col";
    const h = document.createElement("h3");
    h.textContent = title;
    col.appendChild(h);
    for (let r = 0; r < 3; r++) {
      const row = document.createElement("div");
      row.className = "chain-row";
      row.dataset.round = String(r + 1);
      const label = document.createElement("strong");
      label.textContent = t("round_label", { n: r + 1 });
      const what = document.createElement("span");
      what.className = "what";
      row.appendChild(label);
      if (chains[r]) {
        const tr = scored(chains[r]);
        what.textContent = tr.name + " · " + tr.score;
        row.append(miniTiles(chains[r]), what);
        if (compare) row.classList.add(same(chains[r], P.bestIdx[r]) ? "good" : "bad");
      } else {
        what.textContent = t("none_yet");
        row.appendChild(what);
      }
      col.appendChild(row);
    }
    return col;
  }
  function drawChain() {
    const chain = $("chain");
    chain.textContent = "";
    chain.classList.toggle("revealed", S.revealed);
    const compare = S.revealed;
    const mine = chainColumn(t("your_chain"), S.chosen, compare);
    mine.dataset.chain = "yours";
    chain.appendChild(mine);
    if (S.revealed) {
      const best = chainColumn(t("best_chain"), P.bestIdx, false);
      best.dataset.chain = "best";
      best.querySelectorAll(".chain-row").forEach((row) => row.classList.add("good"));
      const total = document.createElement("p");
      total.textContent = t("your_score", { score: totalOf(S.chosen), max: P.max_score });
      best.appendChild(total);
      chain.appendChild(best);
    } else {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = t("swipe");
      mine.appendChild(p);
    }
  }
  const totalOf = (chains) => chains.reduce((sum, c) => sum + scored(c).score, 0);
  function drawMarks() {
    const ul = $("marks");
    ul.textContent = "";
    S.marks.forEach((m, j) => {
      const li = document.createElement("li");
      li.dataset.mark = key(m);
      if (same(m, S.work)) li.className = "current";
      const tr = scored(m);
      const load = document.createElement("button");
      load.type = "button";
      load.className = "load";
      load.append(miniTiles(m), document.createTextNode(" " + tr.name + " · " + tr.score));
      load.setAttribute("aria-label", t("load") + ": " + tr.name + ", " + t("points", { n: tr.score }));
      load.disabled = !m.every(playable);
      load.addEventListener("click", () => loadMark(j));
      const rm = document.createElement("button");
      rm.type = "button";
      rm.textContent = "✕";
      rm.setAttribute("aria-label", t("remove") + ": " + tr.name);
      rm.addEventListener("click", () => { S.marks.splice(j, 1); S.note = ""; draw(); });
      li.append(load, rm);
      ul.appendChild(li);
    });
    $("clear-marks").disabled = S.marks.length === 0;
    $("sort-up").disabled = S.marks.length < 2;
    $("sort-down").disabled = S.marks.length < 2;
  }
  function drawResult() {
    const box = $("result");
    box.hidden = !S.finished;
    if (!S.finished) return;
    const won = total() === P.max_score;
    box.className = "result " + (won ? "won" : "lost");
    $("result-head").textContent = won ? t("won") : t("lost");
    $("result-score").textContent = t("your_score", { score: total(), max: P.max_score });
  }
  function drawMute() {
    const muted = stored(STORE.muted, false);
    $("mute").textContent = muted ? t("sound_off") : t("sound_on");
    $("mute").setAttribute("aria-pressed", muted ? "true" : "false");
  }
  function tick() {
    if (!S) return;
    const end = S.stop === null ? performance.now() : S.stop;
    const secs = Math.floor((end - S.start) / 1000);
    $("timer").textContent = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
  }

  // ---- moves ----
  function say(note) { S.note = note; }
  function toggle(i) {
    say("");
    if (S.work.includes(i)) {
      S.work = S.work.filter((x) => x !== i);
      sound("tap");
    } else if (!playable(i)) {
      say(t("not_available")); sound("no");
    } else if (S.work.length >= 3) {
      say(t("workspace_full")); sound("no");
    } else {
      S.work.push(i);
      if (status(i) === "future") say(t("later_round"));
      sound("tap");
    }
    draw();
  }
  function select() {
    if ($("select").disabled) return;
    S.chosen.push(S.work.slice().sort((a, b) => a - b));
    S.work = [];
    say("");
    if (S.round < 2) { S.round += 1; sound("select"); }
    else finish();
    draw();
    if (S.finished) $("result").scrollIntoView({ block: "nearest" });
  }
  function finish() {
    S.finished = true;
    S.stop = performance.now();
    S.revealed = true;
    const won = total() === P.max_score;
    sound(won ? "win" : "lose");
    if (won && !S.peeked) earnQuality();  // hints allowed; a revealed answer earns nothing
  }
  function earnQuality() {
    const id = P.kind + ":" + P.difficulty + ":" + (P.kind === "daily" ? P.date : P.seed);
    const solved = stored(STORE.solved, []);
    if (solved.includes(id)) return;
    solved.push(id);
    store(STORE.solved, solved.slice(-500));
    store(STORE.quality, stored(STORE.quality, 0) + P.k);
  }
  function undo() {
    if (S.chosen.length === 0) return;
    if (S.finished) {
      S.finished = false;
      S.start += performance.now() - S.stop;  // the timer resumes where it stopped
      S.stop = null;
      S.revealed = S.peeked;
    } else {
      S.round -= 1;
    }
    S.work = S.chosen.pop();
    say("");
    sound("tap");
    draw();
  }
  function reset() {
    S.round = 0; S.chosen = []; S.work = []; S.finished = false; say("");
    if (S.stop !== null) { S.start += performance.now() - S.stop; S.stop = null; }
    S.revealed = S.peeked;
    draw();
  }
  function bookmark() {
    if (S.work.length !== 3) return;
    if (S.marks.some((m) => same(m, S.work))) say(t("mark_twice"));
    else if (S.marks.length >= 10) say(t("marks_full"));
    else { S.marks.push(S.work.slice().sort((a, b) => a - b)); say(""); }
    draw();
  }
  function loadMark(j) {
    const m = S.marks[j];
    if (!m.every(playable)) { say(t("mark_gone")); draw(); return; }
    S.work = m.slice();
    say("");
    draw();
  }
  function sortMarks(dir) {
    S.marks.sort((a, b) => dir * (scored(a).score - scored(b).score));
    draw();
  }
  function hintsLeft() {
    const earned = 5 + Math.floor(stored(STORE.quality, 0) / 50);
    return Math.max(0, earned - stored(STORE.used, 0));
  }
  function hint() {
    if (S.finished) return;
    if (!S.hintRounds.includes(S.round)) {
      if (hintsLeft() <= 0) { say(t("no_hints")); draw(); return; }
      store(STORE.used, stored(STORE.used, 0) + 1);
      S.hintRounds.push(S.round);
    }
    const list = $("hint-list");
    list.textContent = "";
    for (let r = 0; r <= S.round; r++) {
      const li = document.createElement("li");
      const best = P.bestIdx[r];
      const tr = scored(best);
      li.textContent = t("round_label", { n: r + 1 }) + " " + tr.name + " · " + t("points", { n: tr.score });
      const mine = r < S.round ? S.chosen[r] : S.work;
      const good = mine.length === 3 && same(mine, best);
      li.className = good ? "good" : "bad";
      li.dataset.match = good ? "yes" : "no";
      list.appendChild(li);
    }
    $("hint-overlay").hidden = false;
    $("hint-close").focus();
    draw();
  }
  function closeHint() { $("hint-overlay").hidden = true; $("hint").focus(); }
  function reveal() { S.revealed = true; S.peeked = true; draw(); }

  // ---- sound, muted on request (remembered) ----
  function sound(what) {
    if (!stored(STORE.muted, false)) play(what);
  }

  // ---- Boast: the solved board as a picture file ----
  function boast() {
    const c = $("boast-canvas");
    const g = c.getContext("2d");
    g.fillStyle = "#14202b"; g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = "#f2f5f7"; g.font = "bold 56px DejaVu Sans, sans-serif";
    g.fillText("Skibbitt", 40, 80);
    g.font = "30px DejaVu Sans, sans-serif";
    g.fillText($("kind").textContent + " · " + t(P.difficulty) + " · " + $("timer").textContent, 40, 130);
    S.chosen.forEach((idx, r) => {
      const y = 170 + r * 140;
      const good = same(idx, P.bestIdx[r]);
      g.fillStyle = good ? "rgba(47,168,79,0.35)" : "rgba(214,69,69,0.35)";
      g.fillRect(30, y - 10, 1140, 125);
      idx.forEach((i, j) => drawTile(g, P.tiles[i], 50 + j * 115, y, 100));
      const tr = scored(idx);
      g.fillStyle = "#f2f5f7"; g.font = "bold 32px DejaVu Sans, sans-serif";
      g.fillText(t("round_label", { n: r + 1 }) + " " + tr.name, 420, y + 45);
      g.font = "30px DejaVu Sans, sans-serif";
      g.fillText(t("points", { n: tr.score }), 420, y + 90);
    });
    g.font = "bold 36px DejaVu Sans, sans-serif";
    g.fillText(t("your_score", { score: total(), max: P.max_score }), 40, 650);
    c.toBlob((blob) => {
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "skibbitt-" + (P.kind === "daily" ? P.date : P.seed) + ".png";
      document.body.appendChild(a);
      a.click();
      a.remove();
      say(t("saved"));
      draw();
    }, "image/png");
  }
  // ---- loading puzzles and the title screen ----
  async function load(url) {
    const r = await fetch(url);
    const body = await r.json();
    if (!r.ok) throw new Error(typeof body.detail === "string" ? body.detail : r.status + " " + r.statusText);
    return body;
  }
  function today() {
    const d = new Date();
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  }
  async function start(kind, seed) {
    try {
      const url = kind === "daily" ? "/puzzle/api/daily?date=" + today() + "&difficulty=" + level
        : "/puzzle/api/new?difficulty=" + level + (seed !== undefined && seed !== null ? "&seed=" + encodeURIComponent(seed) : "");
      newGame(await load(url));
      draw();
      const first = document.querySelector(".deal-round.current .tile");
      if (first) first.focus();
    } catch (e) {
      showTitle();
      $("title-error").hidden = false;
      $("title-error").textContent = t("load_failed", { why: e.message });
    }
  }
  function showTitle() {
    P = null; S = null;
    document.body.dataset.screen = "title";
    delete document.body.dataset.state;
    $("game-screen").hidden = true;
    $("title-screen").hidden = false;
    document.querySelectorAll(".level").forEach((b) => b.setAttribute("aria-pressed", b.dataset.level === level ? "true" : "false"));
    $("hints-left").textContent = t("hints_left", { n: hintsLeft() });
    const day = Math.floor(Date.now() / 86400000);
    $("motd").textContent = W.motd[day % W.motd.length];
  }
  function newPuzzle() {
    if (P.kind === "daily") showTitle();
    else start("single");
  }

  // ---- wiring ----
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  $("howto").href = "/puzzle/how-to-play.html?lang=" + lang;
  document.querySelectorAll(".level").forEach((b) => b.addEventListener("click", () => {
    level = b.dataset.level; store(STORE.level, level); showTitle();
  }));
  $("start-daily").addEventListener("click", () => start("daily"));
  $("start-single").addEventListener("click", () => start("single"));
  $("select").addEventListener("click", select);
  $("clear").addEventListener("click", () => { S.work = []; say(""); draw(); });
  $("undo").addEventListener("click", undo);
  $("result-undo").addEventListener("click", undo);
  $("bookmark").addEventListener("click", bookmark);
  $("hint").addEventListener("click", hint);
  $("hint-close").addEventListener("click", closeHint);
  $("hint-overlay").addEventListener("click", (e) => { if (e.target === $("hint-overlay")) closeHint(); });
  $("reveal").addEventListener("click", reveal);
  $("sort-up").addEventListener("click", () => sortMarks(1));
  $("sort-down").addEventListener("click", () => sortMarks(-1));
  $("clear-marks").addEventListener("click", () => { S.marks = []; draw(); });
  $("reset").addEventListener("click", reset);
  $("new-puzzle").addEventListener("click", newPuzzle);
  $("result-new").addEventListener("click", newPuzzle);
  $("to-title").addEventListener("click", showTitle);
  $("boast").addEventListener("click", boast);
  $("mute").addEventListener("click", () => { store(STORE.muted, !stored(STORE.muted, false)); drawMute(); });
  let swipeX = null;
  $("chain").addEventListener("pointerdown", (e) => { swipeX = e.clientX; });
  $("chain").addEventListener("pointerup", (e) => {
    if (swipeX !== null && swipeX - e.clientX > 60 && S && !S.revealed) reveal();
    swipeX = null;
  });
  document.addEventListener("keydown", (e) => {
    if (!S || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && !$("hint-overlay").hidden) { closeHint(); return; }
    if (!$("hint-overlay").hidden) return;
    const act = { s: select, c: () => $("clear").click(), u: undo, b: bookmark, h: hint }[e.key.toLowerCase()];
    if (act) { e.preventDefault(); act(); }
  });
  setInterval(tick, 500);
  load("/puzzle/api/about").then((a) => { $("version").textContent = a.version; }).catch(() => {});

  if (params.get("daily") !== null) {
    if (LEVELS[params.get("difficulty")]) level = params.get("difficulty");
    start("daily");
  } else if (params.get("seed") !== null) {
    if (LEVELS[params.get("difficulty")]) level = params.get("difficulty");
    start("single", params.get("seed"));
  } else {
    showTitle();
  }
}
