"""The rulings of the third reading of the rulebook (2026-12-01), and the choices a referee
must be able to enter. Each test is named after its ruling; each ruling has a scenario of
the same name in ``tests/scenarios/``."""

from pathlib import Path

import pytest
from rules_support import game, play, refused, shot

from scorekeeper.scenarios import run_scenario_file

FLIP = {"flipping": True}


# -- R15 with R16: a chain whose skitt clears a field is a clearing hit --------------------


def chain_that_clears_yellow(**kw):
    """Black's chain joins white's red (empty) and white's yellow (1 skitt, the chain's skitt
    is its second) while black's yellow holds 2: yellow is cleared on both sides."""
    return game(rules=FLIP, blocked=["white.blue"],
                board={"white.yellow": 1, "black.yellow": 2}, **kw)


def test_r15_r16_a_chain_that_clears_a_field_earns_the_right_to_lift_an_older_blockade():
    m = play(chain_that_clears_yellow(),
             shot("black", chain=["white.red", "white.yellow"], unblock="white.blue"))
    assert m.state.blocked == {"white.yellow", "black.yellow"}
    assert m.state.board["white.yellow"] == 0 and m.state.board["black.yellow"] == 0


def test_r15_r16_the_chains_right_may_also_be_used_later_before_the_next_shot():
    m = play(chain_that_clears_yellow(), shot("black", chain=["white.red", "white.yellow"]))
    assert m.state.to_json()["pending"]["unblock"] == {"player": "black",
                                                       "fields": ["white.blue"]}
    play(m, {"decide": {"by": "black", "unblock": "white.blue"}})
    assert "white.blue" not in m.state.blocked


def test_r15_r16_the_chains_right_never_lifts_the_blockade_its_own_clearing_placed():
    m = chain_that_clears_yellow()
    message = refused(m, shot("black", chain=["white.red", "white.yellow"],
                              unblock="white.yellow"))
    assert "placed by this shot's own clearing" in message


def test_r15_r16_a_chain_that_neither_scores_nor_clears_earns_no_right():
    m = game(rules=FLIP, blocked=["white.blue"], board={"white.yellow": 1})
    message = refused(m, shot("black", chain=["white.red", "white.yellow"],
                              unblock="white.blue"))
    assert "no unblock right" in message


THIRD_READING = ("r15-r16-chain-clearing-earns-the-unblock-right",)


@pytest.mark.parametrize("name", THIRD_READING)
def test_each_third_reading_ruling_has_a_passing_scenario_named_after_it(name):
    result = run_scenario_file(Path(__file__).parent / "scenarios" / f"{name}.json")
    assert result.passed, result.line
