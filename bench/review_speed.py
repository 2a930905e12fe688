"""Wall time and memory of ``reviewbot review A..B`` by the size of the change, next to lizard.

    .venv/bin/python bench/review_speed.py [--repeat 5] [--out bench/results/review_speed.md]

* Changes of 1, 10, 100 and 1,000 changed files in a repository of about 3,000 real source files
  (the running interpreter's standard library and, where installed, Go's): wall time of the whole
  ``reviewbot review -C REPO A..B --format json`` process, median of ``--repeat`` runs (3 for the
  1,000-file change), next to the whole ``lizard FILE...`` process on the new versions of exactly
  the changed files, in the same run.
* The same 10-file change in repositories of about 150, 3,000 and 10,000 files, side by side:
  the work follows the change, not the repository.
* A 5,000-file change in the 10,000-file repository: wall time, max RSS, and what was skipped.
* cProfile of the 1,000-file review: the top functions by own time.

Every change is a second commit that edits real files: Python and Go files get a small function
with two ``if``s inserted before the top-level declaration nearest their middle; other text files
get a line appended; binary files get bytes appended. Max RSS is measured by a fresh parent
process per run (``getrusage(RUSAGE_CHILDREN)``: the largest process of the tree, reviewbot's
interpreter or one of its git children). Repositories are built under a temporary directory and
removed afterwards. The code under test is a copy of the working tree's package taken at the
start (so edits made meanwhile do not mix into one run); ``--live`` runs the installed package.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from lib import lizard
from lib.common import RESULTS, ROOT, git, versions, write_result
from lib.corpora import GO_SRC, STDLIB, evenly, go_files, stdlib_files
from lib.procs import Run, checked, median_run, tool

SIZES = (1, 10, 100, 1_000)
BIG_CHANGE = 5_000
SMALL_REPO = 150
MEDIUM_REPO = 3_000

PY_PROBE = (
    "def _bench_probe_{k}(value, limit=3):\n"
    "    if value is None:\n"
    "        return 0\n"
    "    if value > limit:\n"
    "        return limit\n"
    "    return value\n"
    "\n"
    "\n"
)
GO_PROBE = (
    "func benchProbe{k}(value, limit int) int {{\n"
    "\tif value < 0 {{\n"
    "\t\treturn 0\n"
    "\t}}\n"
    "\tif value > limit {{\n"
    "\t\treturn limit\n"
    "\t}}\n"
    "\treturn value\n"
    "}}\n"
    "\n"
)


# -- running things ------------------------------------------------------------------------------


def reviewbot_argv(repo: Path, spec: str) -> list[str]:
    return [*tool("reviewbot"), "review", "-C", str(repo), spec, "--format", "json"]


def lizard_argv(repo: Path, paths: Sequence[str]) -> list[str]:
    return [*tool("lizard"), *(str(repo / p) for p in paths)]


# -- repositories --------------------------------------------------------------------------------


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8000]


def build_repo(root: Path, files: dict[str, Path]) -> tuple[str, int]:
    """A repository with one commit holding ``files``; returns (commit, lines)."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    # No automatic gc: it would run in the background, detached, during the measurements.
    git(root, "config", "gc.auto", "0")
    git(root, "config", "maintenance.auto", "false")
    lines = 0
    for rel, src in files.items():
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = src.read_bytes()
        dest.write_bytes(data)
        lines += data.count(b"\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return git(root, "rev-parse", "HEAD").strip(), lines


def _insert_before_declaration(text: str, starts: tuple[str, ...], probe: str) -> str:
    lines = text.splitlines(keepends=True)
    decls = [i for i, line in enumerate(lines) if line.startswith(starts)]
    if not decls:
        return text + ("" if text.endswith("\n") or not text else "\n") + probe
    middle = len(lines) // 2
    at = min(decls, key=lambda i: abs(i - middle))
    return "".join([*lines[:at], probe, *lines[at:]])


def edit(data: bytes, path: str, k: int) -> bytes:
    if is_binary(data):
        return data + b"\0reviewbot-bench\0"
    text = data.decode("utf-8", "surrogateescape")
    if path.endswith(".py"):
        text = _insert_before_declaration(text, ("def ", "class "), PY_PROBE.format(k=k))
    elif path.endswith(".go"):
        text = _insert_before_declaration(text, ("func ",), GO_PROBE.format(k=k))
    else:
        text += ("" if text.endswith("\n") or not text else "\n") + f"reviewbot bench edit {k}\n"
    return text.encode("utf-8", "surrogateescape")


def commit_change(root: Path, paths: Sequence[str], label: str) -> tuple[str, int]:
    """Edit ``paths`` and commit; returns (commit, lines of the new versions)."""
    lines = 0
    for k, rel in enumerate(paths):
        dest = root / rel
        data = edit(dest.read_bytes(), rel, k)
        dest.write_bytes(data)
        lines += data.count(b"\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", label)
    return git(root, "rev-parse", "HEAD").strip(), lines


def load_report(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def stat(report: dict[str, Any], key: str) -> Any:
    return report["stats"][key]


def impact(report: dict[str, Any]) -> str:
    """The impact search (a whole-word ``git grep`` of the changed declarations' names over the
    head side, bounded in time): how many names, and whether any result was cut short."""
    sections = report.get("impact") or []
    if not sections:
        return "-"
    cut = sum(1 for s in sections if s.get("truncated"))
    return f"{len(sections)} names, " + (f"{cut} truncated" if cut else "complete")


# -- the sections --------------------------------------------------------------------------------


@dataclass
class Measured:
    """Runs of one review command and the in-process analysis time each report gave."""

    runs: list[Run]
    analysis: list[float]
    report: dict[str, Any]

    def wall(self) -> Run:
        return median_run(self.runs)

    def seconds(self) -> float:
        return statistics.median(self.analysis)


def review_once(repo: Path, spec: str, out: Path, into: Measured | None) -> Measured:
    run = checked(reviewbot_argv(repo, spec), out)
    report = load_report(out)
    seconds = float(stat(report, "seconds"))
    if into is None:
        return Measured([run], [seconds], report)
    into.runs.append(run)
    into.analysis.append(seconds)
    into.report = report
    return into


def by_change_size(
    repo: Path, base: str, sources: list[str], tmp: Path, repeat: int, profile: Path | None
) -> tuple[list[str], list[str], dict[int, Run]]:
    """``profile``: where the package that runs lives, to profile the largest change."""
    rows = [
        "| changed files | lines in them | reviewbot review (wall, median) | analysis in-process "
        "| max RSS | analysed / skipped | units changed | lizard FILE... (wall, median) "
        "| reviewbot / lizard |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    hot: list[str] = []
    walls: dict[int, Run] = {}
    out = tmp / "out.json"
    for n in SIZES:
        paths = evenly(sources, n)
        head, lines = commit_change(repo, paths, f"change {n}")
        ours: Measured | None = None
        theirs: list[Run] = []
        # Interleaved, so that load from elsewhere on the machine falls on both alike.
        for _ in range(repeat if n < 1_000 else min(repeat, 3)):
            ours = review_once(repo, f"{base}..{head}", out, ours)
            # lizard exits 1 when a function is over its warning thresholds.
            theirs.append(checked(lizard_argv(repo, paths), tmp / "lizard.txt", ok=(0, 1)))
        assert ours is not None
        wall, liz = ours.wall(), median_run(theirs)
        walls[n] = wall
        report = ours.report
        rows.append(
            f"| {n:,} | {lines:,} | {wall.seconds:.2f} s | {ours.seconds():.2f} s "
            f"| {wall.rss_mib:.0f} MiB "
            f"| {stat(report, 'files_analysed')} / {stat(report, 'files_skipped')} "
            f"| {stat(report, 'units_changed')} | {liz.seconds:.2f} s "
            f"| {wall.seconds / liz.seconds:.2f}x |"
        )
        print(rows[-1], flush=True)
        if profile is not None and n == SIZES[-1]:
            hot = profile_review(repo, f"{base}..{head}", tmp, profile)
        git(repo, "reset", "-q", "--hard", base)
    return rows, hot, walls


def profile_review(repo: Path, spec: str, tmp: Path, code: Path, top: int = 8) -> list[str]:
    prof = tmp / "review.prof"
    argv = ["review", "-C", str(repo), spec, "--format", "json"]
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "reviewbot", *argv],
        check=False,
        capture_output=True,
        cwd=tmp,  # not the checkout: "-m" puts the current directory first on sys.path
    )
    wall = time.perf_counter() - t
    try:
        json.loads(proc.stdout)
    except ValueError:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise SystemExit(f"the profiled review failed: {err[-2000:]}") from None
    # pstats keeps its table in attributes that typeshed does not declare.
    stats = vars(pstats.Stats(str(prof)))
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats["stats"]
    total: float = stats["total_tt"]

    def name(func: tuple[str, int, str]) -> str:
        filename, line, fn = func
        p = Path(filename)
        for base in (code, ROOT, STDLIB):
            if p.is_relative_to(base):
                return f"`{p.relative_to(base).as_posix()}:{line}` {fn}"
        return f"`{p.name}:{line}` {fn}" if filename != "~" else f"{fn}"

    rows = [
        f"Profiled wall time {wall:.1f} s (cProfile overhead included), "
        f"{total:.1f} s of profiled time.\n",
        "| function | calls | own time | with callees |",
        "|---|---:|---:|---:|",
    ]
    by_own = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    for func, (_, ncalls, tottime, cumtime, _) in by_own:
        rows.append(f"| {name(func)} | {ncalls:,} | {tottime:.2f} s | {cumtime:.2f} s |")
    rows += ["", "By time with callees (reviewbot's own functions):", ""]
    rows += ["| function | calls | with callees |", "|---|---:|---:|"]
    ours = [kv for kv in raw.items() if Path(kv[0][0]).is_relative_to(code / "reviewbot")]
    for func, (_, ncalls, _, cumtime, _) in sorted(ours, key=lambda kv: -kv[1][3])[:top]:
        rows.append(f"| {name(func)} | {ncalls:,} | {cumtime:.2f} s |")
    print("\n".join(rows), flush=True)
    return rows


def repository_size(
    repos: list[tuple[str, Path, str, int, int]], change: list[str], tmp: Path, repeat: int
) -> list[str]:
    rows = [
        "| repository | files | lines | changed files | reviewbot review (wall, median) "
        "| analysis in-process | max RSS | units changed | impact search "
        "| the same git grep alone (wall, max RSS) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    out = tmp / "out.json"
    heads = [commit_change(repo, change, "change 10")[0] for _, repo, *_ in repos]
    measured: list[Measured | None] = [None] * len(repos)
    for _ in range(repeat):  # round robin over the repositories
        for i, (_, repo, base, _, _) in enumerate(repos):
            measured[i] = review_once(repo, f"{base}..{heads[i]}", out, measured[i])
    for (label, repo, base, files, lines), m, head in zip(repos, measured, heads, strict=True):
        assert m is not None
        wall = m.wall()
        # The impact search's own command, on the same names, without reviewbot's time bound.
        grep = ["git", "-C", str(repo), "grep", "-n", "-I", "-w", "-F", "--full-name", "-z"]
        for section in m.report.get("impact") or []:
            grep += ["-e", section["name"]]
        alone = "-"
        if "-e" in grep:
            # git grep exits 1 when nothing matches.
            g = median_run(
                [checked([*grep, head, "--"], tmp / "grep.txt", ok=(0, 1)) for _ in range(3)]
            )
            alone = f"{g.seconds:.2f} s, {g.rss_mib:.0f} MiB"
        rows.append(
            f"| {label} | {files:,} | {lines:,} | {len(change)} | {wall.seconds:.2f} s "
            f"| {m.seconds():.2f} s | {wall.rss_mib:.0f} MiB "
            f"| {stat(m.report, 'units_changed')} | {impact(m.report)} | {alone} |"
        )
        print(rows[-1], flush=True)
        git(repo, "reset", "-q", "--hard", base)
    return rows


def big_change(
    repo: Path, base: str, everything: list[str], tmp: Path, repeat: int
) -> tuple[list[str], Run]:
    paths = evenly(everything, BIG_CHANGE)
    head, lines = commit_change(repo, paths, f"change {BIG_CHANGE}")
    out = tmp / "out.json"
    m: Measured | None = None
    for _ in range(repeat):
        m = review_once(repo, f"{base}..{head}", out, m)
    assert m is not None
    wall, report = m.wall(), m.report
    files = report["files"]
    assert isinstance(files, list)
    statuses = collections.Counter(f["status"] for f in files)
    reasons: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for f in files:
        if f["status"] in ("skipped", "binary"):
            reasons[(f["status"], f.get("reason", ""))].append(f["path"])
    baseline = checked([*tool("reviewbot"), "--version"], tmp / "version.txt")
    rows = [
        "| changed files | lines in them | reviewbot review (wall, median) | analysis in-process "
        "| max RSS | units changed | findings | impact search |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {len(files):,} | {lines:,} | {wall.seconds:.1f} s | {m.seconds():.1f} s "
        f"| {wall.rss_mib:.0f} MiB | {stat(report, 'units_changed'):,} "
        f"| {stat(report, 'findings_total'):,} | {impact(report)} |",
        "",
        f"Interpreter and imports alone (`reviewbot --version`): {baseline.rss_mib:.0f} MiB.",
        "",
        "Files by status: " + ", ".join(f"{s} {c:,}" for s, c in sorted(statuses.items())) + ".",
        "",
        "| status | reason | files | for example |",
        "|---|---|---:|---|",
    ]
    for (st, reason), found in sorted(reasons.items(), key=lambda x: -len(x[1])):
        examples = ", ".join(f"`{p}`" for p in found[:3])
        rows.append(f"| {st} | {reason} | {len(found):,} | {examples} |")
    print("\n".join(rows), flush=True)
    git(repo, "reset", "-q", "--hard", base)
    return rows, wall


def snapshot(dest: Path) -> str:
    """A copy of the package under test, laid out as it is installed (``package-dir`` of
    pyproject.toml), so that edits made to the working tree while the benchmark runs do not leak
    into it. Returns a digest of the copied files."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    pkg = dest / "reviewbot"
    shutil.copytree(ROOT / "reviewbot", pkg, ignore=ignore)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapped = project.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    for name, folder in mapped.items():
        if name.startswith("reviewbot.") and (ROOT / folder).is_dir():
            target = pkg.joinpath(*name.split(".")[1:])
            shutil.copytree(ROOT / folder, target, ignore=ignore, dirs_exist_ok=True)
    digest = hashlib.sha256()
    for f in sorted(p for p in pkg.rglob("*") if p.is_file()):
        digest.update(f.relative_to(dest).as_posix().encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    parser.add_argument("--out", default=str(RESULTS / "review_speed.md"))
    parser.add_argument(
        "--big-repeat", type=int, default=1, help=f"runs of the {BIG_CHANGE:,}-file change"
    )
    parser.add_argument("--skip-profile", action="store_true")
    parser.add_argument(
        "--live",
        action="store_true",
        help="run the working tree's code as installed instead of a snapshot taken at the start",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    load_before = os.getloadavg()
    setup = versions(f"numpy {metadata.version('numpy')}", f"lizard {lizard.version()}")

    top = stdlib_files(top_level_only=True)
    small = dict(list(top.items())[:SMALL_REPO])
    sub = {k: v for k, v in stdlib_files().items() if k not in small}
    go = go_files()
    medium = {**small, **sub}
    medium.update(dict(evenly(list(go.items()), MEDIUM_REPO - len(medium))))
    large = {**stdlib_files(python_only=False), **go_files(go_only=False), **medium}
    ten = evenly(list(small), 10)

    with tempfile.TemporaryDirectory(prefix="reviewbot-bench-") as tmpdir:
        tmp = Path(tmpdir)
        code = ROOT
        if args.live:
            setup += ", the working tree as installed"
        else:
            # Every reviewbot process of the run imports this copy (PYTHONPATH comes before the
            # editable install's finder), made once at the start.
            digest = snapshot(tmp / "code")
            os.environ["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(tmp / "code"), os.environ.get("PYTHONPATH")) if p
            )
            where = subprocess.run(
                [*tool("reviewbot"), "--version"], capture_output=True, text=True, check=False
            )
            probe = subprocess.run(
                [sys.executable, "-c", "import reviewbot; print(reviewbot.__file__)"],
                capture_output=True,
                text=True,
                check=True,
                cwd=tmp,
            ).stdout.strip()
            if where.returncode != 0 or not Path(probe).is_relative_to(tmp / "code"):
                raise SystemExit(f"the snapshot of the code is not what runs: {probe}")
            setup += f", a snapshot of its working tree taken at the start (digest {digest})"
            code = tmp / "code"
        built = []
        for label, files in (("small", small), ("medium", medium), ("large", large)):
            t = time.perf_counter()
            base, lines = build_repo(tmp / label, files)
            built.append((label, tmp / label, base, len(files), lines))
            print(
                f"built {label}: {len(files)} files, {lines:,} lines "
                f"in {time.perf_counter() - t:.1f} s",
                flush=True,
            )
        _, medium_repo, medium_base, medium_files, medium_lines = built[1]
        sources = [p for p in medium if p.endswith((".py", ".go"))]
        size_rows, hot, walls = by_change_size(
            medium_repo, medium_base, sources, tmp, args.repeat, None if args.skip_profile else code
        )
        repo_rows = repository_size(built, ten, tmp, args.repeat)
        _, large_repo, large_base, large_files, _ = built[2]
        big_rows, big = big_change(large_repo, large_base, list(large), tmp, args.big_repeat)
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    busy = max(load_before[0], load_after[0]) > (os.cpu_count() or 1)
    sections = [
        "# Review speed by change size\n",
        f"Command: `.venv/bin/python bench/review_speed.py --repeat {args.repeat} "
        f"--big-repeat {args.big_repeat}` "
        f"({setup}; whole processes including interpreter start; "
        f"machine: {os.cpu_count()} shared cores, no pinning; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; the whole benchmark took "
        f"{elapsed / 60:.1f} min).\n",
        *(
            [
                "The machine was busy with other work during this run (load average above its "
                "core count): absolute times are inflated; the reviewbot / lizard ratios, "
                "from interleaved runs, are the steadier figures.\n"
            ]
            if busy
            else []
        ),
        "Repositories are built from real files: the interpreter's standard library "
        f"(`{STDLIB}`) and Go's (`{GO_SRC}`). A change is a second commit editing real files "
        "(a small function with two `if`s inserted before the top-level declaration nearest the "
        "middle of each Python or Go file; a line appended to other text files; bytes appended "
        "to binary files). Wall times are medians; max RSS is the largest over the runs, "
        "measured by a fresh parent per run (`getrusage(RUSAGE_CHILDREN)`, so it is the largest "
        'process of the tree: reviewbot\'s interpreter or a git child). "analysis in-process" '
        "is the report's own `stats.seconds`: the per-file analysis, findings and hunk context "
        "(not git, the impact search, the hotspot check, interpreter start or JSON output). "
        '"impact search" is the whole-word `git grep` of the changed declarations\' names over '
        "the head commit, which reviewbot cuts off after a time bound (then it reports the "
        "results as truncated).\n",
        f"## Changes of 1 to 1,000 files ({medium_files:,}-file repository, "
        f"{medium_lines:,} lines)\n",
        "reviewbot reads both sides of every changed file and analyses both; lizard analyses the "
        "new versions of the same files (`lizard FILE...`, one process, default options). "
        f"Medians of {args.repeat} runs ({min(args.repeat, 3)} for 1,000 files).\n",
        *size_rows,
    ]
    if hot:
        sections += ["\n## Where the 1,000-file review spends its time (cProfile)\n", *hot]
    slope = (big.rss_mib - walls[SIZES[-1]].rss_mib) / (BIG_CHANGE - SIZES[-1]) * 1000
    sections += [
        "\n## Memory by change size\n",
        "| changed files | max RSS |",
        "|---:|---:|",
        *(f"| {n:,} | {run.rss_mib:.0f} MiB |" for n, run in walls.items()),
        f"| {BIG_CHANGE:,} (other repository, mixed files) | {big.rss_mib:.0f} MiB |",
        "",
        f"About {slope:.0f} MiB more per 1,000 more changed files between the last two rows: "
        "the contents of both sides of every changed file are read and held at once, so "
        "memory grows with the size of the change; there is no fixed ceiling.",
    ]
    sections += [
        "\n## The same 10-file change in repositories of different size\n",
        "The same ten standard-library files, edited the same way, in each repository "
        "(each a superset of the one before), measured round robin. The last column runs the "
        "impact search's `git grep` by itself on the same names and head commit, without "
        "reviewbot's time bound (median of 3).\n",
        *repo_rows,
        f"\n## A {BIG_CHANGE:,}-file change ({large_files:,}-file repository)\n",
        f"{BIG_CHANGE:,} files spread evenly over every file of the repository (sources, data, "
        "binaries)"
        + ("; one run.\n" if args.big_repeat == 1 else f"; median of {args.big_repeat} runs.\n"),
        *big_rows,
    ]
    write_result(args.out, sections)
    print(f"in {elapsed / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
