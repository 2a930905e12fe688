"""What a review or the hook pays to read the index from a copy when another process holds it
(``repo_impact._private_copy``: SQLite's online backup into memory): seconds per copy of a
given index file, median of ``--runs``.

    .venv/bin/python bench/index_copy.py PATH/.git/reviewbot/index.sqlite [...] --runs 5
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("index", nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| index | MiB | copy s (median) | runs |")
    print("| --- | ---: | ---: | ---: |")
    for path in args.index:
        times = []
        for _ in range(args.runs):
            source = sqlite3.connect(path)
            copy = sqlite3.connect(":memory:")
            began = time.perf_counter()
            source.backup(copy)
            times.append(time.perf_counter() - began)
            copy.close()
            source.close()
        size = os.path.getsize(path) / 2**20
        print(f"| {path} | {size:.1f} | {statistics.median(times):.3f} | {args.runs} |")


if __name__ == "__main__":
    main()
