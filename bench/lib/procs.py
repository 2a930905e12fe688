"""Running tools and measuring them: console scripts next to this interpreter, wall time and
max RSS of a whole process under a fresh parent, medians."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BIN = Path(sys.executable).parent


def tool(name: str) -> list[str]:
    """The console script next to this interpreter, else ``python -m name``."""
    exe = BIN / name
    return [str(exe)] if exe.exists() else [sys.executable, "-m", name]


def parallel(fn: Callable[[T], R], items: Sequence[T], jobs: int, chunksize: int = 1) -> list[R]:
    """``fn`` over ``items`` in ``jobs`` worker processes (in this one for a single job or
    item), results in order."""
    if jobs > 1 and len(items) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(fn, items, chunksize=chunksize))
    return [fn(item) for item in items]


def timed(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> float:
    """Wall time of one run of ``argv`` (its exit status is not checked)."""
    t = time.perf_counter()
    subprocess.run(list(argv), cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - t


class Timing(NamedTuple):
    wall: float  # seconds, start to exit
    cpu: float  # seconds of user + system time of the process and the children it waited for


def timed_cpu(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> Timing:
    """Wall time and CPU time of one run of ``argv`` (output discarded, exit status not
    checked). On a busy machine the CPU time moves less than the wall time."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
    return Timing(wall, usage.ru_utime + usage.ru_stime)


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


# A fresh parent per measurement: wall time of the child, the max RSS (KiB on Linux) of the
# largest process it waited for (grandchildren waited for by the child count too), and the CPU
# time (user + system) of all of them.
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "with open(sys.argv[1], 'wb') as out, open(sys.argv[2], 'wb') as err:\n"
    "    t = time.perf_counter()\n"
    "    rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode\n"
    "    dt = time.perf_counter() - t\n"
    "ru = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(rc, dt, ru.ru_maxrss, ru.ru_utime + ru.ru_stime)\n"
)


@dataclass(frozen=True)
class Run:
    seconds: float  # wall time
    rss_mib: float
    rc: int
    cpu_seconds: float = 0.0  # user + system, the whole tree


def measure(argv: Sequence[str], out: Path | None = None, cwd: Path | None = None) -> Run:
    """One run of ``argv`` under a fresh parent (in ``cwd``, else here); its stdout goes to
    ``out`` and its stderr to ``out`` + ``.err`` (both discarded when ``out`` is None)."""
    stdout = str(out) if out is not None else os.devnull
    stderr = str(out) + ".err" if out is not None else os.devnull
    res = subprocess.run(
        [sys.executable, "-c", _MEASURE, stdout, stderr, *argv],
        check=True,
        capture_output=True,
        text=True,
        cwd=cwd,
    ).stdout.split()
    return Run(float(res[1]), int(res[2]) / 1024, int(res[0]), float(res[3]))


def checked(
    argv: Sequence[str], out: Path | None = None, ok: Iterable[int] = (0,), cwd: Path | None = None
) -> Run:
    """``measure``, stopping the benchmark with the command's stderr when it fails."""
    run = measure(argv, out, cwd)
    if run.rc not in set(ok):
        said = ""
        if out is not None:
            said = Path(str(out) + ".err").read_text(encoding="utf-8", errors="replace").strip()
        raise SystemExit(f"{' '.join(argv[:4])}... exited {run.rc}: {said[-2000:]}")
    return run


def median_run(runs: Sequence[Run]) -> Run:
    """Median wall time, largest max RSS, median CPU time."""
    return Run(
        statistics.median(r.seconds for r in runs),
        max(r.rss_mib for r in runs),
        runs[0].rc,
        statistics.median(r.cpu_seconds for r in runs),
    )
