// The field on the tournament page: the pairing system before round 1, late entries, drops,
// swaps and the knockout, for the hub referee; the bracket and the field's log for everyone.
// Each form remembers the tournament's version (field_seq) from the moment its person began
// filling it in and sends that one, so a change decided on an old picture is refused with
// the words of what changed; the entries are never cleared by a redraw (the forms are not
// part of the live parts).

import { api, errorText } from "/shared/api.js";
import { h, toast } from "/shared/dom.js";
import { t } from "/shared/words.js";
import { drawBracket } from "./bracket.js";
import { $ } from "./hub-dom.js";
import { referee, snap } from "./hub-state.js";
import { saidOr } from "./hub-words.js";

// A select's options replaced, its choice kept while still offered.
function options(select, names, blank) {
  const kept = select.value;
  select.replaceChildren(h("option", { value: "" }, blank),
    ...names.map((n) => h("option", { value: n }, n)));
  if (names.includes(kept)) select.value = kept;
}

function newestRound(s) {
  return s.rounds.length ? s.rounds[s.rounds.length - 1] : null;
}

export function renderField(s) {
  const round = newestRound(s);
  const knockout = Boolean(s.bracket);
  const underWay = Boolean(round) && s.system === "swiss" && !knockout;
  const active = s.players.filter((p) => !(s.dropped || []).includes(p));
  $("#field-box").hidden = !referee || !round;
  for (const id of ["#late-form", "#drop-form", "#swap-form"]) $(id).hidden = !underWay;
  $("#field-fixed").hidden = underWay;
  $("#field-fixed").textContent = knockout ? t("The knockout has started: its field is fixed.")
    : t("A round robin's field is fixed once it starts (everybody meets everybody).");
  options($("#drop-player"), active, t("— choose a player —"));
  if (round) {
    const seated = round.pairings.flatMap((p) => [p.black, p.white]).filter(Boolean);
    $("#swap-round").textContent = String(round.number);
    options($("#swap-first"), seated, t("— a player —"));
    options($("#swap-second"), seated, t("— another player —"));
  }
  const ko = $("#knockout-form");
  ko.hidden = !referee || knockout || !round;
  $("#knockout-blocked").textContent = s.knockout_blocked
    ? t("Not yet: {why}.", { why: saidOr(s.knockout_blocked, s.knockout_blocked_said) }) : "";
  $("#knockout-start").disabled = Boolean(s.knockout_blocked);
  $("#bracket-box").hidden = !knockout;
  drawBracket($("#bracket"), s.bracket);
  const system = $("#system-form");
  system.hidden = Boolean(round);
  // the tournament's system shows until its person begins choosing (then the choice stays)
  if (!system.dataset.seen) $("#system-choice").value = s.system;
  renderLog(s);
}

function renderLog(s) {
  const shown = (s.field_changes || []).filter((c) => c.reason || c.kind !== "registered");
  const body = $("#field-log tbody");
  body.replaceChildren(...shown.map((c) => h("tr", {},
    h("td", {}, new Date(c.at * 1000).toLocaleTimeString()), h("td", {}, saidOr(c.words, c.said)),
    h("td", {}, c.reason || "—"))));
  $("#field-log-box").hidden = shown.length === 0;
}

// A form's entries are made against the version seen when its person began. Made, the form
// is emptied for the next one, or with `keep` keeps what its person chose (a choice that
// stands, as the pairing system); refused, the refusal shows under it and the entries stay.
function watch(form, path, body, { keep = false } = {}) {
  const note = $(".refusal", form);
  const begin = () => { if (!form.dataset.seen && snap) form.dataset.seen = String(snap.field_seq); };
  form.addEventListener("input", begin);
  form.addEventListener("change", begin);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    begin();
    const seq = Number(form.dataset.seen);
    const result = await api(path(), { ...body(), seq });
    if (result.ok) {
      if (!keep) form.reset();
      delete form.dataset.seen;
      note.hidden = true;
      toast(result.data.done, true);
      return;
    }
    let words = errorText(result);
    if (result.status === 409) {
      // They have now been told what changed: a second press decides on today's picture.
      words += ". " + t("Your entries are kept: press again to make the change as things are now.");
      if (snap) form.dataset.seen = String(snap.field_seq);
    }
    note.textContent = words;
    note.hidden = false;
  });
}

// Before round 1: round robin or Swiss. Chosen meanwhile at another screen (players
// entered, the other system chosen), the choice is refused saying what changed, and stays.
watch($("#system-form"), () => "/api/system", () => ({ system: $("#system-choice").value }),
  { keep: true });
watch($("#late-form"), () => "/api/late-entries", () => ({
  name: $("#late-name").value, credit: $("#late-credit").value, reason: $("#late-reason").value,
}));
watch($("#drop-form"), () => `/api/players/${encodeURIComponent($("#drop-player").value)}/drop`,
  () => ({ reason: $("#drop-reason").value }));
watch($("#swap-form"), () => `/api/rounds/${$("#swap-round").textContent}/swap`, () => ({
  first: $("#swap-first").value, second: $("#swap-second").value,
  accept_rematch: $("#swap-rematch").checked, reason: $("#swap-reason").value,
}));
watch($("#knockout-form"), () => "/api/knockout", () => ({
  size: Number($("#knockout-size").value), third_place: $("#knockout-third").checked,
  reason: $("#knockout-reason").value,
}));
