"""The cold build's shortcuts give what the plain ways give: statements of many rows insert the
rows ``executemany`` inserts (also from one flat list); the link workers' file graph is the one
``rebuild_links`` sums from the stored edges; the compiled exclusion globs exclude what
``excluded`` does; the innermost enclosing interval, found by painting, is the one a direct
search finds."""

from __future__ import annotations

import gc
import itertools
import random
import sqlite3
from pathlib import Path

import pytest

from reviewbot.index.build import exclusion
from reviewbot.index.extract import _innermost
from reviewbot.index.resolve import Resolver, file_weights, rebuild_links
from reviewbot.index.store import _create, insert_flat, insert_rows
from reviewbot.repo.files import excluded
from tests.helpers import commit, write
from tests.index.support import build, update

SCHEMA = "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL, d INTEGER)"


def _table(
    rows: list[tuple[object, ...]], head: str, many: bool, flat: bool = False
) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(":memory:")
    conn.execute(SCHEMA)
    if flat:
        insert_flat(conn, head, 4, list(itertools.chain.from_iterable(rows)))
    elif many:
        insert_rows(conn, head, 4, rows)
    else:
        conn.executemany(f"{head} (?, ?, ?, ?)", rows)
    out = conn.execute("SELECT a, b, c, d FROM t ORDER BY a").fetchall()
    conn.close()
    return out


@pytest.mark.parametrize("count", [0, 1, 127, 128, 129, 300])
def test_rows_inserted_many_a_statement_are_those_inserted_one_by_one(count: int) -> None:
    rng = random.Random(count)
    rows: list[tuple[object, ...]] = [
        (k, rng.choice(["call", "é", "", "x'y"]), rng.random(), rng.choice([None, k]))
        for k in range(count)
    ]
    got = _table(rows, "INSERT INTO t VALUES", True)
    assert got == _table(rows, "INSERT INTO t VALUES", False)
    assert got == _table(rows, "INSERT INTO t VALUES", False, flat=True)
    assert len(got) == count


def test_ignored_duplicates_keep_the_first_row_as_one_by_one() -> None:
    """``INSERT OR IGNORE``: of two rows with one key the first stands, in a statement of
    many rows as across statements."""
    rows: list[tuple[object, ...]] = [(k % 150, f"v{k}", 0.5, k) for k in range(400)]
    got = _table(rows, "INSERT OR IGNORE INTO t VALUES", True)
    assert got == _table(rows, "INSERT OR IGNORE INTO t VALUES", False)
    assert got == _table(rows, "INSERT OR IGNORE INTO t VALUES", False, flat=True)
    assert got[0] == (0, "v0", 0.5, 0)
    assert len(got) == 150


def test_an_sqlite_allowing_few_values_a_statement_gets_fewer_rows_a_statement() -> None:
    """An older SQLite takes 999 values a statement (this one 250,000): the statements stay
    under the connection's limit (here 100 values: 25 rows of four, where 128 rows would be
    512 values, "too many SQL variables")."""
    conn = sqlite3.connect(":memory:")
    conn.execute(SCHEMA)
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 100)
    rows: list[tuple[object, ...]] = [(k, "x", 0.0, k) for k in range(300)]
    insert_rows(conn, "INSERT INTO t VALUES", 4, rows)
    assert conn.execute("SELECT * FROM t ORDER BY a").fetchall() == rows


def test_the_workers_file_graph_is_the_one_summed_from_the_stored_edges(tmp_path: Path) -> None:
    """Edges of random files, with repeated (reference, definition) pairs (the first, in
    sorted order, is the one stored), ``member`` guesses (left out) and confidences whose
    millionths end in .5 (SQLite rounds them away from zero, Python's ``round`` to even)."""
    rng = random.Random(7)
    confidences = [1.0, 0.5, 1 / 3, 1 / 7, 1 / 128, 1 / 256, 3 / 2_000_000, 0.0000025]
    edges = [
        (
            (rng.randrange(1, 6) << 24) + rng.randrange(40),
            (rng.randrange(1, 6) << 24) + rng.randrange(8),
            rng.choice(confidences),
            rng.choice(["member", "import", "self", "local"]),
        )
        for _ in range(3000)
    ]
    edges.sort()
    assert len({e[:2] for e in edges}) < len(edges)  # some pairs repeat
    conn = _create(tmp_path / "i.sqlite")
    insert_rows(conn, "INSERT OR IGNORE INTO edges VALUES", 4, edges)
    rebuild_links(conn)
    stored = conn.execute("SELECT src, dst, weight FROM file_links ORDER BY 1, 2").fetchall()
    conn.close()
    summed = file_weights(edges)
    assert [(s, d, w) for (s, d), w in sorted(summed.items())] == stored
    assert any(c * 1_000_000 % 1 == 0.5 for _, _, c, via in edges if via != "member")
    # In slices (ends of slices never split a reference's edges), summed part by part.
    cut = next(e for e in edges if e[0] >> 24 == 3)[0]
    merged: dict[tuple[int, int], int] = {}
    for part in ([e for e in edges if e[0] < cut], [e for e in edges if e[0] >= cut]):
        for key, weight in file_weights(part).items():
            merged[key] = merged.get(key, 0) + weight
    assert merged == summed


def test_a_duplicate_key_fails_a_plain_insert_of_many_rows() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(SCHEMA)
    with pytest.raises(sqlite3.IntegrityError):
        insert_rows(conn, "INSERT INTO t VALUES", 4, [(1, "a", 0.0, 1)] * 200)


PATTERNS = (
    "**/node_modules/**",
    "**/.git/**",
    "venv/**",
    "docs/*.py",
    "./build/*",
    "**/gen_*.py",
    "*.min.js",
    "a?c/[xy]*.go",
)
PATHS = (
    "node_modules/x.js",
    "web/node_modules/a/b.js",
    "venv/lib/x.py",
    "src/venv/lib/x.py",
    "docs/conf.py",
    "docs/sub/conf.py",
    "build/out.py",
    "gen_x.py",
    "pkg/gen_y.py",
    "pkg/gen.py",
    "static/app.min.js",
    "abc/x1.go",
    "abc/z1.go",
    "a/b/c.py",
    "ordinary.py",
)


@pytest.mark.parametrize("path", PATHS)
def test_compiled_exclusion_globs_exclude_what_excluded_does(path: str) -> None:
    assert exclusion(PATTERNS)(path) == excluded(path, PATTERNS)
    assert exclusion(PATTERNS[:1])(path) == excluded(path, PATTERNS[:1])
    assert exclusion(())(path) is False


def test_the_exclusion_globs_do_exclude_some_paths_and_keep_others() -> None:
    """Not a comparison of two no-ops: both ways exclude some of the paths, keep others."""
    kept = [p for p in PATHS if not exclusion(PATTERNS)(p)]
    assert "ordinary.py" in kept
    assert "src/venv/lib/x.py" in kept  # `venv/**` is a top folder
    assert "web/node_modules/a/b.js" not in kept
    assert "static/app.min.js" not in kept


def _nested(rng: random.Random, lo: int, hi: int, depth: int, out: list[tuple[int, int]]) -> None:
    at = lo
    while at < hi and depth < 5 and rng.random() < 0.7:
        start = rng.randint(at, hi)
        end = rng.randint(start, hi)
        if end <= start:
            break
        out.append((start, end))
        if rng.random() < 0.1:
            out.append((start, end))  # two captures of one node
        _nested(rng, start, end, depth + 1, out)
        at = end


def test_the_innermost_interval_is_the_last_in_order_that_holds_the_position() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        spans: list[tuple[int, int]] = []
        _nested(rng, 0, 60, 0, spans)
        spans.sort(key=lambda s: (s[0], -s[1]))
        starts = [-1] + [s[0] for s in spans]
        ends = [100] + [s[1] for s in spans]
        positions = sorted(rng.randint(0, 60) for _ in range(rng.randint(0, 30)))
        expected = [
            max(i for i in range(len(starts)) if starts[i] <= p < ends[i]) for p in positions
        ]
        assert _innermost(positions, starts, ends) == expected
        own = starts[1:]
        parents = [max(i for i in range(len(starts)) if starts[i] < p < ends[i]) for p in own]
        assert _innermost(own, starts, ends, strict=True) == parents


def test_a_build_frees_its_resolver_with_no_cycle_collection(repo: Path, tmp_path: Path) -> None:
    """The resolver's tables refer back to it (their loaders are its methods): the build
    closes it, so that it goes when the build is done, with the collector off as during a
    build (it was left for the collector's walk over all the build made)."""
    collecting = gc.isenabled()
    gc.collect()  # (what other tests left)
    gc.disable()
    try:
        database = build(repo, {"a.py": "def f():\n    return 1\n", "b.py": "from a import f\n"})
        write(repo, "b.py", "from a import f\n\nf()\n")
        commit(repo)
        assert update(repo, database).read == 1  # an update resolves too
        assert not [o for o in gc.get_objects() if isinstance(o, Resolver)]
    finally:
        if collecting:
            gc.enable()
