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
removed afterwards.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pstats
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STDLIB = Path(sysconfig.get_paths()["stdlib"])
GO_SRC = Path("/usr/share/go-1.19/src")
BIN = Path(sys.executable).parent
SIZES = (1, 10, 100, 1_000)
BIG_CHANGE = 5_000
SMALL_REPO = 150
MEDIUM_REPO = 3_000

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@reviewbot.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@reviewbot.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}

# A fresh parent per measurement: wall time of the child and the max RSS (KiB on Linux) of the
# largest process it waited for (grandchildren waited for by the child count too).
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "with open(sys.argv[1], 'wb') as out, open(sys.argv[2], 'wb') as err:\n"
    "    t = time.perf_counter()\n"
    "    rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode\n"
    "    dt = time.perf_counter() - t\n"
    "print(rc, dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)

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


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=root,
        env={**os.environ, **_GIT_ENV},
        check=True,
        capture_output=True,
    )
    return proc.stdout.decode().strip()


@dataclass(frozen=True)
class Run:
    seconds: float
    rss_mib: float
    rc: int


def measure(argv: Sequence[str], out: Path) -> Run:
    """One run of ``argv`` under a fresh parent; its stdout goes to ``out``."""
    res = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(out), str(out) + ".err", *argv],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return Run(float(res[1]), int(res[2]) / 1024, int(res[0]))


def median_runs(argv: Sequence[str], out: Path, repeat: int, ok: Iterable[int] = (0,)) -> Run:
    allowed = set(ok)
    runs = []
    for _ in range(repeat):
        run = measure(argv, out)
        if run.rc not in allowed:
            err = Path(str(out) + ".err").read_text(encoding="utf-8", errors="replace").strip()
            raise SystemExit(f"{' '.join(argv[:4])}... exited {run.rc}: {err[-2000:]}")
        runs.append(run)
    return Run(
        statistics.median(r.seconds for r in runs),
        max(r.rss_mib for r in runs),
        runs[0].rc,
    )


def tool(name: str) -> list[str]:
    """The console script next to this interpreter, else ``python -m name``."""
    exe = BIN / name
    return [str(exe)] if exe.exists() else [sys.executable, "-m", name]


def reviewbot_argv(repo: Path, spec: str) -> list[str]:
    return [*tool("reviewbot"), "review", "-C", str(repo), spec, "--format", "json"]


def lizard_argv(repo: Path, paths: Sequence[str]) -> list[str]:
    return [*tool("lizard"), *(str(repo / p) for p in paths)]


# -- repositories --------------------------------------------------------------------------------


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8000]


def stdlib_files(top_level_only: bool = False, python_only: bool = True) -> dict[str, Path]:
    """Repository path -> source file, for the standard library (no site-packages or caches)."""
    found: dict[str, Path] = {}
    pattern = "*" if not python_only else "*.py"
    paths = STDLIB.glob(pattern) if top_level_only else STDLIB.rglob(pattern)
    for p in sorted(paths):
        rel = p.relative_to(STDLIB)
        if rel.parts[0] == "site-packages" or "__pycache__" in rel.parts:
            continue
        if p.is_file() and not p.is_symlink():
            found["py/" + rel.as_posix()] = p
    return found


def go_files(go_only: bool = True) -> dict[str, Path]:
    if not GO_SRC.is_dir():
        return {}
    pattern = "*.go" if go_only else "*"
    found: dict[str, Path] = {}
    for p in sorted(GO_SRC.rglob(pattern)):
        rel = p.relative_to(GO_SRC)
        if go_only and "testdata" in rel.parts:
            continue
        if p.is_file() and not p.is_symlink():
            found["go/" + rel.as_posix()] = p
    return found


def spread(items: Sequence[str], count: int) -> list[str]:
    """``count`` items evenly spread over ``items`` (deterministic)."""
    if count >= len(items):
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def build_repo(root: Path, files: dict[str, Path]) -> tuple[str, int]:
    """A repository with one commit holding ``files``; returns (commit, lines)."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    lines = 0
    for rel, src in files.items():
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = src.read_bytes()
        dest.write_bytes(data)
        lines += data.count(b"\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return git(root, "rev-parse", "HEAD"), lines


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
    return git(root, "rev-parse", "HEAD"), lines


def load_report(path: Path) -> dict[str, object]:
    doc: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def stat(report: dict[str, object], key: str) -> object:
    stats = report["stats"]
    assert isinstance(stats, dict)
    return stats[key]


# -- the sections --------------------------------------------------------------------------------


def by_change_size(
    repo: Path, base: str, sources: list[str], tmp: Path, repeat: int, profile: bool
) -> tuple[list[str], list[str]]:
    rows = [
        "| changed files | lines in them | reviewbot review (wall, median) | analysis in-process "
        "| max RSS | analysed / skipped | units changed | lizard FILE... (wall, median) "
        "| reviewbot / lizard |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    hot: list[str] = []
    out = tmp / "out.json"
    for n in SIZES:
        paths = spread(sources, n)
        head, lines = commit_change(repo, paths, f"change {n}")
        runs = repeat if n < 1_000 else min(repeat, 3)
        ours = median_runs(reviewbot_argv(repo, f"{base}..{head}"), out, runs)
        report = load_report(out)
        # lizard exits 1 when a function is over its warning thresholds.
        theirs = median_runs(lizard_argv(repo, paths), tmp / "lizard.txt", runs, ok=(0, 1))
        rows.append(
            f"| {n:,} | {lines:,} | {ours.seconds:.2f} s | {stat(report, 'seconds'):.2f} s "
            f"| {ours.rss_mib:.0f} MiB "
            f"| {stat(report, 'files_analysed')} / {stat(report, 'files_skipped')} "
            f"| {stat(report, 'units_changed')} | {theirs.seconds:.2f} s "
            f"| {ours.seconds / theirs.seconds:.2f}x |"
        )
        print(rows[-1], flush=True)
        if profile and n == SIZES[-1]:
            hot = profile_review(repo, f"{base}..{head}", tmp)
        git(repo, "reset", "-q", "--hard", base)
    return rows, hot


def profile_review(repo: Path, spec: str, tmp: Path, top: int = 8) -> list[str]:
    prof = tmp / "review.prof"
    argv = reviewbot_argv(repo, spec)[1:]
    t = time.perf_counter()
    with (tmp / "profiled.json").open("wb") as sink:
        subprocess.run(
            [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "reviewbot", *argv],
            check=True,
            stdout=sink,
        )
    wall = time.perf_counter() - t
    stats = pstats.Stats(str(prof))
    raw = stats.stats
    total = stats.total_tt

    def name(func: tuple[str, int, str]) -> str:
        filename, line, fn = func
        p = Path(filename)
        for base in (ROOT, STDLIB):
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
    ours = [kv for kv in raw.items() if Path(kv[0][0]).is_relative_to(ROOT / "reviewbot")]
    for func, (_, ncalls, _, cumtime, _) in sorted(ours, key=lambda kv: -kv[1][3])[:top]:
        rows.append(f"| {name(func)} | {ncalls:,} | {cumtime:.2f} s |")
    print("\n".join(rows), flush=True)
    return rows


def repository_size(
    repos: list[tuple[str, Path, str, int, int]], change: list[str], tmp: Path, repeat: int
) -> list[str]:
    rows = [
        "| repository | files | lines | changed files | reviewbot review (wall, median) "
        "| analysis in-process | max RSS | units changed |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    out = tmp / "out.json"
    for label, repo, base, files, lines in repos:
        head, _ = commit_change(repo, change, "change 10")
        run = median_runs(reviewbot_argv(repo, f"{base}..{head}"), out, repeat)
        report = load_report(out)
        rows.append(
            f"| {label} | {files:,} | {lines:,} | {len(change)} | {run.seconds:.2f} s "
            f"| {stat(report, 'seconds'):.2f} s | {run.rss_mib:.0f} MiB "
            f"| {stat(report, 'units_changed')} |"
        )
        print(rows[-1], flush=True)
        git(repo, "reset", "-q", "--hard", base)
    return rows


def big_change(repo: Path, base: str, everything: list[str], tmp: Path, repeat: int) -> list[str]:
    paths = spread(everything, BIG_CHANGE)
    head, lines = commit_change(repo, paths, f"change {BIG_CHANGE}")
    out = tmp / "out.json"
    run = median_runs(reviewbot_argv(repo, f"{base}..{head}"), out, repeat)
    report = load_report(out)
    files = report["files"]
    assert isinstance(files, list)
    statuses = collections.Counter(f["status"] for f in files)
    reasons = collections.Counter(
        (f["status"], f.get("reason", "")) for f in files if f["status"] in ("skipped", "binary")
    )
    baseline = measure([*tool("reviewbot"), "--version"], tmp / "version.txt")
    rows = [
        "| changed files | lines in them | reviewbot review (wall, median) | analysis in-process "
        "| max RSS | units changed | findings |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        f"| {len(files):,} | {lines:,} | {run.seconds:.1f} s | {stat(report, 'seconds'):.1f} s "
        f"| {run.rss_mib:.0f} MiB | {stat(report, 'units_changed'):,} "
        f"| {stat(report, 'findings_total'):,} |",
        "",
        f"Interpreter and imports alone (`reviewbot --version`): {baseline.rss_mib:.0f} MiB.",
        "",
        "Files by status: " + ", ".join(f"{s} {c:,}" for s, c in sorted(statuses.items())) + ".",
        "",
        "| skipped as | reason | files |",
        "|---|---|---:|",
        *(f"| {s} | {r} | {c:,} |" for (s, r), c in sorted(reasons.items(), key=lambda x: -x[1])),
    ]
    print("\n".join(rows), flush=True)
    git(repo, "reset", "-q", "--hard", base)
    return rows


def versions() -> str:
    import numpy

    lizard = subprocess.run(
        [*tool("lizard"), "--version"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    git_version = subprocess.run(
        ["git", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return (
        f"Python {sys.version.split()[0]}, numpy {numpy.__version__}, lizard {lizard}, "
        f"{git_version}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "review_speed.md"))
    parser.add_argument(
        "--big-repeat", type=int, default=1, help=f"runs of the {BIG_CHANGE:,}-file change"
    )
    parser.add_argument("--skip-profile", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    load_before = os.getloadavg()

    top = stdlib_files(top_level_only=True)
    small = dict(list(top.items())[:SMALL_REPO])
    sub = {k: v for k, v in stdlib_files().items() if k not in small}
    go = go_files()
    medium = {**small, **sub}
    medium.update(dict(spread([(k, v) for k, v in go.items()], MEDIUM_REPO - len(medium))))
    large = {**stdlib_files(python_only=False), **go_files(go_only=False), **medium}
    ten = spread(list(small), 10)

    sections: list[str] = []
    with tempfile.TemporaryDirectory(prefix="reviewbot-bench-") as tmpdir:
        tmp = Path(tmpdir)
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
        size_rows, hot = by_change_size(
            medium_repo, medium_base, sources, tmp, args.repeat, not args.skip_profile
        )
        repo_rows = repository_size(built, ten, tmp, args.repeat)
        _, large_repo, large_base, large_files, _ = built[2]
        big_rows = big_change(large_repo, large_base, list(large), tmp, args.big_repeat)
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    sections = [
        "# Review speed by change size\n",
        f"Command: `.venv/bin/python bench/review_speed.py --repeat {args.repeat} "
        f"--big-repeat {args.big_repeat}` "
        f"({versions()}; whole processes including interpreter start; "
        f"machine: {os.cpu_count()} shared cores, no pinning; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; the whole benchmark took "
        f"{elapsed / 60:.1f} min).\n",
        "Repositories are built from real files: the interpreter's standard library "
        f"(`{STDLIB}`) and Go's (`{GO_SRC}`). A change is a second commit editing real files "
        "(a small function with two `if`s inserted before the top-level declaration nearest the "
        "middle of each Python or Go file; a line appended to other text files; bytes appended "
        "to binary files). Wall times are medians; max RSS is the largest over the runs, "
        "measured by a fresh parent per run (`getrusage(RUSAGE_CHILDREN)`, so it is the largest "
        'process of the tree: reviewbot\'s interpreter or a git child). "analysis in-process" '
        "is the report's own `stats.seconds` (analysis, findings and context; not git, "
        "interpreter start or JSON output).\n",
        f"## Changes of 1 to 1,000 files ({medium_files:,}-file repository, "
        f"{medium_lines:,} lines)\n",
        "reviewbot reads both sides of every changed file and analyses both; lizard analyses the "
        "new versions of the same files (`lizard FILE...`, one process, default options). "
        f"Medians of {args.repeat} runs ({min(args.repeat, 3)} for 1,000 files).\n",
        *size_rows,
    ]
    if hot:
        sections += ["\n## Where the 1,000-file review spends its time (cProfile)\n", *hot]
    sections += [
        "\n## The same 10-file change in repositories of different size\n",
        "The same ten standard-library files, edited the same way, in each repository "
        "(each a superset of the one before).\n",
        *repo_rows,
        f"\n## A {BIG_CHANGE:,}-file change ({large_files:,}-file repository)\n",
        f"{BIG_CHANGE:,} files spread evenly over every file of the repository (sources, data, "
        f"binaries); {args.big_repeat} run(s), median.\n",
        *big_rows,
    ]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(sections) + "\n", encoding="utf-8")
    print(f"wrote {out} in {elapsed / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
