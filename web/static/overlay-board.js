// The board's /overlay: its layout from the address, its state from the public feed.
"use strict";

Overlay.apply(Overlay.options(location.search));
Overlay.follow((s) => Overlay.render(document.getElementById("overlay"), Overlay.fromSnapshot(s)));
