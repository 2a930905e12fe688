"""Real-world benchmark: reviewbot's per-unit findings against lizard's per-function CCN deltas.

The corpus is published releases of real packages written by other people (PyPI wheels, npm
tarballs, Debian's golang-*-dev packages), pinned below in ``PACKAGES``; each reviewed pair is two
releases adjacent in its registry (for Debian, adjacent suites: bookworm, trixie, sid). Each
package becomes a git repository under ``bench/.corpus/realworld/repos/`` with one commit (tag
``v<version>``) per release holding only the package's own source files (no tests, no type
declarations, no minified or compiled output), in the same relative layout. reviewbot reviews
``v<a>..v<b>`` (all findings kept, no hunk context); lizard analyses both sides of every changed
file reviewbot analysed (renames followed).

Per pair:

* lizard functions are matched old <-> new within a file: identical text under the same name;
  then a name found once on each side; then, among same-named candidates (overloads, methods of
  several classes in one file, anonymous functions, which all share one name), the most similar
  text first, each new function choosing among its 6 nearest old ones (by the diff's line map).
  A function is *changed* when its whitespace-normalised lines differ, or it is new. Modified
  functions have ``delta = CCN(new) - CCN(old)``; new functions have no delta and are scored
  apart: dense when CCN - 1 >= RB102's default ``new_unit_branches`` (8).
* each changed lizard function maps to the innermost reviewbot unit (of those listed as changed)
  whose new range holds its start line (+-1 when none holds it exactly); "same" when that unit
  starts within 3 lines before or 1 after the function (decorators), else "containing".
* recall: of modified functions with delta >= 3, those with an RB101/RB102 finding on the mapped
  unit or on a unit holding it; also for dense new functions;
  precision: of RB101/RB102 findings, those whose unit holds a changed lizard function with
  delta >= 3 or a dense new one. The same with delta >= 2; correlations of reviewbot's
  ``branches`` delta with lizard's delta over modified functions.
* disagreements get one pattern each (``flag_pattern``, ``miss_pattern``, ``new_miss_pattern``);
  *formatting-only* means the function's or its file's text is unchanged once whitespace,
  commas, semicolons and parentheses are ignored. Examples with a verdict are listed in
  ``VERDICTS``.
* ``SWEEP`` reruns reviewbot with other thresholds; lizard's criteria stay fixed.

Downloads go to ``bench/.corpus/realworld/`` (git-ignored) and are reused; a package that cannot
be fetched is skipped with the reason. Pairs run in parallel (``--jobs``). Usage::

    .venv/bin/python bench/realworld.py [--packages click,zod] [--no-sweep] [--jobs N]
                                        [--out bench/results/realworld.md] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import lizard

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reviewbot.analysis.findings import Thresholds  # noqa: E402
from reviewbot.app.config import Config  # noqa: E402
from reviewbot.app.pipeline import GitChange, review  # noqa: E402
from reviewbot.render.report_json import report_doc  # noqa: E402

CORPUS = BENCH / ".corpus" / "realworld"
DOWNLOADS = CORPUS / "downloads"
REPOS = CORPUS / "repos"
APT = CORPUS / "apt"
FLAGS = ("RB101", "RB102")
STRICT, LOOSE = 3, 2
DEFAULT_THRESHOLDS = Thresholds()


# -- the corpus ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Package:
    name: str  # the registry's name
    registry: str  # "pypi" (wheel), "npm" (npm pack) or "debian" (a golang-*-dev .deb)
    language: str
    versions: tuple[str, ...]  # consecutive releases, oldest first
    roots: tuple[str, ...]  # folders or files kept, relative to ``base``
    base: str = ""  # folder inside the archive that the repository's root mirrors
    # The pairs reviewed, each two releases adjacent in the registry; by default every
    # consecutive pair of ``versions``.
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def reviewed(self) -> tuple[tuple[str, str], ...]:
        return self.pairs or tuple(zip(self.versions, self.versions[1:], strict=False))

    @property
    def slug(self) -> str:
        return self.name.lstrip("@").replace("/", "-")


GOCODE = "usr/share/gocode/src/"
PACKAGES: tuple[Package, ...] = (
    Package("click", "pypi", "python", ("8.1.7", "8.1.8", "8.2.0", "8.2.1"), ("click",)),
    Package("requests", "pypi", "python", ("2.31.0", "2.32.2", "2.32.3", "2.32.4"), ("requests",)),
    Package("httpx", "pypi", "python", ("0.25.2", "0.26.0", "0.27.0", "0.28.0"), ("httpx",)),
    Package("flask", "pypi", "python", ("3.0.3", "3.1.0", "3.1.1"), ("flask",)),
    Package("werkzeug", "pypi", "python", ("3.0.6", "3.1.0", "3.1.1", "3.1.2"), ("werkzeug",)),
    Package("attrs", "pypi", "python", ("23.2.0", "24.1.0", "24.2.0", "24.3.0"), ("attr", "attrs")),
    Package("packaging", "pypi", "python", ("23.2", "24.0", "24.1", "24.2"), ("packaging",)),
    Package("rich", "pypi", "python", ("13.7.1", "13.8.0", "13.8.1", "13.9.0"), ("rich",)),
    Package("black", "pypi", "python", ("24.8.0", "24.10.0", "25.1.0"), ("black", "blib2to3")),
    Package(
        "commander",
        "npm",
        "javascript",
        ("11.1.0", "12.0.0", "12.1.0", "13.0.0"),
        ("lib", "index.js"),
    ),
    Package(
        "fastify", "npm", "javascript", ("5.0.0", "5.1.0", "5.2.0", "5.2.1"), ("lib", "fastify.js")
    ),
    Package("axios", "npm", "javascript", ("1.7.9", "1.8.0", "1.8.1", "1.8.2"), ("lib",)),
    Package("eslint", "npm", "javascript", ("9.21.0", "9.22.0", "9.23.0", "9.24.0"), ("lib",)),
    Package(
        "zod",
        "npm",
        "typescript",
        ("4.0.17", "4.1.0", "4.1.12", "4.1.13", "4.2.0"),
        ("src",),
        pairs=(("4.0.17", "4.1.0"), ("4.1.12", "4.1.13"), ("4.1.13", "4.2.0")),
    ),
    Package(
        "@trpc/server",
        "npm",
        "typescript",
        ("11.1.0", "11.2.0", "11.4.4", "11.10.0"),
        ("src",),
        pairs=(("11.1.0", "11.2.0"), ("11.4.4", "11.10.0")),
    ),
    Package(
        "@tanstack/query-core",
        "npm",
        "typescript",
        ("5.61.5", "5.62.0", "5.62.16", "5.64.0", "5.65.0", "5.66.0"),
        ("src",),
        pairs=(("5.61.5", "5.62.0"), ("5.62.16", "5.64.0"), ("5.65.0", "5.66.0")),
    ),
    Package(
        "golang-github-google-go-cmp-dev",
        "debian",
        "go",
        ("0.5.9-1", "0.6.0-1", "0.7.0-1"),
        ("cmp",),
        GOCODE + "github.com/google/go-cmp/",
    ),
    Package(
        "golang-github-spf13-cobra-dev",
        "debian",
        "go",
        ("1.6.1-1", "1.8.1-1", "1.10.2-1"),
        ("",),
        GOCODE + "github.com/spf13/cobra/",
    ),
    Package(
        "golang-github-burntsushi-toml-dev",
        "debian",
        "go",
        ("1.2.0-2", "1.4.0-1", "1.6.0-1"),
        ("",),
        GOCODE + "github.com/BurntSushi/toml/",
    ),
    Package(
        "golang-github-stretchr-testify-dev",
        "debian",
        "go",
        ("1.8.1-1", "1.10.0-1", "1.11.1-2"),
        ("",),
        GOCODE + "github.com/stretchr/testify/",
    ),
)
# Debian suites that hold the pinned versions (bookworm -> trixie -> sid), read with a private
# apt state under bench/.corpus/realworld/apt: the machine's own apt setup is not touched.
DEBIAN_SUITES = ("bookworm", "trixie", "sid")
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".go")
NOT_SOURCE = (".d.ts", ".d.mts", ".d.cts", ".min.js", "_test.go", ".test.js", ".test.ts")
TEST_DIRS = frozenset({"test", "tests", "__tests__", "testdata", "testing", "examples", "bench"})


class Unavailable(Exception):
    """A release cannot be fetched here; its package is skipped."""


def _run(cmd: Sequence[str], cwd: Path | None = None, timeout: int = 600) -> str:
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        said = [ln.strip() for ln in (out.stderr or out.stdout).splitlines() if ln.strip()]
        raise Unavailable(f"`{' '.join(cmd[:4])} ...` failed: {' | '.join(said[-3:])}")
    return out.stdout


def _fetch_pypi(pkg: Package, version: str, dest: Path) -> Path:
    found = sorted(dest.glob(f"{pkg.name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
        cmd += ["--platform", "any", "--implementation", "py", "--python-version", "3.12"]
        _run([*cmd, "--dest", str(dest), f"{pkg.name}=={version}", "-q"])
        found = sorted(dest.glob(f"{pkg.name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        raise Unavailable(f"pip download {pkg.name}=={version} left no wheel in {dest}")
    return found[0]


def _fetch_npm(pkg: Package, version: str, dest: Path) -> Path:
    target = dest / f"{pkg.slug}-{version}.tgz"
    if target.is_file():
        return target
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")
    cmd = [npm, "pack", f"{pkg.name}@{version}", "--pack-destination", str(dest), "--json"]
    packed = dest / json.loads(_run(cmd))[0]["filename"]
    if packed != target:
        packed.rename(target)
    return target


def _apt_options() -> list[str]:
    return [
        f"-oDir::Etc::SourceList={APT / 'sources.list'}",
        "-oDir::Etc::SourceParts=/dev/null",
        f"-oDir::State::Lists={APT / 'lists'}",
        f"-oDir::Cache={APT / 'cache'}",
        "-oDir::State::status=/var/lib/dpkg/status",
        "-oAPT::Sandbox::User=root",
    ]


def _fetch_debian(pkg: Package, version: str, dest: Path) -> Path:
    quoted = version.replace(":", "%3a")
    found = sorted(dest.glob(f"{pkg.name}_{quoted}_*.deb"))
    if found:
        return found[0]
    apt = shutil.which("apt-get")
    if apt is None or shutil.which("dpkg-deb") is None:
        raise Unavailable("apt-get/dpkg-deb not found (Debian's Go packages need them)")
    if not (APT / "lists").is_dir() or not any((APT / "lists").glob("*Packages*")):
        for sub in ("lists/partial", "cache/archives/partial"):
            (APT / sub).mkdir(parents=True, exist_ok=True)
        keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
        (APT / "sources.list").write_text(
            "".join(
                f"deb [signed-by={keyring}] http://deb.debian.org/debian {suite} main\n"
                for suite in DEBIAN_SUITES
            )
        )
        print(f"apt-get update (private lists: {', '.join(DEBIAN_SUITES)})", file=sys.stderr)
        _run([apt, *_apt_options(), "update"])
    _run([apt, *_apt_options(), "download", f"{pkg.name}={version}"], cwd=dest)
    found = sorted(dest.glob(f"{pkg.name}_{quoted}_*.deb"))
    if not found:
        raise Unavailable(f"apt-get download {pkg.name}={version} left no .deb in {dest}")
    return found[0]


def fetch(pkg: Package, version: str) -> Path:
    dest = DOWNLOADS / pkg.registry
    dest.mkdir(parents=True, exist_ok=True)
    fetcher = {"pypi": _fetch_pypi, "npm": _fetch_npm, "debian": _fetch_debian}[pkg.registry]
    try:
        return fetcher(pkg, version, dest)
    except (OSError, subprocess.TimeoutExpired, ValueError, KeyError) as exc:
        raise Unavailable(f"{pkg.name} {version}: {exc}") from None


def is_source(rel: PurePosixPath) -> bool:
    name = rel.name
    if not name.endswith(SOURCE_SUFFIXES) or name.endswith(NOT_SOURCE):
        return False
    if name.startswith("test_") or name.endswith("_test.py") or ".spec." in name:
        return False
    return not TEST_DIRS & set(rel.parts[:-1])


def _members(archive: Path) -> Iterator[tuple[str, bytes]]:
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir():
                    yield info.filename, zf.read(info)
    elif archive.suffix == ".tgz":
        with tarfile.open(archive) as tf:
            for m in tf.getmembers():
                f = tf.extractfile(m) if m.isfile() else None
                if f is not None:
                    yield m.name, f.read()
    else:  # .deb: the data tarball, through dpkg-deb
        data = subprocess.run(
            ["dpkg-deb", "--fsys-tarfile", str(archive)], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tf:
            for m in tf.getmembers():
                f = tf.extractfile(m) if m.isfile() else None
                if f is not None:
                    yield m.name.removeprefix("./"), f.read()


def source_files(pkg: Package, archive: Path) -> dict[str, bytes]:
    base = "package/" if pkg.registry == "npm" else pkg.base
    files: dict[str, bytes] = {}
    for name, data in _members(archive):
        if not name.startswith(base):
            continue
        rel = name[len(base) :]
        if not any(r == "" or rel == r or rel.startswith(r.rstrip("/") + "/") for r in pkg.roots):
            continue
        if is_source(PurePosixPath(rel)):
            files[rel] = data
    return files


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "realworld bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "realworld bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    }
    out = subprocess.run(
        ["git", "-c", "core.autocrlf=false", *args],
        cwd=repo,
        input=data,
        capture_output=True,
        env=env,
    )
    if out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {out.stderr.decode(errors='replace')}")
    return out.stdout


def build_repo(pkg: Package) -> Path:
    """One commit per release, tagged ``v<version>``; rebuilt only when the pins change."""
    repo = REPOS / pkg.slug
    spec = json.dumps(
        [pkg.registry, pkg.versions, pkg.roots, pkg.base, NOT_SOURCE, sorted(TEST_DIRS)]
    )
    stamp = repo / ".git" / "realworld-spec"
    if stamp.is_file() and stamp.read_text() == spec:
        return repo
    archives = [fetch(pkg, v) for v in pkg.versions]  # all or nothing, before touching repo
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    for version, archive in zip(pkg.versions, archives, strict=True):
        for child in repo.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        files = source_files(pkg, archive)
        if not files:
            raise Unavailable(f"{pkg.name} {version}: no source files under {pkg.roots}")
        for rel, data in files.items():
            target = repo / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", f"{pkg.name} {version}")
        _git(repo, "tag", f"v{version}")
    stamp.write_text(spec)
    return repo


# -- lizard's side ---------------------------------------------------------------------------

_LIZARD_SUFFIX = {".mjs": ".js", ".cjs": ".js", ".mts": ".ts", ".cts": ".ts"}


@dataclass(frozen=True)
class Fn:
    name: str
    long_name: str
    start: int  # 1-based, lizard's
    end: int
    ccn: int
    nloc: int
    body: str  # whitespace-normalised lines, for "did it change"


def lizard_functions(path: str, text: str) -> list[Fn]:
    suffix = PurePosixPath(path).suffix
    name = path[: -len(suffix)] + _LIZARD_SUFFIX.get(suffix, suffix) if suffix else path
    info = lizard.analyze_file.analyze_source_code(name, text)
    lines = text.splitlines()
    out = []
    for f in info.function_list:
        body = "\n".join(
            " ".join(ln.split()) for ln in lines[f.start_line - 1 : f.end_line] if ln.strip()
        )
        out.append(
            Fn(
                f.name,
                f.long_name,
                f.start_line,
                f.end_line,
                f.cyclomatic_complexity,
                f.nloc,
                body,
            )
        )
    return out


def line_map(old_text: str, new_text: str) -> list[int]:
    """For each new line (1-based index), the old line it is, or where its changed block was."""
    a, b = old_text.splitlines(), new_text.splitlines()
    where = [0] * (len(b) + 2)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, _i2, j1, j2 in sm.get_opcodes():
        for j in range(j1, j2):
            where[j + 1] = i1 + (j - j1) + 1 if tag == "equal" else i1 + 1
    return where


_NEAREST = 6  # same-named candidates compared by content, nearest first
_ANONYMOUS_MIN_SIMILARITY = 0.5
_NAMED_MIN_SIMILARITY = 0.2


def _key(f: Fn) -> str:
    """The matching name: lizard's anonymous functions ("(anonymous)", Go's "anonymous__3",
    numbered in file order) all share one."""
    return (
        ANONYMOUS if f.name.startswith("(") or re.fullmatch(r"anonymous__\d+", f.name) else f.name
    )


ANONYMOUS = "(anonymous)"


def _similarity(a: Fn, b: Fn) -> float:
    return difflib.SequenceMatcher(
        None, a.body.splitlines(), b.body.splitlines(), autojunk=False
    ).ratio()


def match_functions(old: list[Fn], new: list[Fn], where: list[int]) -> list[tuple[Fn | None, Fn]]:
    """(old or None, new) for every new-side function.

    Identical content under the same name first; then a name found once on each side; then,
    among same-named candidates (overloads, methods of several classes, anonymous functions),
    the most similar pairs first, each new function choosing among its nearest few old ones.
    Below a similarity floor (0.5 for anonymous functions, 0.2 for named) a function is new.
    """
    free: dict[str, list[Fn]] = defaultdict(list)
    for f in old:
        free[_key(f)].append(f)
    found: dict[int, Fn | None] = {}
    for k, f in enumerate(new):
        same = [o for o in free[_key(f)] if o.body == f.body]
        if same:
            pick = min(same, key=lambda o: abs(o.start - where[min(f.start, len(where) - 1)]))
            free[_key(f)].remove(pick)
            found[k] = pick
    groups: dict[str, list[int]] = defaultdict(list)
    for k in range(len(new)):
        if k not in found:
            groups[_key(new[k])].append(k)
    for name, ks in groups.items():
        cands = free[name]
        if len(ks) == 1 and len(cands) == 1 and name != ANONYMOUS:
            found[ks[0]] = cands[0]
            continue
        scored = []
        for k in ks:
            at = where[min(new[k].start, len(where) - 1)]
            for o in sorted(cands, key=lambda o: abs(o.start - at))[:_NEAREST]:
                scored.append((_similarity(o, new[k]), -abs(o.start - at), k, o))
        floor = _ANONYMOUS_MIN_SIMILARITY if name == ANONYMOUS else _NAMED_MIN_SIMILARITY
        taken: set[int] = set()
        for score, _, k, o in sorted(scored, key=lambda t: (t[0], t[1]), reverse=True):
            if score >= floor and k not in found and id(o) not in taken:
                found[k] = o
                taken.add(id(o))
    return [(found.get(k), f) for k, f in enumerate(new)]


# -- one consecutive pair --------------------------------------------------------------------


@dataclass
class Change:
    """A lizard function that changed between the two releases, and reviewbot's view of it."""

    package: str
    pair: str  # "a..b"
    path: str
    old: Fn | None  # None: a new function
    new: Fn
    unit: dict[str, Any] | None = None  # the reviewbot unit (units[] entry) it maps to
    match: str = "none"  # "same" | "containing" | "none"
    chain: list[dict[str, Any]] = field(default_factory=list)  # the unit and its ancestors
    flags: list[str] = field(default_factory=list)  # RB101/RB102 codes on the chain
    layout_file: bool = False  # the whole file changed only in layout

    @property
    def delta(self) -> int | None:
        return None if self.old is None else self.new.ccn - self.old.ccn


@dataclass
class Flag:
    """An RB101/RB102 finding and the changed lizard functions inside its unit."""

    package: str
    pair: str
    finding: dict[str, Any]
    unit: dict[str, Any] | None  # its units[] entry
    inside: list[Change] = field(default_factory=list)
    string_words: int = 0  # decision words gained on lines inside multi-line strings


@dataclass
class PairResult:
    package: str
    pair: str
    files: int
    units: int
    findings: Counter[str]
    changes: list[Change]
    flags: list[Flag]
    skipped: list[tuple[str, str]]  # (path, reason) reviewbot did not analyse
    texts: dict[tuple[str, str], str]  # (side, path) -> text, for the examples
    added_files: frozenset[str] = frozenset()
    unit_lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # path -> units[]


def _span(u: dict[str, Any] | None) -> tuple[int, int] | None:
    return None if u is None else (int(u["start"]), int(u["end"]))


def _holds(outer: tuple[int, int], inner: tuple[int, int]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def map_unit(fn: Fn, units: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    """The innermost changed unit whose new range holds the function's start (+-1 if none)."""
    ranged = [(u, s) for u in units if (s := _span(u["new"])) is not None]
    for slack in (0, 1):
        hits = [(u, s) for u, s in ranged if s[0] - slack <= fn.start <= s[1] + slack]
        if hits:
            u, s = min(hits, key=lambda h: (h[1][1] - h[1][0], -h[1][0]))
            return u, "same" if fn.start - 3 <= s[0] <= fn.start + 1 else "containing"
    return None, "none"


_WORDS = re.compile(r"\b(?:if|elif|for|while|case|catch|except|and|or)\b|&&|\|\|")


def string_decisions(text: str, span: tuple[int, int] | None) -> int:
    """Decision words on the lines of ``span`` that lie inside a multi-line string (a rough
    scan: backtick strings and triple-quoted strings that open on one line and close on a
    later one; not string statements such as docstrings, which reviewbot masks)."""
    if span is None:
        return 0
    count, delimiter = 0, None
    for number, line in enumerate(text.splitlines(), 1):
        if number > span[1]:
            break
        if delimiter not in (None, "docstring") and span[0] <= number:
            count += len(_WORDS.findall(line))
        for d in ("`", '"""', "'''"):
            if (delimiter is None or delimiter == d) and line.count(d) % 2 == 1:
                delimiter = None if delimiter == d else d
                if delimiter == d and d != "`" and line.strip().lstrip("rRbBuUfF").startswith(d):
                    delimiter = "docstring"  # a string statement: reviewbot masks docstrings
                break
            if delimiter == "docstring" and line.count(d) % 2 == 1 and d != "`":
                delimiter = None
                break
    return count


def _cat_file(repo: Path, rev: str, path: str) -> str:
    return _git(repo, "show", f"{rev}:{path}").decode("utf-8", errors="replace")


def review_pair(
    pkg: Package, repo: Path, a: str, b: str, configs: dict[str, Config]
) -> dict[str, PairResult]:
    """The pair under every configuration; lizard runs once."""
    pair = f"{a}..{b}"
    docs = {
        name: report_doc(review(GitChange(repo, (f"v{a}..v{b}",)), cfg))
        for name, cfg in configs.items()
    }
    base = next(iter(docs.values()))
    texts: dict[tuple[str, str], str] = {}
    lizard_changes: dict[str, list[Change]] = {}
    skipped: list[tuple[str, str]] = []
    for f in base["files"]:
        path = f["path"]
        if f["status"] == "deleted":
            continue
        if f["status"] == "skipped" or f["language"] is None:
            skipped.append((path, f.get("reason") or f["status"]))
            continue
        old_path = f["old_path"] if f["status"] != "added" else None
        new_text = _cat_file(repo, f"v{b}", path)
        old_text = _cat_file(repo, f"v{a}", old_path) if old_path else ""
        texts["new", path] = new_text
        texts["old", path] = old_text
        old_fns = lizard_functions(old_path or path, old_text) if old_text else []
        found = []
        layout = bool(old_text) and skeleton(old_text) == skeleton(new_text)
        where = line_map(old_text, new_text)
        for o, n in match_functions(old_fns, lizard_functions(path, new_text), where):
            if o is not None and o.body == n.body:
                continue
            found.append(Change(pkg.name, pair, path, o, n, layout_file=layout))
        lizard_changes[path] = found
    results = {}
    for name, doc in docs.items():
        units_by_path = {f["path"]: f["units"] for f in doc["files"]}
        findings_by_path: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for fd in doc["findings"]:
            findings_by_path[fd["path"]].append(fd)
        changes: list[Change] = []
        for path, found in lizard_changes.items():
            units = units_by_path.get(path, [])
            flagged = [fd for fd in findings_by_path[path] if fd["code"] in FLAGS]
            for c in found:
                c = replace(c, chain=[], flags=[])
                c.unit, c.match = map_unit(c.new, units)
                if c.unit is not None:
                    span = _span(c.unit["new"])
                    assert span is not None
                    c.chain = [u for u in units if (s := _span(u["new"])) and _holds(s, span)]
                    c.flags = sorted(
                        {fd["code"] for fd in flagged if _holds(_span(fd["unit"]) or (0, 0), span)}
                    )
                changes.append(c)
        flags = []
        for fd in doc["findings"]:
            if fd["code"] not in FLAGS:
                continue
            span = _span(fd["unit"])
            assert span is not None
            unit = next(
                (u for u in units_by_path.get(fd["path"], []) if _span(u["new"]) == span), None
            )
            inside = [
                c
                for c in changes
                if c.path == fd["path"]
                and c.unit is not None
                and _holds(span, _span(c.unit["new"]))
            ]
            old_span = _span(unit["old"]) if unit else None
            words = string_decisions(texts.get(("new", fd["path"]), ""), span) - (
                string_decisions(texts.get(("old", fd["path"]), ""), old_span)
            )
            flags.append(Flag(pkg.name, pair, fd, unit, inside, words))
        results[name] = PairResult(
            pkg.name,
            pair,
            len(doc["files"]),
            sum(len(f["units"]) for f in doc["files"]),
            Counter(fd["code"] for fd in doc["findings"]),
            changes,
            flags,
            skipped,
            texts,
            frozenset(f["path"] for f in doc["files"] if f["status"] == "added"),
            units_by_path,
        )
    return results


# -- scoring ---------------------------------------------------------------------------------

CONTAINER_KINDS = frozenset(
    "class interface struct enum trait impl object module namespace type".split()
)


def new_bar() -> int:
    """Decision points (CCN - 1) from which a new lizard function counts as dense: RB102's
    default ``new_unit_branches``, whatever the configuration under test."""
    return int(DEFAULT_THRESHOLDS.new_unit_branches)


def rises(c: Change, k: int) -> bool:
    """Lizard says this function became markedly more complex (or is a dense new one)."""
    if c.delta is None:
        return c.new.ccn - 1 >= new_bar()
    return c.delta >= k


def skeleton(body: str) -> str:
    return "".join(ch for ch in body if not ch.isspace() and ch not in ",;()")


def reformatted(c: Change) -> bool:
    """Only layout changed, in the function or in its whole file: the same characters once
    whitespace, commas, semicolons and parentheses are ignored (a formatter's work)."""
    return c.old is not None and (c.layout_file or skeleton(c.old.body) == skeleton(c.new.body))


def kind_of(label: str) -> str:
    last = label.split(" > ")[-1]
    return last.split()[0] if " " in last else "method"


def is_container(flag: Flag) -> bool:
    return kind_of(flag.finding["unit"]["label"]) in CONTAINER_KINDS


def lizard_sum(flag: Flag) -> int:
    """Decision points lizard added inside the unit, over every changed function in it."""
    return sum(c.new.ccn - 1 if c.delta is None else c.delta for c in flag.inside)


def paired_elsewhere(c: Change) -> bool:
    """reviewbot paired the function's unit with another old unit than lizard's old function."""
    if c.old is None or c.unit is None or c.match != "same" or c.unit["old"] is None:
        return False
    old = c.unit["old"]
    return not old["start"] - 3 <= c.old.start <= old["start"] + 1


def flag_pattern(flag: Flag, t: Thresholds) -> str:
    """Why a flag has no lizard rise of 3 behind it (one label, first that applies)."""
    unit = flag.unit or {}
    m = flag.finding["metrics"]
    if unit.get("change") == "added" and flag.inside and all(c.old for c in flag.inside):
        return "moved or renamed code (reviewbot: new unit; lizard: same functions)"
    if not flag.inside:
        return "no changed lizard function in the unit"
    own = [c for c in flag.inside if c.unit and c.unit["new"] == flag.finding["unit"]]
    if any(paired_elsewhere(c) for c in own):
        return "reviewbot paired the unit with another old unit (same-named siblings)"
    delta = m["branches"]["delta"] or m["branches"]["after"] or 0
    if flag.string_words >= max(1, delta / 2):
        return "decision words inside a multi-line string (a template) counted as code"
    if flag.finding["code"] == "RB101" and (m["branches"]["delta"] or 0) < t.spike_branches:
        return "irregularity trigger (fewer than spike_branches new decision points)"
    if is_container(flag):
        return "class-level unit: small rises spread over several methods"
    if len(flag.inside) > 1 and lizard_sum(flag) >= STRICT:
        return "nested functions: lizard splits the rise, reviewbot sums it"
    return "decision points counted differently"


def miss_pattern(c: Change) -> str:
    """Why a lizard rise of 3 has no RB101/RB102 (one label, first that applies)."""
    if c.match == "none":
        return "no reviewbot unit holds the function"
    if reformatted(c):
        return "formatting-only change (lizard's count moved)"
    assert c.unit is not None
    if c.unit["change"] == "added":
        return "reviewbot sees a new unit (moved or renamed); RB102's bar applies"
    if c.match == "containing":
        return "only a larger unit holds it; its delta is smaller"
    if paired_elsewhere(c):
        return "reviewbot paired the unit with another old unit (same-named siblings)"
    if c.unit["new"]["end"] < c.new.end - 2:
        return "reviewbot's unit ends before the function does"
    return "decision points counted differently"


def new_miss_pattern(c: Change, added_file: bool, t: Thresholds) -> str:
    """Why a dense new lizard function has no RB101/RB102."""
    if c.unit is None:
        return "no reviewbot unit holds the function"
    if c.match == "containing" or c.unit["change"] != "added":
        return "inside an existing unit (RB102 is for new units; RB101 saw less than the rise)"
    m = c.unit["metrics"]
    if (m["branches"]["after"] or 0) < t.new_unit_branches:
        return "reviewbot counts fewer decision points than new_unit_branches"
    if (m["lines"]["after"] or 0) < t.new_unit_min_lines:
        return "shorter than new_unit_min_lines"
    if added_file:
        return "new file: its own units set the bar (p90 + 1)"
    return "below the file's p90 + 1"


def pct(n: int, d: int) -> str:
    return f"{n}/{d} = {100 * n / d:.0f}%" if d else f"{n}/0 = n/a"


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    if n < 3:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def ranks(xs: Sequence[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


@dataclass
class Score:
    """The numbers of one configuration over a set of pair results."""

    recall: tuple[int, int]  # (flagged, lizard rises >= 3)
    recall_loose: tuple[int, int]
    recall_new: tuple[int, int]  # new functions with CCN - 1 >= 8
    precision: tuple[int, int]  # (confirmed, RB101/RB102 findings)
    precision_loose: tuple[int, int]
    flags: Counter[str]


def fixed_bar_flags(r: PairResult) -> list[Flag]:
    """RB102 as it would be if new files used the fixed bar (``new_unit_branches`` and
    ``new_unit_min_lines``) instead of their own p90 + 1: the extra findings only."""
    t = DEFAULT_THRESHOLDS
    have = {(f.finding["path"], f.finding["unit"]["start"]) for f in r.flags}
    extra = []
    for path in sorted(r.added_files):
        for u in r.unit_lists.get(path, []):
            m, span = u["metrics"], _span(u["new"])
            if span is None or u["change"] != "added" or (path, span[0]) in have:
                continue
            if (m["branches"]["after"] or 0) < t.new_unit_branches:
                continue
            if (m["lines"]["after"] or 0) < t.new_unit_min_lines:
                continue
            finding = {"code": "RB102", "path": path, "unit": u["new"], "metrics": m}
            inside = [
                c
                for c in r.changes
                if c.path == path and c.unit and _holds(span, _span(c.unit["new"]) or (0, 0))
            ]
            extra.append(Flag(r.package, r.pair, finding, u, inside))
    return extra


def score(
    results: Iterable[PairResult], drop_containers: bool = False, fixed_bar: bool = False
) -> Score:
    """The numbers of a run; the two options emulate rule changes (see ``render``)."""
    results = list(results)
    changes = [c for r in results for c in r.changes]
    flags = [f for r in results for f in r.flags]
    if fixed_bar:
        extra = [f for r in results for f in fixed_bar_flags(r)]
        flags += extra
        added = {(f.package, f.pair, f.finding["path"], f.finding["unit"]["start"]) for f in extra}
        changes = [
            replace(c, flags=[*c.flags, "RB102"]) if _still_flagged(c, added) else c
            for c in changes
        ]
    if drop_containers:
        dropped = {id(f) for f in flags if is_container(f)}
        flags = [f for f in flags if id(f) not in dropped]
        kept = {(f.package, f.pair, f.finding["path"], f.finding["unit"]["start"]) for f in flags}
        changes = [replace(c, flags=c.flags if _still_flagged(c, kept) else []) for c in changes]

    def recall(k: int) -> tuple[int, int]:
        pool = [c for c in changes if c.delta is not None and c.delta >= k]
        return sum(1 for c in pool if c.flags), len(pool)

    new = [c for c in changes if c.delta is None and c.new.ccn - 1 >= new_bar()]

    def precision(k: int) -> tuple[int, int]:
        return sum(1 for f in flags if any(rises(c, k) for c in f.inside)), len(flags)

    return Score(
        recall(STRICT),
        recall(LOOSE),
        (sum(1 for c in new if c.flags), len(new)),
        precision(STRICT),
        precision(LOOSE),
        Counter(f.finding["code"] for f in flags),
    )


def _still_flagged(c: Change, kept: set[tuple[str, str, str, int]]) -> bool:
    return any((c.package, c.pair, c.path, u["new"]["start"]) in kept for u in c.chain)


# -- running ---------------------------------------------------------------------------------

NO_IRREGULARITY = "no irregularity trigger (spike_min_bits=inf)"
SWEEP: dict[str, Thresholds] = {
    "default": Thresholds(),
    "spike_branches=2": Thresholds(spike_branches=2),
    "spike_branches=4": Thresholds(spike_branches=4),
    NO_IRREGULARITY: Thresholds(spike_min_bits=math.inf),
    "spike_ratio=2.0": Thresholds(spike_ratio=2.0),
    "new_unit_branches=6": Thresholds(new_unit_branches=6),
    "new_unit_branches=12": Thresholds(new_unit_branches=12),
}


def config_for(t: Thresholds) -> Config:
    # Every finding is kept (no cap) and no hunk context is built: only findings are scored.
    return Config(thresholds=t, max_findings=1_000_000, budget=0)


@dataclass
class PackageRun:
    package: Package
    results: dict[str, list[PairResult]]  # configuration -> one result per pair
    problem: str | None = None


@contextlib.contextmanager
def shared_measures() -> Iterator[None]:
    """Compute each file's engine index and each unit's measures once per pair, not once per
    configuration.

    The thresholds under test only decide findings; the index of a text and the measures of a
    unit are the same whatever they are. Three pure functions of the review module are wrapped
    with a memo for the duration (any that the module no longer has is left out), so the sweep
    costs little more than one review. The findings are the same as without it.
    """
    module = importlib.import_module("reviewbot.analysis.review")
    memo: dict[tuple[Any, ...], Any] = {}
    saved: dict[str, Any] = {}

    def index(original: Any) -> Any:
        def wrapped(text: str, language: Any, profile: Any) -> Any:
            key = ("index", text, language.name, profile.name)
            if key not in memo:
                memo[key] = original(text, language, profile)
            return memo[key]

        return wrapped

    def per_unit(name: str, original: Any) -> Any:
        def wrapped(idx: Any, unit: Any, *rest: Any) -> Any:
            key = (name, id(idx), unit.start, unit.end, *rest)
            if key not in memo:
                memo[key] = original(idx, unit, *rest)
            return memo[key]

        return wrapped

    for name, wrap in (
        ("FileIndex", index),
        ("measure_unit", lambda f: per_unit("measure_unit", f)),
        ("_unit_sparkline", lambda f: per_unit("_unit_sparkline", f)),
    ):
        original = getattr(module, name, None)
        if callable(original):
            saved[name] = original
            setattr(module, name, wrap(original))
    try:
        yield
    finally:
        for name, original in saved.items():
            setattr(module, name, original)


def run_pair(job: tuple[Package, str, str, tuple[str, ...]]) -> dict[str, PairResult]:
    pkg, a, b, names = job
    configs = {name: config_for(SWEEP[name]) for name in names}
    with shared_measures():
        return review_pair(pkg, REPOS / pkg.slug, a, b, configs)


# -- examples --------------------------------------------------------------------------------

# The examples shown, each with one sentence on who is right and why, written after reading
# the change with reviewbot at VERDICTS_REVIEWBOT; keyed by example id (package, pair, path,
# unit or function, first line). Ids that no longer occur (after the pins or reviewbot change)
# are skipped; fewer than five left are topped up by an automatic pick, shown without a verdict.
VERDICTS_REVIEWBOT = "9bd49ab"
VERDICTS: dict[str, str] = {
    # reviewbot flags, lizard does not
    "click 8.1.8..8.2.0 click/_termui_impl.py class ProgressBar@44": (
        "lizard is right: the three new decision points are spread over render_finish (+1) and "
        "render_progress (+2) of a 320-line class, so no unit a reviewer reads became tangled; "
        "a class-level RB101 is noise."
    ),
    "flask 3.0.3..3.1.0 flask/wrappers.py def max_content_length@60": (
        "lizard is right: the getter gained one decision point, and RB101 fired only through "
        "the irregularity trigger, which the new 18-line docstring inflated."
    ),
    "werkzeug 3.0.6..3.1.0 werkzeug/datastructures/structures.py def __eq__@617": (
        "lizard is right: this is unchanged code of a class that was renamed "
        "(OrderedMultiDict to _OrderedMultiDict), so reviewbot's 'dense new unit' is old code."
    ),
    "eslint 9.22.0..9.23.0 lib/rules/logical-assignment-operators.js fix()@522": (
        "lizard is right: in a file Prettier rewrote line by line, reviewbot paired this "
        "fix() generator with a different same-named sibling, so '1 -> 5' compares two "
        "functions; the function itself still has lizard's 6."
    ),
    "eslint 9.22.0..9.23.0 lib/linter/linter.js verifyAndFix()@2707": (
        "reviewbot is right: a circular-fix check (`if (passNumber > 1 && ... && ...)`) really "
        "added three decision points; lizard lost this class method entirely, so it has "
        "nothing to compare."
    ),
    "attrs 24.2.0..24.3.0 attr/converters.py def optional@21": (
        "reviewbot is right: the function as read gained three decision points (an isinstance "
        "dispatch in two places and a second nested converter); lizard splits them between "
        "optional (+2) and the nested def, so neither reaches 3."
    ),
    "golang-github-google-go-cmp-dev 0.6.0-1..0.7.0-1 cmp/options.go func apply@221": (
        "reviewbot is right: apply grew an inline closure with four conditions plus an else-if "
        "(+5 in the unit a reviewer reads); lizard scores the closure as a separate function."
    ),
    "zod 4.0.17..4.1.0 src/v4/core/api.ts function _stringbool@1537": (
        "a near tie: a reverse transform with if/else and two `||` was added (+3 paths), and "
        "lizard's +2 nets out a removed `??`, which reviewbot does not count at all."
    ),
    "golang-github-stretchr-testify-dev 1.8.1-1..1.10.0-1 assert/assertions.go "
    "func EventuallyWithT@2016": (
        "a near tie: lizard counts 7 decision points, one short of RB102's 8, while reviewbot "
        "also counts the `select` keyword besides its three cases; the polling loop is dense "
        "enough that the flag is fair."
    ),
    "golang-github-spf13-cobra-dev 1.8.1-1..1.10.2-1 bash_completionsV2.go func genBashComp@31": (
        "lizard is right: the +20 are the `if`/`case`/`&&` of the bash script that genBashComp "
        "writes out from a raw-string template, and reviewbot scores the lines inside a "
        "multi-line string as code."
    ),
    # lizard rises >= 3 (or a dense new function), reviewbot silent
    "eslint 9.22.0..9.23.0 lib/rules/array-bracket-newline.js check@227": (
        "reviewbot is right: Prettier only re-laid the function out; lizard's old CCN 6 missed "
        "the `&&`/`||` inside a parenthesised multi-line initializer, which the new layout "
        "exposes (15)."
    ),
    "eslint 9.22.0..9.23.0 lib/rules/prefer-exponentiation-operator.js "
    "doesExponentiationExpressionNeedParens@55": (
        "reviewbot is right: the logic is token for token the same and lizard's 3 -> 16 is its "
        "parser losing a parenthesised initializer; reviewbot's own 15 -> 14 shows a smaller "
        "artefact, a ternary `?` moved to the start of a line that it no longer counts."
    ),
    "zod 4.0.17..4.1.0 src/v4/core/schemas.ts inst._zod.run@275": (
        "lizard is right: the backward-direction canary added three real branches; reviewbot "
        'has no unit for closures assigned inside `core.$constructor("...", (inst, def) => '
        "{...})` factories, which is how zod's whole schema layer is written."
    ),
    "@trpc/server 11.4.4..11.10.0 src/adapters/ws.ts (anonymous)@452": (
        "lizard is right: the message callback gained binary-frame handling (+3); reviewbot's "
        "only unit is the 460-line getWSConnectionHandler, whose net +2 stays under the bar."
    ),
    "zod 4.1.13..4.2.0 src/v4/classic/from-json-schema.ts convertBaseSchema@61": (
        "lizard is right: a new 394-line function with over 100 decision points went "
        "unflagged, because in a new file RB102's bar is the file's own p90 + 1, which this "
        "function dominates."
    ),
    "zod 4.1.13..4.2.0 src/v4/core/to-json-schema.ts initializeContext@117": (
        "lizard is right: eight `??` fallbacks are short-circuit branches exactly like `||`, "
        "which reviewbot counts; reviewbot does not count `??` (nor a `?` that starts a line), "
        "so it sees 2 decision points where lizard sees 10."
    ),
    "golang-github-burntsushi-toml-dev 1.2.0-2..1.4.0-1 parse.go replaceEscapes@765": (
        "lizard is right: reviewbot reads the backslash in the Go raw string `` `\\` `` (line "
        "726) as escaping the closing backtick, so the rest of parse.go is one string to it and "
        "this new 70-line function with 18 decision points has no unit."
    ),
    "black 24.8.0..24.10.0 black/linegen.py _ensure_trailing_comma@1082": (
        "reviewbot's silence is defensible: this logic was extracted from "
        "bracket_split_build_line, and although 15 decision points in 39 lines is dense, "
        "linegen.py's own p90 puts RB102's relative bar above it."
    ),
}


def choose(examples: list[Example], limit: int = 10) -> list[Example]:
    by_key = {e.key: e for e in examples}
    chosen = [by_key[k] for k in VERDICTS if k in by_key][:limit]
    if len(chosen) < 5:
        chosen += [e for e in pick(examples, limit) if e not in chosen][: limit - len(chosen)]
    return chosen


_TOKENS = (
    ("if", r"\b(?:if|elif)\b"),
    ("loop", r"\b(?:for|while)\b"),
    ("case", r"\bcase\b"),
    ("catch", r"\b(?:catch|except)\b"),
    ("&&/and", r"&&|\band\b"),
    ("||/or", r"\|\||\bor\b"),
    ("?:", r"(?<=\s)\?(?=\s)"),
    ("??", r"\?\?"),
    ("?.", r"\?\."),
)


def token_delta(old: str, new: str) -> str:
    """A rough count of decision tokens gained or lost (the bench's own, for reading only)."""
    parts = []
    for name, rx in _TOKENS:
        d = len(re.findall(rx, new)) - len(re.findall(rx, old))
        if d:
            parts.append(f"{name} {d:+d}")
    return ", ".join(parts) or "none"


def _lines(text: str, span: tuple[int, int] | None) -> list[str]:
    if span is None:
        return []
    return text.splitlines()[span[0] - 1 : span[1]]


_DECISION = re.compile(
    r"\b(?:if|elif|for|while|case|catch|except|and|or|select)\b|&&|\|\||\?\?|(?:^|\s)\?\s"
)


def diff_excerpt(old: list[str], new: list[str], limit: int = 16) -> list[str]:
    """The changed lines, indentation ignored, hunks with decision tokens first."""
    sm = difflib.SequenceMatcher(
        None, [ln.strip() for ln in old], [ln.strip() for ln in new], autojunk=False
    )
    hunks = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        body = [f"-{ln}" for ln in old[i1:i2]] + [f"+{ln}" for ln in new[j1:j2]]
        head = f"@@ -{i1 + 1},{i2 - i1} +{j1 + 1},{j2 - j1} @@"
        hunks.append((not any(_DECISION.search(ln[1:]) for ln in body), j1, [head, *body]))
    out = [ln for _, _, h in sorted(hunks, key=lambda h: (h[0], h[1])) for ln in h]
    if len(out) > limit:
        out = [*out[:limit], f"... ({len(out) - limit} more diff lines)"]
    return out


@dataclass
class Example:
    key: str
    pattern: str
    package: str
    pair: str
    path: str
    unit: str
    reviewbot: str
    lizard: str
    tokens: str
    diff: list[str]


def _rb_numbers(unit: dict[str, Any] | None, codes: Sequence[str]) -> str:
    if unit is None:
        return "no unit"
    m = unit["metrics"]
    b, n, irr, ln = m["branches"], m["nesting"], m["irregularity"], m["lines"]
    text = (
        f"{unit['change']} unit, branches {b['before']} -> {b['after']}, nesting "
        f"{n['before']} -> {n['after']}, irregularity {irr['before']} -> {irr['after']} bits, "
        f"lines {ln['before']} -> {ln['after']}"
    )
    return text + (f"; findings {', '.join(codes)}" if codes else "; no RB101/RB102")


def _lz_numbers(cs: Sequence[Change]) -> str:
    if not cs:
        return "no changed function inside"
    parts = []
    for c in cs[:6]:
        before = "new" if c.old is None else str(c.old.ccn)
        parts.append(f"{c.new.name} (line {c.new.start}) CCN {before} -> {c.new.ccn}")
    more = f" (+{len(cs) - 6} more)" if len(cs) > 6 else ""
    return "; ".join(parts) + more


def flag_example(flag: Flag, pr: PairResult, t: Thresholds) -> Example:
    fd = flag.finding
    unit = flag.unit
    old = _lines(pr.texts.get(("old", fd["path"]), ""), _span(unit["old"]) if unit else None)
    new = _lines(pr.texts.get(("new", fd["path"]), ""), _span(fd["unit"]))
    key = f"{flag.package} {flag.pair} {fd['path']} {fd['unit']['label']}@{fd['unit']['start']}"
    return Example(
        key,
        flag_pattern(flag, t),
        flag.package,
        flag.pair,
        fd["path"],
        f"{fd['unit']['label']} (new lines {fd['unit']['start']}-{fd['unit']['end']})",
        _rb_numbers(unit, [fd["code"]]),
        _lz_numbers(flag.inside),
        token_delta("\n".join(old), "\n".join(new)),
        diff_excerpt(old, new),
    )


def miss_example(c: Change, pr: PairResult) -> Example:
    old_text, new_text = pr.texts.get(("old", c.path), ""), pr.texts.get(("new", c.path), "")
    old = _lines(old_text, (c.old.start, c.old.end) if c.old else None)
    new = _lines(new_text, (c.new.start, c.new.end))
    unit = c.unit
    where = f"{unit['label']} ({c.match})" if unit else "no unit"
    return Example(
        f"{c.package} {c.pair} {c.path} {c.new.name}@{c.new.start}",
        miss_pattern(c)
        if c.old is not None
        else new_miss_pattern(c, c.path in pr.added_files, DEFAULT_THRESHOLDS),
        c.package,
        c.pair,
        c.path,
        f"{c.new.name} (new lines {c.new.start}-{c.new.end}); reviewbot unit: {where}",
        _rb_numbers(unit, c.flags),
        _lz_numbers([c]),
        token_delta("\n".join(old), "\n".join(new)),
        diff_excerpt(old, new),
    )


def pick(examples: list[Example], limit: int) -> list[Example]:
    """Round-robin over patterns (largest first), at most two per package while others are
    left, in a stable order."""
    queues: dict[str, list[Example]] = defaultdict(list)
    for e in sorted(examples, key=lambda e: e.key):
        queues[e.pattern].append(e)
    order = sorted(queues, key=lambda p: (-len(queues[p]), p))
    chosen: list[Example] = []
    per_package: Counter[str] = Counter()
    cap = 2
    while len(chosen) < limit and any(queues.values()):
        progressed = False
        for pattern in order:
            queue = queues[pattern]
            e = next((x for x in queue if per_package[x.package] < cap), None)
            if e is None or len(chosen) >= limit:
                continue
            queue.remove(e)
            chosen.append(e)
            per_package[e.package] += 1
            progressed = True
        if not progressed:
            cap += 1
    return chosen


# -- the report ------------------------------------------------------------------------------


def _pair_of(runs: Sequence[PackageRun], name: str) -> list[PairResult]:
    return [r for run in runs for r in run.results.get(name, [])]


def correlation_rows(results: Sequence[PairResult]) -> list[str]:
    mod = [c for r in results for c in r.changes if c.delta is not None and c.unit is not None]
    same = [c for c in mod if c.match == "same" and c.unit and c.unit["change"] == "modified"]
    rows = []
    for label, pool in (
        ("same unit (the function's own unit, paired as modified)", same),
        ("any mapped unit (incl. a containing unit)", mod),
    ):
        xs = [float(c.unit["metrics"]["branches"]["delta"] or 0) for c in pool if c.unit]
        ys = [float(c.delta or 0) for c in pool]
        rows.append(
            f"| {label} | {len(pool)} | {pearson(xs, ys):.2f} | "
            f"{pearson(ranks(xs), ranks(ys)):.2f} | "
            f"{sum(1 for x, y in zip(xs, ys, strict=True) if x == y)} |"
        )
    return rows


def agreement(results: Sequence[PairResult]) -> list[str]:
    pool = [
        c
        for r in results
        for c in r.changes
        if c.delta is not None and c.match == "same" and c.unit and c.unit["change"] == "modified"
    ]
    cells: Counter[tuple[bool, bool]] = Counter(
        ((c.unit["metrics"]["branches"]["delta"] or 0) >= STRICT, (c.delta or 0) >= STRICT)
        for c in pool
        if c.unit
    )
    return [
        "| | lizard delta >= 3 | lizard delta < 3 |",
        "| --- | ---: | ---: |",
        f"| reviewbot branches delta >= 3 | {cells[True, True]} | {cells[True, False]} |",
        f"| reviewbot branches delta < 3 | {cells[False, True]} | {cells[False, False]} |",
    ]


def score_row(label: str, s: Score) -> str:
    return (
        f"| {label} | {s.flags['RB101']} | {s.flags['RB102']} | {pct(*s.recall)} | "
        f"{pct(*s.precision)} | {pct(*s.recall_loose)} | {pct(*s.precision_loose)} | "
        f"{pct(*s.recall_new)} |"
    )


SCORE_HEAD = [
    "| configuration | RB101 | RB102 | recall (rise >= 3) | precision (>= 3) | "
    "recall (rise >= 2) | precision (>= 2) | recall, dense new functions |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
]


def example_block(e: Example) -> list[str]:
    verdict = VERDICTS.get(e.key, f"(no verdict recorded for this example; pattern: {e.pattern})")
    out = [
        f"**{e.package} {e.pair}, `{e.path}`**: {e.unit}  ",
        f"pattern: {e.pattern}  ",
        f"reviewbot: {e.reviewbot}  ",
        f"lizard: {e.lizard}  ",
        f"decision tokens gained or lost (the bench's rough count): {e.tokens}  ",
        "changed lines (indentation ignored; hunks with decision tokens first, line numbers "
        "relative to the unit):",
        "",
        "```diff",
        *(e.diff or ["(no difference inside the unit but indentation)"]),
        "```",
        "",
        f"Verdict: {verdict}",
        "",
    ]
    return out


def para(text: str) -> list[str]:
    return [*textwrap.wrap(" ".join(text.split()), width=100), ""]


def provenance() -> str:
    head = _git(ROOT, "rev-parse", "--short", "HEAD").decode().strip()
    dirty = _git(ROOT, "status", "--porcelain", "--", "reviewbot").decode().strip()
    state = " with uncommitted changes under reviewbot/" if dirty else ""
    return f"reviewbot at commit {head}{state}, lizard {lizard.version}"


def render(
    runs: Sequence[PackageRun],
    names: Sequence[str],
    seconds: float,
    command: str,
    source: str | None = None,
) -> str:
    ok = [r for r in runs if r.problem is None]
    default = _pair_of(ok, "default")
    t = SWEEP["default"]
    out = ["# Real-world benchmark: reviewbot findings vs lizard CCN deltas", ""]
    out += para(
        "Published releases of real packages written by other people (their own source files "
        "only: no tests, no type declarations, no compiled output), one git commit per release; "
        "each pair below is two releases adjacent in their registry (for the Go packages, "
        "adjacent Debian suites: bookworm, trixie, sid). reviewbot reviews each `vA..vB`; "
        "lizard analyses both sides of every changed file. A lizard function is *changed* when "
        "its whitespace-normalised text differs or it is new; *modified* ones have "
        "`delta = CCN(new) - CCN(old)`; new ones are scored apart (CCN - 1 >= "
        f"{new_bar()}, RB102's default `new_unit_branches`, counts as dense). Recall counts a "
        "lizard rise as flagged when an RB101/RB102 finding sits on the function's reviewbot "
        "unit (the innermost changed unit holding its first line) or on a unit holding that "
        "one. Precision counts a finding as confirmed when its unit holds a changed lizard "
        "function with delta >= 3 (or a dense new one). Details: the docstring of "
        "`bench/realworld.py`."
    )
    out += para(
        f"Run with {source or provenance()}, in {seconds / 60:.1f} min on this 2-core machine "
        "(shared with other work while it ran)."
    )
    out += ["Reproduce (downloads are cached under `bench/.corpus/realworld/`):", ""]
    out += ["```bash", command, "```", "", "## Corpus", ""]
    out += [
        "| package | registry | language | release pairs | changed files | lizard functions "
        "changed (modified + new) | reviewbot units changed | RB101 | RB102 |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in runs:
        pkg = run.package
        pairs = ", ".join(f"{a} -> {b}" for a, b in pkg.reviewed)
        if run.problem is not None:
            out.append(
                f"| {pkg.name} | {pkg.registry} | {pkg.language} | {pairs} | "
                f"skipped: {run.problem} | | | | |"
            )
            continue
        rs = run.results["default"]
        changes = [c for r in rs for c in r.changes]
        mod = sum(1 for c in changes if c.old is not None)
        findings: Counter[str] = sum((r.findings for r in rs), Counter())
        out.append(
            f"| {pkg.name} | {pkg.registry} | {pkg.language} | {pairs} | "
            f"{sum(r.files for r in rs)} | {mod} + {len(changes) - mod} | "
            f"{sum(r.units for r in rs)} | {findings['RB101']} | {findings['RB102']} |"
        )
    langs = sorted({r.package.language for r in ok})
    changes = [c for r in default for c in r.changes]
    skipped = sorted({f"{r.package} `{p}` ({why})" for r in default for p, why in r.skipped})
    out.append("")
    out += para(
        f"{len(ok)} packages in {len(langs)} languages ({', '.join(langs)}), {len(default)} "
        f"release pairs, {len(changes)} changed lizard functions "
        f"({sum(1 for c in changes if c.old is not None)} modified, "
        f"{sum(1 for c in changes if c.old is None)} new). Files reviewbot skipped, so not "
        f"scored: {'; '.join(skipped) if skipped else 'none'}."
    )
    rise = [c for c in changes if c.delta is not None and c.delta >= STRICT]
    fmt = [c for c in rise if reformatted(c)]
    nounit = [c for c in rise if c.match == "none" and not reformatted(c)]
    real = [c for c in rise if not reformatted(c) and c.match != "none"]
    out += [
        "## Headline (default thresholds)",
        "",
        *SCORE_HEAD,
        score_row("default", score(default)),
    ]
    out.append("")
    out += para(
        f"Of the {len(rise)} lizard rises >= 3, {len(fmt)} are in functions whose tokens did not "
        "change (pure reformatting, so lizard's own count moved) and "
        f"{len(nounit)} lie where reviewbot has no unit at all; without those, recall is "
        f"{pct(sum(1 for c in real if c.flags), len(real))}."
    )
    flags = [f for r in default for f in r.flags]
    summed = sum(1 for f in flags if any(rises(c, STRICT) for c in f.inside) or lizard_sum(f) >= 3)
    nested = sum(
        1
        for f in flags
        if is_container(f)
        and any(
            g is not f
            and g.finding["path"] == f.finding["path"]
            and _holds(_span(f.finding["unit"]) or (0, 0), _span(g.finding["unit"]) or (0, 0))
            for g in flags
            if (g.package, g.pair) == (f.package, f.pair)
        )
    )
    out += para(
        "Scored at reviewbot's granularity instead (lizard's deltas summed over every changed "
        "function inside the flagged unit, nested functions and methods included), precision "
        f"is {pct(summed, len(flags))}. {nested} of the {sum(1 for f in flags if is_container(f))} "
        "findings on container units (class, interface, ...) repeat a finding on a unit inside "
        "them."
    )
    out += ["Per language:", ""]
    out += [ln.replace("| configuration |", "| language |") for ln in SCORE_HEAD]
    for lang in langs:
        sub = [r for run in ok if run.package.language == lang for r in run.results["default"]]
        out.append(score_row(lang, score(sub)))
    out += [
        "",
        "Correlation of reviewbot's `branches` delta with lizard's CCN delta, modified functions:",
        "",
        "| functions | n | Pearson | Spearman | equal deltas |",
        "| --- | ---: | ---: | ---: | ---: |",
        *correlation_rows(default),
        "",
        "On the function's own unit (modified functions mapped to a same, modified unit):",
        "",
        *agreement(default),
        "",
    ]
    by_pair = {(r.package, r.pair): r for r in default}
    fps = [f for r in default for f in r.flags if not any(rises(c, STRICT) for c in f.inside)]
    fns = [c for c in rise if not c.flags]
    dense = [
        (c, c.path in by_pair[c.package, c.pair].added_files)
        for c in changes
        if c.delta is None and c.new.ccn - 1 >= new_bar() and not c.flags
    ]
    out += ["## What drives the disagreements", ""]
    out += [f"reviewbot flags, lizard has no rise >= 3 inside ({len(fps)} findings):", ""]
    out += ["| pattern | findings |", "| --- | ---: |"]
    out += [f"| {p} | {n} |" for p, n in Counter(flag_pattern(f, t) for f in fps).most_common()]
    out += ["", f"lizard rises >= 3, reviewbot silent ({len(fns)} functions):", ""]
    out += ["| pattern | functions |", "| --- | ---: |"]
    out += [f"| {p} | {n} |" for p, n in Counter(miss_pattern(c) for c in fns).most_common()]
    out += ["", f"Dense new lizard functions (CCN - 1 >= {new_bar()}) with no finding:", ""]
    out += ["| pattern | functions |", "| --- | ---: |"]
    dense_patterns = Counter(new_miss_pattern(c, added, t) for c, added in dense)
    out += [f"| {p} | {n} |" for p, n in dense_patterns.most_common()]
    out += [""]
    out += para(
        "The verdicts below were written after reading each change, with reviewbot at commit "
        f"{VERDICTS_REVIEWBOT}; the numbers beside them are this run's."
    )
    out += ["### reviewbot flags, lizard does not", ""]
    for e in choose([flag_example(f, by_pair[f.package, f.pair], t) for f in fps]):
        out += example_block(e)
    out += ["### lizard rises >= 3 (or a dense new function), reviewbot silent", ""]
    misses = [*fns, *(c for c, _ in dense)]
    for e in choose([miss_example(c, by_pair[c.package, c.pair]) for c in misses]):
        out += example_block(e)
    out += ["## Other thresholds", ""]
    out += para(
        "Each row is a full run with one threshold changed from the default; lizard's criteria "
        "stay fixed. The rows after them are emulations in the benchmark, not reviewbot "
        "options, applied to the findings of the run named: `+ no class-level flags` drops the "
        "RB101/RB102 findings whose unit is a container (class, interface, struct, ...); `+ "
        "fixed RB102 bar in new files` adds an RB102 for every new unit of a new file with at "
        "least `new_unit_branches` decision points over `new_unit_min_lines` lines (instead of "
        "the file's own p90 + 1, which the file's largest units set for themselves)."
    )
    out += SCORE_HEAD
    for name in names:
        out.append(score_row(name, score(_pair_of(ok, name))))
    for name in ("default", NO_IRREGULARITY):
        if name in names:
            out.append(score_row(f"{name} + no class-level flags", score(_pair_of(ok, name), True)))
    out.append(score_row("default + fixed RB102 bar in new files", score(default, fixed_bar=True)))
    if NO_IRREGULARITY in names:
        both = score(_pair_of(ok, NO_IRREGULARITY), drop_containers=True, fixed_bar=True)
        out.append(score_row(f"{NO_IRREGULARITY} + both emulations", both))
    out.append("")
    return "\n".join(out)


def _changed_lines(pkg: Package, a: str, b: str) -> int:
    out = _git(REPOS / pkg.slug, "diff", "--shortstat", f"v{a}", f"v{b}").decode()
    return sum(int(w) for w in re.findall(r"(\d+) (?:insertion|deletion)", out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packages", default="", help="comma-separated subset of package names")
    ap.add_argument("--no-sweep", action="store_true", help="default thresholds only")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument(
        "--out", type=Path, default=BENCH / "results" / "realworld.md", help="Markdown report"
    )
    ap.add_argument("--json", type=Path, default=None, help="also write per-function rows")
    args = ap.parse_args(argv)
    wanted = {x.strip() for x in args.packages.split(",") if x.strip()}
    unknown = wanted - {p.name for p in PACKAGES}
    if unknown:
        ap.error(f"unknown package(s) {', '.join(sorted(unknown))}")
    packages = [p for p in PACKAGES if not wanted or p.name in wanted]
    names = ("default",) if args.no_sweep else tuple(SWEEP)
    started = time.perf_counter()
    source = provenance()  # before the run: the tree may change while it runs
    problems: dict[str, str] = {}
    for pkg in packages:  # fetch and build one at a time (apt and npm caches are shared)
        try:
            build_repo(pkg)
        except Unavailable as exc:
            problems[pkg.name] = str(exc)
            print(
                f"{pkg.name}: skipped, could not fetch its releases (network or registry "
                f"refused?): {exc}",
                file=sys.stderr,
            )
    jobs = [(p, a, b, names) for p in packages if p.name not in problems for a, b in p.reviewed]
    jobs.sort(key=lambda j: -_changed_lines(j[0], j[1], j[2]))  # longest first
    if args.jobs > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_pair, jobs))
        done = {(j[0].name, j[1], j[2]): r for j, r in zip(jobs, results, strict=True)}
    else:
        done = {(j[0].name, j[1], j[2]): run_pair(j) for j in jobs}
    runs = []
    for p in packages:
        if p.name in problems:
            runs.append(PackageRun(p, {}, problems[p.name]))
            continue
        per_pair = [done[p.name, a, b] for a, b in p.reviewed]
        runs.append(PackageRun(p, {n: [r[n] for r in per_pair] for n in names}))
    if not any(r.problem is None for r in runs):
        print("no package could be fetched; nothing to score", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    command = " ".join(
        [".venv/bin/python", "bench/realworld.py", *(sys.argv[1:] if argv is None else argv)]
    )
    text = render(runs, names, seconds, command, source)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    print(f"\nwrote {args.out} in {seconds:.0f} s", file=sys.stderr)
    if args.json is not None:
        rows = [
            {
                "package": c.package,
                "pair": c.pair,
                "path": c.path,
                "function": c.new.name,
                "start": c.new.start,
                "end": c.new.end,
                "ccn_old": c.old.ccn if c.old else None,
                "ccn_new": c.new.ccn,
                "reformatted": reformatted(c),
                "match": c.match,
                "unit": c.unit,
                "flags": c.flags,
            }
            for c in (c for r in _pair_of(runs, "default") for c in r.changes)
        ]
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
