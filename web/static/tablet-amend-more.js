// The amend form's inputs of the fourth reading (R2, R15, R16, R17): a second blockade knocked
// loose and where it landed, a chain made by a skitt the shot moved, a loose skitt kept for
// the next shot, and in Trio a hit on the minus field the sensors missed. Kept apart from the
// rest of the form (tablet.js) so each stays small.

import { $ } from "./dom.js";
import { options } from "./form-controls.js";
import { Skitter } from "./live.js";
import { t } from "./words.js";

export function fillAmendMore(s, last) {
  const st = s.state, trio = st.rules.variant === "trio";
  const field = (f) => Skitter.fieldLabel(s, f);
  const colourFields = st.rules.colors.flatMap((c) => [`black.${c}`, `white.${c}`]);
  const fields = Object.keys(st.board);
  const loose = [].concat(last.blockade || []);  // one is written as an object
  $("amend-blockade2-box").classList.toggle("hidden", !st.rules.flipping);
  options($("amend-blockade2-from"), [["", t("none")], ...colourFields.map((f) => [f, field(f)])]);
  options($("amend-blockade2-to"), [["off", t("off the board")], ["minus", field("minus")],
    ...colourFields.map((f) => [f, field(f)])]);
  $("amend-blockade2-from").value = loose[1] ? loose[1].from : "";
  if (loose[1]) $("amend-blockade2-to").value = loose[1].to;
  $("amend-chain-from-box").classList.toggle("hidden", trio);
  options($("amend-chain-from"), [["", t("the shot's own skitt")],
    ...fields.map((f) => [f, t("a skitt moved from {where}", { where: field(f) })])]);
  $("amend-chain-from").value = last.chain_from || "";
  $("amend-keep").checked = Boolean(last.keep);
  $("amend-minus-hit-box").classList.toggle("hidden", !trio);
  $("amend-minus-hit").checked = Boolean(last.minus_hit);
}

// Adds this part's values to the amend body (`body.blockade`: the first blockade, or null).
export function amendMoreValues(body) {
  const st = Skitter.state.state;
  const from2 = $("amend-blockade2-from").value;
  if (st.rules.flipping && from2) {
    const second = { from: from2, to: $("amend-blockade2-to").value };
    body.blockade = body.blockade ? [body.blockade, second] : second;
  }
  body.chain_from = body.chain && $("amend-chain-from").value ? $("amend-chain-from").value : null;
  body.keep = $("amend-keep").checked;
  if (st.rules.variant === "trio") body.minus_hit = $("amend-minus-hit").checked;
  return body;
}
