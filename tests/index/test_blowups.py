"""Type shapes whose lookups were worked out path by path or pair by pair: TypeScript unions of
unions that share their members (`type U2_0 = U1_0 | U1_1 | U1_2`, each U1 a union of the same
few interfaces: followed path by path, 10 unions of 10 each, 7 levels deep, took 14 s to index
one file of 30 calls), and one interface declared many times in a module (merged: 1000 of them
did not index in 60 s). The answers stay; the work grows with the types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewbot.index import resolve
from tests.index.support import build, vias

_WIDTH = 4
_LEVELS = 7
_CALLS = 5


def _unions(member: str) -> str:
    """Interfaces A0..A2 with ``member``, then _LEVELS levels of unions U{i}_{k}, each of
    every union of the level below."""
    text = "".join(f"export interface A{k} {{ {member} }}\n" for k in range(_WIDTH))
    for i in range(1, _LEVELS + 1):
        below = [f"A{j}" if i == 1 else f"U{i - 1}_{j}" for j in range(_WIDTH)]
        text += "".join(f"export type U{i}_{k} = {' | '.join(below)};\n" for k in range(_WIDTH))
    return text


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls = [0]
    method = getattr(resolve.Resolver, name)

    def counted(self: resolve.Resolver, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return method(self, *args, **kwargs)

    monkeypatch.setattr(resolve.Resolver, name, counted)
    return calls


def test_a_method_of_unions_of_unions_is_each_interfaces_with_work_by_union(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted(monkeypatch, "class_member")
    text = _unions("m(): void;")
    top = f"U{_LEVELS}_0"
    body = "".join("  x.m();\n" for _ in range(_CALLS))
    db = build(repo, {"a.ts": f"{text}export function f(x: {top}) {{\n{body}}}\n"})
    first = text.count("\n") + 2
    for line in range(first, first + _CALLS):
        # one member in each of the four interfaces: a union's, a quarter each
        assert vias(db, "a.ts", line, "m") == {
            (f"A{k}.m", round(1 / _WIDTH, 4), "union") for k in range(_WIDTH)
        }
    # Each union's bases are read once a level for each call: 205 lookups here (the walk by
    # path made 38,329).
    assert calls[0] < 1_000


def test_a_property_read_through_unions_of_unions_with_work_by_union(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted(monkeypatch, "in_file")
    text = "export class B {\n  m(): void {}\n}\n" + _unions("p: B;")
    top = f"U{_LEVELS}_0"
    body = "".join("  x.p.m();\n" for _ in range(_CALLS))
    db = build(repo, {"a.ts": f"{text}export function f(x: {top}) {{\n{body}}}\n"})
    first = text.count("\n") + 2
    for line in range(first, first + _CALLS):
        assert vias(db, "a.ts", line, "m") == {("B.m", 1.0, "instance")}
    # Each union's aliases are read once for each depth (5 deep at most): 200 reads here (by
    # path, 1 + 4 + ... + 4^4 for each union expanded: 1,496).
    assert calls[0] < 600


_MERGED = 30


def test_a_method_of_an_interface_declared_many_times_with_work_by_declaration(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted(monkeypatch, "_above")
    text = "".join(
        f"export interface X {{\n  run(): void;\n  m{k}(): void;\n}}\n" for k in range(_MERGED)
    )
    text += (
        "export class X {\n  run(): void {}\n}\nexport class Sub extends X {\n  run(): void {}\n}\n"
    )
    db = build(repo, {"a.ts": f"{text}export function f(x: X) {{\n  x.run();\n}}\n"})
    line = text.count("\n") + 2
    # every declaration of X's `run` (one type, merged), and the subclass's override
    assert vias(db, "a.ts", line, "run") == {
        ("X.run", 1.0, "instance"),
        ("Sub.run", 0.5, "family"),
    }
    # The bases above each class are walked once: 31 walks here (each declaration of `run`
    # walked again for each class of the receiver's type: 961).
    assert calls[0] < 100
