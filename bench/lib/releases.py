"""Pinned consecutive releases of real packages, one git repository per package.

The corpus is published releases of packages written by other people (PyPI wheels, npm
tarballs, Debian's golang-*-dev packages), pinned in ``PACKAGES``; each reviewed pair is two
releases adjacent in its registry (for Debian, adjacent suites: bookworm, trixie, sid). Each
package becomes a git repository under ``bench/.corpus/realworld/repos/`` with one commit (tag
``v<version>``) per release holding only the package's own source files (no tests, no type
declarations, no minified or compiled output), in the same relative layout. Downloads go to
``bench/.corpus/realworld/downloads`` and are reused. Used by ``bench/realworld.py`` and
``bench/bundles_quality.py``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lib.common import CORPUS, git, git_bytes, write_tree
from lib.corpora import (
    Unavailable,
    archive_members,
    debian_package,
    npm_tarball,
    pip_wheel,
    slug,
)

__all__ = [
    "PACKAGES",
    "REPOS",
    "Package",
    "Unavailable",
    "build_repo",
    "changed_lines",
    "fetch",
    "packages",
    "show",
    "source_files",
]

HOME = CORPUS / "realworld"
DOWNLOADS = HOME / "downloads"
REPOS = HOME / "repos"
APT = HOME / "apt"


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
        return slug(self.name)

    @property
    def repo(self) -> Path:
        return REPOS / self.slug


GOCODE = "usr/share/gocode/src/"
# Never the repositories reserved for independent checks (see DEVELOPERS.md): requests,
# httpx, flask and cobra were in this list until 2026-11-30 and were taken out.
PACKAGES: tuple[Package, ...] = (
    Package("click", "pypi", "python", ("8.1.7", "8.1.8", "8.2.0", "8.2.1"), ("click",)),
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


def packages(names: str) -> list[Package]:
    """The packages named in a comma-separated list (all of them for an empty one); an
    argparse ``type``."""
    wanted = {x.strip() for x in names.split(",") if x.strip()}
    unknown = wanted - {p.name for p in PACKAGES}
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown package(s) {', '.join(sorted(unknown))}")
    return [p for p in PACKAGES if not wanted or p.name in wanted]


def fetch(pkg: Package, version: str) -> Path:
    """The release's archive, downloaded once."""
    dest = DOWNLOADS / pkg.registry
    dest.mkdir(parents=True, exist_ok=True)
    try:
        if pkg.registry == "pypi":
            return pip_wheel(pkg.name, version, dest)
        if pkg.registry == "npm":
            return npm_tarball(pkg.name, version, dest)
        return debian_package(pkg.name, version, dest, APT, DEBIAN_SUITES)
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
        raise Unavailable(f"{pkg.name} {version}: {exc}") from None


def is_source(rel: PurePosixPath) -> bool:
    name = rel.name
    if not name.endswith(SOURCE_SUFFIXES) or name.endswith(NOT_SOURCE):
        return False
    if name.startswith("test_") or name.endswith("_test.py") or ".spec." in name:
        return False
    return not TEST_DIRS & set(rel.parts[:-1])


def source_files(pkg: Package, archive: Path) -> dict[str, bytes]:
    """The package's own source files in a release's archive, by path in the repository."""
    base = "package/" if pkg.registry == "npm" else pkg.base
    files: dict[str, bytes] = {}
    for name, data in archive_members(archive):
        if not name.startswith(base):
            continue
        rel = name[len(base) :]
        if not any(r == "" or rel == r or rel.startswith(r.rstrip("/") + "/") for r in pkg.roots):
            continue
        if is_source(PurePosixPath(rel)):
            files[rel] = data
    return files


def build_repo(pkg: Package) -> Path:
    """One commit per release, tagged ``v<version>``; rebuilt only when the pins change."""
    repo = pkg.repo
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
    git(repo, "init", "-q", "-b", "main")
    for version, archive in zip(pkg.versions, archives, strict=True):
        files = source_files(pkg, archive)
        if not files:
            raise Unavailable(f"{pkg.name} {version}: no source files under {pkg.roots}")
        write_tree(repo, files)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", f"{pkg.name} {version}")
        git(repo, "tag", f"v{version}")
    stamp.write_text(spec)
    return repo


def show(repo: Path, version: str, path: str) -> str:
    """A file of a release, as text (undecodable bytes replaced)."""
    return git_bytes(repo, "show", f"v{version}:{path}").decode("utf-8", errors="replace")


def changed_lines(pkg: Package, a: str, b: str) -> int:
    """Lines added and removed between two releases (the work a pair holds)."""
    out = git(pkg.repo, "diff", "--shortstat", f"v{a}", f"v{b}")
    return sum(int(w) for w in re.findall(r"(\d+) (?:insertion|deletion)", out))
