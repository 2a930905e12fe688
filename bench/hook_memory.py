"""Peak memory and time of ``reviewbot-hook`` on a staged file of 100 MB, 16 MB, just under
the size limit, and a small one, next to ``reviewbot review --staged`` on the same.

    .venv/bin/python bench/hook_memory.py [--repeat 5] [--out bench/results/hook_memory.md]

Each case is a temporary repository whose index holds one staged text file (real source lines:
the running interpreter's top-level standard-library modules, concatenated, repeated until the
size, cut at a line end), either a new file (added) or a committed one with a function appended
(modified: both sides that large). The default configuration applies (``max_file_bytes`` 2 MiB),
so the 16 MB and 100 MB files are over the limit: they must be skipped without being read, and
memory must stay bounded (goal from issue 10: under 200 MB). The small file and the one just
under the limit are analysed.

Measured, interleaved, each a whole process under a fresh parent (wall time; max RSS of the
largest process of the tree: reviewbot's interpreter or one of its git children):

* ``reviewbot-hook FILE`` in the repository, as pre-commit runs it;
* ``reviewbot review --staged --format json`` in the repository.

Medians of ``--repeat`` runs; max RSS is the largest over them. One more run of each under a
small wrapper reports the interpreter's own max RSS (``getrusage(RUSAGE_SELF)`` at exit), so
that the tree's figure can be told apart from git's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lib.common import RESULTS, ROOT, git, para, versions, write_result
from lib.corpora import STDLIB, stdlib_modules
from lib.procs import Run, checked, median_run, tool

MIB = 1024 * 1024
DEFAULT_MAX_FILE_BYTES = 2 * MIB  # the README's default
GOAL_MIB = 200
# (label, bytes): a small module, just under the limit, and two over it.
CASES = (
    ("small", 40_000),
    ("just under the limit", DEFAULT_MAX_FILE_BYTES - 64 * 1024),
    ("16 MB", 16_000_000),
    ("100 MB", 100_000_000),
)
APPENDED = (
    "\n\ndef _bench_appended(value, limit=3):\n"
    "    if value is None:\n"
    "        return 0\n"
    "    if value > limit:\n"
    "        return limit\n"
    "    return value\n"
)

# The interpreter's own peak and reads: run a console entry point and write, at exit,
# RUSAGE_SELF's max RSS (KiB) and the bytes it read through read() and the like (rchar of
# /proc/self/io: files, and pipes from its git children) to a file.
_SELF = (
    "import atexit, resource, sys\n"
    "where, entry = sys.argv[1], sys.argv[2]\n"
    "def _peak():\n"
    "    io = dict(line.split(': ') for line in open('/proc/self/io').read().splitlines())\n"
    "    with open(where, 'w') as fh:\n"
    "        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "        fh.write(f\"{peak} {int(io['rchar'])}\")\n"
    "atexit.register(_peak)\n"
    "import reviewbot.doors.launch as launch\n"
    "sys.argv = [entry, *sys.argv[3:]]\n"
    "sys.exit(getattr(launch, entry)())\n"
)


def source_text(size: int) -> bytes:
    """Real source lines, repeated, cut at the last line end within ``size`` bytes."""
    corpus = [p.read_bytes() for p in stdlib_modules()]
    one = b"".join(t if t.endswith(b"\n") else t + b"\n" for t in corpus)
    data = one * (size // len(one) + 1)
    return data[: data.rindex(b"\n", 0, size) + 1]


def build_repo(root: Path, name: str, data: bytes, modified: bool) -> None:
    """A repository whose index holds ``name`` (new, or modified from a committed version)."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    git(root, "config", "gc.auto", "0")  # no background gc during the measurements
    git(root, "config", "maintenance.auto", "false")
    (root / "README").write_text("hook memory benchmark\n", encoding="utf-8")
    if modified:
        (root / name).write_bytes(data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    (root / name).write_bytes(data + APPENDED.encode() if modified else data)
    git(root, "add", "-A")


@dataclass
class Case:
    label: str
    kind: str  # added / modified
    size_bytes: int
    lines: int
    repo: Path
    name: str
    hook: list[Run] = field(default_factory=list)
    review: list[Run] = field(default_factory=list)
    hook_self_mib: float = 0.0
    review_self_mib: float = 0.0
    hook_read_mb: float = 0.0
    review_read_mb: float = 0.0
    hook_says: str = ""
    review_says: str = ""


def hook_args(case: Case) -> list[str]:
    return ["--color", "never", case.name]


def review_args() -> list[str]:
    return ["review", "--staged", "--format", "json"]


def self_peak(entry: str, args: Sequence[str], cwd: Path, tmp: Path) -> tuple[float, float]:
    """The interpreter's own max RSS (MiB) and the bytes it read (MB) in one run of console
    entry ``entry``. Started by
    ``measure``'s fresh parent: a process forked from this one (which holds the staged file's
    text) would carry this one's peak across exec."""
    where = tmp / "self.txt"
    where.unlink(missing_ok=True)
    checked([sys.executable, "-c", _SELF, str(where), entry, *args], tmp / "self.out", cwd=cwd)
    peak, read = where.read_text().split()
    return int(peak) / 1024, int(read) / 1e6


def what_review_says(out: Path, name: str) -> str:
    doc = json.loads(out.read_text(encoding="utf-8"))
    files = [f for f in doc["files"] if f["path"] == name]
    if len(files) != 1:
        raise SystemExit(f"review --staged did not list {name}: {doc['files']}")
    f = files[0]
    return str(f["status"]) + (f" ({f['reason']})" if f.get("reason") else "")


def what_hook_says(out: Path) -> str:
    """The first lines of the hook's output and its standard error."""
    said = []
    for path in (out, Path(str(out) + ".err")):
        text = path.read_text(encoding="utf-8", errors="replace").strip()
        said += [line.strip() for line in text.splitlines()[:2]]
    return " / ".join(said) or "(nothing printed)"


def measure_case(case: Case, repeat: int, tmp: Path) -> None:
    out = tmp / "out.txt"
    for _ in range(repeat):
        case.hook.append(checked([*tool("reviewbot-hook"), *hook_args(case)], out, cwd=case.repo))
        case.hook_says = what_hook_says(out)
        case.review.append(checked([*tool("reviewbot"), *review_args()], out, cwd=case.repo))
        case.review_says = what_review_says(out, case.name)
    case.hook_self_mib, case.hook_read_mb = self_peak("hook", hook_args(case), case.repo, tmp)
    case.review_self_mib, case.review_read_mb = self_peak("cli", review_args(), case.repo, tmp)


def table(cases: Sequence[Case]) -> list[str]:
    rows = [
        "| staged file | size | lines | kind | reviewbot-hook (wall) | max RSS (tree) "
        "| the interpreter: max RSS, bytes read | review --staged (wall) | max RSS (tree) "
        "| the interpreter: max RSS, bytes read | what review --staged says | runs |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for c in cases:
        h, r = median_run(c.hook), median_run(c.review)
        rows.append(
            f"| {c.label} | {c.size_bytes / 1e6:.2f} MB | {c.lines:,} | {c.kind} "
            f"| {h.seconds:.2f} s | {h.rss_mib:.0f} MiB "
            f"| {c.hook_self_mib:.0f} MiB, {c.hook_read_mb:.1f} MB "
            f"| {r.seconds:.2f} s | {r.rss_mib:.0f} MiB "
            f"| {c.review_self_mib:.0f} MiB, {c.review_read_mb:.1f} MB "
            f"| {c.review_says} | {len(c.hook)} |"
        )
    return rows


def verdict(cases: Sequence[Case], baseline: Run) -> list[str]:
    over = [c for c in cases if c.size_bytes > DEFAULT_MAX_FILE_BYTES]
    under = [c for c in cases if c.size_bytes <= DEFAULT_MAX_FILE_BYTES]
    if not over:
        return para("No case over the size limit was measured.")
    hook_rss = max(median_run(c.hook).rss_mib for c in over)
    review_rss = max(median_run(c.review).rss_mib for c in over)
    read = max(max(c.hook_read_mb, c.review_read_mb) for c in over)
    bounded = max(hook_rss, review_rss) * MIB / 1e6 < GOAL_MIB
    skipped = all(c.review_says.startswith("skipped") for c in over)
    silent = all(c.hook_says == "(nothing printed)" for c in over)
    excess = max(
        max(
            median_run(c.hook).rss_mib - c.hook_self_mib,
            median_run(c.review).rss_mib - c.review_self_mib,
        )
        for c in over
    )
    git_small = excess <= 4
    sizes = " and ".join(sorted({c.label for c in over}, key=len))
    lines = para(
        f"Over the size limit ({sizes}, added or modified): the hook's max RSS is at most "
        f"{hook_rss:.0f} MiB and review --staged's at most {review_rss:.0f} MiB, about what "
        f"interpreter start and imports take alone (`reviewbot --version`: "
        f"{baseline.rss_mib:.0f} MiB): bounded, and the goal of under {GOAL_MIB} MB is "
        f"{'met' if bounded else 'NOT met'}. "
        + (
            "The files are skipped without being read: review --staged reports each as "
            "skipped (larger than 2048 KiB), "
            if skipped
            else "NOT every file over the limit is skipped, "
        )
        + f"the interpreter read at most {read:.1f} MB in any of these runs (its own modules and "
        "git's short answers; the staged file is 16 or 100 MB)"
        + (
            ", and no git child used more memory than the interpreter (the tree's max RSS is "
            "the interpreter's, within a few MiB)."
            if git_small
            else f"; a git child peaked above the interpreter, by up to {excess:.0f} MiB."
        )
        + (
            " The hook prints nothing about a file it skipped (it prints findings only)."
            if silent
            else ""
        )
    )
    hook_over = [median_run(c.hook).seconds for c in over]
    timing = (
        f"Time: the hook takes {min(hook_over):.2f}-{max(hook_over):.2f} s on a staged file over "
        "the limit"
    )
    for c in under:
        h = median_run(c.hook)
        timing += (
            f"; {h.seconds:.2f} s and {h.rss_mib:.0f} MiB on the {c.size_bytes / 1e6:.2f} MB "
            f"file ({c.label}, {c.kind}, analysed)"
        )
    return lines + para(timing + ".")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (median)")
    parser.add_argument("--out", default=str(RESULTS / "hook_memory.md"))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    load_before = os.getloadavg()
    setup = versions()
    # As installed by pip (and pre-commit), the package's modules are byte-compiled; this
    # machine sets PYTHONDONTWRITEBYTECODE, so compile them once here.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "reviewbot")],
        check=True,
        capture_output=True,
    )
    cases: list[Case] = []
    with tempfile.TemporaryDirectory(prefix="reviewbot-bench-") as tmpdir:
        tmp = Path(tmpdir)
        baseline = median_run([checked([*tool("reviewbot"), "--version"]) for _ in range(5)])
        for label, size in CASES:
            data = source_text(size)
            for kind in ("added", "modified"):
                repo = tmp / f"{size}-{kind}"
                build_repo(repo, "staged_module.py", data, kind == "modified")
                case = Case(label, kind, len(data), data.count(b"\n"), repo, "staged_module.py")
                measure_case(case, args.repeat, tmp)
                cases.append(case)
                print(table([case])[-1], flush=True)
                print(f"  hook says: {case.hook_says}", flush=True)
            del data
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    busy = max(load_before[0], load_after[0]) > (os.cpu_count() or 1)
    sections = [
        "# Hook memory on large staged files\n",
        f"Command: `.venv/bin/python bench/hook_memory.py --repeat {args.repeat}` ({setup}; "
        "whole processes including interpreter start; machine: "
        f"{os.cpu_count()} shared cores, no pinning; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; the whole benchmark took {elapsed / 60:.1f} min).\n",
        *(
            para(
                "The machine was busy with other work during this run (load average above its "
                "core count): wall times are inflated; memory is not affected."
            )
            if busy
            else []
        ),
        *para(
            "Each case is a repository whose index holds one staged text file, "
            "`staged_module.py`: real source lines (the top-level modules of "
            f"`{STDLIB}`, concatenated, repeated to the size, cut at a line end), either new "
            "(added) or committed and then modified (a function appended; both sides that "
            "large). The default configuration applies: `max_file_bytes` = "
            f"{DEFAULT_MAX_FILE_BYTES:,} bytes (2 MiB), so the 16 MB and 100 MB files are over "
            "the limit. `reviewbot-hook --color never staged_module.py` runs in the repository "
            "as pre-commit runs it; `reviewbot review --staged --format json` on the same index. "
            "The two are interleaved; wall times are medians of the runs in the last column; "
            '"max RSS (tree)" is the largest over the runs, measured by a fresh parent per run '
            "(`getrusage(RUSAGE_CHILDREN)`: the largest single process of the tree, reviewbot's "
            'interpreter or one of its git children); "the interpreter" is one more run under '
            "a wrapper that reports, at exit, the interpreter's own `getrusage(RUSAGE_SELF)` max "
            "RSS and the bytes it read (`rchar` of `/proc/self/io`: every read() of files and of "
            "pipes from its git children, so a staged file that was read would show here in "
            "full; the interpreter's own modules and imports account for a few MB)."
        ),
        *table(cases),
        "",
        "What the hook printed (first lines, last run):",
        "",
        *(f"* {c.label}, {c.kind}: `{c.hook_says}`" for c in cases),
        "",
        "## Verdict\n",
        *verdict(cases, baseline),
    ]
    write_result(args.out, sections)
    print(f"in {elapsed / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
