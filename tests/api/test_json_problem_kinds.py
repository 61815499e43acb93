"""A JSON body the API cannot use is refused with the kind of its problem (``type``), told
by the decoder as a value: never by searching the decoder's own message for words."""

from __future__ import annotations

import pytest

from web_common.guards import _json_problem

pytestmark = pytest.mark.unit

JSON = "application/json"


@pytest.mark.parametrize(("body", "kind"), [
    (b'{"a": "\xff"}', "utf8_invalid"),
    (b"[" * 200 + b"]" * 200, "too_deep"),
    (b'{"a": "\\ud800"}', "string_unicode"),
    (b'{"a": 123456789012345678901234567890}', "int_range"),
    (b'{"\\ud800": 1}', "string_unicode"),
])
def test_each_problem_has_its_kind(body: bytes, kind: str) -> None:
    problem = _json_problem(body, JSON)
    assert problem is not None and problem[1] == kind, problem


def test_not_json_is_left_to_the_route_and_a_good_body_passes() -> None:
    assert _json_problem(b"{nope", JSON) is None
    assert _json_problem(b'{"a": 1}', JSON) is None
    assert _json_problem(b'{"a": "\xff"}', "text/plain") is None


def test_too_deep_names_the_limit() -> None:
    problem = _json_problem(b"[" * 200 + b"]" * 200, JSON)
    assert problem is not None and problem[0].startswith("the body nests deeper than ")
