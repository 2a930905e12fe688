"""A review brings the index to the commit its change is made on (``apply_listing``). When
files were added or removed since, as well as changed in place, the files changed in place are
still carried (only the names whose meaning changed are resolved again, the other edges move to
the definitions' new ids), and the result equals a full relink of every name the files define
or import, and a cold build of that commit."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.index import build
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.index.resolve import Resolver, Row, link_all
from reviewbot.index.store import Store, storable
from reviewbot.render.report_json import report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from reviewbot.repo.git import Git
from reviewbot.repo.listing import list_tree
from tests.helpers import commit, git, write
from tests.index.support import SETTINGS, dump, update

# The commit the review is made on (``BASE``), then the commits up to where the index is built:
# files edited in place (lines moved, a method added, a class's base changed), one deleted and
# one added, in Python, Java (one package: its files see each other's names) and Go.
BASE = {
    "py/core.py": "import os\n\n\ndef connect():\n    return os.sep\n\n\nclass Engine:\n"
    "    def start(self):\n        return connect()\n\n    def stop(self):\n        pass\n",
    "py/use.py": "from core import Engine, connect\nfrom old import legacy\n\n\nconnect()\n"
    "legacy()\n\n\nclass Car(Engine):\n    def go(self):\n        self.start()\n"
    "        return self.stop()\n",
    "py/old.py": "def legacy():\n    return 1\n",
    "java/p/Shape.java": "package p;\n\npublic class Shape {\n    public int area() {\n"
    '        return 0;\n    }\n\n    public String name() {\n        return "shape";\n'
    "    }\n}\n",
    "java/p/Square.java": "package p;\n\npublic class Square extends Shape {\n"
    "    public int area() {\n        return side() * side();\n    }\n\n"
    "    int side() {\n        return 2;\n    }\n}\n",
    "java/p/Use.java": "package p;\n\nclass Use {\n    int total(Shape s) {\n"
    "        return s.area() + new Square().side();\n    }\n\n"
    "    String label(Shape s) {\n        return s.name();\n    }\n}\n",
    "go/m/a.go": "package m\n\nfunc Helper() int {\n\treturn 1\n}\n\n"
    "type Store struct{}\n\nfunc (s *Store) Get() int {\n\treturn Helper()\n}\n",
    "go/m/b.go": "package m\n\nfunc Use(s *Store) int {\n\treturn s.Get() + Helper()\n}\n",
}
HEAD = {
    "py/core.py": "import os\n\n# moved down\n\n\ndef connect():\n    return os.sep\n\n\n"
    "class Engine:\n    def start(self):\n        return connect()\n\n"
    "    def stop(self):\n        pass\n\n    def pause(self):\n        return 0\n",
    "py/use.py": BASE["py/use.py"].replace(
        "from old import legacy\n", "from fresh import legacy\n"
    ),
    "py/fresh.py": "def legacy():\n    return 2\n\n\ndef newer():\n    return 3\n",
    "java/p/Shape.java": BASE["java/p/Shape.java"].replace(
        "    public String name() {",
        "    public int sides() {\n        return 0;\n    }\n\n    public String name() {",
    ),
    "java/p/Circle.java": "package p;\n\npublic class Circle extends Shape {\n"
    "    public int area() {\n        return 3;\n    }\n}\n",
    "go/m/a.go": BASE["go/m/a.go"] + "\nfunc Other() int {\n\treturn 2\n}\n",
}
GONE_AT_HEAD = ("py/old.py",)


def _history(repo: Path) -> str:
    """Commit ``BASE``, then ``HEAD`` over it; the base commit."""
    for name, text in BASE.items():
        write(repo, name, text)
    base = commit(repo, "base")
    for name in GONE_AT_HEAD:
        (repo / name).unlink()
    for name, text in HEAD.items():
        write(repo, name, text)
    commit(repo, "head")
    return base


def _apply(repo: Path, database: Path, rev: str) -> None:
    """Bring ``database`` to the files of ``rev`` as a review does, and keep the result."""
    conn = sqlite3.connect(database, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        listing = {p: f for p, f in list_tree(Git(repo), rev).items() if storable(p)}
        build.apply_listing(Git(repo), Store(conn, created=False), listing, SETTINGS)
        conn.execute("COMMIT")
    finally:
        conn.close()


@pytest.fixture
def relinked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many references each relink resolves."""
    seen: list[int] = []

    def spy(resolver: Resolver, rows: list[Row], workers: int) -> object:
        seen.append(len(rows))
        return link_all(resolver, rows, workers)

    monkeypatch.setattr(build, "link_all", spy)
    return seen


def _full_relink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the carry when files were added or removed: every name of the changed files
    is resolved again (as before this carry)."""
    real = build._before

    def before(store: Store, plan: build._Plan, whole: bool = False) -> object:
        if plan.removed or len(plan.gone) != len(plan.read):
            return None
        return real(store, plan)

    monkeypatch.setattr(build, "_before", before)


def test_files_added_and_removed_keep_the_carry_and_equal_a_full_relink(
    repo: Path, tmp_path: Path, relinked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _history(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    fast, full = tmp_path / "fast.sqlite", tmp_path / "full.sqlite"
    shutil.copy(warm, fast)
    shutil.copy(warm, full)
    relinked.clear()
    _apply(repo, fast, base)
    carried = sum(relinked)
    relinked.clear()
    with monkeypatch.context() as m:
        _full_relink(m)
        _apply(repo, full, base)
    everything = sum(relinked)
    assert dump(fast) == dump(full)
    # ... and a cold build of the base commit.
    git(repo, "checkout", "-q", base)
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(fast) == dump(cold)
    # The carry resolved fewer references again (Java's `area`, `name`, Python's `start`...:
    # names whose definitions stayed as they were).
    assert 0 < carried < everything


def test_a_review_of_an_old_commit_is_the_same_as_with_a_full_relink(
    repo: Path, monkeypatch: pytest.MonkeyPatch, relinked: list[int]
) -> None:
    """Reviewed from an index built at HEAD: the change's base commit is a few commits back,
    with files added and removed since; text and JSON are those of a full relink."""
    base = _history(repo)
    git(repo, "checkout", "-q", "-b", "old", base)  # the change reviewed: a commit on base
    write(repo, "java/p/Shape.java", BASE["java/p/Shape.java"].replace("name()", "title()"))
    write(repo, "py/core.py", BASE["py/core.py"].replace("def stop(self)", "def halt(self)"))
    change = commit(repo, "change")
    git(repo, "checkout", "-q", "main")
    config = Config()
    settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry, jobs=1)
    update_index(Git(repo), pipeline.index_file(Git(repo)), settings)

    def outputs() -> tuple[str, str]:
        report = pipeline.review(pipeline.GitChange(repo, (f"{change}~1..{change}",)), config)
        doc = report_doc(report)
        doc["stats"].pop("seconds", None)
        return repr(doc), review_text(report, Style(False), width=80)

    relinked.clear()
    fast = outputs()
    carried = sum(relinked)
    relinked.clear()
    with monkeypatch.context() as m:
        _full_relink(m)
        full = outputs()
    assert fast == full
    assert "RB105" in fast[1]  # (the renamed `name` and `stop` are still called)
    assert 0 < carried < sum(relinked)
