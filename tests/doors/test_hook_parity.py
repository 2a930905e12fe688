"""The hook measures with the engine's plain-Python kernels (no numpy to import) and
`reviewbot review --staged` with numpy: on a corpus of real files they report the same findings
and the same metrics, bit for bit."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.model import Report
from reviewbot.render.report_json import report_doc
from tests.helpers import commit, git

STDLIB = Path(sys.modules["os"].__file__ or "").parent
FILES = 30
IMPACT = "RB105"  # references to a removed name: looked for by a full review only

# Prints the hook's own report (pickled: floats exact) and whether numpy was ever imported.
PROBE = """
import os, pickle, sys
from pathlib import Path
from reviewbot.doors import hook
args = hook._parser().parse_args(sys.argv[1:])
result = hook.run_hook(args, Path.cwd(), os.environ, sys.stdin, False)
numeric = sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "scipy", "jinja2"))
sys.stdout.buffer.write(pickle.dumps((result.report, numeric)))
"""

SPIKE = """\
    if __debug__ and len(sys.argv) > 3:
        for _arg in sys.argv:
            if _arg and _arg.startswith("-") or _arg.endswith("x"):
                while False:
                    pass
"""


def corpus() -> list[Path]:
    """Standard library modules of 200-1,500 lines, spread over the alphabet."""
    found = [
        p
        for p in sorted(STDLIB.glob("*.py"))
        if 200 <= p.read_text(encoding="utf-8", errors="replace").count("\n") <= 1500
    ]
    return found[:: max(1, len(found) // FILES)][:FILES]


def edit(text: str, k: int) -> str:
    """A branch added inside the first function; every third file gets a spike instead."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("def ") and line.rstrip().endswith(":"):
            added = SPIKE if k % 3 == 0 else "    if __debug__ and False:\n        pass  # edited\n"
            lines[i + 1 : i + 1] = added.rstrip("\n").split("\n")
            break
    return "\n".join(lines)


def bits(report: Report) -> list[tuple[str, str, list[str]]]:
    """Every unit's irregularity and per-line heat, as the bits of each float."""
    return [
        (u.path, u.label, [float(v).hex() for v in (*u.shape, *_irregularity(u.metrics))])
        for f in report.files
        for u in f.units
    ]


def _irregularity(metrics: Any) -> list[float]:
    m = metrics.measure("irregularity")
    return [v for v in (m.before, m.after) if v is not None]


def test_hook_and_review_staged_report_the_same_numbers(repo: Path, cli: Any) -> None:
    sources = corpus()
    assert len(sources) == FILES
    for src in sources:
        (repo / src.name).write_bytes(src.read_bytes())
    commit(repo)
    for k, src in enumerate(sources):
        path = repo / src.name
        path.write_text(edit(path.read_text(encoding="utf-8"), k), encoding="utf-8")
    git(repo, "add", "-A")

    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *(s.name for s in sources)],
        cwd=repo,
        capture_output=True,
        check=True,
    )
    hooked, numeric = pickle.loads(proc.stdout)
    assert numeric == [], "the hook's path imported " + ", ".join(numeric)
    assert isinstance(hooked, Report)

    # What `reviewbot review --staged` runs (a full review: numpy), every finding kept.
    config = Config().with_overrides(max_findings=10**6)
    staged = review(GitChange(repo, (None,), True), config)
    assert staged.files == hooked.files  # units, metrics and per-line heat
    assert bits(staged) == bits(hooked)
    assert sum(1 for f in hooked.files if f.units) >= FILES - 3  # a few have no top-level def
    reviewed = [f for f in staged.findings if f.code != IMPACT]
    assert reviewed == list(hooked.findings)
    assert len(reviewed) >= FILES // 3  # the spikes were seen

    # And through the door itself, as JSON.
    run = cli("review", "--staged", "-C", str(repo), "--format", "json", "--max-findings", "0")
    door = run.json()
    mine = report_doc(hooked)
    assert door["files"] == mine["files"]
    assert door["stats"]["findings_total"] == hooked.stats.findings_total
