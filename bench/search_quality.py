"""How well `reviewbot search` ranks the definitions a developer means: judged queries on real
repositories, MRR, top-1 and top-5, for this checkout and for ``--rev`` side by side.

The queries and their answers are ``bench/search_queries.json`` (read from the code before any
ranking was looked at; each repository is in the ``tune`` half, used to choose the ranking, or
the ``report`` half, only measured). Each repository is cloned from its mirror
(``/work/.mirror/<owner>+<name>/repo``) at the commit the answers were read at, under
``bench/.corpus/search/``, and indexed once by this checkout (search reads the index both
versions share); each version then runs every query (``bench/lib/search_ranks.py``, with that
version first on the path). A query scores 1/rank of its first answer within the first
``DEPTH`` results (0 past them); top-1 and top-5 count the queries answered there.

``--timing REPO`` (a judged repository, or the folder of one indexed) also times ``python -m
reviewbot search`` as whole processes, interpreter start included: ``--runs`` of each version,
alternating, the median.

    python bench/search_quality.py --rev main
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lib.common import (
    BENCH,
    CORPUS,
    ENV,
    MIRRORS,
    ROOT,
    command_line,
    exported_tree,
    git,
    para,
    revision,
    run_version,
    write_result,
)

QUERIES = BENCH / "search_queries.json"
DEPTH = 20
TOP = 5
TIMED_QUERIES = ("reset form", "parse body fragment", "set field value")


def corpus_repo(name: str, commit: str) -> tuple[Path, Path]:
    """The clone of mirror ``name`` at ``commit`` and its index (made or reused)."""
    repo = CORPUS / "search" / name
    if not (repo / ".git").exists():
        repo.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", str(MIRRORS / name / "repo"), str(repo)], check=True)
    if git(repo, "rev-parse", "HEAD").strip() != commit:
        git(repo, "checkout", "-q", "--detach", commit)
    database = repo.parent / f"{name}.sqlite"
    done = run_version(ROOT, repo, database, "index", str(repo))
    if done.returncode:
        raise SystemExit(f"{name}: reviewbot index failed: {done.stderr.strip()[-300:]}")
    return repo, database


def ranks(tree: Path, database: Path, queries: list[str]) -> list[list[str]]:
    """What version ``tree`` ranks for each query."""
    env = dict(ENV, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(BENCH / "lib" / "search_ranks.py")],
        input=json.dumps({"database": str(database), "queries": queries, "depth": DEPTH}),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"search_ranks failed: {done.stderr.strip()[-500:]}")
    ranked: list[list[str]] = json.loads(done.stdout)
    return ranked


def first_answer(ranked: list[str], answers: list[str]) -> int:
    """1-based rank of the first answer, 0 when none is ranked."""
    return next((k + 1 for k, name in enumerate(ranked) if name in answers), 0)


def scores(found: list[int]) -> tuple[float, float, float]:
    """(MRR, top-1, top-5) of a list of first-answer ranks."""
    if not found:
        return 0.0, 0.0, 0.0
    n = len(found)
    return (
        sum(1 / r for r in found if r) / n,
        sum(r == 1 for r in found) / n,
        sum(0 < r <= TOP for r in found) / n,
    )


def row(label: str, n: int, old: list[int], new: list[int]) -> str:
    a, b = scores(old), scores(new)
    return (
        f"| {label} | {n} | {a[0]:.3f} | {b[0]:.3f} | {a[1]:.2f} | {b[1]:.2f} | "
        f"{a[2]:.2f} | {b[2]:.2f} |"
    )


def timing(trees: dict[str, Path], repo: Path, database: Path, runs: int) -> list[str]:
    """Median wall time of whole `search` processes per version, alternating, both
    byte-compiled (as ``pip install`` leaves a package)."""
    for tree in trees.values():
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "reviewbot")], check=True
        )
    times: dict[str, list[float]] = {label: [] for label in trees}
    cpu: dict[str, list[float]] = {label: [] for label in trees}
    for k in range(runs):
        order = list(trees) if k % 2 == 0 else list(reversed(trees))
        for label in order:
            for query in TIMED_QUERIES:
                used = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = run_version(trees[label], repo, database, "search", query, "--no-update")
                times[label].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[label].append(after.ru_utime - used.ru_utime + after.ru_stime - used.ru_stime)
                if done.returncode:
                    raise SystemExit(f"search failed: {done.stderr.strip()[-300:]}")
    return [
        f"In `{repo}`:",
        "",
        *para(
            f"`python -m reviewbot search QUERY --no-update` ({', '.join(TIMED_QUERIES)}), "
            f"{runs} runs of each query per version, "
            "alternating; medians of the whole process, interpreter start included: wall "
            "time, and CPU time (user + system), which a busy machine inflates less (load "
            f"{os.getloadavg()[0]:.1f} at the end; 2 = both cores busy)."
        ),
        *(
            f"* {label}: {statistics.median(times[label]) * 1000:.0f} ms wall, "
            f"{statistics.median(cpu[label]) * 1000:.0f} ms CPU"
            for label in trees
        ),
        "",
    ]


def quality(rev: str, old_tree: Path, names: list[str], misses: bool) -> list[str]:
    """The table of scores per repository and pooled per half, and the queries that moved."""
    judged: dict[str, Any] = json.loads(QUERIES.read_text(encoding="utf-8"))["repos"]
    out = [
        *para(
            "Queries and answers: `bench/search_queries.json` (how they were made is its `note`). "
            f"MRR counts 1/rank of the first answer within {DEPTH} results; top-1 and top-{TOP} "
            "the share of queries answered there. The tune half chose the ranking; the report "
            "half was only measured."
        ),
        f"| repository | queries | MRR {rev} | MRR this | top-1 {rev} | top-1 this | "
        f"top-{TOP} {rev} | top-{TOP} this |",
        "|---|---|---|---|---|---|---|---|",
    ]
    pooled: dict[str, tuple[list[int], list[int]]] = {}
    details: list[str] = []
    for half in ("tune", "report"):
        for name in names:
            spec = judged[name]
            if spec["half"] != half:
                continue
            _, database = corpus_repo(name, spec["commit"])
            queries = [q["query"] for q in spec["queries"]]
            before = ranks(old_tree, database, queries)
            after = ranks(ROOT, database, queries)
            old = [
                first_answer(r, q["answers"]) for r, q in zip(before, spec["queries"], strict=True)
            ]
            new = [
                first_answer(r, q["answers"]) for r, q in zip(after, spec["queries"], strict=True)
            ]
            out.append(row(f"{name} ({half})", len(queries), old, new))
            print(out[-1], flush=True)
            both = pooled.setdefault(half, ([], []))
            both[0].extend(old)
            both[1].extend(new)
            for q, a, b, ranked in zip(spec["queries"], old, new, after, strict=True):
                if a != b or (misses and b != 1):
                    top = ranked[0].split("::")[-1] if ranked else "-"
                    details.append(
                        f"| {name.split('+')[1]} | {q['query']} | {a or '-'} | {b or '-'} | "
                        f"`{top}` |"
                    )
    for half, (old, new) in pooled.items():
        out.append(row(f"**pooled {half}**", len(old), old, new))
    every = (
        [r for o, _ in pooled.values() for r in o],
        [r for _, n in pooled.values() for r in n],
    )
    out.append(row("**pooled, all**", len(every[0]), *every))
    return [
        *out,
        "",
        "Queries whose answer moved"
        + (" or is not first" if misses else "")
        + f" (rank of the first answer; `-`: not in the first {DEPTH}), with this checkout's "
        "first result:",
        "",
        f"| repository | query | {rev} | this | first now |",
        "|---|---|---|---|---|",
        *details,
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="main", help="the version to compare with")
    parser.add_argument("--out", default="bench/results/search_quality.md")
    parser.add_argument(
        "--timing",
        action="append",
        default=[],
        metavar="OWNER+NAME|PATH",
        help="also time whole processes in this judged repository, or an indexed one's folder "
        "(repeatable)",
    )
    parser.add_argument("--timing-only", action="store_true", help="no judged queries")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="list every query not ranked first")
    parser.add_argument("repos", nargs="*", metavar="OWNER+NAME", help="default: all judged")
    args = parser.parse_args(argv)
    judged: dict[str, Any] = json.loads(QUERIES.read_text(encoding="utf-8"))["repos"]
    out = [
        "# Search ranking on judged queries",
        "",
        f"`{command_line('search_quality.py', argv)}` at {revision()}, beside {args.rev} "
        f"(`{git(ROOT, 'rev-parse', '--short=12', args.rev).strip()}`).",
        "",
    ]
    with tempfile.TemporaryDirectory(prefix="search-quality-") as tmp:
        old_tree = exported_tree(args.rev, Path(tmp) / "old")
        if not args.timing_only:
            out += quality(args.rev, old_tree, args.repos or list(judged), args.misses)
        if args.timing:
            out += ["## Time", ""]
        for place in args.timing:
            trees = {args.rev: old_tree, "this": ROOT}
            if place in judged:
                repo, database = corpus_repo(place, judged[place]["commit"])
            else:
                repo = Path(place).resolve()
                database = repo / ".git" / "reviewbot" / "index.sqlite"
            out += timing(trees, repo, database, args.runs)
    write_result(args.out, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
