"""What a change of the index's rules does to its links, on real repositories: every reference's
definitions (and confidences) under ``--rev`` and under this checkout, compared.

For each repository (a local git mirror: ``/work/.mirror/<owner>+<name>/repo``, cloned at its
newest commit) both versions build a cold index; a reference is keyed by (path, line, column,
name) and its links by (the definition's qualified name and file, confidence). Counted: the
references linked by each version, those whose links one version lost or gained, and those whose
links changed; listed: every lost and changed reference (the ones to read by hand: a lost sure
link is a recall loss unless it was wrong), and the gained ones by name.

    python bench/edges_ab.py --rev c3de6c7 gin-gonic+gin sirupsen+logrus
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

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

SHOWN = 12  # lost and changed references listed per repository

Links = dict[tuple[str, int, int, str], dict[str, float]]


def build(tree: Path, repo: Path, database: Path) -> None:
    done = run_version(tree, repo, database, "index", str(repo))
    if done.returncode:
        raise SystemExit(f"{repo.name}: reviewbot index failed: {done.stderr.strip()[-300:]}")


def links(database: Path) -> Links:
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT f.path, r.line, r.col, r.name, d.qualified || ' (' || df.path || ')', "
            "e.confidence FROM edges e JOIN refs r ON r.id = e.ref_id "
            "JOIN files f ON f.id = r.file_id JOIN defs d ON d.id = e.def_id "
            "JOIN files df ON df.id = d.file_id"
        ).fetchall()
    finally:
        conn.close()
    out: Links = {}
    for path, line, col, name, target, confidence in rows:
        out.setdefault((path, line, col, name), {})[target] = round(confidence, 2)
    return out


def _shown(key: tuple[str, int, int, str], these: dict[str, float]) -> str:
    path, line, _, name = key
    said = ", ".join(f"{t} {c:g}" for t, c in sorted(these.items()))
    return f"`{path}:{line}` `{name}` -> {said}"


def compare(label: str, old: Links, new: Links) -> list[str]:
    lost = sorted(k for k in old if k not in new)
    gained = sorted(k for k in new if k not in old)
    changed = sorted(k for k in old if k in new and old[k] != new[k])
    sure_lost = sum(1 for k in lost if max(old[k].values()) >= 1)
    lines = [
        f"### {label}",
        "",
        f"Linked references: {len(old)} -> {len(new)}; lost {len(lost)} ({sure_lost} of them "
        f"sure), gained {len(gained)}, changed {len(changed)}.",
        "",
    ]
    by_name = Counter(k[3] for k in gained).most_common(10)
    if by_name:
        lines += ["Gained, by name: " + ", ".join(f"`{n}` {c}" for n, c in by_name) + ".", ""]
    for title, keys, side in (("Lost", lost, old), ("Changed (before)", changed, old)):
        if keys:
            lines.append(f"{title} ({len(keys)}, the first {min(len(keys), SHOWN)}):")
            lines.append("")
            lines += [f"- {_shown(k, side[k])}" for k in keys[:SHOWN]]
            if side is old and title.startswith("Changed"):
                lines.append("")
                lines.append("Changed (after), the same references:")
                lines.append("")
                lines += [f"- {_shown(k, new[k])}" for k in keys[:SHOWN]]
            lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--out", default="bench/results/edges_ab.md")
    parser.add_argument("repos", nargs="+", metavar="OWNER+NAME", help="mirrors to clone")
    args = parser.parse_args(argv)
    out = [
        "# The index's links before and after a change of its rules",
        "",
        f"`{command_line('edges_ab.py', argv)}` at {revision()}, compared with "
        f"{args.rev}; each repository at its mirror's newest commit. Read the lost and changed "
        "references by hand: a lost link is a recall loss unless it was wrong.",
        "",
    ]
    with tempfile.TemporaryDirectory(prefix="edges-ab-") as tmp:
        base = Path(tmp)
        old_tree = exported_tree(args.rev, base / "old")
        for name in args.repos:
            repo = clone_mirror(name, base)
            head = git(repo, "rev-parse", "--short=12", "HEAD")
            build(old_tree, repo, base / f"{name}.old.sqlite")
            build(ROOT, repo, base / f"{name}.new.sqlite")
            found = compare(
                f"{name} at {head}",
                links(base / f"{name}.old.sqlite"),
                links(base / f"{name}.new.sqlite"),
            )
            out += found
            print("\n".join(found[:4]), flush=True)
    write_result(args.out, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
