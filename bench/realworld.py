"""Real-world benchmark: reviewbot's per-unit findings against lizard's per-function CCN deltas.

The corpus is consecutive published releases of real packages written by other people (PyPI
wheels, npm tarballs, Debian's Go source packages), pinned below in ``PACKAGES``. Each package
becomes a git repository under ``bench/.corpus/realworld/repos/`` with one commit (tag
``v<version>``) per release holding only the package's own source files (no tests, no type
declarations, no minified or compiled output), in the same relative layout. reviewbot reviews
``v<a>..v<b>`` for each consecutive pair; lizard analyses both sides of every changed file.

Per consecutive pair:

* lizard functions are matched old <-> new by file (renames followed) and name, then long name,
  then order; a function is *changed* when its whitespace-normalised lines differ, or it is new.
  Modified functions have ``delta = CCN(new) - CCN(old)``; new functions have no delta and are
  scored separately (decision points = CCN - 1, compared with RB102's ``new_unit_branches``).
* each changed lizard function maps to the innermost reviewbot unit (of those listed as changed)
  whose new range holds its start line (+-1 when none holds it exactly); "same" when that unit
  starts within 3 lines before or 1 after the function (decorators), else "containing".
* recall: of modified functions with delta >= 3, those with an RB101/RB102 finding on the mapped
  unit or on any unit containing the function's start line;
  precision: of RB101/RB102 findings, those whose unit holds a changed lizard function with
  delta >= 3 or a new one with CCN - 1 >= new_unit_branches (8).
  The same with delta >= 2, and correlations of reviewbot's ``branches`` delta with lizard's
  delta over modified functions mapped to a "same" modified unit.

Downloads go to ``bench/.corpus/realworld/`` (git-ignored) and are reused; a package that cannot
be fetched is skipped with the registry's message. Usage::

    .venv/bin/python bench/realworld.py [--packages click,zod] [--no-sweep]
                                        [--out bench/results/realworld.md] [--json PATH]
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import lizard

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reviewbot.analysis.findings import Thresholds  # noqa: E402
from reviewbot.config import Config  # noqa: E402
from reviewbot.render.report_json import report_doc  # noqa: E402
from reviewbot.review import run_review  # noqa: E402

CORPUS = BENCH / ".corpus" / "realworld"
DOWNLOADS = CORPUS / "downloads"
REPOS = CORPUS / "repos"
APT = CORPUS / "apt"
FLAGS = ("RB101", "RB102")
STRICT, LOOSE = 3, 2


# -- the corpus ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Package:
    name: str  # the registry's name
    registry: str  # "pypi" (wheel), "npm" (npm pack) or "debian" (a golang-*-dev .deb)
    language: str
    versions: tuple[str, ...]  # consecutive releases, oldest first
    roots: tuple[str, ...]  # folders or files kept, relative to ``base``
    base: str = ""  # folder inside the archive that the repository's root mirrors

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
    Package("zod", "npm", "typescript", ("4.1.12", "4.1.13", "4.2.0"), ("src",)),
    Package(
        "@trpc/server", "npm", "typescript", ("11.0.0", "11.1.0", "11.2.0", "11.3.0"), ("src",)
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
    spec = json.dumps([pkg.registry, pkg.versions, pkg.roots, pkg.base, NOT_SOURCE])
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
