"""Do the engine's important positions land on real declarations?

Ground truth comes from real parsers (``bench/lib/groundtruth.py``: Python's ast, tree-sitter for
Go, Java and TypeScript). For each sampled file and each engine profile (``review``, ``wavescope``):

1. top-K hit rate: K = min(10, declarations in the file); a position from
   ``important_positions(0.3, 10)`` is a hit when its line is within 1 of a declaration's start
   (its header row, a decorator or annotation row, or an ``export``/``const`` wrapper row).
   Positions that fall on blank or comment-only lines are counted too.
2. enclosing-unit accuracy: for lines strictly inside a function or method body (at most 200 per
   file, evenly spaced), ``unit_at(line)`` must start within 1 of the innermost declaration.

Corpora (``bench/lib/corpora.py``: fetched or extracted under ``bench/.corpus/`` when missing; a
language whose source is not available is skipped with a message):

* python: the running interpreter's standard library, top-level ``*.py``;
* go: Debian's golang-src, ``/usr/share/go-1.19/src`` (no ``*_test.go``, no ``testdata``);
* java: the JDK's ``src.zip``, ``java.base/java/util/**``;
* typescript: ``src/**/*.ts`` (no ``.d.ts``, no tests) of pinned npm packages, via ``npm pack``.

Every corpus keeps files of 50..5000 lines and takes an evenly spaced sample of the sorted list.

Usage::

    .venv/bin/python bench/declarations.py [--per-language N] [--out bench/results/declarations.md]
                                           [--json results.json] [--languages python,go]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewbot.engine import open_index

from lib import groundtruth
from lib.common import RESULTS, command_line, revision, write_json, write_result
from lib.corpora import (
    GO_SRC,
    JDK_SRC_ZIP,
    JDK_UTIL,
    STDLIB,
    Unavailable,
    balanced,
    dpkg_version,
    evenly,
    extracted_jdk,
    go_sources,
    npm_sources,
    sized,
    stdlib_modules,
)
from lib.procs import parallel

PROFILES = ("review", "wavescope")
LANGUAGES = ("python", "go", "java", "typescript")
MIN_LINES, MAX_LINES = 50, 5000
TOP_LIMIT = 10
ENCLOSING_SAMPLE = 200

# Packages that publish their TypeScript sources (checked: date-fns 4.4.0, hono 4.13.19 and
# valibot 1.5.0 ship only .js and .d.ts, so they are not used).
NPM_PACKAGES = (
    ("zod", "4.6.7"),
    ("rxjs", "7.8.2"),
    ("effect", "4.1.0"),
    ("@trpc/server", "11.25.2"),
)


@dataclass
class Corpus:
    language: str
    source: str  # where the files come from, with versions
    files: list[tuple[str, Path]] = field(default_factory=list)  # (display name, path)
    candidates: int = 0


# -- corpora -------------------------------------------------------------------------------------


def _eligible(paths: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
    return sized(paths, MIN_LINES, MAX_LINES)


def _need_grammar(module: str) -> None:
    """Skip the language (Unavailable) when its tree-sitter grammar is not installed."""
    import importlib

    for name in ("tree_sitter", module):
        try:
            importlib.import_module(name)
        except ImportError:
            raise Unavailable(
                f"Python package {name} is not installed (pip install -e '.[test]')"
            ) from None


def _parser_versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    names = ["tree-sitter", "tree-sitter-go", "tree-sitter-java", "tree-sitter-typescript"]
    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} missing")
    return ", ".join(found)


def python_corpus(n: int) -> Corpus:
    if not STDLIB.is_dir():
        raise Unavailable(f"no standard library at {STDLIB}")
    files = _eligible([(f"stdlib/{p.name}", p) for p in stdlib_modules()])
    version = sys.version.split()[0]
    return Corpus(
        "python",
        f"CPython {version} standard library, top-level *.py in {STDLIB}",
        evenly(files, n),
        len(files),
    )


def go_corpus(n: int) -> Corpus:
    _need_grammar("tree_sitter_go")
    if not GO_SRC.is_dir():
        raise Unavailable(f"{GO_SRC} not found (apt-get install golang-1.19-src)")
    files = _eligible([(f"go/{p.relative_to(GO_SRC)}", p) for p in go_sources()])
    return Corpus(
        "go",
        f"Go {dpkg_version('golang-1.19-src')} (Debian golang-1.19-src), {GO_SRC}",
        evenly(files, n),
        len(files),
    )


def java_corpus(n: int) -> Corpus:
    _need_grammar("tree_sitter_java")
    dest, version = extracted_jdk(JDK_UTIL)
    root = dest / JDK_UTIL
    files = _eligible([(f"jdk/{p.relative_to(dest)}", p) for p in root.rglob("*.java")])
    if not files:
        raise Unavailable(f"no Java sources under {root}")
    return Corpus(
        "java",
        f"OpenJDK {version} src.zip ({JDK_SRC_ZIP}), {JDK_UTIL}**",
        evenly(files, n),
        len(files),
    )


def _typescript_member(name: str) -> bool:
    return name.startswith("package/src/") and name.endswith((".ts", ".tsx", ".mts", ".cts"))


def _ts_source(rel: Path) -> bool:
    name = rel.name
    if name.endswith((".d.ts", ".d.mts", ".d.cts")) or ".test." in name or ".spec." in name:
        return False
    return not {"test", "tests", "__tests__", "benchmarks"} & set(rel.parts)


def typescript_corpus(n: int) -> Corpus:
    _need_grammar("tree_sitter_typescript")
    groups: dict[str, list[tuple[str, Path]]] = {}
    used: list[str] = []
    problems: list[str] = []
    for name, version in NPM_PACKAGES:
        try:
            package = npm_sources(name, version, _typescript_member)
        except (
            Unavailable,
            OSError,
            subprocess.SubprocessError,
            tarfile.TarError,
            ValueError,
        ) as exc:
            problems.append(f"{name}@{version}: {exc}")
            continue
        found = [
            (f"{name}@{version}/{p.relative_to(package)}", p)
            for p in (package / "src").rglob("*")
            if p.is_file()
            and p.suffix in (".ts", ".tsx", ".mts", ".cts")
            and _ts_source(p.relative_to(package))
        ]
        eligible = _eligible(found)
        if eligible:
            groups[name] = eligible
            used.append(f"{name}@{version} ({len(eligible)} files)")
    for problem in problems:
        print(f"typescript: {problem}", file=sys.stderr)
    if not groups:
        raise Unavailable("no npm package could be fetched: " + "; ".join(problems))
    total = sum(len(v) for v in groups.values())
    return Corpus(
        "typescript",
        "npm: " + ", ".join(used) + "; src/**/*.ts without .d.ts/tests",
        balanced(groups, n),
        total,
    )


CORPORA: dict[str, Callable[[int], Corpus]] = {
    "python": python_corpus,
    "go": go_corpus,
    "java": java_corpus,
    "typescript": typescript_corpus,
}


# -- evaluation ----------------------------------------------------------------------------------


def evaluate(task: tuple[str, str, str]) -> dict[str, Any]:
    """Both metrics for one file under both profiles (runs in a worker process)."""
    language, name, path = task
    started = time.perf_counter()
    text = Path(path).read_text(encoding="utf-8", errors="replace")  # universal newlines
    row: dict[str, Any] = {"language": language, "file": name, "path": path}
    try:
        gt = groundtruth.extract(path, text)
    except (SyntaxError, ValueError) as exc:
        row["error"] = f"parse failed: {exc}"
        return row
    lines = text.split("\n")
    row.update(
        lines=len(lines) - (1 if text.endswith("\n") else 0),
        declarations=len(gt.decls),
        parse_errors=gt.parse_errors,
    )
    for profile in PROFILES:
        index = open_index(path, text, profile=profile)
        top = groundtruth.top_hits(index, gt, limit=TOP_LIMIT)
        enc = groundtruth.enclosing_accuracy(index, gt, sample=ENCLOSING_SAMPLE)
        row[profile] = {
            "k": top.k,
            "hits": top.hits,
            "rate": top.rate,
            "blank": top.blank,
            "comment": top.comment,
            "positions": [
                {
                    "line": line,
                    "label": label,
                    "hit": hit,
                    "text": lines[line] if 0 <= line < len(lines) else "",
                }
                for line, label, hit in top.positions
            ],
            "enclosing_checked": enc.checked,
            "enclosing_correct": enc.correct,
            "enclosing_misses": [
                {
                    "line": line,
                    "expected": exp,
                    "unit": got,
                    "text": lines[line] if 0 <= line < len(lines) else "",
                    "expected_text": lines[exp] if 0 <= exp < len(lines) else "",
                    "unit_text": lines[got] if got is not None and 0 <= got < len(lines) else None,
                }
                for line, exp, got in enc.misses[:20]
            ],
        }
    row["seconds"] = round(time.perf_counter() - started, 4)
    return row


# -- report --------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _clip(text: str, width: int = 90) -> str:
    text = text.strip().replace("|", "\\|").replace("`", "'")
    return text if len(text) <= width else text[: width - 1] + "…"


def summarize(rows: list[dict[str, Any]], language: str, profile: str) -> dict[str, Any]:
    scored = [r for r in rows if "error" not in r and r[profile]["k"] > 0]
    ok = [r for r in rows if "error" not in r]
    positions = sum(len(r[profile]["positions"]) for r in ok)
    checked = sum(r[profile]["enclosing_checked"] for r in ok)
    correct = sum(r[profile]["enclosing_correct"] for r in ok)
    return {
        "language": language,
        "profile": profile,
        "files": len(ok),
        "scored_files": len(scored),
        "mean_hit_rate": sum(r[profile]["rate"] for r in scored) / len(scored) if scored else 0.0,
        "files_ge_90": (
            sum(r[profile]["rate"] >= 0.9 for r in scored) / len(scored) if scored else 0.0
        ),
        "top_positions": positions,
        "on_blank": sum(r[profile]["blank"] for r in ok),
        "on_comment": sum(r[profile]["comment"] for r in ok),
        "enclosing_checked": checked,
        "enclosing_accuracy": correct / checked if checked else 1.0,
    }


def report(
    corpora: list[Corpus],
    skipped: dict[str, str],
    rows: list[dict[str, Any]],
    seconds: float,
    worst: int,
    command: str,
) -> tuple[str, list[dict[str, Any]]]:
    out: list[str] = []
    summaries: list[dict[str, Any]] = []
    out.append("# Declaration benchmark: do important positions land on real declarations?\n")
    out.append(
        f"Generated by `{command}` "
        f"({sum(len(c.files) for c in corpora)} files, {seconds:.1f} s) on the engine at "
        f"{revision()}. Ground truth: Python `ast`, tree-sitter for Go, Java and "
        f"TypeScript (`bench/lib/groundtruth.py`; {_parser_versions()}).\n"
    )
    out.append(
        "- **Top-K hit rate**: K = min(10, declarations in the file); a position from "
        "`important_positions(0.3, 10)` hits when its line is within ±1 of a declaration "
        "start (header row, decorator/annotation row, or export/const wrapper row). "
        "Fewer than K positions count as misses. Mean over files with ≥ 1 declaration."
    )
    out.append("- **Files ≥ 90%**: fraction of those files whose top-K hit rate is ≥ 0.9.")
    out.append(
        "- **Blank / comment**: top positions on whitespace-only lines / comment-only lines "
        "(tree-sitter comment nodes; Python: `tokenize` comments)."
    )
    out.append(
        "- **Enclosing-unit accuracy**: lines strictly inside function/method bodies "
        f"(≤ {ENCLOSING_SAMPLE} per file, evenly spaced); `unit_at(line)` must start within "
        "±1 of the innermost parsed declaration. `unit_at` does not depend on the profile, "
        "so both rows agree.\n"
    )
    out.append("## Corpora\n")
    for c in corpora:
        broken = [r["file"] for r in rows if r["language"] == c.language and r.get("parse_errors")]
        note = ""
        if broken:
            note = (
                f" The parser reported syntax errors in {len(broken)} of them (ground truth may "
                f"miss declarations there): " + ", ".join(f"`{b}`" for b in broken) + "."
            )
        out.append(
            f"- **{c.language}**: {c.source}; {len(c.files)} of {c.candidates} files with "
            f"{MIN_LINES}..{MAX_LINES} lines (evenly spaced over the sorted list).{note}"
        )
    for language, why in skipped.items():
        out.append(f"- **{language}**: skipped: {why}")
    errors = [r for r in rows if "error" in r]
    for r in errors:
        out.append(f"- not scored: `{r['file']}`: {r['error']}")
    out.append("")
    out.append("## Results\n")
    out.append(
        "| Language | Profile | Files (with declarations) | Mean top-K hit rate | Files ≥ 90% "
        "| Top positions | On blank / comment | Enclosing-unit accuracy (lines) |"
    )
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for c in corpora:
        lang_rows = [r for r in rows if r["language"] == c.language]
        for profile in PROFILES:
            s = summarize(lang_rows, c.language, profile)
            summaries.append(s)
            out.append(
                f"| {c.language} | {profile} | {s['files']} ({s['scored_files']}) | "
                f"{_pct(s['mean_hit_rate'])} | "
                f"{_pct(s['files_ge_90'])} | {s['top_positions']} | "
                f"{s['on_blank']} / {s['on_comment']} | {_pct(s['enclosing_accuracy'])} "
                f"({s['enclosing_checked']}) |"
            )
    out.append("")
    out.append(f"## Worst {worst} files per language, review profile\n")
    out.append(
        "Misses are top-K positions not within ±1 of a parsed declaration. Lines are "
        "1-based (the engine's 0-based line + 1).\n"
    )
    for c in corpora:
        lang_rows = [
            r
            for r in rows
            if r["language"] == c.language and "error" not in r and r["review"]["k"] > 0
        ]
        lang_rows.sort(key=lambda r: (r["review"]["rate"], -r["review"]["k"], r["file"]))
        bad = [r for r in lang_rows if r["review"]["rate"] < 1.0][:worst]
        out.append(f"### {c.language}\n")
        if not bad:
            out.append("Every file hit all of its top K.\n")
            continue
        for r in bad:
            rv = r["review"]
            out.append(
                f"- `{r['file']}`: {rv['hits']}/{rv['k']} "
                f"({r['declarations']} declarations, {r['lines']} lines)"
            )
            for p in rv["positions"]:
                if not p["hit"]:
                    out.append(
                        f"  - L{p['line'] + 1} `{_clip(p['label'], 50)}`: `{_clip(p['text'])}`"
                    )
            if len(rv["positions"]) < rv["k"]:
                out.append(
                    f"  - only {len(rv['positions'])} positions returned "
                    f"(K = {rv['k']}): the rest count as misses"
                )
        out.append("")
    out.append("## Enclosing-unit misses (examples), review profile\n")
    out.append(
        "Line inside a body → where the parser's innermost declaration starts vs where "
        "`unit_at` starts (1-based; `none` = no unit).\n"
    )
    for c in corpora:
        lang_rows = [r for r in rows if r["language"] == c.language and "error" not in r]
        lang_rows.sort(
            key=lambda r: (
                r["review"]["enclosing_correct"] - r["review"]["enclosing_checked"],
                r["file"],
            )
        )
        examples: list[str] = []
        for r in lang_rows:
            rv = r["review"]
            if rv["enclosing_correct"] == rv["enclosing_checked"]:
                continue
            m = rv["enclosing_misses"][0]
            unit = (
                "none" if m["unit"] is None else f"L{m['unit'] + 1} `{_clip(m['unit_text'], 60)}`"
            )
            examples.append(
                f"- `{r['file']}` ({rv['enclosing_checked'] - rv['enclosing_correct']}/"
                f"{rv['enclosing_checked']} wrong): L{m['line'] + 1} `{_clip(m['text'], 50)}` → "
                f"expected L{m['expected'] + 1} `{_clip(m['expected_text'], 60)}`, got {unit}"
            )
        out.append(f"### {c.language}\n")
        out.extend(examples[:worst] or ["No misses."])
        out.append("")
    return "\n".join(out), summaries


# -- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument(
        "--per-language",
        type=int,
        default=100,
        metavar="N",
        help="files sampled per language (default 100)",
    )
    ap.add_argument(
        "--out",
        type=Path,
        default=RESULTS / "declarations.md",
        help="Markdown report (default bench/results/declarations.md)",
    )
    ap.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="PATH",
        help="also write raw per-file results as JSON",
    )
    ap.add_argument(
        "--languages",
        default=",".join(LANGUAGES),
        help=f"comma-separated subset of {','.join(LANGUAGES)}",
    )
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--worst", type=int, default=10, help="worst files listed per language")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    corpora: list[Corpus] = []
    skipped: dict[str, str] = {}
    for language in [x.strip() for x in args.languages.split(",") if x.strip()]:
        if language not in CORPORA:
            ap.error(f"unknown language {language!r}; valid: {', '.join(LANGUAGES)}")
        try:
            corpora.append(CORPORA[language](args.per_language))
        except Unavailable as exc:
            skipped[language] = str(exc)
            print(f"{language}: skipped: {exc}", file=sys.stderr)
    tasks = [(c.language, name, str(path)) for c in corpora for name, path in c.files]
    rows = parallel(evaluate, tasks, args.jobs, chunksize=4)
    seconds = time.perf_counter() - started
    command = command_line("declarations.py", argv)
    text, summaries = report(corpora, skipped, rows, seconds, args.worst, command)
    print(text)
    write_result(args.out, [text])
    if args.json is not None:
        payload = {
            "corpora": [
                {
                    "language": c.language,
                    "source": c.source,
                    "candidates": c.candidates,
                    "files": [name for name, _ in c.files],
                }
                for c in corpora
            ],
            "skipped": skipped,
            "summary": summaries,
            "files": rows,
            "seconds": round(seconds, 2),
        }
        write_json(args.json, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
