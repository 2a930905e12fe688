"""The incremental cache on folder scans, and the cost of impact context in a review.

    .venv/bin/python bench/cache_and_impact.py [--repeat 5] [--out FILE]

1. A folder of about 100,000 lines (real files of the Python standard library) in a git
   repository: `reviewbot positions FOLDER` with an empty cache, then again unchanged (warm),
   then with --no-cache; both as whole processes and as the scan alone (in-process).
2. The same repository: a change that re-signs 5 widely used functions, reviewed with and
   without the impact search and hotspot marking (`enrich`), side by side; the difference is
   what impact context adds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from common import ENV, ROOT, git, write_result

sys.path.insert(0, str(ROOT))

from reviewbot.review import enrich, options

from reviewbot.analysis.review import review_files
from reviewbot.app.config import Config
from reviewbot.app.inspect import positions_of
from reviewbot.repo.cache import Cache, find_cache
from reviewbot.repo.changes import collect, resolve_range
from reviewbot.repo.git import Git


def build(root: Path) -> tuple[Path, int, int]:
    repo = root / "repo"
    (repo / "lib").mkdir(parents=True)
    std = Path(sysconfig.get_paths()["stdlib"])
    total = files = 0
    for src in sorted(std.glob("*.py")):
        if total >= 100_000:
            break
        text = src.read_text(errors="replace")
        (repo / "lib" / src.name).write_text(text)
        total += text.count("\n")
        files += 1
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    return repo, total, files


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "cache_and_impact.md"))
    args = parser.parse_args()
    exe = str(Path(sys.executable).parent / "reviewbot")
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        repo, lines, files = build(Path(tmp))
        cache_dir = repo / ".git" / "reviewbot" / "cache"
        scan = [exe, "positions", "lib", "--format", "json"]
        cold_p, warm_p, none_p, cold_s, warm_s = [], [], [], [], []
        for _ in range(args.repeat):
            shutil.rmtree(cache_dir, ignore_errors=True)
            cold_p.append(timed(scan, repo, ENV))
            warm_p.append(timed(scan, repo, ENV))
            none_p.append(timed([*scan, "--no-cache"], repo, ENV))
            shutil.rmtree(cache_dir, ignore_errors=True)
            cache = find_cache(repo)
            t = time.perf_counter()
            positions_of([str(repo / "lib")], Config(), cache=cache)
            cold_s.append(time.perf_counter() - t)
            cache = find_cache(repo)
            t = time.perf_counter()
            positions_of([str(repo / "lib")], Config(), cache=cache)
            warm_s.append(time.perf_counter() - t)
        med = statistics.median
        rows += [
            f"Folder: {files} files, {lines:,} lines (Python standard library).\n",
            "| scan | whole process (median) | the scan alone, in-process (median) |",
            "|---|---:|---:|",
            f"| first, empty cache | {med(cold_p):.2f} s | {med(cold_s):.3f} s |",
            f"| second, unchanged tree (warm cache) | {med(warm_p):.2f} s | {med(warm_s):.3f} s |",
            f"| --no-cache | {med(none_p):.2f} s | |",
            f"| speed-up of the second scan | {med(cold_p) / med(warm_p):.1f}x | "
            f"{med(cold_s) / med(warm_s):.1f}x |",
            "",
        ]
        # Impact: re-sign five functions that other modules call.
        targets = [
            ("lib/posixpath.py", "def join(a, *p):", "def join(a, *p, strict=False):"),
            ("lib/genericpath.py", "def exists(path):", "def exists(path, follow=True):"),
            (
                "lib/copy.py",
                "def deepcopy(x, memo=None, _nil=[]):",
                "def deepcopy(x, memo=None, _nil=[], depth=0):",
            ),
            ("lib/functools.py", "def wraps(wrapped,", "def wraps(wrapped, /,"),
            (
                "lib/tokenize.py",
                "def untokenize(iterable):",
                "def untokenize(iterable, strict=False):",
            ),
        ]
        for path, old, new in targets:
            file = repo / path
            if file.exists():
                file.write_text(file.read_text().replace(old, new, 1))
        config = Config()
        g = Git(repo)
        plain, full, refs = [], [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            rng = resolve_range(g, None, staged=False)
            changed = collect(g, rng, max_bytes=config.max_file_bytes, exclude=config.exclude)
            report = review_files(changed, options(config), base=rng.base, head=rng.head)
            plain.append(time.perf_counter() - t)
            t = time.perf_counter()
            enriched = enrich(report, changed, g, rng, config, Cache(None))
            full.append(time.perf_counter() - t)
            refs = sum(i["total"] for i in enriched.impact)
        rows += [
            f"Impact: {len(targets)} functions re-signed in a {lines:,}-line repository; "
            f"{refs} references found.\n",
            "| step | median |",
            "|---|---:|",
            f"| review (git, analysis, context, bundles) | {med(plain) * 1000:.0f} ms |",
            f"| impact search and hotspot marking added | {med(full) * 1000:.0f} ms |",
            "",
        ]
    lines = [
        "# Cache and impact context\n",
        f"Command: `.venv/bin/python bench/cache_and_impact.py --repeat {args.repeat}` "
        "(medians; shared 2-core machine).\n",
        *rows,
    ]
    write_result(args.out, lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
