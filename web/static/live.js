// Shared by every page: the live state stream, the JSON API, and drawing the board.
// No framework and nothing from the internet: plain DOM and SVG.
"use strict";

const Skitter = (() => {
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
    if (el) el.textContent = ok ? "live" : "reconnecting…";
  }

  async function api(path, body, method) {
    const result = await Common.api(path, body, method);
    const data = result.data;
    if (data && data.seq !== undefined && data.state) accept(data);
    if (result.status === 409 && data && data.state) accept(data.state);
    return result;
  }

  // A 409 says what changed meanwhile (the server's words) and that nothing was done.
  function errorText(result) {
    const text = Common.errorText(result);
    if (result.status !== 409) return text;
    const what = (result.data && result.data.meanwhile) || [];
    const said = what.join("; ");
    return "Not done: someone else changed the match first." +
      (said ? ` ${said[0].toUpperCase()}${said.slice(1)}.` : "") +
      " This page now shows the match as it is.";
  }

  // -- words and colours ------------------------------------------------------------------

  const COLOURS = { red: "#d9362b", yellow: "#e9bf1c", blue: "#2f6fd8", green: "#2f9e44",
                    orange: "#f08c00", purple: "#8e44ad", white: "#eee", black: "#333" };
  function colourOf(name) {
    if (COLOURS[name]) return COLOURS[name];
    let h = 0;
    for (const ch of String(name)) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return `hsl(${h} 60% 50%)`;
  }
  // The server names every side (a name, or the seat in words): a page never shows a colour.
  function nameOf(s, player) { return (s && s.names && s.names[player]) || ""; }
  function fieldLabel(s, field) {
    if (field === "minus") return "minus";
    const [side, colour] = field.split(".");
    return `${nameOf(s, side)}'s ${colour}`;
  }
  function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }

  // -- the board drawing --------------------------------------------------------------------

  function el(tag, attrs, parent, text) {
    const node = Common.svg(tag, attrs, text);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Geometry of the board: white sits at the top, black at the bottom; each player's
  // colour fields lie in front of them, the minus field in the middle. The gaps between
  // fields and around the spots leave room for HIT: the side of the square every tap target
  // covers, so that a 600-unit board a phone shows 358 px wide still has 44 px targets.
  const HIT = 76;
  function layout(colors) {
    const W = 600, fw = 136, fh = 92, gap = 78, x0 = (W - 3 * fw - 2 * gap) / 2;
    const fields = {};
    colors.forEach((c, i) => {
      fields[`white.${c}`] = { x: x0 + i * (fw + gap), y: 88, w: fw, h: fh, colour: c };
      fields[`black.${c}`] = { x: x0 + i * (fw + gap), y: 334, w: fw, h: fh, colour: c };
    });
    fields.minus = { x: 240, y: 216, w: 120, h: 82, colour: "minus" };
    return {
      W, H: 520, fields,
      big: { white: { x: 190, y: 257 }, black: { x: 410, y: 257 } },
      launch: { white: { x: 300, y: 42 }, black: { x: 300, y: 476 } },
      labels: { white: 22, black: 512 },
      // a board only looked at has no launch spots: the strips they take are left out
      still: { top: 40, H: 440, labels: { white: 70, black: 476 } },
    };
  }
  // A transparent square that takes taps around a small mark.
  function hitArea(g, x, y, w, h) {
    el("rect", { x, y, width: w, height: h, class: "hit", fill: "transparent" }, g);
  }

  // opts: {counts, expected, blocked, colors, big, differences, bridges, names, interactive,
  //        full: {field: true} for fields holding more than their sensors count,
  //        onField(field, long), onBig(player), onLaunch(player), onBridge(a, b)}
  function drawBoard(svg, opts) {
    const colors = opts.colors || ["red", "yellow", "blue"];
    const L = layout(colors);
    const frame = opts.interactive ? { top: 0, H: L.H, labels: L.labels } : L.still;
    svg.setAttribute("viewBox", `0 ${frame.top} ${L.W} ${frame.H}`);
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    const hatch = el("pattern", { id: `hatch-${svg.id}`, width: 12, height: 12,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 6, height: 12, fill: "rgba(0,0,0,0.55)" }, hatch);
    el("rect", { x: 0, y: frame.top, width: L.W, height: frame.H, rx: 24, class: "board-bg" }, svg);
    const sideLabel = (player, y) => el("text", { x: 24, y, class: "side-label" }, svg,
      `${(opts.names || {})[player] || ""}`);
    sideLabel("white", frame.labels.white);
    sideLabel("black", frame.labels.black);

    const counts = opts.counts || {};
    const diffs = opts.differences || {};
    const blocked = new Set(opts.blocked || []);
    for (const [name, f] of Object.entries(L.fields)) {
      const g = el("g", { class: "field", "data-field": name, tabindex: opts.interactive ? 0 : -1,
        role: opts.interactive ? "button" : "img",
        "aria-label": `${name}: ${counts[name] || 0} skitts` }, svg);
      const fill = name === "minus" ? "#555" : colourOf(f.colour);
      el("rect", { x: f.x, y: f.y, width: f.w, height: f.h, rx: 14, fill, class: "field-rect" }, g);
      if (blocked.has(name)) {
        el("rect", { x: f.x, y: f.y, width: f.w, height: f.h, rx: 14,
          fill: `url(#hatch-${svg.id})` }, g);
        // where a "match: N" label takes the bottom line, it moves to the top left (a
        // blocked field holds its blockade, not skitts: no dots there)
        const besideExpected = opts.expected && opts.expected[name] !== undefined
          && opts.expected[name] !== (counts[name] || 0);
        el("text", besideExpected
          ? { x: f.x + 8, y: f.y + 20, class: "blocked-label top" }
          : { x: f.x + f.w / 2, y: f.y + f.h - 8, class: "blocked-label" }, g, "BLOCKED");
      }
      const n = counts[name] || 0;
      el("text", { x: f.x + f.w / 2, y: f.y + f.h / 2 + 16, class: "field-count" }, g, String(n));
      const dots = Math.min(n, 8);
      for (let i = 0; i < dots; i++) {
        el("circle", { cx: f.x + 14 + i * 16, cy: f.y + 14, r: 6, class: "skitt-dot" }, g);
      }
      el("text", { x: f.x + f.w - 8, y: f.y + 18, class: "field-name" }, g,
        name === "minus" ? "minus" : f.colour);
      if (diffs[name]) {
        el("rect", { x: f.x - 4, y: f.y - 4, width: f.w + 8, height: f.h + 8, rx: 16,
          class: "field-diff" }, g);
        const d = diffs[name];
        el("text", { x: f.x + f.w / 2, y: f.y + f.h + 22, class: "diff-label" }, g,
          d > 0 ? `take ${d} off` : `add ${-d}`);
      }
      if (opts.full && opts.full[name]) {
        // more skitts than the field's sensors count (issue 24): a band over its top
        el("rect", { x: f.x, y: f.y, width: f.w, height: 30, rx: 14, class: "full-band" }, g);
        el("text", { x: f.x + f.w / 2, y: f.y + 13, class: "full-label" }, g, "full: more than");
        el("text", { x: f.x + f.w / 2, y: f.y + 26, class: "full-label" }, g, "the sensors count");
      }
      if (opts.expected && opts.expected[name] !== undefined && opts.expected[name] !== n) {
        el("text", { x: f.x + 6, y: f.y + f.h - 8, class: "expected-label" }, g,
          `match: ${opts.expected[name]}`);
      }
      if (opts.interactive) attachPress(g, (long) => opts.onField(name, long));
    }
    // bridges between neighbouring fields of one side
    for (const pair of opts.bridges || []) {
      const [a, b] = pair.fields;
      const fa = L.fields[a], fb = L.fields[b];
      if (!fa || !fb) continue;
      const left = Math.min(fa.x + fa.w, fb.x + fb.w), gap = Math.max(fa.x, fb.x) - left;
      const mid = fa.y + fa.h / 2;
      const g = el("g", { class: `bridge ${pair.on ? "on" : ""}`, "data-bridge": `${a}/${b}`,
        role: "button" }, svg);
      el("rect", { x: left + (gap - 26) / 2, y: mid - 14, width: 26, height: 28, rx: 6 }, g);
      if (opts.interactive && opts.onBridge) {
        hitArea(g, left, mid - HIT / 2, gap, HIT);
        attachPress(g, () => opts.onBridge(a, b, !pair.on));
      }
    }
    // big-skitt spots
    for (const player of ["white", "black"]) {
      const p = L.big[player];
      const state = (opts.big || {})[player];
      const g = el("g", { class: `big-spot ${player}`, "data-big": player, role: "button" }, svg);
      el("circle", { cx: p.x, cy: p.y, r: 30, class: `big-ring ${state === "center" || state === true ? "on" : ""}` }, g);
      if (state === "center" || state === true) {
        el("circle", { cx: p.x, cy: p.y, r: 22, class: `big-skitt ${player}` }, g);
      }
      const who = (opts.names || {})[player] || "";
      el("text", { x: p.x, y: p.y + 48, class: "spot-label" }, g,
        state === "hand" ? `${who}'s big: in hand` : state === undefined || state === null
          ? "" : `${who}'s big skitt`);
      if (opts.interactive && opts.onBig) {
        hitArea(g, p.x - HIT / 2, p.y - HIT / 2, HIT, HIT);
        attachPress(g, () => opts.onBig(player));
      }
    }
    if (opts.interactive && opts.onLaunch) {
      for (const player of ["white", "black"]) {
        const p = L.launch[player];
        const g = el("g", { class: "launch", "data-launch": player, role: "button" }, svg);
        hitArea(g, p.x - 90, p.y - HIT / 2, 180, HIT);
        el("rect", { x: p.x - 80, y: p.y - 16, width: 160, height: 32, rx: 16 }, g);
        el("text", { x: p.x, y: p.y + 6, class: "launch-label" }, g,
          `${(opts.names || {})[player] || ""}'s launch spot`);
        attachPress(g, () => opts.onLaunch(player));
      }
    }
    if (opts.interactive) {
      wirePresses(svg);
      for (const node of svg.querySelectorAll("[data-press]")) node.dataset.pressKey = pressKey(node);
    }
  }

  // Tap or long press (>= 500 ms). Presses are tracked on the <svg> itself, which is never
  // replaced, and each element only names its action (node.pressAction): a redraw from
  // another client between press and release cannot lose a tap, count it twice, or turn it
  // into a long press (issue 13, item 13). The action is looked up again by the element's
  // data-key at release, so it is the current drawing's.
  function attachPress(node, callback) {
    node.pressAction = callback;
    node.dataset.press = "1";
  }
  function actionFor(svg, key) {
    const node = key && svg.querySelector(`[data-press-key="${CSS.escape(key)}"]`);
    return node && node.pressAction;
  }
  function pressKey(node) {
    if (node.dataset.field) return `field:${node.dataset.field}`;
    if (node.dataset.big) return `big:${node.dataset.big}`;
    if (node.dataset.launch) return `launch:${node.dataset.launch}`;
    if (node.dataset.bridge) return `bridge:${node.dataset.bridge}`;
    return "";
  }
  function wirePresses(svg) {
    if (svg.pressWired) return;
    svg.pressWired = true;
    let press = null;  // {key, id, timer, fired}
    const finish = (ev, cancelled) => {
      if (!press || (ev && ev.pointerId !== press.id)) return;
      const p = press;
      press = null;
      if (p.timer) clearTimeout(p.timer);
      if (!cancelled && !p.fired) {
        const action = actionFor(svg, p.key);
        if (action) action(false);
      }
    };
    svg.addEventListener("pointerdown", (ev) => {
      const node = ev.target.closest("[data-press]");
      if (!node || !svg.contains(node)) return;
      ev.preventDefault();
      if (press) finish(null, false);  // a second finger: the first press ends as a tap
      const key = node.dataset.pressKey;
      press = { key, id: ev.pointerId, fired: false, timer: null };
      const mine = press;
      press.timer = setTimeout(() => {
        mine.timer = null;
        if (press !== mine) return;
        mine.fired = true;
        const action = actionFor(svg, key);
        if (action) action(true);
      }, 500);
      try { svg.setPointerCapture(ev.pointerId); } catch (err) { /* synthetic events */ }
    });
    svg.addEventListener("pointerup", (ev) => { ev.preventDefault(); finish(ev, false); });
    svg.addEventListener("pointercancel", (ev) => finish(ev, true));
    svg.addEventListener("contextmenu", (ev) => ev.preventDefault());
    svg.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      const node = ev.target.closest("[data-press]");
      if (!node) return;
      ev.preventDefault();
      const action = actionFor(svg, node.dataset.pressKey);
      if (action) action(ev.shiftKey);
    });
  }

  // -- the score track ----------------------------------------------------------------------

  function track(container, s, player) {
    const target = s.state.rules.points_to_win_round;
    const score = s.state.score[player];
    container.replaceChildren();
    for (let v = -1; v <= target; v++) {
      const cell = document.createElement("span");
      cell.className = "track-cell" + (v === score ? " here" : "") + (v === target ? " goal" : "");
      cell.textContent = v === -1 ? "−1" : String(v);
      container.appendChild(cell);
    }
  }

  function renderAlerts(box, s) {
    box.replaceChildren(...(s.alerts || []).map((a) =>
      Common.h("div", { class: `alert alert-${a.kind}` }, a.message)));
  }

  function start() {
    Common.socket("/ws", accept, setLink);
    api("/api/state").then((r) => { if (r.ok) accept(r.data); });
  }

  return {
    get state() { return state; },
    onState(fn) { listeners.push(fn); if (state) fn(state); },
    start, api, errorText, drawBoard, track, renderAlerts, colourOf, nameOf, fieldLabel,
    signed, get connected() { return connected; },
  };
})();

// The referee login used by the tablet, the referee display and the virtual board.
const Referee = (() => {
  let loggedIn = false;
  const listeners = [];
  const forms = [];
  async function check() {
    const r = await Skitter.api("/api/referee/session");
    if (!r.ok) return;  // not reachable: the session is not known to be gone
    const was = loggedIn;
    set(Boolean(r.data && r.data.referee));
    if (was && !loggedIn) {  // the PIN was changed, or the session was logged out
      for (const form of forms) {
        form.querySelector(".msg").textContent = "Signed out (the referee PIN was changed " +
          "or the session ended): log in again";
      }
    }
  }
  function set(value) {
    loggedIn = value;
    document.body.classList.toggle("referee", value);
    for (const fn of listeners) fn(value);
  }
  async function login(pin) {
    const r = await Skitter.api("/api/referee/login", { pin });
    if (r.ok) set(true);
    return r;
  }
  async function logout() {
    await Skitter.api("/api/referee/logout", {});
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
      const why = r.status === 429 ? "Too many wrong PINs" : r.status === 401 ? "Wrong PIN"
        : Skitter.errorText(r);
      let left = r.retryAfter;
      const tick = () => {
        msg.textContent = left > 0 ? `${why}: try again in ${left} s` : `${why}: try again`;
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
