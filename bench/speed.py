"""Engine throughput, folder-scan wall time and memory, next to lizard in the same run.

    .venv/bin/python bench/speed.py [--repeat 5] [--out bench/results/speed.md]

* Per-file index (signal, transform, peaks, entropy bands, heatmap) in lines per second on
  files of 100 to 50,000 lines, pinned to one core, median of ``--repeat`` runs; lizard's
  ``analyze_source_code`` on the same text in the same run.
* Wall time of the whole ``reviewbot positions`` process on a folder of about 100,000 lines.
* Peak memory (max RSS) of ``reviewbot positions`` / ``heatmap`` on a 1,000,000-line file.

Inputs are real source text: the running interpreter's standard library (always there), and
Go's (Debian golang-src) and the JDK's (src.zip) where installed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from reviewbot.engine import open_index

from lib import lizard
from lib.common import RESULTS, write_result
from lib.corpora import go_sources, jdk_sources, stdlib_modules
from lib.procs import checked, median_time, tool

SIZES = (100, 1_000, 10_000, 50_000)


def python_corpus() -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in stdlib_modules()]


def go_corpus() -> list[tuple[str, str]]:
    files = go_sources()[:3000]
    return [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in files]


def java_corpus() -> list[tuple[str, str]]:
    return [(name, data.decode("utf-8", "replace")) for name, data in jdk_sources()]


def text_of_size(corpus: list[tuple[str, str]], lines: int) -> str:
    """Whole real files concatenated until ``lines`` lines, cut at that line."""
    parts: list[str] = []
    count = 0
    for _, text in corpus:
        parts.append(text if text.endswith("\n") else text + "\n")
        count += text.count("\n")
        if count >= lines:
            break
    return "".join("".join(parts).splitlines(keepends=True)[:lines])


def full_index(name: str, text: str) -> None:
    index = open_index(name, text)
    _ = index.coefficients, index.peaks, index.entropy, index.heatmap


def throughput(repeat: int) -> list[str]:
    rows = [
        "| language | lines | reviewbot index (lines/s) | lizard (lines/s) | ratio |",
        "|---|---:|---:|---:|---:|",
    ]
    for lang, ext, corpus in (
        ("python", "x.py", python_corpus()),
        ("go", "x.go", go_corpus()),
        ("java", "X.java", java_corpus()),
    ):
        if not corpus:
            rows.append(f"| {lang} | - | source not installed | | |")
            continue
        for size in SIZES:
            text = text_of_size(corpus, size)
            n = text.count("\n")
            ours = median_time(partial(full_index, ext, text), repeat)
            theirs = median_time(partial(lizard.analyze, ext, text), max(1, repeat // 2))
            rows.append(
                f"| {lang} | {n} | {n / ours:,.0f} | {n / theirs:,.0f} | {theirs / ours:.1f}x |"
            )
            print(rows[-1], flush=True)
    return rows


def folder_scan(repeat: int) -> list[str]:
    corpus = python_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        total = 0
        for name, text in corpus:
            if total >= 100_000:
                break
            (root / name).write_text(text, encoding="utf-8")
            total += text.count("\n")
        files = len(list(root.iterdir()))
        ours = median_time(
            lambda: subprocess.run(
                [*tool("reviewbot"), "positions", str(root), "--format", "json"],
                check=True,
                capture_output=True,
            ),
            repeat,
        )
        theirs = median_time(
            lambda: subprocess.run([*tool("lizard"), str(root)], check=False, capture_output=True),
            max(1, repeat // 2),
        )
    return [
        "| command | files | lines | wall time (median) |",
        "|---|---:|---:|---:|",
        f"| reviewbot positions FOLDER --format json | {files} | {total} | {ours:.2f} s |",
        f"| lizard FOLDER | {files} | {total} | {theirs:.2f} s |",
    ]


def peak_rss(argv: list[str]) -> float:
    """Max RSS in MiB of one command, measured by a fresh parent (it must succeed)."""
    return checked(argv).rss_mib


def memory() -> list[str]:
    corpus = python_corpus()
    rows = ["| command | lines | max RSS | wall time |", "|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.py"
        text = text_of_size(corpus, 200_000)
        with big.open("w", encoding="utf-8") as fh:
            written = 0
            while written < 1_000_000:
                fh.write(text)
                written += text.count("\n")
        baseline = peak_rss([*tool("reviewbot"), "--version"])
        for cmd in (
            ["positions", str(big)],
            ["heatmap", str(big), "--summary"],
            ["entropy", str(big)],
        ):
            t = time.perf_counter()
            rss = peak_rss([*tool("reviewbot"), *cmd])
            rows.append(
                f"| reviewbot {cmd[0]} | {written:,} | {rss:.0f} MiB | "
                f"{time.perf_counter() - t:.1f} s |"
            )
            print(rows[-1], flush=True)
        rows.append(f"| reviewbot --version (interpreter + imports) | - | {baseline:.0f} MiB | |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(RESULTS / "speed.md"))
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, children too
    import numpy

    sections = [
        "# Speed and memory\n",
        f"Command: `.venv/bin/python bench/speed.py --repeat {args.repeat}` "
        f"(Python {sys.version.split()[0]}, numpy {numpy.__version__}, one core, "
        f"medians; machine: {os.cpu_count()} cores shared).\n",
        "## Per-file index throughput (review profile)\n",
        *throughput(args.repeat),
        "\n## Folder scan (whole process, including interpreter start)\n",
        *folder_scan(args.repeat),
    ]
    if not args.skip_memory:
        sections += ["\n## Memory on a 1,000,000-line file\n", *memory()]
    write_result(args.out, sections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
