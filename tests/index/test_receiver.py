"""The receiver written before a member name, read backwards from the name in one match."""

from __future__ import annotations

import pytest

from reviewbot.index.extract import _receiver, extract
from reviewbot.index.grammars import compiled


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


def test_a_python_member_written_after_white_space_after_its_dot_is_a_member() -> None:
    # Python's member names are plain identifiers: the tree tells which ones follow a dot and
    # white space (the query no longer captures every `attribute` for that).
    text = (
        "class Box:\n"
        "    def __init__(self):\n"
        "        self.size = 0\n"
        "\n"
        "    def area(self):\n"
        "        return (self.\n"
        "                size * self.  size)\n"
        "\n"
        "    def also(self):\n"
        "        # The end of a sentence.\n"
        "        size = 1\n"
        "        return size\n"
    )
    facts = extract(compiled("python"), text)
    assert facts is not None
    seen = [(r.line, r.how, r.target) for r in facts.references if r.name == "size"]
    box = next(k for k, d in enumerate(facts.definitions) if d.name == "Box")
    assert seen == [(7, "self", box), (7, "self", box)]  # (the local `size` is no reference)
