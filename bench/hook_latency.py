"""Latency of the pre-commit hook as a whole process, next to lizard on the same files.

    .venv/bin/python bench/hook_latency.py [--repeat 15] [--out bench/results/hook_latency.md]

For staged changes of 1, 5 and 20 real files (Python standard library modules, each with a
small edit inside a function), it times `reviewbot-hook FILES...` in the repository exactly as
pre-commit runs it (a fresh process: interpreter start, imports, git, analysis), and
`lizard FILES...` on the same files in the same run. Medians; runs interleaved so that load on
this shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.common import ENV, RESULTS, ROOT, git, write_result
from lib.corpora import stdlib_modules
from lib.procs import timed, tool

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--out", default=str(RESULTS / "hook_latency.md"))
    args = parser.parse_args(argv)
    rows = [
        "| staged files | reviewbot-hook (median) | lizard (median) | ratio |",
        "|---:|---:|---:|---:|",
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
            ours, theirs = [], []
            timed([*tool("reviewbot-hook"), *names], repo, ENV)  # warm the page cache
            for _ in range(args.repeat):
                ours.append(timed([*tool("reviewbot-hook"), *names], repo, ENV))
                theirs.append(timed([*tool("lizard"), *names], repo, ENV))
            a, b = statistics.median(ours), statistics.median(theirs)
            rows.append(f"| {n} | {a * 1000:.0f} ms | {b * 1000:.0f} ms | {b / a:.1f}x |")
            print(rows[-1], flush=True)
    lines = [
        "# Hook latency\n",
        f"Command: `.venv/bin/python bench/hook_latency.py --repeat {args.repeat}` (Python "
        f"{sys.version.split()[0]}; whole processes, medians of {args.repeat} interleaved runs "
        "on a shared 2-core machine). Files: Python standard library modules of 200-1,500 "
        "lines, each with a branch added inside its first function, staged.\n",
        *rows,
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
