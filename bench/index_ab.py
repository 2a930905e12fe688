"""The index before and after a change, side by side on one machine at one time: CPU seconds
of whole ``reviewbot`` processes, alternating between the two versions so that the machine's
load weighs on both alike.

The corpus: the same Django sdist and Pygments wheel as ``index_speed.py``, cut to a part
(``django/db``, ``django/contrib/admin``, ``django/utils``, ``pygments/formatters``,
``pygments/filters``: about 80,000 lines) so that several cold builds fit in a few minutes.
Measured per version: a cold ``reviewbot index``, updates after two commits editing 10 files, and
``reviewbot refs`` on the whole-corpus index of the current version. The other version is the
tree of ``--rev`` exported with ``git archive`` and put first on ``sys.path``.
Both versions' indexes are compared table by table (digests of the sorted rows) after the
cold build and after the update: a change meant for speed must keep them equal.

    python bench/index_ab.py --rev 39ff7a5
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from index_speed import PACKAGES, Timed, code_lines, fetch, timed, unpack

from lib.common import (
    ENV,
    ROOT,
    command_line,
    exported_tree,
    git,
    revision,
    write_result,
)

PARTS = (
    "django/db",
    "django/contrib/admin",
    "django/utils",
    "pygments/formatters",
    "pygments/filters",
)
RUNS = 3
# What the index holds, table by table (not the files' stat column: the checkout's times).
DIGESTED = {
    "files": "SELECT id, path, blob, language, parser, package, lines, skipped FROM files",
    "defs": "SELECT * FROM defs",
    "imports": "SELECT * FROM imports",
    "refs": "SELECT * FROM refs",
    "edges": "SELECT * FROM edges",
    "file_links": "SELECT * FROM file_links",
    "search": "SELECT rowid, words, signature, doc FROM search",
}


def digests(database: Path) -> dict[str, str]:
    """Each table's rows, sorted, as a SHA-256 (and their count): two versions that build the
    same index give the same digests."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    out: dict[str, str] = {}
    try:
        for table, query in DIGESTED.items():
            digest = hashlib.sha256()
            rows = sorted(conn.execute(query))
            for row in rows:
                digest.update(repr(row).encode())
            out[table] = f"{len(rows)}:{digest.hexdigest()[:16]}"
    finally:
        conn.close()
    return out


def runner(tree: Path | None) -> list[str]:
    """``reviewbot`` from ``tree`` (None: this checkout)."""
    code = "import sys; sys.path.insert(0, sys.argv.pop(1)); " if tree else ""
    code += "from reviewbot.doors.launch import cli; sys.exit(cli())"
    return [sys.executable, "-c", "import sys; " + code, *([str(tree)] if tree else [])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--out", default="bench/results/index_ab.md")
    parser.add_argument(
        "--full", action="store_true", help="the whole corpus (622k lines), not the parts"
    )
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each version")
    args = parser.parse_args(argv)
    out_file = Path(args.out).resolve()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-ab-") as tmp:
        old_tree = exported_tree(args.rev, Path(tmp) / "old")
        # Both versions byte-compiled, as `pip install` leaves them (PYTHONDONTWRITEBYTECODE is
        # set here: a tree without .pyc files compiles its modules in every process, about
        # 0.1 s, which would count against the exported version only).
        for tree in (old_tree / "reviewbot", ROOT / "reviewbot"):
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True)
        full = Path(tmp) / "full"
        full.mkdir()
        for archive in archives:
            unpack(archive, full)
        repo = Path(tmp) / "repo"
        if args.full:
            full.rename(repo)
        else:
            for part in PARTS:
                shutil.copytree(full / part, repo / part)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "corpus")
        git(repo, "gc", "-q")  # packed, as a clone is (and no gc left running)
        base = git(repo, "rev-parse", "HEAD").strip()
        edits: list[str] = []
        # Two commits editing 10 files each, from the corpus: this script's (the first 10 with
        # `/db/` in their path) and index_speed.py's (the first 10 under `django/db/`).
        for pattern in ("/db/", "/django/db/"):
            git(repo, "checkout", "-q", base)
            edited = sorted(p for p in repo.rglob("*.py") if pattern in str(p))[:10]
            for k, path in enumerate(edited):
                path.write_text(path.read_text() + f"\n\ndef bench_added_{k}():\n    return {k}\n")
            git(repo, "commit", "-qam", f"edit 10 files ({pattern})")
            edits.append(git(repo, "rev-parse", "HEAD").strip())
        git(repo, "checkout", "-q", base)
        lines = code_lines(repo)
        versions = {"before": runner(old_tree), "after": runner(None)}
        cold: dict[str, list[Timed]] = {v: [] for v in versions}
        update: dict[str, list[Timed]] = {v: [] for v in versions}
        update2: dict[str, list[Timed]] = {v: [] for v in versions}
        refs: dict[str, list[Timed]] = {v: [] for v in versions}
        contents: dict[tuple[str, str], dict[str, str]] = {}  # (build, version): digests
        sink = Path(tmp) / "out"
        load_before = os.getloadavg()[0]
        for k in range(args.runs):
            order = list(versions) if k % 2 == 0 else list(reversed(versions))
            for name in order:
                database = Path(tmp) / f"{name}.sqlite"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{database}{suffix}").unlink(missing_ok=True)
                os.environ.update({**ENV, "REVIEWBOT_INDEX": str(database)})
                git(repo, "checkout", "-q", base)
                cold[name].append(timed([*versions[name], "index", str(repo)], sink))
                if k < 2:
                    contents[("cold", name)] = digests(database)
                copy = Path(tmp) / f"{name}-copy.sqlite"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{copy}{suffix}").unlink(missing_ok=True)
                    if Path(f"{database}{suffix}").exists():
                        shutil.copyfile(f"{database}{suffix}", f"{copy}{suffix}")
                git(repo, "checkout", "-q", edits[0])
                update[name].append(timed([*versions[name], "index", str(repo)], sink))
                if k < 2:
                    contents[("update", name)] = digests(database)
                # The other commit's update, from a copy of the same cold index.
                os.environ["REVIEWBOT_INDEX"] = str(copy)
                git(repo, "checkout", "-q", edits[1])
                update2[name].append(timed([*versions[name], "index", str(repo)], sink))
                os.environ["REVIEWBOT_INDEX"] = str(database)
                git(repo, "checkout", "-q", edits[0])
                where = f"{repo}/django/db/models/query.py:1489"  # QuerySet.filter
                refs[name].append(timed([*versions[name], "refs", where, "--no-update"], sink))
        load_after = os.getloadavg()[0]

    def cell(runs: list[Timed]) -> str:
        return f"{statistics.median(r.cpu for r in runs):.2f} s"

    lines_out = [
        "# Index: before and after, side by side",
        "",
        f"reviewbot {revision()} against {args.rev}; `{command_line('index_ab.py', argv)}`. "
        f"{os.cpu_count()} cores. Corpus: {'all' if args.full else ', '.join(PARTS)} of "
        f"{', '.join(a.name for a in archives)} in one git repository: {lines:,} lines of "
        f"code. {args.runs} runs of each version, "
        "alternating; medians of CPU seconds (user + system of the process and its workers) of "
        f"whole processes. Load average {load_before:.1f} before, {load_after:.1f} after "
        "(2 = both cores busy): wall times would mostly measure the other work, so they are not "
        "given.",
        "",
        "| measure | before | after | after / before |",
        "| --- | --- | --- | --- |",
    ]
    for label, table in (
        ("cold `reviewbot index`", cold),
        ("update after a commit editing 10 files (`/db/`)", update),
        ("update after a commit editing 10 files (`django/db/`, as index_speed.py)", update2),
        ("`reviewbot refs --no-update`", refs),
    ):
        b = statistics.median(r.cpu for r in table["before"])
        a = statistics.median(r.cpu for r in table["after"])
        lines_out.append(
            f"| {label} | {cell(table['before'])} | {cell(table['after'])} | {a / b:.2f} |"
        )
    lines_out += [
        "",
        "Wall seconds of the cold build (medians; inflated by the machine's load) and the "
        "parallelism they imply (CPU / wall, at most 2 here): "
        + ", ".join(
            f"{name} {statistics.median(r.wall for r in cold[name]):.2f} s "
            f"({statistics.median(r.cpu / r.wall for r in cold[name]):.2f})"
            for name in versions
        )
        + ".",
    ]
    for build_name in ("cold", "update"):
        before, after = contents[(build_name, "before")], contents[(build_name, "after")]
        differ = [t for t in DIGESTED if before[t] != after[t]]
        lines_out += [
            "",
            f"Index contents after the {build_name} build, table by table (rows sorted, "
            f"SHA-256; {', '.join(DIGESTED)}): "
            + (
                "equal in both versions."
                if not differ
                else "DIFFERENT in "
                + ", ".join(f"{t} ({before[t]} / {after[t]})" for t in differ)
                + "."
            ),
        ]
    print("\n".join(lines_out))
    write_result(out_file, lines_out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
