"""Real source text for the benchmarks, and packages fetched from registries.

Local sources: the running interpreter's standard library (always there), Go's (Debian
golang-1.19-src) and the JDK's (``src.zip`` of openjdk-17-source) where installed. Registries,
through their own clients: PyPI wheels (``pip download``), npm tarballs (``npm pack``) and Debian
packages (``apt-get download`` with a private apt state under ``bench/.corpus``: the machine's
own apt setup is not touched). Everything fetched or extracted stays under ``bench/.corpus``
(git-ignored) and is reused; what cannot be had here raises :class:`Unavailable`.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from lib.common import CORPUS

T = TypeVar("T")

STDLIB = Path(sysconfig.get_paths()["stdlib"])
GO_SRC = Path("/usr/share/go-1.19/src")
JDK_HOME = Path("/usr/lib/jvm/java-17-openjdk-amd64")
JDK_SRC_ZIP = JDK_HOME / "lib" / "src.zip"
JDK_UTIL = "java.base/java/util/"


class Unavailable(Exception):
    """A corpus or a release cannot be had on this machine; what needs it is skipped."""


# -- sampling ------------------------------------------------------------------------------------


def evenly(items: Sequence[T], n: int) -> list[T]:
    """``n`` evenly spaced items of ``items`` (all of them when there are fewer)."""
    if len(items) <= n:
        return list(items)
    return [items[(i * len(items)) // n] for i in range(n)]


def balanced(groups: dict[str, list[T]], n: int) -> list[T]:
    """``n`` items spread as evenly as possible over groups, evenly spaced inside each group."""
    quota = {g: 0 for g in groups}
    left = n
    open_groups = [g for g in sorted(groups) if groups[g]]
    while left > 0 and open_groups:
        share = max(1, left // len(open_groups))
        for g in list(open_groups):
            take = min(share, len(groups[g]) - quota[g], left)
            quota[g] += take
            left -= take
            if quota[g] >= len(groups[g]):
                open_groups.remove(g)
            if left == 0:
                break
    out: list[T] = []
    for g in sorted(groups):
        out += evenly(groups[g], quota[g])
    return out


def line_count(path: Path) -> int:
    data = path.read_bytes()
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def sized(paths: Sequence[tuple[str, Path]], lo: int, hi: int) -> list[tuple[str, Path]]:
    """The (name, path) pairs whose file has ``lo``..``hi`` lines, sorted."""
    return sorted((name, p) for name, p in paths if lo <= line_count(p) <= hi)


# -- local sources -------------------------------------------------------------------------------


def stdlib_modules() -> list[Path]:
    """The standard library's top-level ``*.py`` files, sorted."""
    return sorted(STDLIB.glob("*.py"))


def stdlib_files(top_level_only: bool = False, python_only: bool = True) -> dict[str, Path]:
    """Repository path (``py/...``) -> file of the standard library (no site-packages, caches
    or links)."""
    found: dict[str, Path] = {}
    pattern = "*.py" if python_only else "*"
    paths = STDLIB.glob(pattern) if top_level_only else STDLIB.rglob(pattern)
    for p in sorted(paths):
        rel = p.relative_to(STDLIB)
        if rel.parts[0] == "site-packages" or "__pycache__" in rel.parts:
            continue
        if p.is_file() and not p.is_symlink():
            found["py/" + rel.as_posix()] = p
    return found


def go_files(go_only: bool = True) -> dict[str, Path]:
    """Repository path (``go/...``) -> file of Go's sources (``go_only``: ``*.go`` outside
    ``testdata``); empty when they are not installed."""
    if not GO_SRC.is_dir():
        return {}
    pattern = "*.go" if go_only else "*"
    found: dict[str, Path] = {}
    for p in sorted(GO_SRC.rglob(pattern)):
        rel = p.relative_to(GO_SRC)
        if go_only and "testdata" in rel.parts:
            continue
        if p.is_file() and not p.is_symlink():
            found["go/" + rel.as_posix()] = p
    return found


def go_sources() -> list[Path]:
    """Go's own ``*.go`` files, no tests and no ``testdata``, sorted (empty when absent)."""
    if not GO_SRC.is_dir():
        return []
    return sorted(
        p
        for p in GO_SRC.rglob("*.go")
        if not p.name.endswith("_test.go") and "testdata" not in p.relative_to(GO_SRC).parts
    )


def jdk_sources(prefix: str = JDK_UTIL) -> list[tuple[str, bytes]]:
    """(name, content) of the JDK's ``*.java`` files under ``prefix`` in ``src.zip``, sorted
    (empty when it is not installed)."""
    if not JDK_SRC_ZIP.is_file():
        return []
    with zipfile.ZipFile(JDK_SRC_ZIP) as zf:
        return [
            (name, zf.read(name))
            for name in sorted(zf.namelist())
            if name.startswith(prefix) and name.endswith(".java") and ".." not in name
        ]


def dpkg_version(package: str) -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def jdk_version() -> str:
    release = JDK_HOME / "release"
    if release.is_file():
        for line in release.read_text(errors="replace").splitlines():
            if line.startswith("JAVA_RUNTIME_VERSION="):
                return line.split("=", 1)[1].strip('"')
    return dpkg_version("openjdk-17-source")


def extracted_jdk(prefix: str = JDK_UTIL) -> tuple[Path, str]:
    """The JDK's sources under ``prefix`` extracted once into ``bench/.corpus/jdk-<version>``:
    (the folder, the version)."""
    version = jdk_version()
    dest = CORPUS / f"jdk-{version}"
    marker = dest / ".extracted"
    if not marker.is_file():
        sources = jdk_sources(prefix)
        if not sources:
            raise Unavailable(f"{JDK_SRC_ZIP} not found (apt-get install openjdk-17-source)")
        print(f"extracting {prefix}** from {JDK_SRC_ZIP} into {dest}", file=sys.stderr)
        for name, data in sources:
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        marker.write_text(str(JDK_SRC_ZIP) + "\n")
    return dest, version


# -- registries ----------------------------------------------------------------------------------


def run(cmd: Sequence[str], cwd: Path | None = None, timeout: int = 600) -> str:
    """A registry client's output; its last words in :class:`Unavailable` when it fails."""
    try:
        out = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unavailable(f"`{' '.join(cmd[:4])} ...` failed: {exc}") from None
    if out.returncode != 0:
        said = [
            ln.strip()
            for ln in (out.stderr or out.stdout).splitlines()
            if ln.strip() and "complete log" not in ln
        ]
        raise Unavailable(f"`{' '.join(cmd[:4])} ...` failed: {' | '.join(said[-3:])}")
    return out.stdout


def slug(name: str) -> str:
    """A package name as a file name: ``@trpc/server`` -> ``trpc-server``."""
    return name.lstrip("@").replace("/", "-")


def pip_wheel(name: str, version: str, dest: Path) -> Path:
    """The pure-Python wheel of ``name==version`` in ``dest`` (``pip download`` once)."""
    stem = name.replace("-", "_")
    found = sorted(dest.glob(f"{stem}-{version}-*.whl"))
    if not found:
        dest.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
        cmd += ["--platform", "any", "--implementation", "py", "--python-version", "3.12"]
        run([*cmd, "--dest", str(dest), f"{name}=={version}", "-q"])
        found = sorted(dest.glob(f"{stem}-{version}-*.whl"))
    if not found:
        raise Unavailable(f"pip download {name}=={version} left no wheel in {dest}")
    return found[0]


def npm_tarball(name: str, version: str, dest: Path) -> Path:
    """``dest/<slug>-<version>.tgz``, from ``npm pack`` once."""
    target = dest / f"{slug(name)}-{version}.tgz"
    if target.is_file():
        return target
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed")
    dest.mkdir(parents=True, exist_ok=True)
    print(f"npm pack {name}@{version}", file=sys.stderr)
    cmd = [npm, "pack", f"{name}@{version}", "--pack-destination", str(dest), "--json"]
    try:
        packed = dest / json.loads(run(cmd, timeout=300))[0]["filename"]
    except (ValueError, KeyError, IndexError) as exc:
        raise Unavailable(f"npm pack {name}@{version}: unexpected answer ({exc})") from None
    if packed != target:
        packed.rename(target)
    return target


def npm_sources(name: str, version: str, keep: Callable[[str], bool]) -> Path:
    """``bench/.corpus/npm/<slug>-<version>/package``: the members of the npm tarball that
    ``keep`` accepts (by member name, ``package/...``), extracted once."""
    npm_dir = CORPUS / "npm"
    dest = npm_dir / f"{slug(name)}-{version}"
    if (dest / ".extracted").is_file():
        return dest / "package"
    tgz = npm_tarball(name, version, npm_dir)
    with tarfile.open(tgz) as tf:
        members = [m for m in tf.getmembers() if m.isfile() and keep(m.name)]
        tf.extractall(dest, members=members, filter="data")
    (dest / ".extracted").write_text(f"{name}@{version}\n")
    return dest / "package"


def _apt_options(apt: Path) -> list[str]:
    return [
        f"-oDir::Etc::SourceList={apt / 'sources.list'}",
        "-oDir::Etc::SourceParts=/dev/null",
        f"-oDir::State::Lists={apt / 'lists'}",
        f"-oDir::Cache={apt / 'cache'}",
        "-oDir::State::status=/var/lib/dpkg/status",
        "-oAPT::Sandbox::User=root",
    ]


def debian_package(name: str, version: str, dest: Path, apt: Path, suites: Sequence[str]) -> Path:
    """The ``.deb`` of ``name=version`` in ``dest``, from ``apt-get download`` with a private
    apt state in ``apt`` that lists ``suites`` (``apt-get update`` once)."""
    quoted = version.replace(":", "%3a")
    found = sorted(dest.glob(f"{name}_{quoted}_*.deb"))
    if found:
        return found[0]
    apt_get = shutil.which("apt-get")
    if apt_get is None or shutil.which("dpkg-deb") is None:
        raise Unavailable("apt-get/dpkg-deb not found (Debian's packages need them)")
    if not (apt / "lists").is_dir() or not any((apt / "lists").glob("*Packages*")):
        for sub in ("lists/partial", "cache/archives/partial"):
            (apt / sub).mkdir(parents=True, exist_ok=True)
        keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
        (apt / "sources.list").write_text(
            "".join(
                f"deb [signed-by={keyring}] http://deb.debian.org/debian {suite} main\n"
                for suite in suites
            )
        )
        print(f"apt-get update (private lists: {', '.join(suites)})", file=sys.stderr)
        run([apt_get, *_apt_options(apt), "update"])
    dest.mkdir(parents=True, exist_ok=True)
    run([apt_get, *_apt_options(apt), "download", f"{name}={version}"], cwd=dest)
    found = sorted(dest.glob(f"{name}_{quoted}_*.deb"))
    if not found:
        raise Unavailable(f"apt-get download {name}={version} left no .deb in {dest}")
    return found[0]


def archive_members(archive: Path) -> Iterator[tuple[str, bytes]]:
    """(name, content) of every file in a wheel, a ``.tgz`` or a ``.deb`` (its data tarball)."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir():
                    yield info.filename, zf.read(info)
        return
    if archive.suffix == ".tgz":
        data, strip = archive.read_bytes(), ""
    else:  # .deb: the data tarball, through dpkg-deb
        data = subprocess.run(
            ["dpkg-deb", "--fsys-tarfile", str(archive)], capture_output=True, check=True
        ).stdout
        strip = "./"
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        for m in tf.getmembers():
            f = tf.extractfile(m) if m.isfile() else None
            if f is not None:
                yield m.name.removeprefix(strip), f.read()
