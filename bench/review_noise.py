"""Signal over noise on real changes: what a reviewer gets from a PR comment and a terminal.

For a few real ranges of real repositories (their git histories, brought here with the search
tool's `fetch` into /work/.mirror; none of the repositories reserved for independent checks),
reviews the range and records: the Markdown report's and the PR summary's length against
GitHub's 65,536-character limit, the changed-unit rows shown against the units the change
touched, the findings and their codes, non-code files analysed as code (must be 0), RB104 on
docstrings (counted from the findings whose unit grew only in docstring lines: must be 0), and
the widest terminal line at 80 columns. The verdicts are written by reading the outputs.

    .venv/bin/python bench/review_noise.py [--out bench/results/review_noise.md]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.doors.cli import main as cli_main
from reviewbot.render.markdown import MAX_BODY, render_markdown, summary_body
from reviewbot.render.report_json import report_doc

from lib.common import RESULTS, git, write_result

MIRRORS = Path("/work/.mirror")


class Range(NamedTuple):
    repo: str  # owner+name under MIRRORS
    spec: str  # A..B with A and B as `git rev-parse` understands them on the mirror
    what: str


RANGES = (
    Range("pallets+click", "2c8cd3ac~1..2c8cd3ac", "1 commit (a merge's first parent)"),
    Range("pallets+click", "e1fd5946~3..e1fd5946", "3 commits"),
    Range("pallets+click", "2c8cd3ac~35..2c8cd3ac", "35 commits"),
    Range("encode+starlette", "3d7430a0~1..3d7430a0", "1 commit"),
    Range("encode+starlette", "cb8f84f5~12..cb8f84f5", "12 commits"),
)


# Written by reading each range's terminal output and PR summary (the script prints them).
VERDICTS = {
    "2c8cd3ac~1..2c8cd3ac": "Only a prose file changed (docs/faqs.md): listed, not analysed; "
    "the PR comment says 'No findings' in four lines. Nothing a reviewer would call noise.",
    "e1fd5946~3..e1fd5946": "19 of 22 touched units shown (3 touched without moving numbers are "
    "counted in one line). No findings, fairly: the largest change, _pipepager, got simpler "
    "(15 -> 11 decisions). What still reads as noise: ten rows of small new test helpers, and "
    "the grep-based impact lines (to be replaced by the repository index).",
    "2c8cd3ac~35..2c8cd3ac": "A release's worth of commits: 303 of 408 units shown, long in a "
    "terminal (the findings come first) but folded in the PR comment. Three RB101 on code that "
    "gained decision points; three RB105 on classes renamed or deleted that "
    "tests/test_deprecations.py still names (the tests of their deprecated old names: worth a "
    "look). Before this round the same range also had an RB103 on a whole class and four "
    "RB105 on members of renamed classes (LazyFile.open, ...): gone. Without an index the "
    "impact list is the main noise left (name matching; a class's base list counts as its "
    "signature).",
    "3d7430a0~1..3d7430a0": "2 rows, no findings, a PR comment of under 2,000 characters.",
    "cb8f84f5~12..cb8f84f5": "32 of 52 units shown, no findings. An earlier version of this "
    "file recorded one RB101 on a __call__; it was already gone at 5663d6c, before this "
    "round's changes, and why was not looked into. The review order groups the middleware "
    "changes under their weightiest unit.",
}


def checkout(mirror: Path, dest: Path) -> Path:
    work = dest / mirror.parent.name
    git(dest, "clone", "-q", "--no-checkout", str(mirror), str(work))
    return work


def measure(work: Path, spec: str) -> dict[str, object]:
    base, head = spec.split("..")
    base_sha = git(work, "rev-parse", base).strip()
    head_sha = git(work, "rev-parse", head).strip()
    git(work, "checkout", "-q", head_sha)
    report = review(GitChange(work, (f"{base_sha}..{head_sha}",)), Config())
    doc = report_doc(report)
    markdown = render_markdown(report)
    summary = summary_body(report, blob_base="https://github.com/o/r/blob/" + head_sha)
    units = [u for fs in report.files for u in fs.units]
    shown = [u for u in units if u.noteworthy]
    out, err = io.StringIO(), io.StringIO()
    os.environ["COLUMNS"] = "80"
    cli_main(["review", "-C", str(work), f"{base_sha}..{head_sha}"], stdout=out, stderr=err)
    prose = [
        f["path"]
        for f in doc["files"]
        if f["units"] and f["path"].rsplit(".", 1)[-1].lower() in {"md", "rst", "txt", "in"}
    ]
    return {
        "files": len(report.files),
        "units": len(units),
        "rows": len(shown),
        "findings": [f.code for f in report.findings],
        "markdown": len(markdown),
        "summary": len(summary),
        "widest": max(len(line) for line in out.getvalue().splitlines()),
        "prose_as_code": prose,
        "bundles": [b.title for b in report.bundles],
        "text": out.getvalue(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS / "review_noise.md"))
    parser.add_argument("--json", default=None, help="also write the raw rows here")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="noise-") as tmp:
        clones: dict[str, Path] = {}
        for r in RANGES:
            if r.repo not in clones:
                clones[r.repo] = checkout(MIRRORS / r.repo / "repo", Path(tmp))
            found = measure(clones[r.repo], r.spec)
            rows.append((r, found))
            print(r.repo, r.spec, {k: v for k, v in found.items() if k != "text"})
    if args.json:
        Path(args.json).write_text(json.dumps([[r._asdict(), f] for r, f in rows], indent=2))
    lines = [
        "# Signal over noise on real changes",
        "",
        "Command: `.venv/bin/python bench/review_noise.py` (histories fetched into",
        "/work/.mirror with the search tool's `fetch`: pallets/click and encode/starlette).",
        f"GitHub's comment limit: {MAX_BODY:,} characters. Terminal text rendered at 80 columns.",
        "",
        "| repository | range | what | files | units touched | rows shown | findings | "
        "Markdown chars | PR summary chars | widest line | prose as code |",
        "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r, f in rows:
        codes = ", ".join(f"{c}" for c in f["findings"]) or "none"  # type: ignore[attr-defined]
        lines.append(
            f"| {r.repo.replace('+', '/')} | `{r.spec}` | {r.what} | {f['files']} | {f['units']} "
            f"| {f['rows']} | {codes} | {f['markdown']:,} | {f['summary']:,} | {f['widest']} | "
            f"{len(f['prose_as_code'])} |"  # type: ignore[arg-type]
        )
    lines += ["", "## Verdicts", ""]
    for r, _ in rows:
        lines.append(f"* `{r.repo.replace('+', '/')} {r.spec}`: {VERDICTS.get(r.spec, '(none)')}")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
