"""The old <-> new line mapping, against a brute-force map built from real diffs."""

from __future__ import annotations

import difflib
import random

import pytest

from reviewbot import model
from reviewbot.model import ChangedFile, Hunk, LineMap, Status
from reviewbot.repo.patch import parse_patch


def line_map_of(old: list[str], new: list[str], context: int) -> LineMap:
    diff = "".join(
        difflib.unified_diff(
            [x + "\n" for x in old], [x + "\n" for x in new], "a/f", "b/f", n=context
        )
    )
    entries = parse_patch(diff) if diff else []
    return LineMap(entries[0].hunks if entries else ())


def truth(old: list[str], new: list[str]) -> dict[int, int]:
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    mapping = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            mapping[a + k + 1] = b + k + 1
    return mapping


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("context", [0, 3])
def test_mapping_matches_the_diff(seed: int, context: int) -> None:
    rng = random.Random(seed)
    old = [f"line {i}" for i in range(rng.randint(0, 40))]
    new = list(old)
    for _ in range(rng.randint(1, 6)):
        op = rng.choice(["insert", "delete", "replace"])
        at = rng.randint(0, len(new))
        if op == "insert":
            new[at:at] = [f"new {rng.random()}" for _ in range(rng.randint(1, 5))]
        elif new and at < len(new):
            span = rng.randint(1, 4)
            new[at : at + span] = [] if op == "delete" else [f"chg {rng.random()}"]
    lm = line_map_of(old, new, context)
    expected = truth(old, new)
    for line in range(1, len(old) + 1):
        assert lm.old_to_new(line) == expected.get(line), (line, old, new)
    inverse = {v: k for k, v in expected.items()}
    for line in range(1, len(new) + 1):
        assert lm.new_to_old(line) == inverse.get(line), (line, old, new)


def test_insertion_shifts_what_follows() -> None:
    lm = LineMap((Hunk(5, 0, 6, 30, tuple(range(6, 36)), ()),))
    assert lm.old_to_new(5) == 5
    assert lm.old_to_new(6) == 36
    assert lm.new_to_old(36) == 6
    assert lm.new_to_old(20) is None
    assert lm.touches_new(1, 5) is False and lm.touches_new(30, 40) is True


def test_the_unchecked_line_says_what_changed_and_leaves_out_what_breaks_no_call() -> None:
    """echo: a re-signed `QueryParamOr` read "(signature)" in the text while the JSON said
    "added trim (required)"; zustand a1c7f1c2 renamed parameters only and 20 calls "were not
    checked", though none can break."""
    from reviewbot.model import CALLS_UNAFFECTED, TYPES_ONLY, Impact, unchecked_line

    def entry(detail: str) -> Impact:
        return Impact("QueryParamOr", "method Context.QueryParamOr", "context.go", "signature",
                      (), 0, False, uncertain=4, detail=detail)  # fmt: skip

    line = unchecked_line((entry("added trim (required)"),))
    assert line.startswith("method Context.QueryParamOr (signature: added trim (required)): 4 ")
    assert unchecked_line((entry(CALLS_UNAFFECTED), entry(TYPES_ONLY))) == ""


def test_the_unchecked_line_tells_namesakes_of_several_files_apart() -> None:
    """express 18f782bb: "function shouldHaveBody (removed): 4 …; function shouldHaveBody
    (removed): 4 …; function shouldHaveBody (removed): 4 …", three files' copies."""
    from reviewbot.model import Impact, unchecked_line

    def gone(path: str) -> Impact:
        return Impact("shouldHaveBody", "function shouldHaveBody", path, "removed", (), 0,
                      False, uncertain=4)  # fmt: skip

    line = unchecked_line((gone("test/a.js"), gone("test/b.js"), gone("x.js")))
    assert "function shouldHaveBody in test/a.js (removed)" in line
    assert "function shouldHaveBody in test/b.js (removed)" in line
    alone = unchecked_line((gone("test/a.js"),))
    assert alone.startswith("function shouldHaveBody (removed): 4 ")


def test_a_files_line_map_builds_its_tables_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A change's declarations ask a file's mapping line by line (cf.line_map.old_to_new(...)):
    # the tables of its hunks are built once, not once a question.
    old = [f"line {k}" for k in range(200)]
    new = [x.replace("5", "five") for x in old]  # (hunks of this test alone: none cached)
    hunks = line_map_of(old, new, 3).hunks
    cf = ChangedFile("a.py", None, Status.MODIFIED, hunks)
    built: list[bool] = []
    sides = model._sides

    def counted(hunks: tuple[Hunk, ...], forward: bool) -> object:
        built.append(forward)
        return sides(hunks, forward)

    monkeypatch.setattr(model, "_sides", counted)
    fresh = LineMap(hunks)
    answers = [cf.line_map.old_to_new(n) for n in range(1, 201)]
    answers += [cf.line_map.new_to_old(n) for n in range(1, 201)]
    assert built == [True, False]  # one table each way, for 400 questions
    assert answers == [fresh.old_to_new(n) for n in range(1, 201)] + [
        fresh.new_to_old(n) for n in range(1, 201)
    ]
    assert answers[5] is None and answers[6] == 7  # (line 6 `line 5` removed; line 7 kept)
