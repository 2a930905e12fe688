"""A full review pairs each file's units once: the units table and the bundler read the same
pairs (the bundler paired them again, for its renames)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewbot.analysis import bundles, units
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange
from reviewbot.render.report_json import report_doc
from tests.helpers import commit, write

A = """def load(path):
    return open(path).read()


def spacer():
    return 0


def save(path, text):
    with open(path, "w") as f:
        f.write(text)
"""

B = """from a import load


def main():
    return load("x")
"""


def _doc() -> str:
    doc = report_doc(pipeline.review(GitChange(Path("."), ("HEAD~1..HEAD",)), Config()))
    doc["stats"].pop("seconds")
    return json.dumps(doc, sort_keys=True)


def test_each_files_units_are_paired_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "a.py", A)
    write(repo, "b.py", B)
    commit(repo)
    # a.py: load renamed (its body kept), save edited, in two hunks; b.py follows the rename.
    write(repo, "a.py", A.replace("def load(", "def read_all(").replace('"w"', '"a"'))
    write(repo, "b.py", B.replace("load", "read_all"))
    commit(repo)
    monkeypatch.chdir(repo)
    paired: list[int] = []
    inner = getattr(units, "_pair_units", units.pair_units)

    def counted(*args: object) -> list[units.UnitPair]:
        paired.append(1)
        return inner(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(units, "_pair_units", counted, raising=False)  # (the work itself)
    once = _doc()
    assert len(paired) == 2  # a.py and b.py, once each
    assert "read_all" in once and "renamed" in once
    # The bundler pairing them again on its own says the same.
    monkeypatch.setattr(bundles, "pair_units", counted)
    paired.clear()
    assert _doc() == once
    assert len(paired) == 4
