// The board drawn in SVG: the fields, their counts and blockades, the big-skitt and launch
// spots and the bridges; on the pages that change the match, each of them takes taps and
// long presses.

import { svg as make } from "./dom.js";
import { nt, t } from "./words.js";

const COLOURS = { red: "#d9362b", yellow: "#e9bf1c", blue: "#2f6fd8", green: "#2f9e44",
                  orange: "#f08c00", purple: "#8e44ad", white: "#eee", black: "#333" };
export function colourOf(name) {
  if (COLOURS[name]) return COLOURS[name];
  let hue = 0;
  for (const ch of String(name)) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${hue} 60% 50%)`;
}
// A field's colour on the drawing (the players' fields are named by the server).
function colourWord(colour) {
  const words = { red: t("red"), yellow: t("yellow"), blue: t("blue"), green: t("green") };
  return words[colour] || colour;
}


function el(tag, attrs, parent, text) {
  const node = make(tag, attrs, text);
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
// `text` in the SVG <text> `node`, broken between words onto lines no wider than `width`
// (a long name under a big-skitt spot stays on its side of the board).
function wrapped(node, text, width, lineHeight) {
  const x = node.getAttribute("x");
  let line = el("tspan", { x }, node);
  for (const word of String(text).split(" ").filter(Boolean)) {
    const before = line.textContent;
    line.textContent = before ? `${before} ${word}` : word;
    if (before && line.getComputedTextLength() > width) {
      line.textContent = before;
      line = el("tspan", { x, dy: lineHeight }, node, word);
    }
  }
}

// A transparent square that takes taps around a small mark.
function hitArea(g, x, y, w, h) {
  el("rect", { x, y, width: w, height: h, class: "hit", fill: "transparent" }, g);
}

// opts: {counts, expected, blocked, colors, big, differences, bridges, names, fields (each
//        field in words, for its label), interactive,
//        full: {field: true} for fields holding more than their sensors count,
//        onField(field, long), onBig(player), onLaunch(player), onBridge(a, b)}
export function drawBoard(svg, opts) {
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
      "aria-label": nt("{field}: {n} skitt", "{field}: {n} skitts", counts[name] || 0,
                              { field: (opts.fields || {})[name] || name }) }, svg);
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
        : { x: f.x + f.w / 2, y: f.y + f.h - 8, class: "blocked-label" }, g, t("BLOCKED"));
    }
    const n = counts[name] || 0;
    el("text", { x: f.x + f.w / 2, y: f.y + f.h / 2 + (name === "minus" ? 24 : 16),
      class: `field-count${name === "minus" ? " small" : ""}` }, g, String(n));
    // a blocked field holds its blockade, not skitts: no dots over its label
    const dots = blocked.has(name) ? 0 : Math.min(n, 5);  // clear of the field's name
    for (let i = 0; i < dots; i++) {
      el("circle", { cx: f.x + 14 + i * 16, cy: f.y + 14, r: 6, class: "skitt-dot" }, g);
    }
    el("text", { x: f.x + f.w - 8, y: f.y + 18, class: "field-name" }, g,
      name === "minus" ? t("minus") : colourWord(f.colour));
    if (diffs[name]) {
      el("rect", { x: f.x - 4, y: f.y - 4, width: f.w + 8, height: f.h + 8, rx: 16,
        class: "field-diff" }, g);
      const d = diffs[name];
      el("text", { x: f.x + f.w / 2, y: f.y + f.h + 22, class: "diff-label" }, g,
        d > 0 ? t("take {n} off", { n: d }) : t("add {n}", { n: -d }));
    }
    if (opts.full && opts.full[name]) {
      // more skitts than the field's sensors count (issue 24): a band over its top
      el("rect", { x: f.x, y: f.y, width: f.w, height: 30, rx: 14, class: "full-band" }, g);
      el("text", { x: f.x + f.w / 2, y: f.y + 13, class: "full-label" }, g, t("full: more than"));
      el("text", { x: f.x + f.w / 2, y: f.y + 26, class: "full-label" }, g,
        t("the sensors count"));
    }
    if (opts.expected && opts.expected[name] !== undefined && opts.expected[name] !== n) {
      el("text", { x: f.x + 6, y: f.y + f.h - 8, class: "expected-label" }, g,
        t("match: {n}", { n: opts.expected[name] }));
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
    wrapped(el("text", { x: p.x, y: p.y + 46, class: "spot-label" }, g),
      state === "hand" ? t("{who}'s big: in hand", { who })
        : state === undefined || state === null ? ""
          : t("{who}'s big skitt", { who }), 196, 14);
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
        t("{who}'s launch spot", { who: (opts.names || {})[player] || "" }));
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


// The drawing's options for a board only looked at (the scoreboard, the referee display).
export function boardOptions(s) {
  const st = s.state;
  return {
    counts: st.board, blocked: st.blocked, colors: st.rules.colors, names: s.names,
    fields: (s.words || {}).fields, big: st.big,
    // while the referee counts a full field, a skitt beyond its count lies there rightly
    differences: (s.tracker || {}).mode === "question" ? {} : (s.tracker || {}).differences || {},
  };
}
