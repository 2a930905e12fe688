"""A cold index build's serial tail through the launcher, two versions side by side: the
seconds from the last slice of references linked (in a link worker) to the end of the
``reviewbot index`` process, as a user waits for it (the last inserts, indexes and commit, and
whatever the process does before it is gone: freeing what it built, Python's own clean-up).

The corpus of ``index_speed.py`` (Django's sdist and Pygments' wheel), built from nothing by
this checkout and by ``--rev`` in turn (alternating, ``--runs`` each). Each build is a
subprocess that runs the launcher's ``cli()`` (what the ``reviewbot`` script runs) with
``link_slices`` wrapped to write the time its last slice came in to a pipe; this process takes
the end from the child's exit, and the child's CPU (and its workers') from ``wait4``.
``index_phases.py`` splits the rest of the build (it calls the command's ``main``, so it never
sees the process's end).

    python bench/index_tail.py --rev 84e8b9d --runs 4
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from index_speed import PACKAGES, corpus_repo, fetch

from lib.common import ENV, alternate_builds, command_line, revision, write_result

RUNS = 4
# Run in the subprocess: argv = [tree, repository, descriptor of the pipe's writing end].
PROBE = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
repo, fd = sys.argv[2], int(sys.argv[3])
from reviewbot.index import build, resolve
slices = resolve.link_slices
def timed_slices(*a, **k):
    yield from slices(*a, **k)
    os.write(fd, b"%.6f\n" % time.time())
build.link_slices = timed_slices
sys.argv = ["reviewbot", "index", repo]
from reviewbot.doors.launch import cli
sys.exit(cli())
"""


def build_once(tree: Path, repo: Path, database: Path) -> tuple[float, float]:
    """(tail seconds, CPU seconds of the process and its workers) of one cold build."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    env = {**ENV, "REVIEWBOT_INDEX": str(database)}
    read, write = os.pipe()
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", PROBE, str(tree), str(repo), str(write)],
            env=env,
            stdout=subprocess.DEVNULL,
            pass_fds=(write,),
        )
        os.close(write)
        _pid, status, usage = os.wait4(child.pid, 0)
        end = time.time()
        marks = os.read(read, 4096).decode().split()
    finally:
        os.close(read)
    if status != 0 or not marks:
        raise SystemExit(f"reviewbot index failed in {tree} (status {status})")
    return end - float(marks[-1]), usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--runs", type=int, default=RUNS, help="builds of each version")
    parser.add_argument("--out", default="bench/results/index_tail.md")
    args = parser.parse_args(argv)
    out_file = Path(args.out).resolve()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-tail-") as tmp:
        repo = corpus_repo(archives, Path(tmp) / "repo")
        results, loads = alternate_builds(args.rev, args.runs, Path(tmp), repo, build_once)
    tails = {name: statistics.median(t for t, _ in runs) for name, runs in results.items()}
    lines = [
        "# Index: a cold build's serial tail, side by side",
        "",
        f"reviewbot {revision()} against {args.rev}; `{command_line('index_tail.py', argv)}`. "
        f"{os.cpu_count()} cores. Corpus: {', '.join(a.name for a in archives)} in one git "
        f"repository. {args.runs} cold builds of each version through the launcher "
        "(`reviewbot index`), alternating; medians. Load average "
        f"{min(loads):.1f}-{max(loads):.1f} during the runs (2 = both cores busy).",
        "",
        "The tail: seconds from the last slice of references linked to the process's end, "
        "while one core waits. CPU: the process's and its workers'.",
        "",
        "| version | tail | tail / before | CPU |",
        "| --- | --- | --- | --- |",
    ]
    for name, runs in results.items():
        cpu = statistics.median(c for _, c in runs)
        ratio = tails[name] / tails[args.rev]
        lines.append(f"| {name} | {tails[name]:.2f} s | {ratio:.2f} | {cpu:.2f} s |")
    lines += ["", "Each build (tail / CPU):", ""]
    for name, runs in results.items():
        lines.append(f"- {name}: " + ", ".join(f"{t:.2f} / {c:.2f}" for t, c in runs))
    print("\n".join(lines))
    write_result(out_file, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
