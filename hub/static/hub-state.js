// The tournament page's state, owned here: the tournament as the page last drew it (`snap`)
// and whether its person is the hub referee. hub.js sets both; every part of the page reads
// them by import (an import sees the value as it is now).

export let snap = null;
export let referee = false;

export function setSnap(s) { snap = s; }

export function setReferee(now) { referee = now; }
