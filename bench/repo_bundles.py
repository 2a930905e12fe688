"""How good are reviewbot's repository bundles next to Hound's adaptive bundling, and how fast
are they on a repository of over 600,000 lines?

Quality, on real repositories nobody here wrote (their newest snapshot, brought here with the
``fetch`` tool as bare git mirrors under /work/.mirror, or given with ``--mirrors``): each is
unpacked into a temporary git repository, indexed (``reviewbot index``), and cut into bundles
of 25,000 characters twice: by ``reviewbot bundles`` and by Hound's algorithm re-implemented
from its description (``bench/lib/hound.py``, our own code). Both are scored on the same
resolved references of reviewbot's index (``lib.hound.score``): cohesion (the share of
references between two cards that stay inside one bundle; the same weighted by the edge's
confidence), the share of bundles within 30-150% of the target, and the functions and methods
cut across bundles. scrapy is where reviewbot's edge weights were chosen (tuning); the other
repositories were not looked at before the weights were fixed (reporting).

Speed and memory: Django's source distribution and Pygments' wheel (PyPI, through pip, as in
``bench/index_speed.py``) in one repository of over 600,000 lines; the index is built first
(not timed here), then ``reviewbot bundles`` runs as a whole process from a clean state
(3 runs, medians of wall and CPU time, the largest peak memory), and once more after a commit
that edits 10 files (incremental).

    .venv/bin/python bench/repo_bundles.py
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from index_speed import PACKAGES, corpus_repo, fetch

from lib import hound
from lib.common import ENV, command_line, git, revision, write_result
from lib.corpora import Unavailable
from lib.procs import tool

QUALITY = (
    ("scrapy/scrapy", "tuning"),
    ("pygments/pygments", "reporting"),
    ("jhy/jsoup", "reporting"),
    ("colinhacks/zod", "reporting"),
)
TARGET = 25_000
SPEED_RUNS = 3


class Proc(NamedTuple):
    wall: float
    cpu: float
    rss_mib: float


def run_tool(argv: list[str], cwd: Path, out: Path | None = None) -> Proc:
    """One whole process: wall and CPU seconds, its peak memory; stops the bench on failure."""
    start = time.perf_counter()
    sink = out.open("wb") if out is not None else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=sink, stderr=subprocess.PIPE, env=ENV)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        if out is not None and not isinstance(sink, int):
            sink.close()
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])} exited {proc.returncode}: {err[-2000:]!r}")
    return Proc(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def code_lines(repo: Path) -> int:
    listed = git(repo, "ls-files").splitlines()
    total = 0
    for rel in listed:
        if rel.endswith((".py", ".js", ".ts", ".go", ".java")):
            total += (repo / rel).read_bytes().count(b"\n")
    return total


def unpack_mirror(mirrors: Path, name: str, into: Path) -> str:
    """The mirror's HEAD as a fresh one-commit repository in ``into``; its commit id."""
    bare = mirrors / name.replace("/", "+") / "repo"
    if not bare.is_dir():
        raise Unavailable(f"{bare}: no mirror of {name} (bring it with the fetch tool)")
    head = subprocess.run(
        ["git", "--git-dir", str(bare), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "--git-dir", str(bare), "archive", "HEAD"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    git(into, "init", "-q")
    git(into, "add", "-A")
    git(into, "commit", "-q", "-m", "corpus")
    return head


def hound_places(repo: Path, index: Path) -> tuple[list[tuple[hound.Place, int]], float, int]:
    """Hound's bundles of the indexed files: (cards with bundle numbers, CPU seconds, cards)."""
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    paths = [
        str(p)
        for (p,) in conn.execute("SELECT path FROM files WHERE skipped IS NULL ORDER BY path")
    ]
    conn.close()
    start = time.process_time()
    cards: list[tuple[hound.Place, str]] = []
    for path in paths:
        text = (repo / path).read_text(encoding="utf-8", errors="replace")
        cards.extend(hound.hound_cards(path, text))
    groups = hound.hound_bundles(cards, TARGET)
    cpu = time.process_time() - start
    return [(cards[i][0], k) for k, g in enumerate(groups) for i in g], cpu, len(cards)


def ours_places(doc: dict[str, Any]) -> list[tuple[hound.Place, int]]:
    return [
        (hound.Place(c["path"], c["start"], c["end"], c["chars"]), k)
        for k, b in enumerate(doc["bundles"])
        for c in b["cards"]
    ]


def quality(mirrors: Path, name: str, role: str, tmp: Path) -> dict[str, Any]:
    repo = tmp / name.replace("/", "+")
    head = unpack_mirror(mirrors, name, repo)
    lines = code_lines(repo)
    run_tool([*tool("reviewbot"), "index"], repo)
    out = tmp / f"{repo.name}.json"
    state = repo / ".git" / "reviewbot" / "bundles.json"
    state.unlink(missing_ok=True)
    ours_run = run_tool(
        [*tool("reviewbot"), "bundles", "--format", "json", "-o", str(out)], repo, None
    )
    doc = json.loads(out.read_text(encoding="utf-8"))
    index = repo / ".git" / "reviewbot" / "index.sqlite"
    theirs, hound_cpu, hound_cards = hound_places(repo, index)
    ours = ours_places(doc)
    scored = hound.score(
        {"reviewbot": ours, "hound": theirs},
        hound.reference_edges(index),
        hound.callables(index),
        TARGET,
    )
    print(f"{name}: {scored}", file=sys.stderr)
    return {
        "name": name,
        "role": role,
        "commit": head[:12],
        "lines": lines,
        "cards": {"reviewbot": len(ours), "hound": hound_cards},
        "method": doc["method"],
        "seconds": {"reviewbot_cpu": ours_run.cpu, "hound_cpu": hound_cpu},
        "scores": {k: v._asdict() for k, v in scored.items()},
    }


def speed(tmp: Path) -> dict[str, Any]:
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    repo = corpus_repo(archives, tmp / "big")
    lines = code_lines(repo)
    run_tool([*tool("reviewbot"), "index"], repo)
    state = repo / ".git" / "reviewbot" / "bundles.json"
    runs: list[Proc] = []
    out = tmp / "big.json"
    for _ in range(SPEED_RUNS):
        state.unlink(missing_ok=True)
        runs.append(
            run_tool([*tool("reviewbot"), "bundles", "--format", "json", "-o", str(out)], repo)
        )
    doc = json.loads(out.read_text(encoding="utf-8"))
    load = os.getloadavg()[0]
    # A commit that edits 10 files, then the bundles again (the index updates first).
    edited = [p for p in git(repo, "ls-files").splitlines() if p.endswith(".py")][::300][:10]
    for rel in edited:
        path = repo / rel
        path.write_text(path.read_text(encoding="utf-8") + "\n\ndef added_by_bench():\n    pass\n")
    git(repo, "commit", "-q", "-am", "ten files")
    run_tool([*tool("reviewbot"), "index"], repo)
    out2 = tmp / "big2.json"
    after = run_tool([*tool("reviewbot"), "bundles", "--format", "json", "-o", str(out2)], repo)
    doc2 = json.loads(out2.read_text(encoding="utf-8"))
    return {
        "archives": [a.name for a in archives],
        "lines": lines,
        "cards": sum(len(b["cards"]) for b in doc["bundles"]),
        "stats": doc["stats"],
        "method": doc["method"],
        "wall": statistics.median(r.wall for r in runs),
        "cpu": statistics.median(r.cpu for r in runs),
        "rss_mib": max(r.rss_mib for r in runs),
        "load": load,
        "incremental": {
            "update": doc2["update"],
            "recomputed": doc2["recomputed"],
            "count": doc2["stats"]["count"],
            "wall": after.wall,
            "cpu": after.cpu,
        },
    }


def report(
    args: argparse.Namespace, rows: list[dict[str, Any]], fast: dict[str, Any] | None
) -> list[str]:
    lines = [
        "# Repository bundles: reviewbot next to Hound's algorithm",
        "",
        f"reviewbot {revision()}; `{command_line('repo_bundles.py', args.argv)}`. 2 cores, "
        f"shared. Target {TARGET:,} characters.",
        "",
        "Cohesion: the share of resolved references (reviewbot's index; the same edges for "
        "both, those whose ends lie in different cards under both bundlings) whose two ends "
        "are in one bundle; *weighted*: each reference counted by its confidence. *Within*: "
        "bundles of 30-150% of the target. *Cut*: functions and methods whose lines lie in "
        "more than one bundle. Hound = its algorithm re-implemented in `bench/lib/hound.py` "
        "(blank-line cards of 1,000-2,000 characters, the described similarity, spectral "
        "clustering with k = total / target, splits over 150%).",
        "",
        "| repository | role | lines | references | bundles (rb / Hound) | cohesion rb | "
        "cohesion Hound | weighted rb | weighted Hound | within rb | within Hound | "
        "cut rb | cut Hound |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        a, h = r["scores"]["reviewbot"], r["scores"]["hound"]
        lines.append(
            f"| {r['name']} @{r['commit'][:7]} | {r['role']} | {r['lines']:,} | {a['edges']:,} | "
            f"{a['bundles']} / {h['bundles']} | **{a['cohesion']:.3f}** | {h['cohesion']:.3f} | "
            f"**{a['weighted']:.3f}** | {h['weighted']:.3f} | {a['within']:.0%} | "
            f"{h['within']:.0%} | {a['units_cut']} | {h['units_cut']} |"
        )
    report_rows = [r for r in rows if r["role"] == "reporting"]
    if report_rows:
        gain = statistics.median(
            r["scores"]["reviewbot"]["cohesion"] - r["scores"]["hound"]["cohesion"]
            for r in report_rows
        )
        gain_w = statistics.median(
            r["scores"]["reviewbot"]["weighted"] - r["scores"]["hound"]["weighted"]
            for r in report_rows
        )
        lines += [
            "",
            f"On the {len(report_rows)} reporting repositories, reviewbot's cohesion is "
            f"{gain:+.3f} over Hound's (median of the differences; weighted {gain_w:+.3f}).",
        ]
    lines += [
        "",
        "CPU seconds of the bundling alone (reviewbot: the whole `reviewbot bundles` process, "
        "interpreter start and reading the files included; Hound: in the bench's process):",
        "",
        "| repository | cards rb / Hound | reviewbot CPU | Hound CPU |",
        "| --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['cards']['reviewbot']:,} / {r['cards']['hound']:,} | "
            f"{r['seconds']['reviewbot_cpu']:.1f} s | {r['seconds']['hound_cpu']:.1f} s |"
        )
    if fast is not None:
        inc = fast["incremental"]
        st = fast["stats"]
        lines += [
            "",
            "## Speed and memory on over 600,000 lines",
            "",
            f"Corpus: {', '.join(fast['archives'])} in one git repository: {fast['lines']:,} "
            f"lines of code; {fast['cards']:,} cards; index built first (not timed). "
            f"Load average {fast['load']:.1f} after the runs (2 = both cores busy): wall times "
            "are inflated by the other work on the machine, CPU times much less.",
            "",
            "| measure | wall | CPU | peak memory |",
            "| --- | --- | --- | --- |",
            f"| `reviewbot bundles`, from a clean state (median of {SPEED_RUNS}) | "
            f"{fast['wall']:.1f} s | {fast['cpu']:.1f} s | {fast['rss_mib']:.0f} MiB |",
            f"| after a commit editing 10 files ({inc['update']}: {inc['recomputed']} of "
            f"{inc['count']} bundles recomputed) | {inc['wall']:.1f} s | {inc['cpu']:.1f} s | |",
            "",
            f"{st['count']} bundles of {st['mean_chars']:,} characters on average "
            f"({st['min_chars']:,}-{st['max_chars']:,}); {st['within_bounds']:.0%} within "
            f"30-150% of the target; method: {fast['method']}.",
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mirrors", default="/work/.mirror", help="bare git mirrors")
    parser.add_argument("--only", nargs="*", default=None, help="these repositories only")
    parser.add_argument("--no-speed", action="store_true", help="skip the 600,000-line run")
    parser.add_argument("--out", default="bench/results/repo_bundles.md")
    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    out_file = Path(args.out).resolve()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="reviewbot-bundles-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for name, role in QUALITY:
            if args.only and name not in args.only:
                continue
            try:
                rows.append(quality(Path(args.mirrors), name, role, tmp))
            except Unavailable as exc:
                print(f"skipped: {exc}", file=sys.stderr)
        fast = None if args.no_speed else speed(tmp)
    write_result(out_file, report(args, rows, fast))
    out_file.with_suffix(".json").write_text(
        json.dumps({"quality": rows, "speed": fast}, indent=1) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
