"""Impact quality: the index's references of a deleted or re-signed function against jedi's.

    .venv/bin/pip install jedi && .venv/bin/python bench/impact_quality.py [--sample 40]

For functions and methods sampled from real Python code nobody here wrote (click's git history
at its newest commit; Django and Pygments, the corpus of ``bench/index_speed.py``), a change is
made in a temporary copy: the function deleted (its lines blanked, so that line numbers stay)
or re-signed (a required parameter added in front). The change is reviewed by the real
pipeline (``pipeline.review``, a full review) twice: with the repository's index (the impact
entries resolved by it) and without one (today's fallback: a whole-word ``git grep``, cut off
after 0.3 s). Ground truth: jedi's ``get_references`` of the function on the old side, kept
when they are in the repository's ``.py`` files, not definitions, not inside the function
itself (a recursive call is no reference to it) and, for a deletion, outside the deleted
lines. Import statements are left out on both sides (jedi counts an imported name as a
definition of the importing module). References are compared as (path, line).

Reported: precision and recall, micro-averaged over the changes (all references pooled) and
the mean per change; next to the grep impact on the same changes. Nothing was tuned on these
corpora: ``CONFIDENT`` (0.5) was set before this benchmark ran.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from index_speed import PACKAGES, fetch, unpack

from reviewbot.analysis.repo_impact import CONFIDENT
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.repo.git import Git

from lib.common import ENV, command_line, git, revision, write_result

SAMPLE = 40
SEED = 7
CLICK = Path("/work/.mirror/pallets+click/repo")
JEDI_SECONDS = 300.0  # per corpus, at most (changes past it are not sampled)


class Case(NamedTuple):
    path: str
    name: str
    qualified: str
    kind: str
    line: int
    end_line: int
    change: str  # removed | signature


class Score(NamedTuple):
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def score(found: set[tuple[str, int]], truth: set[tuple[str, int]]) -> Score:
    return Score(len(found & truth), len(found - truth), len(truth - found))


def _corpus_click(into: Path) -> str:
    out = subprocess.run(
        ["git", f"--git-dir={CLICK}", "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=out, check=True)
    head = subprocess.run(
        ["git", f"--git-dir={CLICK}", "rev-parse", "--short=12", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"pallets/click at {head}"


def _corpus_django(into: Path) -> str:
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    for archive in archives:
        unpack(archive, into)
    return " + ".join(a.name for a in archives)


def _cases(repo: Path, database: Path, prefix: str, count: int, rng: random.Random) -> list[Case]:
    import sqlite3

    conn = sqlite3.connect(database)
    rows = conn.execute(
        "SELECT f.path, d.name, d.qualified, d.kind, d.line, d.end_line FROM defs d "
        "JOIN files f ON f.id = d.file_id WHERE f.path LIKE ? AND f.path LIKE '%.py' "
        "AND d.kind IN ('function', 'method') AND d.name NOT LIKE '\\_\\_%' ESCAPE '\\' "
        "AND f.path NOT LIKE '%/tests/%' ORDER BY f.path, d.line",
        (prefix + "%",),
    ).fetchall()
    conn.close()
    picked = rng.sample(rows, min(count, len(rows)))
    return [
        Case(p, n, q, k, ln, end, "removed" if i % 2 else "signature")
        for i, (p, n, q, k, ln, end) in enumerate(picked)
    ]


def _edit(text: str, case: Case) -> str | None:
    lines = text.split("\n")
    if case.change == "removed":
        for k in range(case.line - 1, case.end_line):
            lines[k] = ""
        return "\n".join(lines)
    header = lines[case.line - 1]
    found = re.search(rf"def\s+{re.escape(case.name)}\s*\(\s*", header)
    if found is None:
        return None
    rest = header[found.end() :]
    receiver = re.match(r"(self|cls)\s*(,\s*|(?=\)))", rest) if case.kind == "method" else None
    if receiver:
        at = found.end() + receiver.end()
        glue = "" if receiver.group(2) else ", "
        lines[case.line - 1] = header[:at] + glue + "added_param, " + header[at:].lstrip()
        lines[case.line - 1] = lines[case.line - 1].replace("added_param, )", "added_param)")
    else:
        after = header[found.end() :]
        sep = ")" if after.startswith(")") else ", "
        lines[case.line - 1] = (
            header[: found.end()] + "added_param" + ("" if sep == ")" else ", ") + after
        )
    return "\n".join(lines)


def _truth(jedi: Any, project: Any, repo: Path, case: Case, text: str) -> set[tuple[str, int]]:
    header = text.split("\n")[case.line - 1]
    column = re.search(rf"def\s+({re.escape(case.name)})\b", header)
    if column is None:
        return set()
    script = jedi.Script(text, path=str(repo / case.path), project=project)
    names = script.get_references(case.line, column.start(1), include_builtins=False)
    out: set[tuple[str, int]] = set()
    for n in names:
        if n.module_path is None or n.line is None or n.is_definition():
            continue
        path = Path(n.module_path)
        if not path.is_relative_to(repo) or path.suffix != ".py":
            continue
        rel = path.relative_to(repo).as_posix()
        if rel == case.path and case.line <= n.line <= case.end_line:
            continue
        source_line = _line(repo / rel, n.line)
        if re.match(r"\s*(from|import)\s", source_line):
            continue
        out.add((rel, n.line))
    return out


_TEXTS: dict[Path, list[str]] = {}


def _line(path: Path, line: int) -> str:
    if path not in _TEXTS:
        _TEXTS[path] = path.read_text(encoding="utf-8", errors="replace").split("\n")
    lines = _TEXTS[path]
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _impact_refs(repo: Path, case: Case, database: Path) -> tuple[set[tuple[str, int]], float]:
    """The impact's references of the case's function, by the real pipeline; the seconds."""
    env = {**os.environ, "REVIEWBOT_INDEX": str(database)}
    started = time.perf_counter()
    report = pipeline.review(pipeline.GitChange(repo, environ=env), Config())
    seconds = time.perf_counter() - started
    out: set[tuple[str, int]] = set()
    for item in report.impact:
        if item.name != case.name or item.path != case.path:
            continue
        for r in item.references:
            if r.kind == "import" or re.match(r"\s*(from|import)\s", _line(repo / r.path, r.line)):
                continue
            out.add((r.path, r.line))
    return out, seconds


class Result(NamedTuple):
    case: Case
    truth: int
    ours: Score
    grep: Score
    index_seconds: float
    grep_seconds: float


def _run_corpus(
    jedi: Any, label: str, fill: Any, prefix: str, sample: int, seed: int
) -> tuple[str, list[Result]]:
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="reviewbot-impact-quality-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        what = fill(repo)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "corpus")
        database = Path(tmp) / "index.sqlite"
        missing = Path(tmp) / "no-index.sqlite"
        config = Config()
        settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry)
        update_index(Git(repo), database, settings)
        project = jedi.Project(str(repo), sys_path=[str(repo)], smart_sys_path=False)
        cases = _cases(repo, database, prefix, sample, random.Random(seed))
        started = time.perf_counter()
        for case in cases:
            if time.perf_counter() - started > JEDI_SECONDS:
                break
            target = repo / case.path
            text = target.read_text(encoding="utf-8")
            edited = _edit(text, case)
            if edited is None or edited == text:
                continue
            try:
                truth = _truth(jedi, project, repo, case, text)
            except Exception:
                continue
            target.write_text(edited, encoding="utf-8")
            try:
                found, index_seconds = _impact_refs(repo, case, database)
                grepped, grep_seconds = _impact_refs(repo, case, missing)
            finally:
                target.write_text(text, encoding="utf-8")
            results.append(
                Result(
                    case,
                    len(truth),
                    score(found, truth),
                    score(grepped, truth),
                    index_seconds,
                    grep_seconds,
                )
            )
            print(
                f"{label}: {case.change:9} {case.qualified:40} truth {len(truth):3} "
                f"index {results[-1].ours} grep {results[-1].grep}",
                file=sys.stderr,
            )
    return what, results


def _pooled(scores: list[Score]) -> Score:
    return Score(sum(s.tp for s in scores), sum(s.fp for s in scores), sum(s.fn for s in scores))


def _rows(label: str, results: list[Result]) -> Iterator[str]:
    for change in ("signature", "removed", "all"):
        chosen = [r for r in results if change in ("all", r.case.change)]
        if not chosen:
            continue
        for how in ("index", "grep"):
            scores = [r.ours if how == "index" else r.grep for r in chosen]
            pooled = _pooled(scores)
            mean_p = statistics.mean(s.precision for s in scores)
            mean_r = statistics.mean(s.recall for s in scores)
            seconds = statistics.median(
                r.index_seconds if how == "index" else r.grep_seconds for r in chosen
            )
            yield (
                f"| {label} | {change} | {len(chosen)} | {sum(r.truth for r in chosen)} | "
                f"{how} | {pooled.precision:.3f} | {pooled.recall:.3f} | {mean_p:.3f} | "
                f"{mean_r:.3f} | {pooled.tp}/{pooled.fp}/{pooled.fn} | {seconds:.2f} |"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/impact_quality.md")
    parser.add_argument("--sample", type=int, default=SAMPLE)
    parser.add_argument("--only", choices=("click", "django"), default=None)
    args = parser.parse_args(argv)
    try:
        import jedi  # a bench-only tool, not a dependency
    except ImportError:
        raise SystemExit("this benchmark needs jedi: .venv/bin/pip install jedi") from None
    out_file = Path(args.out).resolve()
    corpora = [
        ("click", _corpus_click, "src/click/"),
        ("django+pygments", _corpus_django, "django/"),
    ]
    if args.only:
        corpora = [c for c in corpora if c[0].startswith(args.only)]
    table: list[str] = []
    described: list[str] = []
    worst: list[str] = []
    load = os.getloadavg()[0]
    for label, fill, prefix in corpora:
        what, results = _run_corpus(jedi, label, fill, prefix, args.sample, SEED)
        described.append(f"{label}: {what}, {len(results)} changes")
        table.extend(_rows(label, results))
        misses = sorted(results, key=lambda r: -(r.ours.fp + r.ours.fn))[:5]
        worst.extend(
            f"| {label} | {r.case.change} | `{r.case.qualified}` ({r.case.path}) | "
            f"{r.truth} | {r.ours.fp} | {r.ours.fn} |"
            for r in misses
            if r.ours.fp + r.ours.fn
        )
    shutil.rmtree(Path(tempfile.gettempdir()) / "jedi-none", ignore_errors=True)
    lines = [
        "# Impact quality: the index's references against jedi's",
        "",
        f"reviewbot {revision()}; `{command_line('impact_quality.py', argv)}`; jedi "
        f"{jedi.__version__}; seed {SEED}; load average {load:.1f} on 2 cores at the start.",
        "",
        *(f"* {d}" for d in described),
        "",
        f"References kept by the index impact: confidence >= {CONFIDENT} (set before this "
        "benchmark, not tuned on it). Precision and recall pooled over all references of the "
        "changes, and the mean per change (a change with no true reference and none found "
        "scores 1). tp/fp/fn pooled. Seconds: median wall time of one full review (load "
        "inflates it; the grep is cut off after 0.3 s, which on the larger corpus truncates it).",
        "",
        "| corpus | change | changes | true refs | impact | precision | recall | mean P | "
        "mean R | tp/fp/fn | review s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *table,
        "",
        "Changes where the index impact missed or added the most:",
        "",
        "| corpus | change | function | true refs | index fp | index fn |",
        "| --- | --- | --- | --- | --- | --- |",
        *worst,
        "",
    ]
    print("\n".join(lines))
    write_result(out_file, lines)
    return 0


if __name__ == "__main__":
    os.environ.update({k: v for k, v in ENV.items() if k.startswith("GIT_")})
    raise SystemExit(main())
