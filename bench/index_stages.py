"""Where the CPU of a cold index build's parse workers goes, stage by stage, in one process.

Every source file of the ``index_speed.py`` corpus (Django's sdist and Pygments' wheel) goes
through the stages a parse worker runs, each timed in CPU seconds: tree-sitter's parse, the
query's captures, the definitions read from them, the references (the capture loop and the
file's scopes), the rows for the tables, and pickling them for the parent (and the parent's
unpickling). ``--rev`` times another version the same way in the same run (its tree exported with
``git archive``, in a subprocess), so that the machine's load weighs on both alike.

    python bench/index_stages.py --rev 5663d6c
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from index_speed import PACKAGES, fetch, unpack

from reviewbot.engine.languages import default_registry
from reviewbot.index.extract import _Builder, _definitions
from reviewbot.index.grammars import compiled, grammar_for
from reviewbot.index.store import file_rows

from lib.common import ROOT, command_line, exported_tree, revision, write_result

STAGES = ("parse", "captures", "definitions", "references", "rows", "pickle", "unpickle")
ROUNDS = 3  # the fastest round of each version is kept (the least disturbed by the others)


def measure(corpus: Path) -> dict[str, float]:
    """CPU seconds per stage over every file with a grammar (the reviewbot imported is the one
    first on ``sys.path``: the subprocess of each version puts its tree there)."""
    registry = default_registry()
    totals = dict.fromkeys(STAGES, 0.0)
    totals["files"] = totals["lines"] = 0.0
    clock = time.process_time
    for path in sorted(corpus.rglob("*")):
        if not path.is_file() or "vendor" in path.parts:
            continue
        grammar = grammar_for(registry.detect(str(path)).name, str(path))
        if grammar is None:
            continue
        comp = compiled(grammar.name)
        text = path.read_text(encoding="utf-8", errors="replace")
        t0 = clock()
        source = text.encode("utf-8", "surrogatepass")
        tree = comp.parser.parse(source)
        t1 = clock()
        caps = comp.query.captures(tree.root_node)
        t2 = clock()
        raw = _definitions(caps, source)
        t3 = clock()
        facts = _Builder(comp.grammar, source, raw, caps, text.count("\n") + 1).build()
        t4 = clock()
        rows = file_rows(1, str(path), "", facts)
        t5 = clock()
        data = pickle.dumps(rows, pickle.HIGHEST_PROTOCOL)
        t6 = clock()
        pickle.loads(data)
        t7 = clock()
        for stage, seconds in zip(
            STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6), strict=True
        ):
            totals[stage] += seconds
        totals["files"] += 1
        totals["lines"] += text.count("\n")
    return totals


def best_of(rounds: list[dict[str, float]]) -> dict[str, float]:
    return min(rounds, key=lambda r: sum(r[s] for s in STAGES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="also time this version, alternating")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--out", default="bench/results/index_stages.md")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # a subprocess: this corpus
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    out_file = Path(args.out).resolve()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-stages-") as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        for archive in archives:
            unpack(archive, corpus)
        trees: dict[str, Path] = {"this": ROOT}
        if args.rev:
            trees = {args.rev: exported_tree(args.rev, Path(tmp) / "old"), "this": ROOT}
        load_before = os.getloadavg()[0]
        results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        script = Path(__file__).resolve()
        for _ in range(args.rounds):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": f"{tree}:{script.parent}"}
                done = subprocess.run(
                    [sys.executable, str(script), "--measure", str(corpus)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                results[name].append(json.loads(done.stdout))
        load_after = os.getloadavg()[0]
    best = {name: best_of(rounds) for name, rounds in results.items()}
    this = best["this"]
    names = list(trees)
    lines = [
        "# Index: the parse workers' CPU, stage by stage",
        "",
        f"reviewbot {revision()}; `{command_line('index_stages.py', argv)}`. "
        f"{int(this['files']):,} files, {int(this['lines']):,} lines of "
        f"{', '.join(a.name for a in archives)}, in one process (what the two parse workers of "
        f"a cold build share). CPU seconds, the fastest of {args.rounds} rounds per version "
        f"(alternating). Load average {load_before:.1f} before, {load_after:.1f} after "
        "(2 = both cores busy): the load inflates CPU seconds too, both versions alike.",
        "",
        "| stage | " + " | ".join(names) + " |",
        "| --- | " + " | ".join("---" for _ in names) + " |",
    ]
    for stage in (*STAGES, "total"):
        cells = []
        for name in names:
            value = sum(best[name][s] for s in STAGES) if stage == "total" else best[name][stage]
            cells.append(f"{value:.2f} s")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    print("\n".join(lines))
    write_result(out_file, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
