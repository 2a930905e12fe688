"""Reviews of a commit with an index built at that very commit (a CI job that indexes the pushed
commit, then reviews it): CPU time, wall time and the outputs of ``reviewbot review C~1..C`` by
``--rev`` and by this checkout, side by side.

The index holds the change's new side already; what the review still reads again is the old
side (and, before session 21, the new side a second time). For each repository (a local git
mirror: ``/work/.mirror/<owner>+<name>/repo``, cloned) and each ``--depths`` entry D, the first
non-merge commit from the D-th first-parent ancestor of HEAD back is checked out, each version
builds its own index there, and each reviews ``C~1..C`` (JSON) ``--repeat`` times, alternating
which goes first, as a whole process under ``/usr/bin/time`` (CPU = user + system, wall);
medians are reported. Both versions' outputs are compared whole: the JSON report (its
``stats.seconds`` left out) of every run and the text report (at 80 columns) of one run.

    python bench/review_at_index.py --rev 201e3f5 --depths 0,3,10,30 --repeat 3 apache+commons-io
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from review_old import comparable, pick

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


def timed(tree: Path, repo: Path, database: Path, *argv: str) -> tuple[float, float, str]:
    """``reviewbot ARGV`` of the version under ``tree`` in ``repo`` with the index
    ``database``, at 80 columns: its CPU time (user + system, s), wall time (s) and its
    standard output (or what went wrong)."""
    env = dict(ENV, PYTHONPATH=str(tree), REVIEWBOT_INDEX=str(database), COLUMNS="80")
    cmd = ["/usr/bin/time", "-f", "@@ %U %S %e", sys.executable, "-m", "reviewbot", *argv]
    done = subprocess.run(cmd, env=env, cwd=repo, capture_output=True, text=True, check=False)
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    parts = last.split()
    cpu, wall = 0.0, 0.0
    if last.startswith("@@ "):
        cpu, wall = float(parts[1]) + float(parts[2]), float(parts[3])
    if done.returncode not in (0, 1):
        return cpu, wall, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return cpu, wall, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument(
        "--new", default=None, help="a revision to run as this version (default: this checkout)"
    )
    parser.add_argument("--depths", default="0,3,10,30", help="commits back from HEAD")
    parser.add_argument("--repeat", type=int, default=3, help="runs per review and version")
    parser.add_argument("--out", default=None, help="write the table here (Markdown)")
    parser.add_argument("repos", nargs="+", metavar="OWNER+NAME", help="mirrors to clone")
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    lines = [
        f"`{command_line('review_at_index.py', argv)}` at {revision()}"
        + (f" (this: {args.new})" if args.new else "")
        + ", compared with "
        f"{args.rev}; medians of {args.repeat} alternating runs per version; load average "
        f"{os.getloadavg()[0]:.1f} at the start.",
        "",
        f"| repository | commit | changed | {args.rev} CPU | this CPU | {args.rev} wall "
        "| this wall | JSON the same | text the same |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    differ = 0
    with tempfile.TemporaryDirectory(prefix="review-at-index-") as tmp:
        base = Path(tmp)
        this = ROOT if args.new is None else exported_tree(args.new, base / "new")
        trees = {args.rev: exported_tree(args.rev, base / "old"), "this": this}
        for tree in trees.values():
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(tree / "reviewbot")], check=True
            )
        for name in args.repos:
            repo = clone_mirror(name, base)
            newest = git(repo, "rev-parse", "HEAD").strip()
            for depth in depths:
                git(repo, "checkout", "-q", newest)
                commit = pick(repo, depth)
                if commit is None:
                    continue
                git(repo, "checkout", "-q", commit)
                dbs = {label: base / f"{name}.{depth}.{label}.sqlite" for label in trees}
                for label, tree in trees.items():
                    timed(tree, repo, dbs[label], "index")
                rng = "HEAD~1..HEAD"
                cpus: dict[str, list[float]] = {label: [] for label in trees}
                walls: dict[str, list[float]] = {label: [] for label in trees}
                outs: dict[str, set[str]] = {label: set() for label in trees}
                for k in range(args.repeat):
                    order = list(trees) if k % 2 == 0 else list(reversed(trees))
                    for label in order:
                        cpu, wall, out = timed(
                            trees[label], repo, dbs[label], "review", rng, "--format", "json"
                        )
                        cpus[label].append(cpu)
                        walls[label].append(wall)
                        outs[label].add(comparable(out))
                texts = {
                    label: timed(tree, repo, dbs[label], "review", rng, "--color", "never")[2]
                    for label, tree in trees.items()
                }
                same_json = len(outs[args.rev] | outs["this"]) == 1
                same_text = texts[args.rev] == texts["this"]
                differ += not (same_json and same_text)
                changed = len(git(repo, "diff", "--name-only", rng).splitlines())
                med = statistics.median
                lines.append(
                    f"| {name} | {commit[:10]} (HEAD~{depth}) | {changed} | "
                    f"{med(cpus[args.rev]):.2f} s | {med(cpus['this']):.2f} s | "
                    f"{med(walls[args.rev]):.2f} s | {med(walls['this']):.2f} s | "
                    f"{'yes' if same_json else 'NO'} | {'yes' if same_text else 'NO'} |"
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
