"""Skibbitt's scorer: the issue's three checks, the 36 names, and (hypothesis) that tile
order never matters and every score is what the rules' tables give."""

from __future__ import annotations

import pytest
from brute import rating as reference_rating
from brute import score as reference_score
from hypothesis import given, settings
from hypothesis import strategies as st

from skibbitt.groupings import ALL_GROUPINGS, NAMES, ORIGINAL_NAMES, Kind
from skibbitt.scoring import Rating, triplitt
from skibbitt.tiles import ALL_TILES, Category, TileError, parse_tile, parse_tiles

pytestmark = pytest.mark.unit


def scored(text: str):  # type: ignore[no-untyped-def]
    return triplitt(parse_tiles(text.split()))


def test_three_fffs_and_nothing_else_is_a_foxy_yibbitt_worth_131() -> None:
    t = scored("R1F Y2F P4F")
    assert (t.name, t.rating, t.score) == ("Foxy Yibbitt", Rating.YIBBITT, 131)


def test_yellow_green_blue_with_digon_square_hexagon_is_a_spectral_even_bibbitt_worth_349() -> None:
    t = scored("Y2A G4B B6D")
    assert (t.name, t.rating, t.score) == ("Spectral Even Bibbitt", Rating.BIBBITT, 349)


def test_red_yellow_blue_circle_dome_pentagon_ace_is_primary_odd_aced_skibbitt_worth_670() -> None:
    t = scored("R1A Y3C B5E")
    assert (t.name, t.rating, t.score) == ("Primary Odd Aced Skibbitt", Rating.SKIBBITT, 670)
    assert [g.score for g in t.groups if g] == [90, 90, 90]


def test_three_tiles_without_a_grouping_are_a_ribbitt_worth_nothing() -> None:
    t = scored("R1A O3D P6B")
    assert (t.name, t.score) == ("Ribbitt", 0)


def test_a_run_does_not_wrap_around_from_the_sixth_value_to_the_first() -> None:
    assert scored("B1A P2C R3E").group(Category.COLOR) is None
    assert scored("R1A R2C R6E").group(Category.SHAPE) is None


def test_each_category_has_six_sets_four_runs_and_two_skips_all_named_differently() -> None:
    for category in Category:
        kinds = [g.kind for g in ALL_GROUPINGS if g.category is category]
        assert (kinds.count(Kind.SET), kinds.count(Kind.RUN), kinds.count(Kind.SKIP)) == (6, 4, 2)
    names = [name for table in NAMES.values() for name in table.values()]
    assert len(names) == len(set(names)) == 36


def test_the_six_known_names_sit_on_their_groupings() -> None:
    assert NAMES[Category.LETTER][(6, 6, 6)] == "Foxy"
    assert NAMES[Category.COLOR][(3, 4, 5)] == "Spectral"
    assert NAMES[Category.SHAPE][(2, 4, 6)] == "Even"
    assert NAMES[Category.SHAPE][(1, 3, 5)] == "Odd"
    assert NAMES[Category.COLOR][(1, 3, 5)] == "Primary"
    assert NAMES[Category.LETTER][(1, 3, 5)] == "Aced"
    assert {"Foxy", "Spectral", "Even", "Odd", "Primary", "Aced"} == ORIGINAL_NAMES


def test_a_name_lists_colour_then_shape_then_letter_then_the_rating() -> None:
    assert scored("R1A O2A Y3A").name == "Warm Sprouting Able Skibbitt"


def test_notation_round_trips_for_every_tile_and_refuses_unknown_tiles() -> None:
    assert all(parse_tile(t.notation) == t for t in ALL_TILES)
    assert len(set(ALL_TILES)) == 216
    for bad in ("X1A", "R7A", "R1G", "R1", "R1AA", ""):
        with pytest.raises(TileError, match="unknown tile"):
            parse_tile(bad)
    with pytest.raises(TileError, match="twice"):
        parse_tiles(["R1A", "r1a"])


tiles3 = st.lists(st.sampled_from(ALL_TILES), min_size=3, max_size=3, unique=True)


@settings(deadline=None)
@given(tiles3, st.permutations(range(3)))
def test_tile_order_never_matters(tiles, order) -> None:  # type: ignore[no-untyped-def]
    a = triplitt(tiles)
    b = triplitt([tiles[i] for i in order])
    assert (a.name, a.score, a.rating, a.groups) == (b.name, b.score, b.rating, b.groups)


@settings(deadline=None)
@given(tiles3)
def test_every_score_is_what_the_tables_give(tiles) -> None:  # type: ignore[no-untyped-def]
    t = triplitt(tiles)
    codes = frozenset(tile.notation for tile in tiles)
    assert t.score == reference_score(codes)
    assert list(Rating).index(t.rating) == reference_rating(codes)
    assert t.name.split()[-1] == t.rating.value
    assert len(t.name.split()) == reference_rating(codes) + 1
