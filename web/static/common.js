// Shared by every page of the board and the tournament hub: the JSON API, a WebSocket that
// reconnects by itself, a toast, and the one way pages build DOM (text nodes, never HTML
// made from data). No framework and nothing from the internet.
"use strict";

const Common = (() => {
  // h("li", {class: "x", dataset: {seq: 3}}, "text", child, ...): an element with text.
  function h(tag, attrs, ...children) {
    return fill(document.createElement(tag), attrs, children);
  }

  // svg("line", {x1: 0, class: "axis"}, ...): the same for SVG drawings.
  const SVGNS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    return fill(document.createElementNS(SVGNS, tag), attrs, children);
  }

  // Attributes are set one by one and children added as nodes or text nodes: data never
  // becomes markup.
  function fill(node, attrs, children) {
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

  // The one API call: never throws; { ok, status, data, retryAfter }. Answers are read fresh
  // (no-store): a state or a rating from the browser's cache would be stale.
  async function api(path, body, method) {
    const init = { method: method || (body === undefined ? "GET" : "POST"),
                   credentials: "same-origin", cache: "no-store", headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      return { ok: false, status: 0, data: { detail: "the scorekeeper is not reachable" } };
    }
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    const wait = Number(response.headers.get("Retry-After"));
    return { ok: response.ok, status: response.status, data, retryAfter: wait > 0 ? wait : 0 };
  }

  // The same call for code that takes a refusal as an error: the answer's data, or an Error
  // whose message is the refusal in words (errorText) and whose `result` is the whole answer.
  async function data(path, body, method) {
    const result = await api(path, body, method);
    if (result.ok) return result.data;
    const error = new Error(errorText(result));
    error.result = result;
    throw error;
  }

  // The words of a refused call: the server's sentence, or what was wrong with each input.
  function errorText(result) {
    if (result.data && typeof result.data.message === "string") return result.data.message;
    const d = result.data && result.data.detail;
    if (!d) return result.status ? `The scorekeeper answered with error ${result.status}` :
      "The scorekeeper is not reachable";
    if (Array.isArray(d)) {
      return d.map((e) => `${(e.loc || []).filter((x) => x !== "body").join(" ")}: ${e.msg}`)
        .join("; ");
    }
    if (typeof d === "object") return String(d.message || d.text || "Not possible");
    return String(d);
  }

  // A socket to `path` that reconnects with backoff; onLink(up) marks the page, and the
  // body gets the class "offline" (every page shows the full-width disconnected banner).
  function socket(path, onMessage, onLink) {
    let retry = 0;
    let ws = null;
    function link(up) {
      document.body.classList.toggle("offline", !up);
      if (onLink) onLink(up);
    }
    function open() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${proto}//${location.host}${path}`);
      ws.onopen = () => { retry = 0; link(true); };
      ws.onmessage = (msg) => {
        let data;
        try { data = JSON.parse(msg.data); } catch (err) { return; }
        onMessage(data);
      };
      ws.onclose = () => {
        link(false);
        retry = Math.min(retry + 1, 6);
        setTimeout(open, Math.min(5000, 250 * 2 ** retry));
      };
      ws.onerror = () => ws.close();
    }
    document.body.classList.add("offline");
    open();
  }

  // A short message at the bottom; errors stay longer than confirmations.
  function toast(text, ok) {
    let t = document.getElementById("toast");
    if (!t) { t = h("div", { id: "toast", role: "status" }); document.body.appendChild(t); }
    t.textContent = text;
    t.className = ok ? "show ok" : "show";
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = ""; }, ok ? 1800 : 6000);
  }

  return { h, svg, api, data, errorText, socket, toast };
})();
