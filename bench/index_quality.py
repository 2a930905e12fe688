"""How often does the index link a reference to the definition jedi finds?

jedi (a Python static analyser with type inference; installed for this benchmark only) is the
yardstick: for references sampled evenly from Django's own package (``django/``), in the same
corpus as ``bench/index_speed.py``, jedi's ``goto`` (following imports) names a definition of
the repository or nothing; the index's edges for the same reference are compared with it (a
module is not a definition the index has: jedi's answers that are modules count as nothing).
Reported: how often jedi's definition is the index's most confident link, or among its links,
or missing; and, for the links the index is sure of (confidence 1), how often jedi agrees.
Results go to ``bench/results/index_quality.md``.

    .venv/bin/pip install jedi && .venv/bin/python bench/index_quality.py
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from index_speed import PACKAGES, fetch, unpack

from lib.common import ENV, command_line, git, revision, write_result
from lib.procs import tool

SAMPLE = 400
SEED = 12
TIME_LIMIT = 600.0  # seconds of jedi at most


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/index_quality.md")
    parser.add_argument("--sample", type=int, default=SAMPLE)
    args = parser.parse_args(argv)
    try:
        import jedi  # a bench-only tool, not a dependency
    except ImportError:
        raise SystemExit("this benchmark needs jedi: .venv/bin/pip install jedi") from None
    out_file = Path(args.out).resolve()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-quality-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        for archive in archives:
            unpack(archive, repo)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "corpus")
        database = Path(tmp) / "index.sqlite"
        env = {**ENV, "REVIEWBOT_INDEX": str(database)}
        subprocess.run(
            [*tool("reviewbot"), "index"], cwd=repo, env=env, check=True, capture_output=True
        )
        conn = sqlite3.connect(database)
        rows = conn.execute(
            "SELECT r.id, f.path, r.line, r.col, r.name, r.kind FROM refs r "
            "JOIN files f ON f.id = r.file_id WHERE f.path LIKE 'django/%' "
            "AND f.path LIKE '%.py' AND r.kind IN ('call', 'attribute', 'other', 'type') "
            "ORDER BY r.id"
        ).fetchall()
        rng = random.Random(SEED)
        sample = rng.sample(rows, min(args.sample, len(rows)))
        project = jedi.Project(str(repo), sys_path=[str(repo)], smart_sys_path=False)
        verdicts: Counter[str] = Counter()
        sure = Counter[str]()
        asked = 0
        started = time.perf_counter()
        for ref_id, path, line, col, name, _kind in sample:
            if time.perf_counter() - started > TIME_LIMIT:
                break
            source = (repo / path).read_text(encoding="utf-8", errors="replace")
            text = source.splitlines()[line - 1] if line <= len(source.splitlines()) else ""
            if not text.isascii() or text[col : col + len(name)] != name:
                continue
            asked += 1
            try:
                found = project_goto(jedi, project, source, repo / path, line, col)
            except Exception:  # jedi's own failures are not the index's
                verdicts["jedi failed"] += 1
                continue
            inside = {
                (Path(p).relative_to(repo).as_posix(), ln)
                for p, ln in found
                if p is not None and Path(p).is_relative_to(repo)
            }
            ours = conn.execute(
                "SELECT df.path, d.line, e.confidence FROM edges e "
                "JOIN defs d ON d.id = e.def_id JOIN files df ON df.id = d.file_id "
                "WHERE e.ref_id = ? ORDER BY e.confidence DESC, df.path, d.line",
                (ref_id,),
            ).fetchall()
            links = {(p, ln) for p, ln, _ in ours}
            if ours and ours[0][2] >= 1.0:
                if not inside:
                    sure["jedi found nothing in the repository"] += 1
                elif (ours[0][0], ours[0][1]) in inside:
                    sure["jedi agrees"] += 1
                else:
                    sure["jedi disagrees"] += 1
            if not inside:
                verdicts[
                    "jedi: nothing in the repository"
                    + ("" if not ours else " (the index links it)")
                ] += 1
            elif ours and (ours[0][0], ours[0][1]) in inside:
                verdicts["index's most confident link is jedi's"] += 1
            elif links & inside:
                verdicts["jedi's among the index's links, not first"] += 1
            elif ours:
                verdicts["index links elsewhere"] += 1
            else:
                verdicts["index has no link"] += 1
        conn.close()
    resolved = sum(v for k, v in verdicts.items() if not k.startswith(("jedi:", "jedi failed")))
    lines = [
        "# Index resolution quality against jedi",
        "",
        f"reviewbot {revision()}; `{command_line('index_quality.py', argv)}`; jedi "
        f"{jedi.__version__}. Corpus: {', '.join(a.name for a in archives)}. {asked} references "
        f"sampled (seed {SEED}) from `django/` (calls, attributes, other names; ASCII lines).",
        "",
        "| verdict | references | share of those jedi resolves in the repository |",
        "| --- | --- | --- |",
        *[
            f"| {k} | {v} | "
            + (
                f"{v / resolved:.0%}"
                if resolved and not k.startswith(("jedi:", "jedi failed"))
                else ""
            )
            + " |"
            for k, v in sorted(verdicts.items(), key=lambda kv: -kv[1])
        ],
        "",
        "Links the index is sure of (confidence 1):",
        "",
        "| verdict | references |",
        "| --- | --- |",
        *[f"| {k} | {v} |" for k, v in sorted(sure.items(), key=lambda kv: -kv[1])],
        "",
    ]
    print("\n".join(lines))
    write_result(out_file, lines)
    return 0


def project_goto(
    jedi: object, project: object, source: str, path: Path, line: int, col: int
) -> list[tuple[str | None, int | None]]:
    script = jedi.Script(source, path=str(path), project=project)  # type: ignore[attr-defined]
    names = script.goto(line, col, follow_imports=True)
    return [(str(n.module_path) if n.module_path is not None else None, n.line) for n in names]


if __name__ == "__main__":
    os.environ.update({k: v for k, v in ENV.items() if k.startswith("GIT_")})
    raise SystemExit(main())
