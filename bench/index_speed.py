"""How fast is the repository index on a real repository of over 600,000 lines?

The corpus: Django's source distribution (its code and its tests) and Pygments' wheel, both
from PyPI through pip, unpacked into one git repository committed in a temporary folder.
Measured, each as a whole process (interpreter start included, as a user runs it): a cold
``reviewbot index``, an update after a commit that edits 10 files, and the queries ``refs``,
``callers`` and ``search`` (median of 5 runs each); the peak memory of the cold build and the
index's size on disk. Then a repository of over 2,000,000 lines: the JDK's class library
(``src.zip`` of Debian's openjdk-17-source, through ``apt-get download``), indexed cold once:
time, CPU, peak memory and size on disk (``--no-large`` leaves it out). Results go to
``bench/results/index_speed.md``.

    python bench/index_speed.py
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from lib.common import CORPUS, ENV, ROOT, command_line, git, revision, write_result
from lib.corpora import Unavailable, archive_members, run
from lib.procs import tool

PACKAGES = (("django", "sdist"), ("pygments", "wheel"))
LARGE = "openjdk-17-source"
LARGE_ZIP = "usr/lib/jvm/openjdk-17/lib/src.zip"
QUERY_RUNS = 5
# The previous run of this script at a quiet moment (main at commit f5e11f4, load average about
# 1), kept for the before/after columns: (wall, CPU) seconds. Under load, compare CPU, and
# compare versions side by side with index_ab.py.
BEFORE_COMMIT = "f5e11f4"
BEFORE = {
    "cold": (13.12, 19.87),
    "update": (1.57, 1.48),
    "refs": (0.100, 0.099),
    "callers": (0.103, 0.103),
    "search": (0.108, 0.107),
}


def fetch(name: str, kind: str) -> Path:
    dest = CORPUS / "index-speed"
    dest.mkdir(parents=True, exist_ok=True)
    found = sorted(dest.glob(f"{name}-*.tar.gz" if kind == "sdist" else f"{name}-*.whl"))
    found = found or sorted(dest.glob(f"{name.capitalize()}-*"))
    if not found:
        only = ["--no-binary", ":all:"] if kind == "sdist" else ["--only-binary", ":all:"]
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                *only,
                "-q",
                "-d",
                str(dest),
                name,
            ]
        )
        found = sorted(p for p in dest.iterdir() if p.name.lower().startswith(name))
    if not found:
        raise Unavailable(f"pip download {name} left nothing in {dest}")
    return found[-1]


def fetch_large() -> Path:
    """The .deb of the JDK's sources (``apt-get download``, kept under bench/.corpus)."""
    dest = CORPUS / "index-large"
    dest.mkdir(parents=True, exist_ok=True)
    found = sorted(dest.glob(f"{LARGE}_*.deb"))
    if not found:
        run(["apt-get", "download", LARGE], cwd=dest)
        found = sorted(dest.glob(f"{LARGE}_*.deb"))
    if not found:
        raise Unavailable(f"apt-get download {LARGE} left nothing in {dest}")
    return found[-1]


def unpack_large(deb: Path, into: Path) -> None:
    """Every ``.java`` file of the package's ``src.zip``."""
    for name, data in archive_members(deb):
        if name != LARGE_ZIP:
            continue
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for member in zf.namelist():
                if member.endswith(".java") and ".." not in member:
                    target = into / member
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(member))
        return
    raise Unavailable(f"{deb.name} has no {LARGE_ZIP}")


def corpus_repo(archives: list[Path], repo: Path) -> Path:
    """The archives unpacked into one new git repository at ``repo``, committed and packed (as
    a clone is; and no `git gc --auto` left running in the background)."""
    repo.mkdir()
    for archive in archives:
        unpack(archive, repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")
    git(repo, "gc", "-q")
    return repo


def unpack(archive: Path, into: Path) -> None:
    if archive.name.endswith(".whl"):
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                if ".." in name or name.endswith("/"):
                    continue
                target = into / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(name))
        return
    with tarfile.open(archive) as tf:
        for member in tf.getmembers():
            if not member.isfile() or ".." in member.name:
                continue
            data = tf.extractfile(member)
            if data is None:
                continue
            rel = member.name.split("/", 1)[1] if "/" in member.name else member.name
            target = into / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data.read())


class Timed:
    """Wall and CPU seconds (user + system, the process and its workers) of one run."""

    def __init__(self, wall: float, cpu: float) -> None:
        self.wall = wall
        self.cpu = cpu


def timed(argv: list[str], out: Path) -> Timed:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with out.open("wb") as sink:
        proc = subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv[:4])}... exited {proc.returncode}: {proc.stderr[-2000:]!r}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu)


def median(runs: list[Timed]) -> Timed:
    return Timed(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs))


def code_lines(repo: Path) -> int:
    total = 0
    for p in repo.rglob("*"):
        if (
            p.is_file()
            and ".git" not in p.parts
            and p.suffix in (".py", ".js", ".ts", ".go", ".java")
        ):
            total += p.read_bytes().count(b"\n")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/index_speed.md")
    parser.add_argument("--no-large", action="store_true", help="skip the 2M-line repository")
    args = parser.parse_args(argv)
    out_file = Path(args.out).resolve()
    here = Path.cwd()
    archives = [fetch(name, kind) for name, kind in PACKAGES]
    # Byte-compiled, as `pip install` leaves a package: with PYTHONDONTWRITEBYTECODE set (as on
    # this machine) an editable checkout would compile every module again in every process
    # (about 0.1 s of each update and query).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "reviewbot")], check=True)
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-bench-") as tmp:
        repo = corpus_repo(archives, Path(tmp) / "repo")
        lines = code_lines(repo)
        database = Path(tmp) / "index.sqlite"
        env = {**ENV, "REVIEWBOT_INDEX": str(database)}
        os.environ.update(env)
        reviewbot = tool("reviewbot")
        os.chdir(repo)
        out = Path(tmp) / "out.json"
        load_before = os.getloadavg()[0]
        cold = timed([*reviewbot, "index", "--format", "json"], out)
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        cold_doc = json.loads(out.read_text())
        # A commit that edits 10 files.
        edited = sorted(p for p in repo.rglob("*.py") if "/django/db/" in str(p))[:10]
        for k, path in enumerate(edited):
            path.write_text(path.read_text() + f"\n\ndef bench_added_{k}():\n    return {k}\n")
        git(repo, "commit", "-qam", "edit 10 files")
        update = timed([*reviewbot, "index", "--format", "json"], out)
        update_doc = json.loads(out.read_text())
        queries = {
            "refs": ["refs", "django/db/models/query.py:1500"],
            "callers": ["callers", "django/db/models/query.py:1500"],
            "search": ["search", "reverse url resolver"],
        }
        timings = {}
        for name, argv_q in queries.items():
            runs = [
                timed([*reviewbot, *argv_q, "--format", "json"], out) for _ in range(QUERY_RUNS)
            ]
            timings[name] = median(runs)
        load_after = os.getloadavg()[0]
        size = sum(p.stat().st_size for p in Path(tmp).glob("index.sqlite*"))
        os.chdir(here)
    large = None if args.no_large else measure_large()
    lines_out = [
        "# Index speed",
        "",
        f"reviewbot {revision()}; `{command_line('index_speed.py', argv)}`. "
        f"{os.cpu_count()} cores. Corpus: {', '.join(a.name for a in archives)} unpacked "
        f"into one git repository: {lines:,} lines of code (.py/.js/.ts/.go/.java).",
        "",
        f"The machine is shared: its load average was {load_before:.1f} before the cold build "
        f"and {load_after:.1f} after the queries (2 = both cores busy), so wall times are "
        "inflated, and CPU seconds (user + system of the process and its workers) less but "
        "still (the processes share caches and memory bandwidth): compare versions side by "
        "side with `bench/index_ab.py`.",
        "",
        f"| measure | wall | CPU | before ({BEFORE_COMMIT}, quiet): wall / CPU |",
        "| --- | --- | --- | --- |",
        f"| cold `reviewbot index` | {cold.wall:.2f} s | {cold.cpu:.2f} s | "
        f"{BEFORE['cold'][0]:.2f} s / {BEFORE['cold'][1]:.2f} s |",
        f"| update after a commit editing 10 files ({update_doc['read']} read, "
        f"{update_doc['reused']} reused) | {update.wall:.2f} s | {update.cpu:.2f} s | "
        f"{BEFORE['update'][0]:.2f} s / {BEFORE['update'][1]:.2f} s |",
        *[
            f"| `reviewbot {name}` (median of {QUERY_RUNS}, whole process) | "
            f"{t.wall * 1000:.0f} ms | {t.cpu * 1000:.0f} ms | "
            f"{BEFORE[name][0] * 1000:.0f} ms / {BEFORE[name][1] * 1000:.0f} ms |"
            for name, t in timings.items()
        ],
        "",
        "| size | value |",
        "| --- | --- |",
        f"| cold build: CPU / wall (how busy the 2 cores were, at most 2) | "
        f"{cold.cpu / cold.wall:.2f} |",
        f"| peak memory of the cold build (largest process) | {peak_mib:.0f} MiB |",
        f"| files indexed / lines | {cold_doc['files']:,} / {cold_doc['lines']:,} |",
        f"| definitions / references / resolved edges | {cold_doc['definitions']:,} / "
        f"{cold_doc['references']:,} / {cold_doc['edges']:,} |",
        f"| index on disk | {size / 2**20:.1f} MiB |",
        "",
        *(large or []),
    ]
    print("\n".join(lines_out))
    path = write_result(out_file, lines_out)
    print(f"written to {path}", file=sys.stderr)
    return 0


def measure_large() -> list[str]:
    """A cold index of the JDK's class library: its lines for the results file."""
    deb = fetch_large()
    with tempfile.TemporaryDirectory(prefix="reviewbot-index-large-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        unpack_large(deb, repo)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "corpus")
        git(repo, "gc", "-q")  # packed, as a clone is (and no gc left running)
        lines = code_lines(repo)
        database = Path(tmp) / "index.sqlite"
        env = {**ENV, "REVIEWBOT_INDEX": str(database)}
        out = Path(tmp) / "out.json"
        load_before = os.getloadavg()[0]
        argv = [*tool("reviewbot"), "index", str(repo), "--format", "json"]
        with_env = dict(os.environ)
        os.environ.update(env)
        try:
            # A fresh process measures its own peak: the cold build runs under a parent that
            # has run nothing else (RUSAGE_CHILDREN keeps the largest child so far).
            probe = [
                sys.executable,
                "-c",
                "import json, resource, subprocess, sys, time; c = time.perf_counter(); "
                "p = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'wb')); "
                "w = time.perf_counter() - c; r = resource.getrusage(resource.RUSAGE_CHILDREN); "
                "print(json.dumps([p.returncode, w, r.ru_utime + r.ru_stime, r.ru_maxrss]))",
                str(out),
                *argv,
            ]
            said = subprocess.run(probe, capture_output=True, text=True, check=True).stdout
        finally:
            os.environ.clear()
            os.environ.update(with_env)
        code, wall, cpu, peak_kib = json.loads(said)
        if code != 0:
            raise SystemExit(f"reviewbot index on {LARGE} exited {code}")
        doc = json.loads(out.read_text())
        load_after = os.getloadavg()[0]
        size = sum(p.stat().st_size for p in Path(tmp).glob("index.sqlite*"))
    return [
        f"## Over 2,000,000 lines: {deb.name}",
        "",
        f"The JDK's class library (every `.java` file of its `src.zip`, from Debian's {LARGE} "
        f"through `apt-get download`) committed into one git repository: {lines:,} lines. "
        f"One cold `reviewbot index`; load average {load_before:.1f} before, "
        f"{load_after:.1f} after.",
        "",
        "| measure | value |",
        "| --- | --- |",
        f"| cold `reviewbot index`: wall / CPU | {wall:.1f} s / {cpu:.1f} s |",
        f"| peak memory (largest process) | {peak_kib / 1024:.0f} MiB |",
        f"| files indexed / lines | {doc['files']:,} / {doc['lines']:,} |",
        f"| definitions / references / resolved edges | {doc['definitions']:,} / "
        f"{doc['references']:,} / {doc['edges']:,} |",
        f"| index on disk | {size / 2**20:.1f} MiB |",
        "",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
