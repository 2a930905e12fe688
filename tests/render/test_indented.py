"""``dumps_indented`` writes exactly what ``json.dumps(doc, indent=2, ensure_ascii=False)``
writes: on generated documents and on values it leaves to ``json.dumps`` (the reports:
``test_render``)."""

from __future__ import annotations

import enum
import json
import math
from typing import Any, NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from reviewbot.render import indented
from reviewbot.render.indented import dumps_indented

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),  # escapes, control characters, non-ASCII, surrogates
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=5),
    ),
    max_leaves=40,
)


def _stdlib(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


@given(documents)
def test_the_text_is_json_dumps_text(doc: Any) -> None:
    assert dumps_indented(doc) == _stdlib(doc)


@given(documents)
def test_the_text_is_the_same_in_many_pieces(doc: Any) -> None:
    """With the pieces joined every two (a large document's case), the same text."""
    saved = indented._PIECES
    indented._PIECES = 2
    try:
        assert dumps_indented(doc) == _stdlib(doc)
    finally:
        indented._PIECES = saved


class Pair(NamedTuple):
    a: int
    b: str


class Level(enum.IntEnum):
    LOW = 1


def test_other_values_are_left_to_json_dumps() -> None:
    """A NamedTuple, an int enum, keys that are not strings: the standard library's text."""
    for doc in (
        {"pair": Pair(1, "x")},
        [Level.LOW, {"k": Level.LOW}],
        {1: "one", None: [], 2.5: {}},
        {"deep": [[{"x": math.inf}]], "nan": math.nan},
    ):
        assert dumps_indented(doc) == _stdlib(doc)


def test_what_json_dumps_refuses_is_refused() -> None:
    try:
        dumps_indented({"x": object()})
    except TypeError:
        pass
    else:
        raise AssertionError("an object that is not JSON was written")


class Rows(indented.Fragment):
    """A fragment that writes its rows itself (here through ``dumps_indented`` of each)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def plain(self) -> list[Any]:
        return self.rows

    def write(self, out: list[str], newline: str) -> None:
        inner = newline + "  "
        texts = [dumps_indented(r).replace("\n", inner) for r in self.rows]
        out.append("[" + inner + ("," + inner).join(texts) + newline + "]" if texts else "[]")


@given(st.lists(documents, max_size=4))
def test_a_fragment_writes_its_plain_value_text(rows: list[Any]) -> None:
    doc = {"a": [1, {"rows": Rows(rows)}], "b": Rows(rows)}
    plain = {"a": [1, {"rows": rows}], "b": rows}
    assert dumps_indented(doc) == _stdlib(plain)
    # Beside a value left to json.dumps, the fragment is its plain value.
    assert dumps_indented({**doc, "pair": Pair(1, "x")}) == _stdlib({**plain, "pair": Pair(1, "x")})
