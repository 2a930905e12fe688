"""The receiver written before a member name, read backwards from the name in one match."""

from __future__ import annotations

import pytest

from reviewbot.index.extract import _receiver


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a.b.name", "a.b"),  # a dotted path
        ("x . name", "x"),  # spaces around the dot
        ("obj?.name", "obj"),  # optional chaining
        ("super().name", "super()"),
        ("f().x.name", ""),  # the path goes on before `x`: not a plain path
        ("a[0].x.name", ""),
        ("(a + b).name", ""),  # an expression
        ("9 .name", ""),  # a number is no receiver
        ("...name", None),  # a spread, not a member
        ("name", None),  # no dot at all
    ],
)
def test_the_receiver_before_a_member_name(source: str, expected: str | None) -> None:
    data = source.encode()
    at = data.rindex(b"name")
    words: dict[bytes, str] = {}
    assert _receiver(data[::-1], at, words) == expected
    assert _receiver(data[::-1], at, words) == expected  # again, from the file's memo
