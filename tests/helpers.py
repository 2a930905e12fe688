"""What many tests share: a sample change, and writing and committing files in real git
repositories built in temporary folders."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARITY = ROOT / "tests" / "data" / "parity"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


BEFORE = """def apply(order, rate):
    total = order.subtotal()
    if rate > 0:
        total -= total * rate
    return round(total, 2)


def ship(order):
    return "ok"
"""
AFTER = """def apply(order, rate, member=False):
    total = order.subtotal()
    if rate > 0:
        if member and order.coupon:
            if order.coupon.startswith("VIP") or total > 500:
                total -= total * (rate + 0.05)
            elif order.coupon.startswith("BULK"):
                for line in order.lines:
                    if line.quantity >= 10:
                        total -= 1
        else:
            total -= total * rate
    return round(total, 2)


def ship(order):
    return "ok"
"""


def commit(repo: Path, message: str = "c") -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def write(repo: Path, name: str, text: str | bytes) -> None:
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")


def examples(n: int) -> int:
    """A property test's number of examples, times REVIEWBOT_PROPERTY_SCALE (default 1)."""
    return max(1, round(n * float(os.environ.get("REVIEWBOT_PROPERTY_SCALE", "1"))))


@contextlib.contextmanager
def index_held(database: Path, uncommitted: str = "") -> Iterator[None]:
    """Another process's write transaction on the index ``database`` while the block runs (a
    review of an old commit holds it so for 10-40 s), with ``uncommitted`` SQL done in it and
    rolled back after (at most 60 s: a block that never ends does not hang the suite)."""
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(database, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        if uncommitted:
            conn.execute(uncommitted)
        held.set()
        done.wait(60)
        conn.execute("ROLLBACK")
        conn.close()

    other = threading.Thread(target=hold)
    other.start()
    held.wait()
    try:
        yield
    finally:
        done.set()
        other.join()
