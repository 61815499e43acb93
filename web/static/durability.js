// The referee page warns when the match log lives in RAM (a tmpfs, or Raspberry Pi OS's
// overlay file system): a power cut would lose the whole match. /healthz finds it out; the
// warning never stops play, so it is a line of its own, not one of the alerts.

import { api } from "./api.js";
import { t } from "./words.js";

(() => {
  const box = document.getElementById("power-warning");
  if (!box) return;
  async function check() {
    // 503 (a problem elsewhere) still carries the answer: the warning is read either way.
    const r = await api("/healthz");
    if (r.status === 0 || !r.data) return; // away: the page's connection line says so
    const volatile = Boolean(r.data.store && r.data.store.volatile);
    box.hidden = !volatile;
    box.textContent = volatile
      ? t("The match log is kept in the Pi's memory, not on its card: a power cut would " +
        "lose the whole match. Ask the board's keeper to move the data folder to a lasting " +
        "disk (hardware/README.md, “A power cut loses nothing”).")
      : "";
  }
  check();
  setInterval(check, 60000);
})();
