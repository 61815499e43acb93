"""Players' ratings, made by the ``openskill`` library (Weng-Lin, Plackett-Luce model).

A rating is a belief about a player's skill: ``mu`` (the estimate) and ``sigma`` (how unsure
it is). What we show is openskill's *ordinal*, ``mu - 3 sigma``, a cautious figure that rises
as a player wins and as the estimate firms up. Ratings are derived on read, replaying the
finished matches oldest first, so the table and the hub (given the same results) agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

from scorekeeper.stats import player_key

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """One player's rating after their matches so far."""

    name: str
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        """The shown figure: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float | int | str]:
        return {"name": self.name, "rating": round(self.ordinal, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2), "matches": self.matches}


@dataclass(frozen=True)
class Result:
    """A finished match between two people: ``winner`` None for a draw."""

    first: str
    second: str
    winner: str | None


def rate(results: Iterable[Result]) -> tuple[dict[str, Rating], list[dict[str, float]]]:
    """Ratings by :func:`~scorekeeper.stats.player_key` after ``results`` (oldest first),
    and the history: after each result, every rated player's ordinal so far (for charts)."""
    mu_sigma: dict[str, tuple[float, float]] = {}
    names: dict[str, str] = {}
    played: dict[str, int] = {}
    history: list[dict[str, float]] = []
    for r in results:
        ka, kb = player_key(r.first), player_key(r.second)
        if ka == kb:
            continue
        a = _MODEL.rating(*mu_sigma[ka]) if ka in mu_sigma else _MODEL.rating()
        b = _MODEL.rating(*mu_sigma[kb]) if kb in mu_sigma else _MODEL.rating()
        winner = None if r.winner is None else player_key(r.winner)
        ranks = [1, 1] if winner not in (ka, kb) else ([1, 2] if winner == ka else [2, 1])
        [[a], [b]] = _MODEL.rate([[a], [b]], ranks=ranks)
        for key, new, name in ((ka, a, r.first), (kb, b, r.second)):
            mu_sigma[key] = (new.mu, new.sigma)
            names[key] = " ".join(name.split())
            played[key] = played.get(key, 0) + 1
        history.append({k: round(m - 3 * s, 2) for k, (m, s) in mu_sigma.items()})
    ratings = {k: Rating(names[k], m, s, played[k]) for k, (m, s) in mu_sigma.items()}
    return ratings, history
