// How the parts of the tournament page find their elements and report a referee's action.

import { toast } from "/shared/dom.js";

// The first element matching the CSS selector `sel` within `root` (the page, or a card).
export function $(sel, root = document) {
  return root.querySelector(sel);
}

// A referee's action: its confirmation, or the refusal in words, as a toast.
export function act(promise, done) {
  promise.then((d) => { if (done) toast(done, true); return d; })
    .catch((e) => toast(e.message));
}
