"""Each format writes one arrow for a before → after: `→` in text and Markdown alike (the
text's tables, its findings' messages and the hook's lines), `->` where the text's stream
cannot encode `→` (a Windows pipe's code page), with its tables still aligned."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import AFTER, BEFORE, commit, write


def _spiked(repo: Path) -> None:
    write(repo, "orders.py", BEFORE)
    commit(repo)
    write(repo, "orders.py", AFTER)
    commit(repo)


def _review(repo: Path, fmt: str, encoding: str) -> str:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "80"}
    proc = subprocess.run(
        [sys.executable, "-m", "reviewbot", "review", "HEAD~1..HEAD", "--format", fmt],
        cwd=repo,
        env=env,
        capture_output=True,
        check=False,
    )
    assert proc.returncode in (0, 1) and not proc.stderr, proc.stderr
    return proc.stdout.decode(encoding)


def test_markdown_and_text_each_write_one_arrow(repo: Path) -> None:
    """The Markdown table said `1 -> 8` under a message saying `1 → 8`; the text's message
    said `1 -> 8` over a table saying `1→8`."""
    _spiked(repo)
    markdown, text = _review(repo, "markdown", "utf-8"), _review(repo, "text", "utf-8")
    for out in (markdown, text):
        assert "decision points 1 → 8" in out and "->" not in out, out
    assert "| 1 → 8 |" in markdown and " 1→8 " in text


def test_a_stream_without_the_arrow_gets_ascii_arrows_in_aligned_columns(repo: Path) -> None:
    """cp1252 has no `→`: the table said `1?8` (or, written `->` after the widths were taken,
    its columns went askew) and the message `1 ? 9`."""
    _spiked(repo)
    out = _review(repo, "text", "cp1252")
    assert "decision points 1 -> 8" in out and "→" not in out and "1?8" not in out, out
    lines = out.splitlines()
    (head,) = [k for k, line in enumerate(lines) if line.lstrip().startswith("unit ")]
    row = lines[head + 1]
    assert "1->8" in row, row
    for name, value in (("nesting", "1->5"), ("irregularity", row.split()[-1])):
        assert row.index(value) == lines[head].index(name), (name, lines[head], row)
