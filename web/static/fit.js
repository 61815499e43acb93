// Large words in a narrow box (a long player's name on a panel): the text is made smaller
// until its longest word fits, so it breaks between words only, never inside one. Fitted
// boxes are fitted again when the window changes size.

const fitted = new Set();

export function fitWords(el, minPx = 12) {
  if (!el) return;
  fitted.add(el);
  el.style.fontSize = "";
  let size = parseFloat(getComputedStyle(el).fontSize);
  while (el.scrollWidth > el.clientWidth + 1 && size > minPx) {
    size = Math.max(minPx, size * 0.92);
    el.style.fontSize = `${size}px`;
  }
}

window.addEventListener("resize", () => {
  for (const el of fitted) {
    if (el.isConnected) fitWords(el); else fitted.delete(el);
  }
});
