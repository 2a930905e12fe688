"""Reviews of old commits with an index built at the newest one: wall time, max RSS and the
outputs of ``reviewbot review C~1..C`` by ``--rev`` and by this checkout, side by side.

The index answers for the commit a change is made on: when it was built some commits later,
the files that differ between the two (up to 300) are read again and resolved inside the
review's rolled-back transaction. This measures that cost on real history.

For each repository (a local git mirror: ``/work/.mirror/<owner>+<name>/repo``, cloned at its
newest commit) each version builds its own index there, then reviews, for each ``--depths``
entry D, the first commit from the D-th first-parent ancestor of HEAD back that is not a merge.
Each review runs ``--repeat`` times per version, alternating which version goes first, as a
whole process under ``/usr/bin/time`` (wall, max RSS); medians are reported. Both versions'
outputs are compared whole: the JSON report (its ``stats.seconds``, the analysis' own time,
left out) of every run and the text report (at 80 columns) of one run.

    python bench/review_old.py --rev main --depths 5,20,100,200 --repeat 3 apache+commons-lang
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lib.common import (
    ENV,
    ROOT,
    clone_mirror,
    command_line,
    exported_tree,
    git,
    revision,
    write_result,
)


def timed(tree: Path, repo: Path, database: Path, *argv: str) -> tuple[float, int, str]:
    """``reviewbot ARGV`` of the version under ``tree`` in ``repo`` with the index
    ``database``, at 80 columns: its wall time (s), max RSS (KiB, from ``/usr/bin/time``) and
    its standard output (or what went wrong)."""
    env = dict(ENV, PYTHONPATH=str(tree), REVIEWBOT_INDEX=str(database), COLUMNS="80")
    cmd = ["/usr/bin/time", "-f", "@@ %e %M", sys.executable, "-m", "reviewbot", *argv]
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=repo, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    rss = int(last.split()[2]) if last.startswith("@@ ") else 0
    if done.returncode not in (0, 1):
        return wall, rss, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return wall, rss, done.stdout


def comparable(out: str) -> str:
    """A JSON report without its analysis time (``stats.seconds``), else the output as it is."""
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        return out
    doc.get("stats", {}).pop("seconds", None)
    return json.dumps(doc, sort_keys=True)


def pick(repo: Path, depth: int) -> str | None:
    """The first non-merge commit from HEAD~depth (first parents) back."""
    try:
        found = git(
            repo, "rev-list", "--first-parent", "--no-merges", "-n", "1", f"HEAD~{depth}"
        ).split()
    except RuntimeError:  # (a shorter history)
        return None
    return found[0] if found else None


def behind(repo: Path, commit: str) -> int:
    """How many files differ between HEAD (the index's) and the change's base."""
    return len(git(repo, "diff", "--name-only", "HEAD", f"{commit}~1").splitlines())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument(
        "--new", default=None, help="a revision to run as this version (default: this checkout)"
    )
    parser.add_argument("--depths", default="5,20,100,200", help="commits back from HEAD")
    parser.add_argument("--repeat", type=int, default=3, help="runs per review and version")
    parser.add_argument("--out", default=None, help="write the table here (Markdown)")
    parser.add_argument("repos", nargs="+", metavar="OWNER+NAME", help="mirrors to clone")
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    lines = [
        f"`{command_line('review_old.py', argv)}` at {revision()}"
        + (f" (this: {args.new})" if args.new else "")
        + f", compared with {args.rev}; "
        f"medians of {args.repeat} alternating runs per version; load average "
        f"{os.getloadavg()[0]:.1f} at the start.",
        "",
        f"| repository | commit | files behind | changed | {args.rev} wall | this wall "
        f"| {args.rev} max RSS | this max RSS | JSON the same | text the same |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    differ = 0
    with tempfile.TemporaryDirectory(prefix="review-old-") as tmp:
        base = Path(tmp)
        this = ROOT if args.new is None else exported_tree(args.new, base / "new")
        trees = {args.rev: exported_tree(args.rev, base / "old"), "this": this}
        for tree in trees.values():
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(tree / "reviewbot")], check=True
            )
        for name in args.repos:
            repo = clone_mirror(name, base)
            for label, tree in trees.items():
                timed(tree, repo, base / f"{name}.{label}.sqlite", "index")
            for depth in depths:
                commit = pick(repo, depth)
                if commit is None:
                    continue
                rng = f"{commit}~1..{commit}"
                walls: dict[str, list[float]] = {label: [] for label in trees}
                rss: dict[str, int] = dict.fromkeys(trees, 0)
                outs: dict[str, set[str]] = {label: set() for label in trees}
                for k in range(args.repeat):
                    order = list(trees) if k % 2 == 0 else list(reversed(trees))
                    for label in order:
                        db = base / f"{name}.{label}.sqlite"
                        wall, kib, out = timed(
                            trees[label], repo, db, "review", rng, "--format", "json"
                        )
                        walls[label].append(wall)
                        rss[label] = max(rss[label], kib)
                        outs[label].add(comparable(out))
                texts = {
                    label: timed(
                        tree,
                        repo,
                        base / f"{name}.{label}.sqlite",
                        "review",
                        rng,
                        "--color",
                        "never",
                    )[2]
                    for label, tree in trees.items()
                }
                same_json = len(outs[args.rev] | outs["this"]) == 1
                same_text = texts[args.rev] == texts["this"]
                differ += not (same_json and same_text)
                changed = len(git(repo, "diff", "--name-only", rng).splitlines())
                lines.append(
                    f"| {name} | {commit[:10]} (HEAD~{depth}) | {behind(repo, commit)} | "
                    f"{changed} | {statistics.median(walls[args.rev]):.2f} s | "
                    f"{statistics.median(walls['this']):.2f} s | {rss[args.rev] // 1024} MiB | "
                    f"{rss['this'] // 1024} MiB | {'yes' if same_json else 'NO'} | "
                    f"{'yes' if same_text else 'NO'} |"
                )
                print(lines[-1], flush=True)
    lines += ["", "Every output the same." if not differ else f"{differ} review(s) differ."]
    if args.out:
        write_result(args.out, lines)
    else:
        print("\n".join(lines))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
