// The caller: after each step the TV says a short sentence, rendered by the scorekeeper
// (espeak-ng) and played here. Browsers only play sound after a person has tapped the page,
// so the TV shows one button to turn sound on; a kiosk, which nobody taps, opens the page as
// /?caller=on in a Chromium started to allow sound without a tap (hardware/pi/skitter-kiosk).
// The tablet shows the caller's status, its language and a mute for the whole room
// (startCaller).

import { Skitter } from "./live.js";
import { data } from "./api.js";
import { h } from "./dom.js";
import { t } from "./words.js";

// The picker lists each language in its own words; a sentence names it in the page's words.
const LANGUAGE_NAMES = { en: "English", de: "Deutsch" };
const LANGUAGE_IN_WORDS = { en: t("English"), de: t("German") };

// ---- TV: one tap turns sound on; a second tap mutes this screen again.
function tv() {
  document.head.appendChild(h("style", {}, `
    #caller { display: flex; gap: .8rem; align-items: center; min-width: 0; flex: 0 1 auto;
      max-width: 100%; }
    #caller button { font-size: 1rem; padding: .35rem .9rem; min-height: 44px; border-radius: .6rem;
      border: 2px solid var(--accent, #ffd43b); background: var(--panel, #1d232c);
      color: var(--text, #fff); cursor: pointer; }
    #caller.on button { border-color: var(--muted, #9aa5b4); }
    #caller-line { font-size: 1.2rem; color: var(--text, #fff); background: var(--panel, #1d232c);
      padding: .4rem .8rem; border-radius: .6rem; min-width: 0; overflow: hidden;
      text-overflow: ellipsis; white-space: nowrap; }
    /* The TV already shows every moment in large type; the spoken line is kept for
       assistive technology (aria-live) rather than drawn twice. */
    #caller-line { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip: rect(0 0 0 0); }
    @media (max-width: 700px) { #caller { flex-wrap: wrap; justify-content: flex-start; } }`));
  // In the header, beside the live mark, so it never covers the board or the last shot.
  const header = document.querySelector("header.top");
  const button = h("button", { id: "caller-toggle", type: "button" });
  const line = h("span", { id: "caller-line", "aria-live": "polite" });
  const audio = h("audio", { id: "caller-audio", preload: "auto" });
  const box = h("div", { id: "caller", role: "region", "aria-label": t("Caller") }, button, line, audio);
  const live = document.getElementById("live-status");
  if (header && live && live.parentNode === header) header.insertBefore(box, live);
  else (header || document.body).appendChild(box);
  // ?caller=on: sound on from the start (the kiosk), still muted by a tap on this screen.
  let on = new URLSearchParams(location.search).get("caller") === "on";
  let baseline = null;
  let spoken = null;

  function show() {
    box.classList.toggle("on", on);
    button.textContent = on ? t("Sound on · tap to mute")
      : t("Tap to turn on the caller's voice");
    document.body.dataset.caller = on ? "on" : "off";
  }
  button.addEventListener("click", () => {
    on = !on;
    if (!on) audio.pause();
    show();
  });
  audio.addEventListener("playing", () => {
    document.body.dataset.callerPlayed = audio.dataset.text || "";
  });

  let spokenNext = null;  // the offered tournament game last called (once per offer)
  async function say(key) {
    try {
      const got = await data("/api/caller/latest");
      if (key !== baseline) return; // a newer step came meanwhile
      if (got.next && got.next.id !== spokenNext) {
        spokenNext = got.next.id;
        line.textContent = got.next.text;
        document.body.dataset.callerSaid = got.next.text;
        if (!on || !got.next.audio) return;
        audio.dataset.text = got.next.text;
        audio.src = got.next.audio;
        await audio.play();
        return;
      }
      if (got.seq === null) return;
      line.textContent = got.text || "";
      document.body.dataset.callerSaid = got.text || "";
      if (!on || !got.audio || got.seq === spoken) return;
      spoken = got.seq;
      audio.dataset.text = got.text;
      audio.src = got.audio;
      await audio.play();
    } catch (err) {
      console.warn("caller:", err);
    }
  }

  Skitter.onState((s) => {
    const key = `${s.boot}:${s.match_id}:${s.log_length}:${s.offered ? s.offered.id : ""}`;
    if (baseline === null) {  // what was said before we came
      baseline = key;
      spokenNext = s.offered ? s.offered.id : null;
      return;
    }
    if (key === baseline) return;
    baseline = key;
    say(key);
  });
  show();
}

// ---- Tablet: why the caller is silent, its language, and a mute for the room.
function tablet() {
  const main = document.querySelector("main") || document.body;
  const status = h("p", { id: "caller-status" }, t("Asking the scorekeeper…"));
  const select = h("select", { id: "caller-language" });
  const mute = h("button", { id: "caller-mute", type: "button", class: "secondary" });
  const msg = h("p", { class: "msg", role: "alert", id: "caller-msg" });
  const card = h("section", { class: "card", id: "sec-caller" }, h("h2", {}, t("Caller")), status,
    h("div", { class: "row" }, h("label", {}, t("Language") + " ", select), mute), msg);
  const anchor = document.getElementById("sec-new");
  const before = anchor ? anchor.closest("section") : null;
  main.insertBefore(card, before);
  let current = null;

  function render(c) {
    current = c;
    if (!select.options.length) {
      for (const code of c.languages) select.append(h("option", { value: code }, LANGUAGE_NAMES[code] || code));
    }
    select.value = c.language;
    mute.textContent = c.muted ? t("Unmute the caller") : t("Mute the caller");
    status.textContent = c.silent
      ? t("The caller is silent: {why}.",
        { why: c.silent.replace(/^the caller is silent: /, "") })
      : t("The caller speaks {language} on the TV once someone there taps “turn on " +
        "the caller's voice”.", { language: LANGUAGE_IN_WORDS[c.language] || c.language });
    status.classList.toggle("bad", Boolean(c.silent) && !c.muted);
  }

  async function refresh() {
    try { render(await data("/api/caller")); } catch (err) {
      status.textContent = t("The caller's status could not be read: {why}",
        { why: err.message });
    }
  }

  async function change(body) {
    msg.textContent = "";
    if (!current) return;
    const result = await Skitter.api("/api/caller", { version: current.version, ...body });
    if (result.ok) { render(result.data); return; }
    if (result.status === 409 && result.data && result.data.caller) {
      render(result.data.caller);
      msg.textContent = t("Someone else changed the caller first; this is how it is " +
        "now.");
      return;
    }
    msg.textContent = result.status === 401
      ? t("Log in with the referee PIN to change the caller.")
      : Skitter.errorText(result);
    if (current) render(current);
  }

  select.addEventListener("change", () => change({ language: select.value }));
  mute.addEventListener("click", () => change({ muted: !current.muted }));
  Skitter.onState(() => refresh());
  refresh();
}

// The caller's part of a page: "tv" (the voice) or "tablet" (its status and mute).
export function startCaller(page) {
  if (page === "tv") tv();
  else if (page === "tablet") tablet();
}
