"""How close are the index's references to a compiler-grade resolver's?

For definitions sampled from real repositories (seeded; stratified by kind: functions, methods,
classes, and TypeScript interfaces; sampled from library code, not test suites), the index's
``refs`` (every reference it links to the definition) is compared with the references a real
resolver finds, as sets of (path, line) pairs:

* Python: Pygments' wheel (PyPI), pallets/click and encode/starlette (git snapshots brought by
  the ``fetch`` tool); ground truth ``jedi.Script.get_references`` (project scope, with jedi's
  search limits lifted: by default it stops after 30 files that contain the name, which
  silently drops references; 30 s at most per definition, those over count as failed);
* TypeScript: ``packages/zod/src`` of colinhacks/zod (a git snapshot) and its package.json;
  ground truth the TypeScript language service's ``findReferences`` (``typescript@5`` from
  npm, run by ``bench/lib/ts_references.cjs`` under Node, resolving modules as zod's tsconfig
  does, so that the tests' ``import * as z from "zod/v4"`` reaches the sources).

Both sides are restricted to the language's code files of the repository; the definition's own
name is dropped, and so are the resolver's answers that are declarations of the same name
(an override, an interface's member, an overload: definitions, not references); import
statements count on both sides (the index stores the name an import binds as a reference of
kind ``import``; jedi and TypeScript report it too). Micro precision
and recall of (path, line) pairs for the index's links (all, and confidence 1 only), next to
the name-only baseline: every occurrence of that name the index stores as code in the
language's files (identifiers outside strings and comments; locals and parameters are not
stored, which only helps the baseline). Dunder methods (``__init__`` ...) are not sampled:
their uses are implicit (constructors, operators).

The sample is split in two halves (alternating within each kind): rules were tuned by
looking at misses of the ``tune`` half only; the headline numbers are the ``report`` half's.
Ground truth is cached under ``bench/.corpus/index-quality`` (it does not depend on
reviewbot). Results go to ``bench/results/index_quality.md``.

    .venv/bin/pip install jedi && .venv/bin/python bench/index_quality.py
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from index_speed import fetch, unpack

from reviewbot.index import query

from lib.common import CORPUS, ENV, command_line, git, revision, write_result
from lib.corpora import Unavailable, run
from lib.procs import tool

SEED = 12
JEDI_SECONDS = 30  # a definition jedi needs longer for is left out (counted as failed)
PER_KIND = 100
KINDS = {
    "python": ("function", "method", "class"),
    "typescript": ("function", "method", "class", "interface"),
}
HERE = CORPUS / "index-quality"
TS_REPO = "colinhacks/zod"
TS_COMMIT = "e516c3baf"  # the snapshot measured
MIRRORS = Path("/work/.mirror")  # git snapshots brought by the `fetch` tool
# Python: Pygments' wheel from PyPI, and click and starlette at these commits. (Django, the
# index speed corpus, is too big for jedi's complete search in the time here: jedi's default
# search stops after 30 parsed files, which would make its answers incomplete; it is lifted.)
PY_WHEEL = ("pygments", "wheel")
PY_SNAPSHOTS = (
    ("pallets/click", "2c8cd3ac", ("src", "tests", "examples")),
    ("encode/starlette", "cb8f84f5", ("starlette", "tests")),
)
TS_FOLDER = "packages/zod/src"
TS_PACKAGE = "packages/zod/package.json"  # its name and exports: how tests import "zod/v4"
NODE_SCRIPT = Path(__file__).resolve().parent / "lib" / "ts_references.cjs"
# Where definitions are sampled (their references are counted everywhere): library code, not
# the test suites, whose test methods nobody calls.
SAMPLED_FROM = {"python": ("pygments/", "src/click/", "starlette/"), "typescript": ("packages/",)}
SUFFIXES = {"python": (".py", ".pyi"), "typescript": (".ts", ".tsx")}
LANGUAGES = {"python": ("python",), "typescript": ("typescript", "tsx")}

Pair = tuple[str, int]
HAND = "<!-- written by hand below: kept when the benchmark rewrites this file -->"


class Sampled(NamedTuple):
    def_id: int
    kind: str
    name: str
    path: str
    line: int
    col: int
    half: str


# -- corpora ---------------------------------------------------------------------------------


def python_repo() -> Path:
    repo = HERE / "python" / "repo"
    if not (repo / ".git").exists():
        archive = fetch(*PY_WHEEL)
        shutil.rmtree(repo, ignore_errors=True)
        repo.mkdir(parents=True)
        unpack(archive, repo)
        for name, commit_id, folders in PY_SNAPSHOTS:
            snapshot(name, commit_id, folders, repo)
        commit(repo)
    return repo


def snapshot(name: str, commit_id: str, folders: tuple[str, ...], into: Path) -> None:
    """Folders of a repository at a commit (a `fetch` snapshot under /work/.mirror)."""
    mirror = MIRRORS / (name.replace("/", "+")) / "repo"
    if not mirror.exists():
        raise Unavailable(f"no snapshot of {name} at {mirror}")
    archive = subprocess.run(
        ["git", f"--git-dir={mirror}", "archive", commit_id, *folders],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def typescript_repo() -> Path:
    repo = HERE / "typescript" / "repo"
    if not (repo / ".git").exists():
        shutil.rmtree(repo, ignore_errors=True)
        repo.mkdir(parents=True)
        snapshot(TS_REPO, TS_COMMIT, (TS_FOLDER, TS_PACKAGE), repo)
        commit(repo)
    return repo


def commit(repo: Path) -> None:
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")


def build_index(repo: Path) -> Path:
    database = repo.parent / "index.sqlite"
    for leftover in repo.parent.glob("index.sqlite*"):
        leftover.unlink()
    env = {**ENV, "REVIEWBOT_INDEX": str(database)}
    subprocess.run(
        [*tool("reviewbot"), "index"], cwd=repo, env=env, check=True, capture_output=True
    )
    return database


# -- the sample ------------------------------------------------------------------------------


def name_column(repo: Path, path: str, line: int, name: str, lines: dict[str, list[str]]) -> int:
    """Where the definition's name is written (the first whole word on its first lines that is
    not in a decorator), or -1."""
    text = lines.get(path)
    if text is None:
        text = lines[path] = (repo / path).read_text(encoding="utf-8", errors="replace").split("\n")
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for row in range(line - 1, min(line + 8, len(text))):
        if text[row].lstrip().startswith("@"):
            continue
        found = word.search(text[row])
        if found is not None:
            return found.start() if text[row].isascii() else -1
    return -1


def sample(conn: sqlite3.Connection, repo: Path, language: str, per_kind: int) -> list[Sampled]:
    marks = ",".join("?" * len(LANGUAGES[language]))
    rows = conn.execute(
        "SELECT d.id, d.kind, d.name, f.path, d.line FROM defs d JOIN files f ON f.id = d.file_id "
        f"WHERE f.language IN ({marks}) AND f.skipped IS NULL ORDER BY f.path, d.line",
        LANGUAGES[language],
    ).fetchall()
    by_kind: dict[str, list[tuple[int, str, str, str, int]]] = defaultdict(list)
    for row in rows:
        if not row[3].startswith(SAMPLED_FROM[language]):
            continue
        if row[1] in KINDS[language] and not (row[2].startswith("__") and row[2].endswith("__")):
            by_kind[row[1]].append(row)
    rng = random.Random(SEED)
    lines: dict[str, list[str]] = {}
    out: list[Sampled] = []
    for kind in KINDS[language]:
        pool = by_kind[kind][:]
        rng.shuffle(pool)
        taken = 0
        for def_id, _kind, name, path, line in pool:
            if taken >= per_kind:
                break
            col = name_column(repo, path, line, name, lines)
            if col < 0:
                continue
            out.append(
                Sampled(def_id, kind, name, path, line, col, "tune" if taken % 2 == 0 else "report")
            )
            taken += 1
    return out


# -- ground truth ------------------------------------------------------------------------------


_JEDI: dict[str, object] = {}  # a worker's project


def _too_long(signum: int, frame: object) -> None:
    raise TimeoutError("jedi took too long")


def _jedi_one(job: tuple[str, str, int, int]) -> tuple[list[Pair] | None, float]:
    """jedi's references to the name at (path, line, col) in a worker, and its CPU seconds."""
    import jedi  # Lazy: a bench-only tool, not a dependency

    root, path, line, col = job
    repo = Path(root)
    project = _JEDI.get(root)
    if project is None:
        # jedi stops searching after 30 files that contain the name (2000 opened): a ground
        # truth must search them all.
        references = importlib.import_module("jedi.inference.references")
        references._PARSED_FILE_LIMIT = 10**9  # type: ignore[attr-defined]
        references._OPENED_FILE_LIMIT = 10**9  # type: ignore[attr-defined]
        paths = [root, str(Path(root) / "src")]
        project = _JEDI[root] = jedi.Project(root, sys_path=paths, smart_sys_path=False)
    started = time.process_time()
    source = (repo / path).read_text(encoding="utf-8", errors="replace")
    signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(JEDI_SECONDS)
    try:
        script = jedi.Script(source, path=str(repo / path), project=project)
        names = script.get_references(line, col, scope="project")
    except Exception:  # jedi's own failures (and its time-outs) are not the index's
        return None, time.process_time() - started
    finally:
        signal.alarm(0)
    pairs: list[Pair] = []
    for n in names:
        if n.module_path is None or n.line is None:
            continue
        p = Path(n.module_path)
        if not p.is_relative_to(repo) or p.suffix not in SUFFIXES["python"]:
            continue
        rel = p.relative_to(repo).as_posix()
        if (rel, n.line, n.column) != (path, line, col):
            pairs.append((rel, n.line))
    return pairs, time.process_time() - started


def jedi_truth(
    repo: Path, picked: list[Sampled], done: dict[str, list[Pair] | None], save: Callable[[], None]
) -> str:
    """jedi's answers for the definitions not in ``done`` (two processes; saved as they come)."""
    try:
        import jedi  # Lazy: a bench-only tool, not a dependency
    except ImportError:
        raise SystemExit("this benchmark needs jedi: .venv/bin/pip install jedi") from None
    jobs = [(str(repo), s.path, name_line(repo, s), s.col) for s in picked]
    todo = [j for j in jobs if place(j[1], j[2], j[3]) not in done]
    with ProcessPoolExecutor(max_workers=2) as pool:
        for k, (job, (answer, _cpu)) in enumerate(
            zip(todo, pool.map(_jedi_one, todo), strict=True)
        ):
            done[place(job[1], job[2], job[3])] = answer
            if k % 10 == 9:
                save()
                print(f"jedi: {k + 1} of {len(todo)}", file=sys.stderr, flush=True)
    return f"jedi {jedi.__version__}"


def place(path: str, line: int, col: int) -> str:
    return f"{path}:{line}:{col}"


def name_line(repo: Path, s: Sampled) -> int:
    """The line of the definition's name (a decorated definition starts above it)."""
    text = (repo / s.path).read_text(encoding="utf-8", errors="replace").split("\n")
    word = re.compile(rf"(?<![\w$]){re.escape(s.name)}(?![\w$])")
    for row in range(s.line - 1, min(s.line + 8, len(text))):
        if not text[row].lstrip().startswith("@") and word.search(text[row]):
            return row + 1
    return s.line


def ts_truth(repo: Path, picked: list[Sampled]) -> tuple[list[list[Pair] | None], str]:
    node = HERE / "node"
    if not (node / "node_modules" / "typescript").exists():
        node.mkdir(parents=True, exist_ok=True)
        run(["npm", "install", "--no-audit", "--no-fund", "--silent", "typescript@5"], cwd=node)
    version = json.loads((node / "node_modules" / "typescript" / "package.json").read_text())[
        "version"
    ]
    files = sorted(
        p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if p.suffix in SUFFIXES["typescript"] and ".git" not in p.parts
    )
    request = {
        "root": str(repo),
        "files": files,
        "conditions": ["@zod/source"],
        "queries": [[s.path, name_line(repo, s), s.col] for s in picked],
    }
    proc = subprocess.run(
        ["node", str(NODE_SCRIPT), str(node)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"node {NODE_SCRIPT.name} failed: {proc.stderr[-2000:]}")
    answers = json.loads(proc.stdout)
    out: list[list[Pair] | None] = []
    for a in answers:
        out.append(None if a is None else [(p, ln) for p, ln, own, _declares in a if not own])
    return out, f"typescript {version}"


def truth(
    language: str, repo: Path, picked: list[Sampled]
) -> tuple[list[list[Pair] | None], str, float]:
    """Ground truth per sampled definition (cached by place), the tool, its seconds."""
    cache_file = HERE / language / "truth.json"
    cache: dict[str, object] = {"answers": {}, "tool": "", "seconds": 0.0}
    if cache_file.exists():
        cache = json.loads(cache_file.read_text())
    stored: dict[str, list[list[object]] | None] = cache["answers"]  # type: ignore[assignment]
    done: dict[str, list[Pair] | None] = {
        k: None if a is None else [(str(p), int(str(ln))) for p, ln in a] for k, a in stored.items()
    }
    places = [place(s.path, name_line(repo, s), s.col) for s in picked]
    seconds = float(str(cache["seconds"]))
    tool_name = str(cache["tool"])
    started = time.perf_counter()

    def save() -> None:
        spent = seconds + time.perf_counter() - started
        cache_file.write_text(json.dumps({"answers": done, "tool": tool_name, "seconds": spent}))

    if any(p not in done for p in places):
        if language == "python":
            tool_name = jedi_truth(repo, picked, done, save)
        else:
            answers, tool_name = ts_truth(repo, picked)
            done.update(zip(places, answers, strict=True))
        save()
        seconds += time.perf_counter() - started
    return [done[p] for p in places], tool_name, seconds


# -- scoring -----------------------------------------------------------------------------------


class Score:
    def __init__(self) -> None:
        self.hit = 0
        self.found = 0
        self.truth = 0

    def add(self, ours: set[Pair], right: set[Pair]) -> None:
        self.hit += len(ours & right)
        self.found += len(ours)
        self.truth += len(right)

    def cell(self) -> str:
        p = self.hit / self.found if self.found else 1.0
        r = self.hit / self.truth if self.truth else 1.0
        return f"{p:.2f} / {r:.2f}"


def index_pairs(
    conn: sqlite3.Connection, s: Sampled, suffixes: tuple[str, ...]
) -> tuple[set[Pair], set[Pair]]:
    symbol = query.Symbol(s.def_id, s.name, s.name, s.kind, s.path, s.line, s.line, "")
    hits, _ = query.references(conn, symbol, limit=100_000)
    every = {(h.path, h.line) for h in hits if h.path.endswith(suffixes)}
    sure = {(h.path, h.line) for h in hits if h.path.endswith(suffixes) and h.confidence >= 1.0}
    return every, sure


def baseline_pairs(conn: sqlite3.Connection, s: Sampled, language: str, own: Pair) -> set[Pair]:
    marks = ",".join("?" * len(LANGUAGES[language]))
    rows = conn.execute(
        "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id "
        f"WHERE r.name = ? AND f.language IN ({marks})",
        (s.name, *LANGUAGES[language]),
    ).fetchall()
    return {(p, ln) for p, ln in rows} - {own}


def declarations(conn: sqlite3.Connection, language: str) -> set[tuple[Pair, str]]:
    """(path, line) and name of every definition: a resolver's answer that is a declaration of
    the same name (an override, an interface's member, an overload) is not a reference."""
    marks = ",".join("?" * len(LANGUAGES[language]))
    return {
        ((p, ln), name)
        for p, ln, name in conn.execute(
            "SELECT f.path, d.line, d.name FROM defs d JOIN files f ON f.id = d.file_id "
            f"WHERE f.language IN ({marks})",
            LANGUAGES[language],
        )
    }


def measure(
    language: str, per_kind: int, show: int, pairs: list[dict[str, object]] | None = None
) -> list[str]:
    repo = python_repo() if language == "python" else typescript_repo()
    started = time.perf_counter()
    database = build_index(repo)
    build_seconds = time.perf_counter() - started
    conn = sqlite3.connect(database)
    picked = sample(conn, repo, language, per_kind)
    answers, tool_name, truth_seconds = truth(language, repo, picked)
    suffixes = SUFFIXES[language]
    kinds = KINDS[language]
    declared = declarations(conn, language)
    scores: dict[tuple[str, str, str], Score] = defaultdict(Score)
    misses: list[str] = []
    failed = 0
    for s, right_list in zip(picked, answers, strict=True):
        if right_list is None:
            failed += 1
            continue
        right = {p for p in right_list if (p, s.name) not in declared}
        own = (s.path, name_line(repo, s))
        every, sure = index_pairs(conn, s, suffixes)
        base = baseline_pairs(conn, s, language, own)
        for kind in ("all kinds", s.kind):
            for half in ("all", s.half):
                scores[("index", kind, half)].add(every, right)
                scores[("index, confidence 1", kind, half)].add(sure, right)
                scores[("name-only baseline", kind, half)].add(base, right)
        if pairs is not None:  # --pairs: each definition's pairs, to compare two runs
            pairs.append(
                {
                    "half": s.half,
                    "kind": s.kind,
                    "name": s.name,
                    "at": f"{s.path}:{s.line}",
                    "index": sorted(every),
                    "truth": sorted(right),
                }
            )
        if s.half == "tune" and (every - right or right - every) and len(misses) < show:
            misses.append(
                f"{s.kind} {s.name} {s.path}:{s.line}: extra {sorted(every - right)[:4]} "
                f"missed {sorted(right - every)[:4]}"
            )
    conn.close()
    counted = len(picked) - failed
    counts = {
        k: sum(1 for s, a in zip(picked, answers, strict=True) if s.kind == k and a is not None)
        for k in kinds
    }
    lines = [
        f"## {'Python' if language == 'python' else 'TypeScript'}",
        "",
        f"Corpus: {corpus_name(language)} ({repo_size(conn_path=database)}). Ground truth: "
        f"{tool_name} ({truth_seconds:.0f} s; failed on {failed} of {len(picked)}). "
        f"{counted} definitions ({', '.join(f'{counts[k]} {plural(k)}' for k in kinds)}; "
        f"seed {SEED}); index built in {build_seconds:.0f} s.",
        "",
        "Micro precision / recall of (path, line) pairs, the report half (the tune half and "
        "both in the last columns):",
        "",
        "| references from | " + " | ".join(kinds) + " | all kinds | tune half | both halves |",
        "| --- | " + " | ".join("---" for _ in kinds) + " | --- | --- | --- |",
    ]
    for who in ("index", "index, confidence 1", "name-only baseline"):
        cells = [scores[(who, k, "report")].cell() for k in kinds]
        cells += [scores[(who, "all kinds", h)].cell() for h in ("report", "tune", "all")]
        lines.append(f"| {who} | " + " | ".join(cells) + " |")
    totals = scores[("index", "all kinds", "all")]
    lines += [
        "",
        f"Pairs: ground truth {totals.truth}, index {totals.found}, both {totals.hit}; "
        f"baseline {scores[('name-only baseline', 'all kinds', 'all')].found}.",
        "",
    ]
    if misses:
        print("\n".join(misses))
    return lines


def plural(kind: str) -> str:
    return kind + ("es" if kind.endswith("s") else "s")


def corpus_name(language: str) -> str:
    if language == "python":
        shots = ", ".join(f"{n} at {c} (`{'`, `'.join(f)}`)" for n, c, f in PY_SNAPSHOTS)
        return f"{fetch(*PY_WHEEL).name}, {shots}"
    return f"{TS_REPO} at {TS_COMMIT}, `{TS_FOLDER}`"


def repo_size(conn_path: Path) -> str:
    conn = sqlite3.connect(conn_path)
    files, lines = conn.execute(
        "SELECT COUNT(*), SUM(lines) FROM files WHERE skipped IS NULL"
    ).fetchone()
    conn.close()
    return f"{files} files, {lines} lines indexed"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/index_quality.md")
    parser.add_argument("--per-kind", type=int, default=PER_KIND)
    parser.add_argument("--language", choices=("python", "typescript", "both"), default="both")
    parser.add_argument("--show", type=int, default=0, help="print this many tune-half misses")
    parser.add_argument("--pairs", default="", help="write each definition's pairs (JSON) here")
    args = parser.parse_args(argv)
    pairs: list[dict[str, object]] | None = [] if args.pairs else None
    out_file = Path(args.out).resolve()
    languages = ("python", "typescript") if args.language == "both" else (args.language,)
    lines = [
        "# Index resolution quality against compiler-grade resolvers",
        "",
        f"reviewbot {revision()}; `{command_line('index_quality.py', argv)}`; load average "
        f"{os.getloadavg()[0]:.1f} at the start.",
        "",
    ]
    for language in languages:
        lines += measure(language, args.per_kind, args.show, pairs)
    if pairs is not None:
        Path(args.pairs).write_text(json.dumps(pairs, indent=0), encoding="utf-8")
    print("\n".join(lines))
    # What is written by hand below the marker (the discussion, the Go and Java spot checks)
    # stays.
    if out_file.exists():
        old = out_file.read_text(encoding="utf-8").split("\n")
        if HAND in old:
            lines += old[old.index(HAND) :]
    write_result(out_file, lines)
    return 0


if __name__ == "__main__":
    os.environ.update({k: v for k, v in ENV.items() if k.startswith("GIT_")})
    raise SystemExit(main())
