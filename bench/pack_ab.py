"""`review --format prompt` (the context pack) of one change, this checkout against another
version, side by side: whole processes, alternating, medians of wall and CPU time.

    .venv/bin/python bench/pack_ab.py --rev 89a5194 --repo /tmp/zod --spec 898c4461e~1..898c4461e

The repository must have an index already (`reviewbot index` in it); both versions use it
(they must share its rules, or the first run rebuilds it: compare the runs, not only the
medians). Prints the medians and each run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lib.common import ROOT, exported_tree


def run_once(tree: Path, repo: Path, spec: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `review SPEC --format prompt` run with ``tree``'s code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reviewbot", "review", spec, "--format", "prompt"],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdout=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--repo", required=True, type=Path, help="an indexed repository")
    parser.add_argument("--spec", required=True, help="the change, as `review` takes it")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="reviewbot-pack-ab-") as tmp:
        trees = {args.rev: exported_tree(args.rev, Path(tmp) / "old"), "this": ROOT}
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for k in range(args.runs):
            names = list(trees) if k % 2 == 0 else list(reversed(trees))
            for name in names:
                runs[name].append(run_once(trees[name], args.repo, args.spec))
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs each, alternating")
    for name, each in runs.items():
        wall = statistics.median(w for w, _ in each)
        cpu = statistics.median(c for _, c in each)
        listed = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in each)
        print(f"{name}: median {wall:.2f} s wall, {cpu:.2f} s CPU (each wall/CPU: {listed})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
