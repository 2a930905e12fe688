"""Repository bundles on small real repositories: structural cards, references kept together,
size bounds, determinism, the fallback, one file, no file, a folder, incremental updates."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from reviewbot.analysis import repo_bundles
from reviewbot.analysis.repo_bundles import Bundling, EigenFailure, bundle_repository
from reviewbot.analysis.repo_cards import FileUnits, UnitDef, cards_of_file, git_texts, load_units
from reviewbot.repo.git import Git
from tests.helpers import commit, write
from tests.index.support import build, update

Reader = Callable[[Sequence[FileUnits]], Callable[[FileUnits], str | None]]


def texts(repo: Path) -> Reader:
    return lambda units: git_texts(Git(repo), units)


def bundling(repo: Path, db: Path, **kw: object) -> Bundling:
    conn = sqlite3.connect(db)
    try:
        return bundle_repository(conn, texts(repo), **kw)  # type: ignore[arg-type]
    finally:
        conn.close()


def function(name: str, calls: Sequence[str] = (), body_lines: int = 8) -> str:
    body = "".join(f"    step_{name}_{k} = {k} * 2  # work of {name}\n" for k in range(body_lines))
    called = "".join(f"    {c}()\n" for c in calls)
    return f"def {name}():\n{body}{called}    return 0\n"


def group_files(prefix: str, folder: str, count: int) -> dict[str, str]:
    """``count`` files whose functions call the next file's functions, in a chain."""
    files: dict[str, str] = {}
    for k in range(count):
        nxt = f"{prefix}{k + 1}" if k + 1 < count else None
        imports = f"from {folder.replace('/', '.')}.{nxt} import *\n\n\n" if nxt else ""
        funcs = [
            function(f"{prefix}{k}_f{j}", [f"{prefix}{k + 1}_f{j}"] if nxt else [])
            for j in range(4)
        ]
        files[f"{folder}/{prefix}{k}.py"] = imports + "\n\n".join(funcs)
    return files


def every_card(b: Bundling) -> list[tuple[str, int, int]]:
    return sorted((c.path, c.start, c.end) for x in b.bundles for c in x.cards)


def test_cards_are_units_with_class_headers_and_long_functions_in_parts() -> None:
    lines = [
        "import os",
        "",
        "LIMIT = 3",
        "",
        "",
        "class Shelf:",
        "    size: int = 0",
        "    name = 'x'",
        "",
        "    # Put a book.",
        "    def put(self, book):",
        "        self.size += 1",
        "",
        "    def take(self):",
        "        return os.getcwd()",
        "",
        "",
        "def long_one():",
    ]
    for block in range(6):
        lines += [f"    part_{block}_{k} = 'x' * {k}  # {'filler ' * 10}" for k in range(12)]
        lines.append("")
    lines.append("    return 1")
    text = "\n".join(lines) + "\n"

    end = len(lines)
    defs = (
        UnitDef(1, "class", "Shelf", 6, 15, None),
        UnitDef(2, "method", "Shelf.put", 11, 12, 1),
        UnitDef(3, "method", "Shelf.take", 14, 15, 1),
        UnitDef(4, "function", "long_one", 18, end, None),
    )
    cards = cards_of_file(FileUnits(1, "m.py", "0" * 40, defs), text)
    labels = [(c.label, c.start, c.end) for c in cards]
    assert labels[0] == ("top-level code", 1, 3)
    assert labels[1] == ("class Shelf", 6, 8)  # header and fields
    assert labels[2] == ("method Shelf.put", 10, 12)  # its comment joins it
    assert labels[3] == ("method Shelf.take", 14, 15)
    parts = [c for c in cards if c.qualified == "long_one"]
    assert len(parts) >= 2 and all("(part" in c.label for c in parts)
    assert len({c.atom for c in parts}) == 1  # one atom: never cut across bundles
    assert parts[0].start == 18 and parts[-1].end == end
    assert all(a.end < b.start for a, b in itertools.pairwise(parts))
    assert len({c.id for c in cards}) == len(cards)
    assert cards[1].id == "m.py::Shelf@6"


def test_references_decide_the_bundles(repo: Path) -> None:
    # Two chains of calls, their files interleaved in the same two folders: the bundles
    # follow the calls, not the folders or the file order.
    files = {}
    for name, folder in (("a", "x"), ("b", "x"), ("c", "y"), ("d", "y")):
        files.update(group_files(name, folder, 3))
    files["x/__init__.py"] = ""
    files["y/__init__.py"] = ""
    db = build(repo, files)
    total = sum(len(t) for t in files.values())
    result = bundling(repo, db, target=max(1000, total // 4))
    prefix_of = {
        x.id: {Path(c.path).name[0] for c in x.cards if c.qualified} for x in result.bundles
    }
    assert sorted(map(sorted, prefix_of.values())) == [["a"], ["b"], ["c"], ["d"]], prefix_of
    inside = sum(x.links_inside for x in result.bundles)
    assert inside > 0


def test_deterministic_and_within_the_size_bounds(repo: Path) -> None:
    files: dict[str, str] = {}
    for name, folder in (("p", "pkg/a"), ("q", "pkg/b"), ("r", "lib"), ("s", "lib/sub")):
        files.update(group_files(name, folder, 5))
    db = build(repo, files)
    target = 3000
    first = bundling(repo, db, target=target)
    second = bundling(repo, db, target=target)
    assert repo_bundles.bundling_doc(first) == repo_bundles.bundling_doc(second)
    assert first.method == "spectral" and len(first.bundles) > 3
    sizes = [x.chars for x in first.bundles]
    assert max(sizes) <= 1.5 * target
    assert first.stats()["within_bounds"] == 1.0, sizes
    # Every card is in exactly one bundle, and no function spans two.
    cards = every_card(first)
    assert len(cards) == len(set(cards))
    conn = sqlite3.connect(db)
    assert repo_bundles.units_cut(first.bundles, conn) == 0
    conn.close()


def test_the_fallback_when_the_eigensolver_fails(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files: dict[str, str] = {}
    for name, folder in (("p", "pkg/a"), ("q", "pkg/b")):
        files.update(group_files(name, folder, 5))
    db = build(repo, files)
    spectral = bundling(repo, db, target=3000)

    def fail(*_args: object) -> object:
        raise EigenFailure("the eigensolver did not converge (ArpackNoConvergence)")

    monkeypatch.setattr(repo_bundles, "_eigenvectors", fail)
    result = bundling(repo, db, target=3000)
    assert result.method == "fallback" and "did not converge" in result.note
    assert "fallback by folder and file" in repo_bundles.bundling_text(result)
    assert every_card(result) == every_card(spectral)
    for x in result.bundles:
        assert x.chars <= 3000 or len({c.qualified for c in x.cards}) == 1
        assert len({c.path.rpartition("/")[0] for c in x.cards}) >= 1
    # Folder by folder: a bundle never starts a new folder's code before 30% of the target.
    folders = [[c.path.rpartition("/")[0] for c in x.cards] for x in result.bundles]
    assert all(f == sorted(f) for f in folders)


def test_one_file_and_an_empty_repository(repo: Path, tmp_path: Path) -> None:
    funcs = "\n\n".join(function(f"f{k}", [f"f{k + 1}"] if k < 19 else []) for k in range(20))
    db = build(repo, {"only.py": funcs})
    small = bundling(repo, db, target=25_000)
    assert len(small.bundles) == 1 and small.bundles[0].files == ("only.py",)
    assert small.bundles[0].links_inside >= 19 and small.bundles[0].links_outside == 0
    split = bundling(repo, db, target=2000)
    assert len(split.bundles) > 1
    conn = sqlite3.connect(db)
    assert repo_bundles.units_cut(split.bundles, conn) == 0
    conn.close()
    assert every_card(split) == every_card(small)

    empty = tmp_path / "empty"
    empty.mkdir()
    from tests.helpers import git

    git(empty, "init", "-q")
    db2 = tmp_path / "empty.sqlite"
    update(empty, db2)
    none = bundling(empty, db2)
    assert none.bundles == () and none.stats()["count"] == 0
    assert repo_bundles.bundling_text(none) == "no indexed code to bundle\n"


def test_a_folder_scope(repo: Path) -> None:
    files = group_files("p", "pkg/a", 4) | group_files("q", "lib", 4)
    db = build(repo, files)
    scoped = bundling(repo, db, target=2000, scope="lib")
    paths = {c.path for x in scoped.bundles for c in x.cards}
    assert paths == {f"lib/q{k}.py" for k in range(4)}
    assert scoped.scope == "lib"
    nothing = bundling(repo, db, target=2000, scope="docs")
    assert nothing.bundles == ()


def test_incremental_after_a_small_commit_and_full_after_a_large_one(repo: Path) -> None:
    files: dict[str, str] = {}
    for name, folder in (("p", "pkg/a"), ("q", "pkg/b"), ("r", "lib"), ("s", "lib/sub")):
        files.update(group_files(name, folder, 6))
    db = build(repo, files)
    first = bundling(repo, db, target=3000)
    assert first.update == "full" and first.recomputed == len(first.bundles)
    same = bundling(repo, db, target=3000, previous=first.state)
    assert same.update == "unchanged" and same.recomputed == 0
    assert repo_bundles.bundling_doc(same)["bundles"] == repo_bundles.bundling_doc(first)["bundles"]
    # One function changes in one file.
    path = "lib/r2.py"
    write(repo, path, files[path].replace("return 0", "return 1", 1))
    commit(repo)
    update(repo, db)
    after = bundling(repo, db, target=3000, previous=first.state)
    assert after.update == "incremental"
    assert 0 < after.recomputed < len(after.bundles)
    untouched = {
        tuple(c.id for c in x.cards)
        for x in first.bundles
        if not any(c.path == path for c in x.cards)
    }
    kept = {tuple(c.id for c in x.cards) for x in after.bundles}
    assert len(untouched - kept) <= after.recomputed  # only merged-into bundles may differ
    assert sorted(c.id for x in after.bundles for c in x.cards) == sorted(
        c.id for x in first.bundles for c in x.cards
    )
    # Half of the files change: everything is clustered again.
    for k, p in enumerate(sorted(files)):
        if k % 2 == 0:
            write(repo, p, files[p].replace("* 2", "* 3"))
    commit(repo)
    update(repo, db)
    again = bundling(repo, db, target=3000, previous=after.state)
    assert again.update == "full"
    # A state of another target or scope is not used.
    other = bundling(repo, db, target=4000, previous=again.state)
    assert other.update == "full"


def test_bad_target_is_refused(repo: Path) -> None:
    db = build(repo, {"a.py": function("a")})
    with pytest.raises(ValueError, match="target must be at least 1000"):
        bundling(repo, db, target=10)
    conn = sqlite3.connect(db)
    assert [u.path for u in load_units(conn)] == ["a.py"]
    conn.close()


def test_a_loosely_linked_bundle_says_so_in_its_title(repo: Path) -> None:
    files: dict[str, str] = {}
    for name, folder in (("p", "pkg/a"), ("q", "pkg/b")):
        files.update(group_files(name, folder, 5))
    result = bundling(repo, build(repo, files), target=3000)
    tight, loose = result.bundles[0], result.bundles[0]._replace(links_inside=0, links_outside=9)
    text = repo_bundles.bundling_text(result._replace(bundles=(tight, loose)), width=200)
    rows = text.splitlines()[1:3]
    assert "(loosely linked)" not in rows[0] and tight.cohesion and tight.cohesion > 0.05
    assert rows[1].split("0.00  ", 1)[1].startswith("(loosely linked) ")
