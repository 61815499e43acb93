// The page's words: the server puts the page's catalog (web_common/locale, chosen by ?lang=, the
// browser's languages or the venue's default) in <script id="skitter-words"> before the
// scripts. t("{who} to shoot", {who}) and nt(singular, plural, n) are the only ways a page
// says something: the catalogs have every message (tests/api/test_catalogs.py).

const WORDS = (() => {
  const node = document.getElementById("skitter-words");
  try { if (node) return JSON.parse(node.textContent); } catch (err) { /* English */ }
  return { lang: document.documentElement.lang || "en", plural: {}, words: {} };
})();

export const lang = WORDS.lang || "en";

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

export function t(message, args) {
  const said = WORDS.words[message];
  return fill(typeof said === "string" ? said : message, args);
}

// A number as the page's language writes it; `digits`: that many decimals ("0,25" in German).
export function num(n, digits) {
  const fixed = digits === undefined ? {}
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, fixed).format(n);
}

// A moment (an ISO date as the server keeps it) as the page's language writes it, to the
// minute; what is not a date stays as it came.
export function dateTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString(lang, { year: "numeric", month: "short", day: "numeric",
    hour: "2-digit", minute: "2-digit" });
}

export function nt(singular, plural, n, args) {
  const forms = WORDS.words[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    const index = WORDS.plural[new Intl.PluralRules(lang).select(n)];
    text = forms[index === undefined ? (n === 1 ? 0 : forms.length - 1) : index] || text;
  }
  return fill(text, Object.assign({ n: num(n) }, args || {}));
}

// Every request says the page's language, so answers (a state, a refusal) speak it too.
export function withLang(path) {
  return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang);
}

// A page opened with ?lang= keeps it on the links to the other pages.
if (new URLSearchParams(location.search).has("lang")) {
  const keep = () => {
    for (const a of document.querySelectorAll('a[href^="/"]')) {
      if (!a.getAttribute("href").startsWith("/api/")) a.href = withLang(a.getAttribute("href"));
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", keep);
  else keep();
}
