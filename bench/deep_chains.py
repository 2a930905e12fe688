"""The index's extraction of one statement chaining calls N deep (`x = a.m().m()...`), per
language: tree-sitter's query captures are linear in the chain only when no pattern waits for
a child that comes after the chain's receiver (such a pattern stays pending down the whole
chain: quadratic).

    .venv/bin/python bench/deep_chains.py [--links 1000,2000,4000,8000] [--before REV]
        [--out bench/results/deep_chains.md]

Each size is extracted in this process (``index.extract.extract``, the parse and the captures
included), best of 3; with ``--before REV`` the same in a subprocess running that revision's
``reviewbot/`` package (``git archive``), side by side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.common import command_line, revision

ROOT = Path(__file__).resolve().parents[1]
SHAPES = {
    "python": ("py", "x = a{links}\n", ".m()"),
    "typescript": ("ts", "const x = a{links};\n", ".m()"),
    "go": ("go", "package p\n\nfunc f() {\n\tx := a{links}\n\t_ = x\n}\n", ".M()"),
}
_MEASURE = """
import sys, time
from reviewbot.index import extract, grammars
language, path, links = sys.argv[1], sys.argv[2], int(sys.argv[3])
suffix, shape, link = {shapes}[language]
text = shape.replace("{{links}}", link * links)
compiled = grammars.compiled(grammars.grammar_for(language, path).name)
times = []
for _ in range(3):
    t0 = time.perf_counter()
    extract.extract(compiled, text)
    times.append(time.perf_counter() - t0)
print(min(times))
"""


def measure(python_path: str | None, language: str, links: int) -> float:
    suffix = SHAPES[language][0]
    code = _MEASURE.format(shapes=repr(SHAPES))
    env_path = [python_path] if python_path else []
    out = subprocess.run(
        [sys.executable, "-c", code, language, f"x.{suffix}", str(links)],
        check=True,
        capture_output=True,
        text=True,
        cwd=python_path or str(ROOT),
        env={**os.environ, "PYTHONPATH": ":".join([*env_path, str(ROOT)])},
    )
    return float(out.stdout.strip())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--links", default="1000,2000,4000,8000")
    parser.add_argument("--before", default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/deep_chains.md")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.links.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        old = None
        if args.before:
            archive = subprocess.run(
                ["git", "archive", args.before, "reviewbot"],
                cwd=ROOT,
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            old = tmp
        rows = []
        for language in SHAPES:
            for n in sizes:
                now = measure(None, language, n)
                before = measure(old, language, n) if old else None
                rows.append((language, n, now, before))
                print(language, n, now, before, flush=True)
    head = "| language | links | seconds | " + (
        f"seconds at {args.before} |" if args.before else ""
    )
    lines = [
        "# Deep call chains in the index's extraction",
        "",
        f"reviewbot {revision()}; `{command_line('deep_chains.py', argv)}`. One statement "
        "chaining N calls, extracted (parse + captures + records), best of 3 in one process.",
        "",
        head,
        "| --- | ---: | ---: |" + (" ---: |" if args.before else ""),
    ]
    for language, n, now, before in rows:
        cell = f" {before:.3f} |" if before is not None else ""
        lines.append(f"| {language} | {n:,} | {now:.3f} |{cell}")
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
