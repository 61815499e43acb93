// The one way pages build DOM (text nodes and attributes, never HTML made from data), the
// one way they find an element, and the toast. No framework and nothing from the internet.

// h("li", {class: "x", dataset: {seq: 3}}, "text", child, ...): an element with text.
export function h(tag, attrs, ...children) {
  return fillNode(document.createElement(tag), attrs, children);
}

// svg("line", {x1: 0, class: "axis"}, ...): the same for SVG drawings.
const SVGNS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, ...children) {
  return fillNode(document.createElementNS(SVGNS, tag), attrs, children);
}

// Attributes are set one by one and children added as nodes or text nodes: data never
// becomes markup.
function fillNode(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// $("pot"): the element of that id (a page's fixed parts all have one).
export function $(id) {
  return document.getElementById(id);
}

// A short message at the bottom; errors stay longer than confirmations.
let toastTimer = null;
export function toast(text, ok) {
  let box = document.getElementById("toast");
  if (!box) { box = h("div", { id: "toast", role: "status" }); document.body.appendChild(box); }
  box.textContent = text;
  box.className = ok ? "show ok" : "show";
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ""; }, ok ? 1800 : 6000);
}
