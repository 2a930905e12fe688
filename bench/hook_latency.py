"""Latency of the pre-commit hook as a whole process, next to lizard on the same files.

    .venv/bin/python bench/hook_latency.py [--repeat 31] [--out bench/results/hook_latency.md]

For staged changes of 1, 5 and 20 real files (Python standard library modules, each with a
small edit inside a function), it times `reviewbot-hook FILES...` in the repository exactly as
pre-commit runs it (a fresh process: interpreter start, imports, git, analysis), and
`lizard FILES...` on the same files in the same run. Runs are interleaved, in alternating
order, so that load on this shared machine hits both alike; medians of wall time and of CPU
time (user + system, git's processes included), which a busy machine moves less.
Run it with the interpreter of a regular (not editable) install: an editable install's import
hook costs every process start.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.common import ENV, RESULTS, ROOT, git, write_result
from lib.corpora import stdlib_modules
from lib.procs import Timing, timed_cpu, tool

SIZES = (1, 5, 20)


def candidates() -> list[Path]:
    files = [
        p for p in stdlib_modules() if 200 <= p.read_text(errors="replace").count("\n") <= 1500
    ]
    return files[:: max(1, len(files) // 40)][:40]


def edit(text: str) -> str:
    """Add a branch inside the first function body: a realistic small change."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("def ") and line.rstrip().endswith(":"):
            indent = "    "
            lines[i + 1 : i + 1] = [
                f"{indent}if __debug__ and False:",
                f"{indent}    pass  # edited",
            ]
            break
    return "\n".join(lines)


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=31)
    parser.add_argument("--out", default=str(RESULTS / "hook_latency.md"))
    args = parser.parse_args(argv)
    rows = [
        "| staged files | reviewbot-hook | lizard | hook / lizard | hook CPU | lizard CPU |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    # As installed by pip (and pre-commit), the package's modules are byte-compiled; this
    # machine sets PYTHONDONTWRITEBYTECODE, so compile them once here.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "reviewbot")],
        check=True,
        capture_output=True,
    )
    sources = candidates()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        git(repo, "init", "-q")
        for src in sources:
            (repo / src.name).write_text(src.read_text(errors="replace"))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        for n in SIZES:
            git(repo, "reset", "-q", "--hard")
            names = [src.name for src in sources[:n]]
            for name in names:
                path = repo / name
                path.write_text(edit(path.read_text()))
            git(repo, "add", *names)
            hook, lizard = [*tool("reviewbot-hook"), *names], [*tool("lizard"), *names]
            ours: list[Timing] = []
            theirs: list[Timing] = []
            for cmd in (hook, lizard):  # warm the page cache
                timed_cpu(cmd, repo, ENV)
            for k in range(args.repeat):
                if k % 2:
                    theirs.append(timed_cpu(lizard, repo, ENV))
                    ours.append(timed_cpu(hook, repo, ENV))
                else:
                    ours.append(timed_cpu(hook, repo, ENV))
                    theirs.append(timed_cpu(lizard, repo, ENV))
            a = statistics.median(t.wall for t in ours)
            b = statistics.median(t.wall for t in theirs)
            rows.append(
                f"| {n} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {a / b:.2f} "
                f"| {_ms([t.cpu for t in ours])} | {_ms([t.cpu for t in theirs])} |"
            )
            print(rows[-1], flush=True)
    load = os.getloadavg()[0]
    lines = [
        "# Hook latency\n",
        f"Command: `.venv/bin/python bench/hook_latency.py --repeat {args.repeat}` (Python "
        f"{sys.version.split()[0]}, a regular install; whole processes, medians of "
        f"{args.repeat} interleaved runs in alternating order on a shared {os.cpu_count()}-core "
        f"machine, load average {load:.1f} at the end). Files: Python standard library modules "
        "of 200-1,500 lines, each with a branch added inside its first function, staged. "
        "CPU: user + system time of the process and its git processes.\n",
        *rows,
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
