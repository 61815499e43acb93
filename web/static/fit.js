// Large words in a narrow box (a long player's name on a panel): the text is made smaller
// until its longest word fits, so it breaks between words only, never inside one. A list in
// a box of fixed height (the TV's last shot) is made smaller until the box shows all of it.
// Fitted boxes are fitted again when the window changes size.

const fitted = new Set();
const filled = new Map();  // box -> the text in it that is made smaller

export function fitWords(el, minPx = 12) {
  if (!el) return;
  fitted.add(el);
  el.style.fontSize = "";
  let size = parseFloat(getComputedStyle(el).fontSize);
  // strictly wider: a name a fraction of a pixel too wide already shows its ellipsis
  while (el.scrollWidth > el.clientWidth && size > minPx) {
    size = Math.max(minPx, size * 0.92);
    el.style.fontSize = `${size}px`;
  }
}

export function fitHeight(box, text, minPx = 12) {
  if (!box || !text) return;
  filled.set(box, text);
  text.style.fontSize = "";
  let size = parseFloat(getComputedStyle(text).fontSize);
  while (box.scrollHeight > box.clientHeight && size > minPx) {
    size = Math.max(minPx, size * 0.92);
    text.style.fontSize = `${size}px`;
  }
}

window.addEventListener("resize", () => {
  for (const el of fitted) {
    if (el.isConnected) fitWords(el); else fitted.delete(el);
  }
  for (const [box, text] of filled) {
    if (box.isConnected) fitHeight(box, text); else filled.delete(box);
  }
});
