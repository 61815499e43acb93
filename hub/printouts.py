"""Paper and spreadsheets for the organiser: the pairings and the standings as printable
pages of their own (A4, black on white, readable on a notice board without the hub), and
every result as a CSV file a spreadsheet opens with headers a person understands.

The pages are whole HTML built here, with every name escaped: printed from any browser,
without scripts, and the same as the live page because they read the same tournament.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import datetime
from html import escape

from babel.dates import format_date, format_datetime
from fastapi import APIRouter, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from hub.decisions import ENTERED_BY, in_words, signed
from hub.said import MARK, answered
from hub.tournament import Tournament
from web_common.i18n import SOURCE, Language, for_request, language
from web_common.schemas import PathNumber
from web_common.spreadsheet_csv import csv_writer

router = APIRouter(tags=["print"])
VARY = {"Vary": "Accept-Language"}

PRINT_CSS = """
@page { size: A4; margin: 15mm; }
html { background: #fff; color: #000; }
body { font: 12pt/1.4 system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem;
  padding: 0 1rem; background: #fff; color: #000; }
h1 { font-size: 20pt; margin: 0 0 .3rem; }
p.sub { margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #000; padding: .3rem .5rem; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }
th { font-weight: bold; }
td.num, th.num { text-align: right; }
td.num { white-space: nowrap; }
td.write { min-width: 8rem; }
nav { margin: 0 0 1rem; display: flex; gap: 1rem; flex-wrap: wrap; }
nav a { color: #000; display: inline-flex; align-items: center; min-height: 44px; }
p.note { font-size: 10pt; }
.short { display: none; }
@media print {
  nav { display: none; }
  body { margin: 0; max-width: none; padding: 0; font-size: 11pt; }
  tr { break-inside: avoid; }
}
@media screen and (max-width: 900px) {
  .long { display: none; }
  .short { display: initial; }
  p.short { display: block; }
}
@media (max-width: 600px) {
  body { font-size: 10pt; padding: 0 .3rem; }
  th, td { padding: .2rem .25rem; }
  body { font-size: 9pt; }
  td.write { min-width: 0; }
  /* a phone shows the figures that rank; the paper and a wider screen show them all */
  .more { display: none; }
  .long { display: none; }
  .short { display: initial; }
  p.short { display: block; }
}
"""

CSV_HEADERS = (MARK.gettext("Round"), MARK.gettext("Table"), MARK.gettext("Board"),
               MARK.gettext("First player"), MARK.gettext("Second player"),
               MARK.gettext("Winner"), MARK.gettext("Rounds won by the first player"),
               MARK.gettext("Rounds won by the second player"),
               MARK.gettext("Points of the first player"),
               MARK.gettext("Points of the second player"), MARK.gettext("Finished at"),
               MARK.gettext("Recorded by"))
"""The CSV's header row in English (:func:`results_csv` writes it in the asked language)."""


def _page(title: str, sub: str, body: str, lang: Language) -> str:
    gettext = lang.gettext
    ask = "" if lang.code == SOURCE else f"?lang={lang.code}"  # the links keep the language
    links = ((f"/{ask}", gettext("Back to the tournament")),
             (f"/print/pairings{ask}", gettext("Pairings")),
             (f"/print/standings{ask}", gettext("Standings")),
             (f"/export/results.csv{ask}", gettext("Results as a spreadsheet (CSV)")))
    nav = " ".join(f'<a href="{href}">{escape(text)}</a>' for href, text in links)
    return (
        f'<!doctype html><html lang="{lang.code}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{PRINT_CSS}</style></head><body>"
        f"<nav>{nav}</nav>"
        f"<h1>{escape(title)}</h1><p class=\"sub\">{escape(sub)}</p>{body}</body></html>"
    )


def _heading(long: str, short: str = "") -> str:
    """A column heading, with a short one for a phone's narrow screen when given."""
    if not short:
        return escape(long, quote=False)
    return (f'<span class="long">{escape(long, quote=False)}</span>'
            f'<span class="short">{escape(short, quote=False)}</span>')


def _table(headers: Iterable[tuple[tuple[str, ...], str]],
           rows: Iterable[Iterable[tuple[str, str]]]) -> str:
    """Headings ``((long, short), class)``; ``(text, class)`` cells, escaped here."""
    head = "".join(f'<th class="{c}">{_heading(*h)}</th>' for h, c in headers)
    body = "".join(
        "<tr>" + "".join(f'<td class="{c}">{escape(v, quote=False)}</td>' for v, c in row) + "</tr>"
        for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _when(t: Tournament, lang: Language) -> str:
    at = datetime.fromtimestamp(t.clock.now()).astimezone()
    # the language's own long date ("2. Dezember 2026", "December 2, 2026"), then the time
    return lang.gettext("Printed {when}").format(
        when=f"{format_date(at, 'long', locale=lang.locale)}, "
             f"{format_datetime(at, 'HH:mm', locale=lang.locale)}")


def pairings_page(t: Tournament, number: int | None = None,
                  lang: Language | None = None) -> str | None:
    """The round's pairings (the latest round by default) in ``lang`` (default English);
    None for a round not paired."""
    lang = lang or language(SOURCE)
    gettext = lang.gettext
    rounds = [n for n, _ in t.store.round_numbers()]
    if not rounds:
        none = gettext("No round has been paired yet.")
        return _page(gettext("Pairings"), _when(t, lang), f"<p>{escape(none)}</p>", lang)
    number = rounds[-1] if number is None else number
    if number not in rounds:
        return None
    games = {game.table: game for game in t.store.games() if game.round == number}
    rows, byes = [], []
    for p in t.store.pairings(number):
        if p.is_bye:
            byes.append(p.black)
            continue
        game = games.get(p.table)
        rows.append([(str(p.table), "num"), (p.board or "", ""), (p.black, ""),
                     (p.white or "", ""),
                     ("" if game is None else in_words(game.result).worded(lang), "write")])
    body = _table([((gettext("Table"),), "num"), ((gettext("Board"),), ""),
                   ((gettext("First player"),), ""),
                   ((gettext("Second player"),), ""), ((gettext("Result"),), "")], rows)
    if byes:
        body += "<p>" + escape(lang.ngettext(
            "{names} has a bye this round (it counts as a game won).",
            "{names} have a bye this round (it counts as a game won).", len(byes)).format(
            names=", ".join(byes))) + "</p>"
    title = gettext("Round {round} of {total}: pairings").format(round=number,
                                                            total=t.planned_rounds())
    return _page(title, _when(t, lang), body, lang)


def standings_page(t: Tournament, lang: Language | None = None) -> str:
    lang = lang or language(SOURCE)
    gettext = lang.gettext
    table = t.standings()
    rows = [[(str(i), "num"),
             (gettext("{who} (dropped out)").format(who=s.player) if s.dropped else s.player, ""),
             (str(s.played), "num more"), (str(s.won), "num"),
             (str(s.lost), "num"), (str(s.buchholz), "num"),
             (f"{s.rounds_won}–{s.rounds_lost}", "num more"),
             (signed(s.points_for), "num more"), (signed(s.points_against), "num more"),
             (signed(s.points_difference), "num")]
            for i, s in enumerate(table, start=1)]
    body = _table([((gettext("Place"), "#"), "num"), ((gettext("Player"),), ""),
                   ((gettext("Played"), gettext("Pl.")), "num more"),
                   ((gettext("Won"), gettext("W")), "num"),
                   ((gettext("Lost"), gettext("L")), "num"),
                   ((gettext("Opponents' wins"), gettext("Bh.")), "num"),
                   ((gettext("Rounds won–lost"), gettext("Rounds")), "num more"),
                   ((gettext("Points scored"), gettext("Pts")), "num more"),
                   ((gettext("Opponents' points"), gettext("Opp.")), "num more"),
                   ((gettext("Difference"), gettext("Diff.")), "num")], rows)
    key = gettext("Pl.: games played; W, L: won, lost; Bh.: the games won by the opponents "
                  "met (Buchholz); Pts: points scored; Opp.: the opponents' points; Diff.: the "
                  "difference.")
    note = gettext("A bye counts as a game played and won. A player's score can fall below "
                   "zero during a game, so a points figure can be negative.")
    body += (f'<p class="note short">{escape(key, quote=False)}</p>'
             f'<p class="note">{escape(note, quote=False)}</p>')
    done = len(t.store.round_numbers())
    sub = gettext("After {done} of {total} rounds.").format(done=done, total=t.planned_rounds())
    return _page(gettext("Standings"), f"{sub} {_when(t, lang)}", body, lang)


def results_csv(t: Tournament, lang: Language | None = None) -> str:
    """Every result, one row each, its header row and words in ``lang`` (default English)."""
    lang = lang or language(SOURCE)
    gettext = lang.gettext
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow([gettext(h) for h in CSV_HEADERS])
    games = sorted((game for game in t.store.games() if game.round is not None),
                   key=lambda game: (game.round or 0, game.table or 0))
    for game in games:
        r = game.result
        writer.writerow([
            game.round, game.table, "" if game.board == ENTERED_BY else game.board,
            r.black, r.white,
            r.winner if r.winner else gettext("no winner"),
            r.black_rounds, r.white_rounds, r.black_points, r.white_points,
            datetime.fromtimestamp(game.finished_at).astimezone().strftime("%Y-%m-%d %H:%M"),
            gettext("the referee") if game.board == ENTERED_BY else gettext("the board")])
    return out.getvalue()


def _tournament(request: Request) -> Tournament:
    return request.app.state.hub.tournament  # type: ignore[no-any-return]


@router.get("/print/pairings", response_class=HTMLResponse,
            summary="The latest round's pairings, to print")
async def print_pairings(request: Request) -> HTMLResponse:
    return HTMLResponse(await run_in_threadpool(pairings_page, _tournament(request), None,
                                                for_request(request)), headers=VARY)


@router.get("/print/pairings/{number}", response_class=HTMLResponse,
            summary="One round's pairings, to print")
async def print_round(number: PathNumber, request: Request) -> HTMLResponse:
    page = await run_in_threadpool(pairings_page, _tournament(request), number,
                                   for_request(request))
    if page is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=answered(MARK.gettext(
            "round {round} is not paired"), round=number))
    return HTMLResponse(page, headers=VARY)


@router.get("/print/standings", response_class=HTMLResponse,
            summary="The standings, to print")
async def print_standings(request: Request) -> HTMLResponse:
    return HTMLResponse(await run_in_threadpool(standings_page, _tournament(request),
                                                for_request(request)), headers=VARY)


@router.get("/export/results.csv", summary="Every tournament result, as CSV",
            response_class=Response, responses={200: {
                "description": "One row per result, with a header row in words.",
                "content": {"text/csv": {"schema": {"type": "string"}}}}})
async def export_results(request: Request) -> Response:
    text = await run_in_threadpool(results_csv, _tournament(request), for_request(request))
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        **VARY, "Content-Disposition": 'attachment; filename="tournament-results.csv"'})
