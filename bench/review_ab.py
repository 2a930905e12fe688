"""Reviews before and after a change, on real history: every finding and every impact entry of
``reviewbot review C~1..C`` for the last commits of real repositories, by ``--rev`` and by this
checkout, compared.

For each repository (a local git mirror: ``/work/.mirror/<owner>+<name>/repo``, cloned at its
newest commit) each version builds its own index, then reviews the last ``--commits``
first-parent commits that are not merges (JSON). Compared per review: the sorted (code, path,
line) of the findings and the sorted (name, change, total) of the impact entries. Listed: every
review where they differ, both sides, to be read by hand (an intended change, or a defect).

    python bench/review_ab.py --rev c3de6c7 --commits 10 gin-gonic+gin pallets+click
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from lib.common import (
    ROOT,
    clone_mirror,
    command_line,
    exported_tree,
    git,
    revision,
    run_version,
    write_result,
)


def run(tree: Path, repo: Path, database: Path, *argv: str) -> str:
    done = run_version(tree, repo, database, *argv)
    if done.returncode not in (0, 1):
        return f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return done.stdout


def digest(out: str) -> Any:
    """What is compared of one review: its findings' places and its impact's counts."""
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        return out  # (an error: compared as it reads)
    findings = sorted((f["code"], f["path"], f["line"]) for f in doc["findings"])
    impact = sorted((i["name"], i["change"], i["total"]) for i in doc.get("impact", []))
    return {"findings": findings, "impact": impact}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--commits", type=int, default=10, help="per repository (default 10)")
    parser.add_argument("--out", default="bench/results/review_ab.md")
    parser.add_argument("repos", nargs="+", metavar="OWNER+NAME", help="mirrors to clone")
    args = parser.parse_args(argv)
    lines = [
        "# Reviews before and after a change, on real history",
        "",
        f"`{command_line('review_ab.py', argv)}` at {revision()}, compared with "
        f"{args.rev}: findings (code, path, line) and impact entries (name, change, total) of "
        "each commit's review.",
        "",
        "| repository | reviews | findings the same | impact the same |",
        "| --- | ---: | ---: | ---: |",
    ]
    details: list[str] = []
    with tempfile.TemporaryDirectory(prefix="review-ab-") as tmp:
        base = Path(tmp)
        trees = {args.rev: exported_tree(args.rev, base / "old"), "this": ROOT}
        for name in args.repos:
            repo = clone_mirror(name, base)
            for label, tree in trees.items():
                run(tree, repo, base / f"{name}.{label}.sqlite", "index")
            commits = git(
                repo, "rev-list", "--first-parent", "--no-merges", "-n", str(args.commits), "HEAD"
            ).split()
            same_findings = same_impact = 0
            for commit in commits:
                got = {
                    label: digest(
                        run(
                            tree,
                            repo,
                            base / f"{name}.{label}.sqlite",
                            "review",
                            f"{commit}~1..{commit}",
                            "--format",
                            "json",
                        )
                    )
                    for label, tree in trees.items()
                }
                old, new = got[args.rev], got["this"]
                if not isinstance(old, dict) or not isinstance(new, dict):
                    details += [f"- {name} {commit[:10]}: `{old!s:.200}` / `{new!s:.200}`"]
                    continue
                same_findings += old["findings"] == new["findings"]
                same_impact += old["impact"] == new["impact"]
                if old != new:
                    details += [
                        f"- {name} {commit[:10]}:",
                        f"  - {args.rev}: {old}",
                        f"  - this: {new}",
                    ]
            lines.append(f"| {name} | {len(commits)} | {same_findings} | {same_impact} |")
            print(lines[-1], flush=True)
    lines += ["", "Reviews that differ:" if details else "No review differs.", "", *details]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
