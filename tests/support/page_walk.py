"""What the every-page walk (tests/browser/test_browser_page_walk.py) checks on one page, in
the page itself: horizontal scroll, visible text drawn over other visible text (bounding boxes
of text, not of boxes), text cut off by a box that hides its overflow, and the page's
visible strings, for the check against the catalog.

Kept in one evaluation per page so a walk over every page, language and size stays quick.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from babel.messages.pofile import read_po

from web_common.i18n import LOCALE_DIR

LOOK = r"""() => {
  const items = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.replace(/\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el || el.closest("script, style, noscript, template, option, title")) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1)
      .map((r) => ({ x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height }));
    if (rects.length) items.push({ text, el, rects });
  }
  // a text hidden under an opaque box drawn over it (a dialog over the page) is no clash
  const opaque = (e) => {
    const style = getComputedStyle(e);
    if (style.backgroundImage !== "none") return true;
    const alpha = (style.backgroundColor.match(/[\d.]+/g) || []).map(Number)[3];
    if (/^rgb\(/.test(style.backgroundColor) || alpha > 0.5) return true;
    return e instanceof SVGGeometryElement && style.fill !== "none";
  };
  const covered = (x, y, a, b) => {
    window.scrollTo(Math.max(0, x - innerWidth / 2), Math.max(0, y - innerHeight / 2));
    const stack = document.elementsFromPoint(x - scrollX, y - scrollY);
    const at = (el) => stack.findIndex((e) => e === el || el.contains(e));
    const ia = at(a), ib = at(b);
    if (ia < 0 && ib < 0) return true;  // neither shows here (clipped away)
    if (ia < 0 || ib < 0) return true;
    const [upper, lower, lowerEl] = ia < ib ? [ia, ib, b] : [ib, ia, a];
    for (let k = upper + 1; k < lower; k++) {
      if (!stack[k].contains(lowerEl) && opaque(stack[k])) return true;
    }
    return false;
  };
  const overlaps = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      let clash = false;
      for (const p of a.rects) for (const q of b.rects) {
        if (clash) break;
        const w = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x);
        const h = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
        if (w <= 3 || h <= 0.35 * Math.min(p.h, q.h)) continue;
        const x = Math.max(p.x, q.x) + w / 2, y = Math.max(p.y, q.y) + h / 2;
        if (!covered(x, y, a.el, b.el)) clash = true;
      }
      if (clash) overlaps.push([a.text, b.text]);
    }
  }
  // a word broken across two lines (a name split mid-word)
  const broken = [];
  for (const item of items) {
    const node = [...item.el.childNodes].find((c) => c.nodeType === 3 &&
      c.nodeValue.replace(/\s+/g, " ").trim() === item.text);
    if (!node || item.el.closest("svg")) continue;
    const re = /[^\s\u00ad]{4,}/g;
    for (let m = re.exec(node.nodeValue); m; m = re.exec(node.nodeValue)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const ys = new Set([...range.getClientRects()].filter((r) => r.width > 1)
        .map((r) => Math.round(r.y)));
      // broken at its own hyphen ("Oberhollenzer-" / "Quast") is how a name wraps
      const parts = m[0].split(/[-‐–\/]/).filter(Boolean);
      if (ys.size > parts.length) broken.push(m[0]);
    }
  }
  // a text cut off by a box that hides what overflows it (an ellipsis, a list clipped at
  // the bottom): part of it is never shown, and nobody can scroll to it
  const cut = [];
  for (const item of items) {
    for (let box = item.el; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      const hidesX = /hidden|clip/.test(style.overflowX);
      const hidesY = /hidden|clip/.test(style.overflowY);
      if (!hidesX && !hidesY) continue;
      const b = box.getBoundingClientRect();
      if (b.width < 2 || b.height < 2) break;  // a box for screen readers only
      // an ellipsis: the text's own box is already cut, the box it overflows is wider
      if (hidesX && style.textOverflow === "ellipsis" && box.scrollWidth > box.clientWidth) {
        cut.push(item.text);
        break;
      }
      const left = b.left + box.clientLeft + scrollX, top = b.top + box.clientTop + scrollY;
      const right = left + box.clientWidth, bottom = top + box.clientHeight;
      const out = item.rects.some((r) =>
        (hidesX && (r.x < left - 2 || r.x + r.w > right + 2)) ||
        (hidesY && (r.y < top - 2 || r.y + r.h > bottom + 2)));
      if (out) { cut.push(item.text); break; }
    }
  }
  window.scrollTo(0, 0);
  const d = document.documentElement;
  return { scroll: d.scrollWidth - d.clientWidth, texts: items.map((i) => i.text),
           overlaps: overlaps.slice(0, 8), broken: [...new Set(broken)].slice(0, 8),
           cut: [...new Set(cut)].slice(0, 8), lang: d.lang };
}"""

WORD = re.compile(r"[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'’-]+")


@cache
def english_only() -> frozenset[str]:
    """Words of the English messages that no German message uses: seen on a German page
    (outside the names), they are English left untranslated."""
    english: set[str] = set()
    german: set[str] = set()
    with (LOCALE_DIR / "de.po").open("rb") as f:
        catalog = read_po(f, locale="de")
    for m in catalog:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for text in ids:
            english.update(w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text)))
        for text in strings:
            german.update(w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text)))
    return frozenset(w for w in english - german if len(w) > 2)


def untranslated(texts: list[str], names: list[str]) -> list[str]:
    """The strings of a German page holding a word only the English messages use (players'
    names aside)."""
    allowed = {w.lower() for n in names for w in WORD.findall(n)}
    only = english_only()
    out = []
    for text in texts:
        words = {w.lower() for w in WORD.findall(text)} - allowed
        if words & only:
            out.append(f"{text!r} ({', '.join(sorted(words & only))})")
    return out


def look(page: Any) -> dict[str, Any]:
    """The page's horizontal scroll (px), its clashing texts, its words broken mid-word,
    its texts cut off by a box that hides what overflows it, and its visible strings."""
    result: dict[str, Any] = page.evaluate(LOOK)
    return result
