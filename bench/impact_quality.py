"""Impact quality: the index's references of a deleted or re-signed function against jedi's.

    .venv/bin/pip install jedi && .venv/bin/python bench/impact_quality.py [--sample 40]

For functions and methods sampled from real code nobody here wrote (click's git history at its
newest commit; Django and Pygments, the corpus of ``bench/index_speed.py``; immer's TypeScript;
held out and pre-registered on 2026-12-01, before anyone looked at them: rich's repository and
mobx's ``packages/mobx``, each at its newest fetched commit; held out and pre-registered in
session 9 on 2026-12-01: marshmallow's repository and class-validator's, each at its newest
fetched commit; held out and pre-registered in session 10 on 2026-12-01: yup's repository and
typer's, each at its newest fetched commit; held out and pre-registered in session 21 on
2026-12-02: healthchecks' repository (a Django application, sampled from ``hc/``) at its newest
fetched commit, jedi's project seeing Django's sdist beside it), a change is
made in a temporary copy: the function deleted (its lines blanked, so that line numbers stay)
or re-signed (a required parameter added in front). The change is reviewed by the real
pipeline (``pipeline.review``, a full review) twice: with the repository's index (the impact
entries resolved by it) and without one (today's fallback: a whole-word ``git grep``, cut off
after 0.3 s). Ground truth: jedi's ``get_references`` of the function on the old side, kept
when they are in the repository's ``.py`` files, not definitions, not inside the function
itself (a recursive call is no reference to it) and, for a deletion, outside the deleted
lines. Import and re-export statements (all their lines) are left out on both sides (jedi
counts an imported name as a definition of the importing module). References are compared as
(path, line). jedi sees the repository's root and, for click's src layout, ``src/``; for
healthchecks also Django's sources (the sdist of ``bench/index_speed.py``, unpacked outside the
repository, on jedi's ``sys_path`` only, so that its Django plugin works; the index sees the
repository alone).

Reported: precision and recall, micro-averaged over the changes (all references pooled) and
the mean per change; next to the grep impact on the same changes. Nothing was tuned on these
corpora: ``CONFIDENT`` (0.5) was set before this benchmark ran.

Adjudication (a second ground truth, reported next to the first): jedi's ``get_references``
misses references its own ``goto`` resolves. After the sampled changes, on the old side, every
line that either impact (the index's or the grep's, alike) reported and the references lack
is asked again: at each whole-word occurrence of the name on it (not one that defines a name,
such as an override's ``def``, and not inside the changed definition), jedi's ``goto``
(imports followed) and then its ``infer``; TypeScript: the service's
``getDefinitionAtPosition``. Landing on the changed definition (its file and line) makes the
line a reference. Both truths are reported, each precision and recall for both impacts.

A third truth for TypeScript (added in session 13, after reading yup's misses): the service's
``findReferences`` has rename semantics, one method for a whole class hierarchy, so the
references of ``BooleanSchema.default`` include ``number().default()`` and ``StringSchema``'s
own override, which no change of ``BooleanSchema.default`` can reach. ``+ adjudication -
unrelated`` is the adjudicated truth without the lines whose every reference goes through a
class or interface that is neither the changed member's class nor one of its ancestors or
descendants by declaration (the receiver's type, the class declaring an override, the class
around a ``super.m``; ``bench/lib/ts_references.cjs``'s ``dispatch``). A receiver typed
``any``, by an object literal or by a function is never unrelated.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from index_speed import PACKAGES, fetch, unpack

from reviewbot.analysis import impact as grep_impact
from reviewbot.analysis import repo_impact
from reviewbot.analysis.repo_impact import CONFIDENT
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.repo.git import Git

from lib.common import CORPUS, ENV, ROOT, command_line, git, revision, write_result

SAMPLE = 40
SEED = 7
CLICK = Path("/work/.mirror/pallets+click/repo")
IMMER = Path("/work/.mirror/immerjs+immer/repo")
# Held out, pre-registered 2026-12-01 (chosen before anyone looked at them): no rule was made
# from them.
RICH = Path("/work/.mirror/Textualize+rich/repo")
MOBX = Path("/work/.mirror/mobxjs+mobx/repo")
# Held out, pre-registered in session 9 (2026-12-01), chosen by the lead before anyone looked at
# them: no rule was made from them.
MARSHMALLOW = Path("/work/.mirror/marshmallow-code+marshmallow/repo")
CLASS_VALIDATOR = Path("/work/.mirror/typestack+class-validator/repo")
# Held out, pre-registered in session 10 (2026-12-01), chosen by the lead before anyone looked
# at them: no rule was made from them.
YUP = Path("/work/.mirror/jquense+yup/repo")
TYPER = Path("/work/.mirror/fastapi+typer/repo")
# Held out, pre-registered in session 21 (2026-12-02), chosen by the lead before anyone looked
# at it: no rule was made from it.
HEALTHCHECKS = Path("/work/.mirror/healthchecks+healthchecks/repo")
# Folders a corpus adds to jedi's sys_path (outside the repository; set by the corpus's fill).
_JEDI_PATHS: list[str] = []
_TS_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs")  # the language service's program
# Import and re-export statements: left out on both sides.
_IMPORT = re.compile(r"\s*(from\s|import[\s{(*]|export\s*(\*|\{|type\s*\{)[^;]*\bfrom\b)")
EXAMPLES = 3  # confirmed references listed per change
JEDI_SECONDS = 300.0  # per corpus, at most (changes past it are not sampled)
SHOW_MISSES = False  # --misses: each change's missed and extra references, with their code


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


def _archive(mirror: Path, into: Path, tree: str = "HEAD") -> str:
    """Extract ``tree`` (a commit, or ``HEAD:folder`` for one folder as the root) of a fetched
    repository into ``into``; the commit's short hash."""
    out = subprocess.run(
        ["git", f"--git-dir={mirror}", "archive", tree], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=out, check=True)
    return subprocess.run(
        ["git", f"--git-dir={mirror}", "rev-parse", "--short=12", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def _corpus_click(into: Path) -> str:
    return f"pallets/click at {_archive(CLICK, into)}"


def _corpus_immer(into: Path) -> str:
    return f"immerjs/immer at {_archive(IMMER, into)} (TypeScript)"


def _corpus_rich(into: Path) -> str:
    """Held out: the whole repository, as click's (the package under rich/, tests/, examples/)."""
    return f"Textualize/rich at {_archive(RICH, into)}"


def _corpus_mobx(into: Path) -> str:
    """Held out: the mobx package of the monorepo (its src/ and __tests__/, whose tests import
    the sources by relative paths, `../../src/mobx`) as the repository's root, as immer's
    src/ and tests are: the service's Node10 resolution builds its program as it is."""
    head = _archive(MOBX, into, "HEAD:packages/mobx")
    return f"mobxjs/mobx at {head}, packages/mobx (TypeScript)"


def _corpus_marshmallow(into: Path) -> str:
    """Held out: the whole repository, as click's and rich's (the package under
    src/marshmallow/, tests/, docs/, examples/)."""
    return f"marshmallow-code/marshmallow at {_archive(MARSHMALLOW, into)}"


def _corpus_class_validator(into: Path) -> str:
    """Held out: the whole repository (sources under src/, tests under test/, whose tests
    import the sources by relative paths, `../../src/...`): the service's Node10 resolution
    builds its program as it is, as immer's and mobx's."""
    return f"typestack/class-validator at {_archive(CLASS_VALIDATOR, into)} (TypeScript)"


def _corpus_yup(into: Path) -> str:
    """Held out: the whole repository (sources under src/, tests under test/, which import
    the sources by relative paths, `../src/object`): the service's Node10 resolution builds
    its program as it is, as immer's, mobx's and class-validator's."""
    return f"jquense/yup at {_archive(YUP, into)} (TypeScript)"


def _corpus_typer(into: Path) -> str:
    """Held out: the whole repository, as click's, rich's and marshmallow's (the package
    under typer/, tests/, docs_src/, docs/, scripts/)."""
    return f"fastapi/typer at {_archive(TYPER, into)}"


def _corpus_healthchecks(into: Path) -> str:
    """Held out, pre-registered 2026-12-02 (session 21): the whole repository (a Django
    application, sampled from hc/); Django's sdist (``index_speed.fetch("django", "sdist")``)
    unpacked beside it, outside the repository, on jedi's sys_path only."""
    archive = fetch("django", "sdist")
    django = into.parent / "django-sdist"
    django.mkdir()
    unpack(archive, django)
    _JEDI_PATHS.append(str(django))
    return (
        f"healthchecks/healthchecks at {_archive(HEALTHCHECKS, into)} "
        f"(jedi also sees {archive.name}, not indexed)"
    )


def _typescript() -> Path:
    """The folder whose node_modules hold the TypeScript compiler (its language service is
    the yardstick, asked by bench/lib/ts_references.cjs), installed with npm under
    bench/.corpus once."""
    where = CORPUS / "tsservice"
    module = where / "node_modules" / "typescript"
    if not module.is_dir():
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--prefix", str(where), "typescript@5"], check=True
        )
    return where


def _ts_truth(
    repo: Path, cases: list[Case]
) -> list[tuple[set[tuple[str, int]], set[tuple[str, int]]] | None]:
    """The TypeScript language service's references of each case's declaration, and those of
    them whose every reference on the line goes through a class unrelated to the case's."""
    files = _ts_files(repo)
    queries = []
    for case in cases:
        header = _line(repo / case.path, case.line)
        found = re.search(rf"(?<![\w$]){re.escape(case.name)}(?![\w$])", header)
        queries.append([case.path, case.line, found.start() if found else 0])
    payload = {
        "root": str(repo),
        "files": files,
        "queries": queries,
        "resolution": "node10",
        "strict": False,
        "dispatch": True,
    }
    answers = _ts_service(payload)
    out: list[tuple[set[tuple[str, int]], set[tuple[str, int]]] | None] = []
    for case, query, refs in zip(cases, queries, answers, strict=True):
        if not query[2]:
            out.append(None)
            continue
        keep: set[tuple[str, int]] = set()
        related: set[tuple[str, int]] = set()
        for file, line, _own, declares, unrelated in refs or ():
            if declares or Path(file).suffix not in _TS_SUFFIXES or file.startswith(".."):
                continue
            if file == case.path and case.line <= line <= case.end_line:
                continue
            if _in_import(repo / file, line):
                continue
            keep.add((file, line))
            if not unrelated:
                related.add((file, line))
        out.append((keep, keep - related))
    return out


def _ts_files(repo: Path) -> list[str]:
    return [
        p.relative_to(repo).as_posix()
        for p in sorted(repo.rglob("*"))
        if p.suffix in _TS_SUFFIXES and not {"node_modules", "dist"} & set(p.parts)
    ]


def _ts_service(payload: dict[str, Any]) -> Any:
    """bench/lib/ts_references.cjs's answer to one request (the program built once)."""
    proc = subprocess.run(
        ["node", str(Path(__file__).parent / "lib" / "ts_references.cjs"), str(_typescript())],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout)


def _corpus_django(into: Path) -> str:
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    for archive in archives:
        unpack(archive, into)
    return " + ".join(a.name for a in archives)


def _cases(database: Path, prefix: str, suffix: str, count: int, rng: random.Random) -> list[Case]:
    conn = sqlite3.connect(database)
    rows = conn.execute(
        "SELECT f.path, d.name, d.qualified, d.kind, d.line, d.end_line FROM defs d "
        "JOIN files f ON f.id = d.file_id WHERE f.path LIKE ? AND f.path LIKE ? "
        "AND d.kind IN ('function', 'method') AND d.name NOT LIKE '\\_\\_%' ESCAPE '\\' "
        "AND f.path NOT LIKE '%/tests/%' ORDER BY f.path, d.line",
        (prefix + "%", "%" + suffix),
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
    if case.path.endswith(".ts"):
        named = re.search(rf"(?<![\w$]){re.escape(case.name)}(?![\w$])[^(]*\(\s*", header)
        if named is None:
            return None
        rest = header[named.end() :]
        glue = "" if rest.startswith(")") else ", "
        lines[case.line - 1] = header[: named.end()] + "addedParam: number" + glue + rest
        return "\n".join(lines)
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
        if _in_import(repo / rel, n.line):
            continue
        out.add((rel, n.line))
    return out


_TEXTS: dict[Path, list[str]] = {}
_SPANS: dict[Path, set[int]] = {}


def _in_import(path: Path, line: int) -> bool:
    """Whether the line belongs to an import (or re-export) statement, one line or several."""
    if path not in _SPANS:
        _line(path, 1)
        inside: set[int] = set()
        open_until = False
        for number, text in enumerate(_TEXTS[path], 1):
            if open_until:
                inside.add(number)
                if re.search(r"\bfrom\b|[;)]\s*$", text):
                    open_until = False
                continue
            if _IMPORT.match(text) or re.match(r"\s*export\s*(\*|\{|type\s*\{)", text):
                inside.add(number)
                unfinished = text.rstrip().endswith(("{", "(", ","))
                open_until = unfinished and not re.search(r"\bfrom\s+['\"]", text)
        _SPANS[path] = inside
    return line in _SPANS[path]


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
            if r.kind == "import" or _in_import(repo / r.path, r.line):
                continue
            out.add((r.path, r.line))
    return out, seconds


Ref = tuple[str, int]


REFERENCES = "references"
ADJUDICATED = "+ adjudication"
RELATED = "+ adjudication - unrelated"  # TypeScript only


class Result(NamedTuple):
    case: Case
    truth: set[Ref]  # the resolver's references (jedi's get_references, the service's)
    found: set[Ref]  # the index impact's
    grepped: set[Ref]  # the grep impact's
    index_seconds: float
    grep_seconds: float
    # Reported by either impact, not in `truth`, and the resolver's own goto / infer (or
    # getDefinitionAtPosition) at that occurrence of the name lands on the changed definition.
    confirmed: frozenset[Ref] = frozenset()
    # TypeScript: the lines of `truth` whose every reference goes through a class unrelated to
    # the changed member's (a sibling's override or instance).
    unrelated: frozenset[Ref] = frozenset()

    def expected(self, truth: str = REFERENCES) -> set[Ref]:
        if truth == REFERENCES:
            return self.truth
        if truth == ADJUDICATED:
            return self.truth | self.confirmed
        return (self.truth | self.confirmed) - self.unrelated

    def ours(self, truth: str = REFERENCES) -> Score:
        return score(self.found, self.expected(truth))

    def grep(self, truth: str = REFERENCES) -> Score:
        return score(self.grepped, self.expected(truth))


def _occurrences(text: str, name: str) -> list[int]:
    """0-based columns of the whole-word occurrences of ``name`` in one line."""
    return [m.start() for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text)]


def _fresh_lines(repo: Path, rel: str, cache: dict[str, list[str]]) -> list[str]:
    if rel not in cache:
        cache[rel] = (repo / rel).read_text(encoding="utf-8", errors="replace").split("\n")
    return cache[rel]


def _unconfirmed(repo: Path, results: list[Result]) -> Iterator[tuple[int, Ref, int]]:
    """(result index, reported reference, column) for every occurrence of the case's name on
    every line either impact reported and the resolver's references do not hold (outside the
    changed definition's own lines)."""
    texts: dict[str, list[str]] = {}
    for k, r in enumerate(results):
        for ref in sorted((r.found | r.grepped) - r.truth):
            if ref[0] == r.case.path and r.case.line <= ref[1] <= r.case.end_line:
                continue  # the definition itself, as the resolver's references leave it out
            lines = _fresh_lines(repo, ref[0], texts)
            if 0 < ref[1] <= len(lines):
                for column in _occurrences(lines[ref[1] - 1], r.case.name):
                    yield k, ref, column


def _adjudicate_python(jedi: Any, project: Any, repo: Path, results: list[Result]) -> list[Result]:
    """Each unconfirmed occurrence: jedi's goto (imports followed), then its infer, there."""
    codes: dict[str, str] = {}
    landed: dict[tuple[str, str, int, int], set[Ref]] = {}
    defined: dict[str, set[tuple[int, int]]] = {}

    def script(rel: str) -> Any:
        """A new Script for each question: one reused for many gives up on later ones (its
        inference state's limits), which made answers depend on the order asked."""
        if rel not in codes:
            codes[rel] = (repo / rel).read_text(encoding="utf-8")
        return jedi.Script(codes[rel], path=str(repo / rel), project=project)

    def definition(rel: str, line: int, column: int) -> bool:
        """Whether the occurrence defines a name (an override's `def m`, a parameter), which
        no reference list holds."""
        if rel not in defined:
            try:
                names = script(rel).get_names(all_scopes=True, definitions=True, references=False)
            except Exception:
                names = []
            defined[rel] = {(n.line, n.column) for n in names}
        return (line, column) in defined[rel]

    def lands(how: str, rel: str, line: int, column: int) -> set[Ref]:
        key = (how, rel, line, column)
        if key not in landed:
            out: set[Ref] = set()
            try:
                names = (
                    script(rel).goto(line, column, follow_imports=True)
                    if how == "goto"
                    else script(rel).infer(line, column)
                )
            except Exception:  # jedi's own failures confirm nothing
                names = []
            for n in names:
                if n.module_path is not None and n.line is not None:
                    where = Path(n.module_path)
                    if where.is_relative_to(repo):
                        out.add((where.relative_to(repo).as_posix(), n.line))
            landed[key] = out
        return landed[key]

    confirmed: dict[int, set[Ref]] = {}
    for k, ref, column in _unconfirmed(repo, results):
        target = (results[k].case.path, results[k].case.line)
        if definition(ref[0], ref[1], column):
            continue
        if any(target in lands(how, ref[0], ref[1], column) for how in ("goto", "infer")):
            confirmed.setdefault(k, set()).add(ref)
    return [r._replace(confirmed=frozenset(confirmed.get(k, ()))) for k, r in enumerate(results)]


def _adjudicate_ts(repo: Path, results: list[Result]) -> list[Result]:
    """Each unconfirmed occurrence: the service's getDefinitionAtPosition there."""
    asked = list(_unconfirmed(repo, results))
    if not asked:
        return results
    landed = _ts_service(
        {
            "root": str(repo),
            "files": _ts_files(repo),
            "queries": [],
            "definitions": [[ref[0], ref[1], column] for _k, ref, column in asked],
            "resolution": "node10",
            "strict": False,
        }
    )
    confirmed: dict[int, set[Ref]] = {}
    for (k, ref, _column), places in zip(asked, landed, strict=True):
        target = [results[k].case.path, results[k].case.line]
        if target in places:
            confirmed.setdefault(k, set()).add(ref)
    return [r._replace(confirmed=frozenset(confirmed.get(k, ()))) for k, r in enumerate(results)]


def _run_corpus(
    jedi: Any,
    label: str,
    fill: Any,
    prefix: str,
    suffix: str,
    sample: int,
    seconds: float,
) -> tuple[str, list[Result], float, list[str]]:
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
        roots = [str(repo / "src"), str(repo)] if (repo / "src").is_dir() else [str(repo)]
        roots += _JEDI_PATHS
        _JEDI_PATHS.clear()
        project = jedi.Project(str(repo), sys_path=roots, smart_sys_path=False)
        cases = _cases(database, prefix, suffix, sample, random.Random(SEED))
        # TypeScript: the language service answers every case at once, on the old side.
        ts_truth = _ts_truth(repo, cases) if suffix == ".ts" else None
        started = time.perf_counter()
        for k, case in enumerate(cases):
            if time.perf_counter() - started > seconds:
                break
            target = repo / case.path
            text = target.read_text(encoding="utf-8")
            edited = _edit(text, case)
            if edited is None or edited == text:
                continue
            unrelated: frozenset[Ref] = frozenset()
            if ts_truth is not None:
                known = ts_truth[k]
                if known is None:
                    continue
                truth, apart = known
                unrelated = frozenset(apart)
            else:
                try:
                    truth = _truth(jedi, project, repo, case, text)
                except Exception:  # jedi's own failures are not the index's
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
                    truth,
                    found,
                    grepped,
                    index_seconds,
                    grep_seconds,
                    unrelated=unrelated,
                )
            )
            print(
                f"{label}: {case.change:9} {case.qualified:40} truth {len(truth):3} "
                f"index {results[-1].ours()} grep {results[-1].grep()}",
                file=sys.stderr,
            )
            if SHOW_MISSES:
                _print_misses(repo, results[-1])
        # After the sampled changes (outside their time budget), on the old side: every file
        # is back as it was.
        started = time.perf_counter()
        if suffix == ".ts":
            results = _adjudicate_ts(repo, results)
        else:
            results = _adjudicate_python(jedi, project, repo, results)
        adjudication_seconds = time.perf_counter() - started
        examples = _confirmed_rows(label, repo, results)
        print("\n".join(examples), file=sys.stderr)
    return what, results, adjudication_seconds, examples


def _print_misses(repo: Path, result: Result) -> None:
    """The index impact's missed (-) and extra (+, x) references of one change, with their code
    (stderr; the old side: the change is undone by then)."""
    texts: dict[str, list[str]] = {}
    # ~: missed, but reached only through a class unrelated to the changed member's; x: found,
    # and reached only so
    for sign, refs in (
        ("-", result.truth - result.found - result.unrelated),
        ("~", (result.truth & result.unrelated) - result.found),
        ("+", result.found - result.truth),
        ("x", result.found & result.unrelated),
    ):
        for path, line in sorted(refs):
            lines = _fresh_lines(repo, path, texts)
            code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            print(f"    {sign} {path}:{line}: {code[:100]}", file=sys.stderr)


def _pooled(scores: list[Score]) -> Score:
    return Score(sum(s.tp for s in scores), sum(s.fp for s in scores), sum(s.fn for s in scores))


def _rows(label: str, results: list[Result]) -> Iterator[str]:
    for change in ("signature", "removed", "all"):
        chosen = [r for r in results if change in ("all", r.case.change)]
        if not chosen:
            continue
        typescript = any(r.case.path.endswith(_TS_SUFFIXES) for r in chosen)
        for truth in (REFERENCES, ADJUDICATED, *((RELATED,) if typescript else ())):
            true_refs = sum(len(r.expected(truth)) for r in chosen)
            for how in ("index", "grep"):
                scores = [r.ours(truth) if how == "index" else r.grep(truth) for r in chosen]
                pooled = _pooled(scores)
                mean_p = statistics.mean(s.precision for s in scores)
                mean_r = statistics.mean(s.recall for s in scores)
                seconds = statistics.median(
                    r.index_seconds if how == "index" else r.grep_seconds for r in chosen
                )
                yield (
                    f"| {label} | {change} | {len(chosen)} | {truth} | {true_refs} | "
                    f"{how} | {pooled.precision:.3f} | {pooled.recall:.3f} | {mean_p:.3f} | "
                    f"{mean_r:.3f} | {pooled.tp}/{pooled.fp}/{pooled.fn} | {seconds:.2f} |"
                )


def _confirmed_rows(label: str, repo: Path, results: list[Result]) -> list[str]:
    """One table row per reference the adjudication confirmed: the line's code, who found it."""
    texts: dict[str, list[str]] = {}
    rows = []
    for r in results:
        if len(r.confirmed) > EXAMPLES:
            rows.append(
                f"| {label} | `{r.case.qualified}` | {len(r.confirmed)} lines, the first "
                f"{EXAMPLES} below | | {len(r.confirmed & r.found)} | "
                f"{len(r.confirmed & r.grepped)} |"
            )
        for path, line in sorted(r.confirmed)[:EXAMPLES]:
            code = _fresh_lines(repo, path, texts)[line - 1].strip().replace("|", "\\|")
            code = code if len(code) <= 70 else code[:67] + "..."
            rows.append(
                f"| {label} | `{r.case.qualified}` | {path}:{line} | `{code}` | "
                f"{'yes' if (path, line) in r.found else 'no'} | "
                f"{'yes' if (path, line) in r.grepped else 'no'} |"
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    # A report lists 20 references per declaration; both impacts list them all here.
    repo_impact.MAX_SHOWN = grep_impact.MAX_REFERENCES = 10**6
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/impact_quality.md")
    parser.add_argument("--sample", type=int, default=SAMPLE)
    parser.add_argument(
        "--only",
        choices=(
            "click",
            "immer",
            "django",
            "rich",
            "mobx",
            "marshmallow",
            "class-validator",
            "yup",
            "typer",
            "healthchecks",
        ),
        default=None,
    )
    parser.add_argument(
        "--seconds", type=float, default=JEDI_SECONDS, help="per corpus, at most (then stop)"
    )
    parser.add_argument(
        "--misses", action="store_true", help="list each change's missed and extra references"
    )
    args = parser.parse_args(argv)
    global SHOW_MISSES
    SHOW_MISSES = args.misses
    try:
        import jedi  # a bench-only tool, not a dependency
    except ImportError:
        raise SystemExit("this benchmark needs jedi: .venv/bin/pip install jedi") from None
    out_file = Path(args.out).resolve()
    corpora = [
        ("click", _corpus_click, "src/click/", ".py"),
        ("immer", _corpus_immer, "src/", ".ts"),
        ("django+pygments", _corpus_django, "django/", ".py"),
        ("rich", _corpus_rich, "rich/", ".py"),
        ("mobx", _corpus_mobx, "src/", ".ts"),
        ("marshmallow", _corpus_marshmallow, "src/marshmallow/", ".py"),
        ("class-validator", _corpus_class_validator, "src/", ".ts"),
        ("yup", _corpus_yup, "src/", ".ts"),
        ("typer", _corpus_typer, "typer/", ".py"),
        ("healthchecks", _corpus_healthchecks, "hc/", ".py"),
    ]
    if args.only:
        corpora = [c for c in corpora if c[0].startswith(args.only)]
    table: list[str] = []
    described: list[str] = []
    worst: list[str] = []
    confirmed: list[str] = []
    load = os.getloadavg()[0]
    for label, fill, prefix, suffix in corpora:
        what, results, spent, examples = _run_corpus(
            jedi, label, fill, prefix, suffix, args.sample, args.seconds
        )
        asked = "getDefinitionAtPosition" if suffix == ".ts" else "jedi's goto and infer"
        described.append(
            f"{label}: {what}, {len(results)} changes; adjudication ({asked}) confirmed "
            f"{sum(len(r.confirmed) for r in results)} reported references the resolver's "
            f"references lack, in {spent:.0f} s"
        )
        table.extend(_rows(label, results))
        last = RELATED if suffix == ".ts" else ADJUDICATED
        misses = sorted(results, key=lambda r: -(r.ours(last).fp + r.ours(last).fn))[:5]
        worst.extend(
            f"| {label} | {r.case.change} | `{r.case.qualified}` ({r.case.path}) | "
            f"{len(r.truth)} | {len(r.confirmed)} | {len(r.unrelated)} | {r.ours().fp} | "
            f"{r.ours(last).fp} | {r.ours().fn} | {r.ours(last).fn} |"
            for r in misses
            if r.ours().fp + r.ours().fn + r.ours(last).fp + r.ours(last).fn
        )
        confirmed.extend(examples)
    lines = [
        f"## {', '.join(label for label, *_ in corpora)}",
        "",
        f"{_measured()}; `{command_line('impact_quality.py', argv)}`; jedi "
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
        "Two ground truths: `references`, the resolver's own references (jedi's "
        "`get_references`, the service's `findReferences`); `+ adjudication`, those and every "
        "line either impact (index or grep, the same for both) reported where the resolver's "
        "goto (imports followed) or infer (TypeScript: `getDefinitionAtPosition`) at an "
        "occurrence of the name lands on the changed definition (its file and line). "
        "TypeScript also `+ adjudication - unrelated`: without the lines reached only through "
        "a class unrelated by declaration to the changed member's (a sibling's instance or "
        "override: the service's rename semantics, which no change of this member reaches).",
        "",
        "| corpus | change | changes | truth | true refs | impact | precision | recall | mean P | "
        "mean R | tp/fp/fn | review s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *table,
        "",
        "Changes where the index impact missed or added the most (fp and fn against the "
        "references, then with the adjudication, for TypeScript also without the unrelated "
        "lines):",
        "",
        "| corpus | change | function | true refs | confirmed | unrelated | index fp | adj. fp | "
        "index fn | adj. fn |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *worst,
        "",
        "References the adjudication confirmed (reported, not among the resolver's references, "
        "and the resolver's goto / infer there lands on the changed definition):",
        "",
        "| corpus | function | reference | code | index found it | grep found it |",
        "| --- | --- | --- | --- | --- | --- |",
        *confirmed,
        "",
    ]
    print("\n".join(lines))
    write_result(out_file, _spliced(out_file, "+".join(c[0] for c in corpora), lines))
    return 0


def _measured() -> str:
    """Which reviewbot the run measured: this checkout's (its commit), or another commit's
    ``reviewbot/`` that bench/impact_quality_at.sh exported and put first on the import path
    (it names the commit in ``IMPACT_QUALITY_REVIEWBOT_AT``)."""
    imported = Path(pipeline.__file__).resolve().parents[1]
    if imported == ROOT / "reviewbot":
        return f"reviewbot {revision()}"
    named = os.environ.get("IMPACT_QUALITY_REVIEWBOT_AT", f"the tree at {imported.parent}")
    return f"reviewbot/ of {named} (exported; the benchmark script at {revision()})"


TITLE = "# Impact quality: the index's references against jedi's and the TypeScript service's"
END = "<!-- end of bench/impact_quality.py's section -->"


def _begin(key: str) -> str:
    return (
        f"<!-- bench/impact_quality.py's section ({key}): replaced when the benchmark reruns "
        "these corpora; the rest of this file is written by hand and kept -->"
    )


def _spliced(out_file: Path, key: str, section: list[str]) -> list[str]:
    """The results file with this run's section in place of the last run's of the same corpora
    (or after everything else); what is written by hand outside the sections stays."""
    block = [_begin(key), *section, END]
    if not out_file.exists():
        return [TITLE, "", *block]
    old = out_file.read_text(encoding="utf-8").rstrip("\n").split("\n")
    if _begin(key) in old:
        start = old.index(_begin(key))
        end = old.index(END, start)
        return [*old[:start], *block, *old[end + 1 :]]
    return [*old, "", *block]


if __name__ == "__main__":
    os.environ.update({k: v for k, v in ENV.items() if k.startswith("GIT_")})
    raise SystemExit(main())
