// The JSON API and a WebSocket that reconnects by itself: the only network calls of a page.

import { t, withLang } from "./words.js";

// The one API call: never throws; { ok, status, data, retryAfter }. Answers are read fresh
// (no-store): a state or a rating from the browser's cache would be stale.
export async function api(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"),
                 credentials: "same-origin", cache: "no-store", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(withLang(path), init);
  } catch (err) {
    return { ok: false, status: 0, data: { detail: t("the scorekeeper is not reachable") } };
  }
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = null; }
  const wait = Number(response.headers.get("Retry-After"));
  return { ok: response.ok, status: response.status, data: answer,
           retryAfter: wait > 0 ? wait : 0 };
}

// The same call for code that takes a refusal as an error: the answer's data, or an Error
// whose message is the refusal in words (errorText) and whose `result` is the whole answer.
export async function data(path, body, method) {
  const result = await api(path, body, method);
  if (result.ok) return result.data;
  const error = new Error(errorText(result));
  error.result = result;
  throw error;
}

// The words of a refused call: the server's sentence (with `plain`, the one without the
// rulings' codes, for the players' tablet), or what was wrong with each input.
export function errorText(result, plain) {
  if (plain && result.data && typeof result.data.plain === "string") return result.data.plain;
  if (result.data && typeof result.data.message === "string") return result.data.message;
  const d = result.data && result.data.detail;
  if (!d) return result.status ? t("The scorekeeper answered with error {status}",
                                   { status: result.status }) :
    t("The scorekeeper is not reachable");
  if (Array.isArray(d)) {
    return d.map((e) => `${(e.loc || []).filter((x) => x !== "body").join(" ")}: ${e.msg}`)
      .join("; ");
  }
  if (typeof d === "object") return String(d.message || d.text || t("Not possible"));
  return String(d);
}

// A socket to `path` that reconnects with backoff; onLink(up) marks the page, and the
// body gets the class "offline" (every page shows the full-width disconnected banner).
export function socket(path, onMessage, onLink) {
  let retry = 0;
  let ws = null;
  function link(up) {
    document.body.classList.toggle("offline", !up);
    if (onLink) onLink(up);
  }
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}${withLang(path)}`);
    ws.onopen = () => { retry = 0; link(true); };
    ws.onmessage = (msg) => {
      let message;
      try { message = JSON.parse(msg.data); } catch (err) { return; }
      onMessage(message);
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
