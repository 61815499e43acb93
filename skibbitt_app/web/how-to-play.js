// The how-to-play page shows one language: ?lang=, else the browser's.
const asked = new URLSearchParams(location.search).get("lang");
const lang = asked === "de" || (!asked && (navigator.language || "").startsWith("de")) ? "de" : "en";
document.documentElement.lang = lang;
document.getElementById(lang === "de" ? "en" : "de").hidden = true;
