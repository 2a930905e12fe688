"""The incremental cache on folder scans, and the cost of impact context in a review.

    .venv/bin/python bench/cache_and_impact.py [--repeat 5] [--out FILE]

1. A folder of about 100,000 lines (real files of the Python standard library) in a git
   repository: `reviewbot positions FOLDER` with an empty cache, then again unchanged (warm),
   then with --no-cache; both as whole processes and as the scan alone (in-process).
2. The same repository: a change that re-signs 5 widely used functions, reviewed in-process
   without a repository to search (no impact search, no hotspot marking) and with one, side
   by side; the difference is what impact context adds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from reviewbot.app.config import Config
from reviewbot.app.inspect import positions_of
from reviewbot.app.pipeline import GitChange, read_change, review
from reviewbot.repo.cache import Cache, find_cache

from lib.common import ENV, RESULTS, git, write_result
from lib.corpora import stdlib_modules
from lib.procs import timed, tool


def build(root: Path) -> tuple[Path, int, int]:
    repo = root / "repo"
    (repo / "lib").mkdir(parents=True)
    total = files = 0
    for src in stdlib_modules():
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(RESULTS / "cache_and_impact.md"))
    args = parser.parse_args(argv)
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        repo, lines, files = build(Path(tmp))
        cache_dir = repo / ".git" / "reviewbot" / "cache"
        scan = [*tool("reviewbot"), "positions", "lib", "--format", "json"]
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
        # The same review without a repository to search (no impact, no hotspots), then with.
        config = Config()
        source = GitChange(repo)  # the working tree against HEAD
        plain, full, refs = [], [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            review(read_change(source, config)._replace(git=None), config)
            plain.append(time.perf_counter() - t)
            t = time.perf_counter()
            enriched = review(read_change(source, config), config, cache=Cache(None))
            full.append(time.perf_counter() - t)
            refs = sum(i.total for i in enriched.impact)
        rows += [
            f"Impact: {len(targets)} functions re-signed in a {lines:,}-line repository; "
            f"{refs} references found.\n",
            "| step | median |",
            "|---|---:|",
            f"| review (git, analysis, context, bundles) | {med(plain) * 1000:.0f} ms |",
            f"| the same with the impact search and hotspot marking | {med(full) * 1000:.0f} ms |",
            f"| impact search and hotspot marking added | "
            f"{(med(full) - med(plain)) * 1000:.0f} ms |",
            "",
        ]
    report = [
        "# Cache and impact context\n",
        f"Command: `.venv/bin/python bench/cache_and_impact.py --repeat {args.repeat}` "
        "(medians; shared 2-core machine).\n",
        *rows,
    ]
    write_result(args.out, report)
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
