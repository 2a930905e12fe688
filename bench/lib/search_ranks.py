"""Run by bench/search_quality.py with a version of reviewbot first on the path: reads
``{"database", "queries", "depth"}`` as JSON on stdin and prints, for each query, the
``path::qualified`` names of the first ``depth`` results of ``reviewbot.index.query.search``.
A separate process, so that two versions of reviewbot are each imported whole."""

from __future__ import annotations

import json
import sqlite3
import sys


def main() -> int:
    from reviewbot.index.query import search  # the version PYTHONPATH names

    job = json.load(sys.stdin)
    conn = sqlite3.connect(f"file:{job['database']}?mode=ro", uri=True)
    try:
        ranked = [
            [f"{symbol.path}::{symbol.qualified}" for symbol, _ in search(conn, q, job["depth"])]
            for q in job["queries"]
        ]
    finally:
        conn.close()
    json.dump(ranked, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
