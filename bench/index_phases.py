"""Where a cold index build's wall time goes, phase by phase, two versions side by side.

The corpus of ``index_speed.py`` (Django's sdist and Pygments' wheel, 622k lines indexed), built
from nothing by this checkout and by ``--rev`` in turn (alternating, ``--runs`` each). Each build
runs in a subprocess that wraps a few functions of the version it imports and reports: when the
parse phase (``build._write``: reading, extracting in the pool, inserting) ended, the seconds
spent making the resolver (serial: one core idle), when the last slice of references was linked
in a link worker, and the serial tail after it (the parent's remaining inserts and indexes, the
file graph, the commit); and the CPU seconds of the parent and of its workers. The tail and
the resolver are what one core does while the other waits: the single-core time a faster
build has to cut besides CPU.

    python bench/index_phases.py --rev c0f55e9 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from index_speed import PACKAGES, corpus_repo, fetch

from lib.common import (
    ENV,
    alternate_builds,
    command_line,
    revision,
    write_result,
)

RUNS = 3
PHASES = ("wall", "parse_end", "resolver", "link_end", "tail", "cpu_parent", "cpu_workers")

# Run in the subprocess: argv = [tree, repository]. Writes one JSON object to stdout.
PROBE = r"""
import contextlib, io, json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
T0 = time.perf_counter()
from reviewbot.index import build, resolve
marks = {}
write = build._write
def timed_write(*a, **k):
    out = write(*a, **k)
    marks["parse_end"] = time.perf_counter() - T0
    return out
build._write = timed_write
init = resolve.Resolver.__init__
def timed_init(self, *a, **k):
    t = time.perf_counter()
    init(self, *a, **k)
    marks["resolver"] = marks.get("resolver", 0.0) + time.perf_counter() - t
resolve.Resolver.__init__ = timed_init
done_r, done_w = os.pipe()
link = resolve._link_slice
def timed_link(bounds):
    out = link(bounds)
    os.write(done_w, f"{time.perf_counter() - T0:.4f}\n".encode())
    return out
resolve._link_slice = timed_link
from reviewbot.doors.index_cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["index", sys.argv[2]])
end = time.perf_counter() - T0
os.close(done_w)
ends = [float(x) for x in os.read(done_r, 1 << 20).decode().split()]
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
link_end = max(ends) if ends else marks["parse_end"]
print(json.dumps({
    "code": code, "wall": end, "parse_end": marks["parse_end"],
    "resolver": marks.get("resolver", 0.0), "link_end": link_end, "tail": end - link_end,
    "cpu_parent": me.ru_utime + me.ru_stime, "cpu_workers": kids.ru_utime + kids.ru_stime,
}))
"""


def build_once(tree: Path, repo: Path, database: Path) -> dict[str, float]:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    env = {**os.environ, **ENV, "REVIEWBOT_INDEX": str(database)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tree), str(repo)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    if found.pop("code") != 0:
        raise SystemExit(f"reviewbot index failed in {tree}: {out.stderr[-500:]}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the version to compare with")
    parser.add_argument("--runs", type=int, default=RUNS, help="builds of each version")
    parser.add_argument("--out", default="bench/results/index_phases.md")
    args = parser.parse_args(argv)
    out_file = Path(args.out).resolve()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-phases-") as tmp:
        repo = corpus_repo(archives, Path(tmp) / "repo")
        results, loads = alternate_builds(args.rev, args.runs, Path(tmp), repo, build_once)
    lines = [
        "# Index: a cold build's phases, side by side",
        "",
        f"reviewbot {revision()} against {args.rev}; `{command_line('index_phases.py', argv)}`. "
        f"{os.cpu_count()} cores. Corpus: {', '.join(a.name for a in archives)} in one git "
        f"repository. {args.runs} cold builds of each version, alternating; medians. Load "
        f"average {min(loads):.1f}-{max(loads):.1f} during the runs (2 = both cores busy): "
        "above about 1 the other work inflates every wall figure.",
        "",
        "Seconds from the start of the process: the parse phase's end; the resolver (serial);"
        " the last reference linked (in a link worker); the tail after it (serial). CPU: the "
        "parent's, the workers' (parse and link).",
        "",
        "| version | wall | parse ends | resolver | last link | tail | CPU parent | CPU workers |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, runs in results.items():
        cells = [f"{statistics.median(r[p] for r in runs):.2f}" for p in PHASES]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "Each build (wall / tail / CPU parent + workers):", ""]
    for name, runs in results.items():
        each = ", ".join(
            f"{r['wall']:.2f} / {r['tail']:.2f} / {r['cpu_parent'] + r['cpu_workers']:.2f}"
            for r in runs
        )
        lines.append(f"- {name}: {each}")
    print("\n".join(lines))
    write_result(out_file, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
