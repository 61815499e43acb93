// The board's /overlay: its layout from the address, its state from the public feed. The
// referee's "show the review on the scoreboard" plays here too, animated from the shot's
// sensor timeline by the scoreboard's own mirror (review.js), in the overlay's corner.

import { apply, follow, fromSnapshot, options, render } from "./overlay.js";
import { Review } from "./review.js";

apply(options(location.search));
follow((s) => {
  render(document.getElementById("overlay"), fromSnapshot(s));
  Review.mirror(s);
});
