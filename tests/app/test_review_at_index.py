"""A review of the commit its index was built at (a CI job indexing the pushed commit, then
reviewing it): the index holds the change's new side already, so only the old side is read
again (under a savepoint rolled back after), and the report is the one the slow path makes."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path

import pytest

from reviewbot.analysis import repo_impact
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, index_file
from reviewbot.app.repo_context import settings_of
from reviewbot.index import build, extract
from reviewbot.index.build import update_index
from reviewbot.index.grammars import compiled
from reviewbot.render.report_json import report_doc
from reviewbot.repo.git import Git
from tests.helpers import commit, git, write

LIB = """def load(path, mode):
    return open(path, mode).read()


def unrelated(x):
    return x * 2


def gone(a):
    return a + 1
"""

APP = """from pkg.lib import gone, load


def main():
    return load("a", "r")


def spacer_one():
    return 0


def spacer_two():
    return 0


def other():
    return gone(1)
"""


def _change(repo: Path) -> None:
    """Two commits: the second re-signs ``load``, removes ``gone`` (still called) and edits the
    calls, in several hunks (the bundler's links read both sides)."""
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/lib.py", LIB)
    write(repo, "pkg/app.py", APP)
    write(repo, "pkg/util.py", "def helper():\n    return 1\n")
    commit(repo)
    write(
        repo,
        "pkg/lib.py",
        LIB.replace("(path, mode):", "(path, mode, encoding):").split("\n\n\ndef gone")[0] + "\n",
    )
    write(
        repo,
        "pkg/app.py",
        APP.replace('load("a", "r")', 'load("a", "r", "utf-8")').replace(
            "return 0\n", "return 5\n", 1
        ),
    )
    commit(repo)


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the index's extraction reads, in order (a hook on ``build._parse``)."""
    read: list[str] = []
    parse = build._parse

    def counted(job: build.Job) -> object:
        read.append(job[1])
        return parse(job)

    monkeypatch.setattr(build, "_parse", counted)
    return read


def _doc(repo: Path) -> str:
    doc = report_doc(pipeline.review(GitChange(repo, ("HEAD~1..HEAD",)), Config()))
    doc["stats"].pop("seconds")
    return json.dumps(doc, sort_keys=True)


def test_a_review_at_the_index_commit_reads_only_the_old_side(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _change(repo)
    database = index_file(Git(repo))
    update_index(Git(repo), database, settings_of(Config()))
    before = database.read_bytes()
    read = _parses(monkeypatch)
    fast = _doc(repo)
    assert database.read_bytes() == before  # rolled back: the file is unchanged
    # Each changed file read once, at its old side; the new side is the index's own rows.
    assert sorted(read) == ["pkg/app.py", "pkg/lib.py"]
    read.clear()
    # The slow path (the new side read again, as when the index was built elsewhere) says the
    # same, byte for byte, and reads each file twice.
    monkeypatch.setattr(repo_impact, "holds", lambda git, store, listing: False)
    slow = _doc(repo)
    assert sorted(read) == ["pkg/app.py", "pkg/app.py", "pkg/lib.py", "pkg/lib.py"]
    assert fast == slow
    doc = json.loads(fast)
    changes = {(i["name"], i["change"]) for i in doc["impact"]}
    assert {("load", "signature"), ("gone", "removed")} <= changes
    assert any(f["code"] == "RB105" for f in doc["findings"])  # gone() is still called


class _CountedParser:
    """A grammar's parser that counts the sources it parses (the hook on tree-sitter)."""

    def __init__(self, parser: object, seen: Counter[bytes]) -> None:
        self.parser = parser
        self.seen = seen

    def parse(self, source: bytes) -> object:
        self.seen[source] += 1
        return self.parser.parse(source)  # type: ignore[attr-defined]


def test_each_side_of_a_changed_file_is_parsed_once(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _change(repo)
    update_index(Git(repo), index_file(Git(repo)), settings_of(Config()))
    comp = compiled("python")
    seen: Counter[bytes] = Counter()
    repo_impact._read.cache_clear()
    monkeypatch.setattr(comp, "parser", _CountedParser(comp.parser, seen))
    fast = _doc(repo)
    # The declarations of both sides, the old side into the index, the imports compared for
    # a re-sign: every one from the first parse of its text (the slow path below parses each
    # side twice, or three times).
    sides = {
        git(repo, "show", f"{rev}:pkg/{name}").encode()
        for rev in ("HEAD~1", "HEAD")
        for name in ("lib.py", "app.py")
    }
    assert sides <= set(seen)
    assert all(seen[s] == 1 for s in sides), seen.values()
    seen.clear()
    monkeypatch.setattr(repo_impact, "holds", lambda git, store, listing: False)
    monkeypatch.setattr(repo_impact, "one_extraction_each", contextlib.nullcontext)
    repo_impact._read.cache_clear()  # (the declarations of a text are kept between reviews)
    assert _doc(repo) == fast
    assert all(seen[s] >= 2 for s in sides)


LONG = "def wide(" + ", ".join(f"parameter_{k}=None" for k in range(40)) + "):\n    return 1\n"


@pytest.mark.parametrize(
    ("grammar", "text"),
    [
        ("python", LIB + APP),
        ("python", LONG + "\n\n" + LIB),
        (
            "go",
            "package p\n\ntype Store struct {\n\tn int\n}\n\n"
            "func (s *Store) Get(k string) int {\n\treturn s.n\n}\n",
        ),
        ("java", "class A extends B {\n  int f(int x) { return g(x); }\n}\n"),
    ],
)
def test_one_extraction_serves_the_index_and_the_review(grammar: str, text: str) -> None:
    comp = compiled(grammar)
    index, whole, broken = extract.extract_both(comp, text)
    assert index == extract.extract(comp, text)
    assert (whole, broken) == extract.extract_checked(comp, text, whole=True)
    if text.startswith("def wide"):  # a header longer than the index keeps: two builds
        assert index != whole
        assert index is not None and whole is not None
        assert len(whole.definitions[0].signature) > len(index.definitions[0].signature)
