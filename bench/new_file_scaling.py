"""Review time of one new file of 1,000 to 1,000,000 lines, next to ``reviewbot positions`` on
the same file, whole processes, side by side in one run.

    .venv/bin/python bench/new_file_scaling.py [--repeat 5] [--large-repeat 3]
        [--sizes 1000,10000,30000,100000,300000,1000000] [--languages python,java]
        [--before REV] [--skip-profile] [--out bench/results/new_file_scaling.md]

For each size and language, a temporary repository holds two commits: the first a README and a
``.reviewbot.toml`` that raises ``max_file_bytes`` to 1 GiB (the default, 2 MiB, makes a review
skip the larger files: the table says which sizes it would skip), the second adds the file. The
file is real source text repeated: the running interpreter's top-level standard-library modules
(Python), the JDK's ``java.util`` sources (Java, where a ``src.zip`` is installed) and npm's own
JavaScript (``/usr/lib/node_modules/npm``, where installed), concatenated whole, cycling, until
the line count, and cut at that line.

Measured, interleaved in each round so that load from elsewhere on the shared machine falls on
all alike, each a whole process under a fresh parent (wall time; max RSS of the largest process
of the tree):

* ``reviewbot review -C REPO HEAD~1..HEAD --format json`` (default hunk-context budget);
* the same with ``--budget 0`` (no hunk context);
* ``reviewbot positions --no-cache REPO/FILE --format json`` (the per-file index alone).

With ``--before REV``, the review as it was at that revision (its ``reviewbot/`` package, taken
with ``git archive``, run by the same interpreter) is a fourth command of each round.

Medians of ``--repeat`` runs (``--large-repeat`` from 300,000 lines). The goal (issue 10): the
review within 2x of positions at every size, i.e. linear in the file's length. When it is not,
the review of the size with the worst ratio is run once more under cProfile and its top
functions are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from lib.common import RESULTS, ROOT, git, para, versions, write_result
from lib.corpora import JDK_SRC_ZIP, JDK_UTIL, STDLIB
from lib.procs import Run, checked, median_run, tool

SIZES = (1_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
LARGE = 300_000  # from this size on, --large-repeat runs
MAX_FILE_BYTES = 1 << 30
DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024  # the README's default
GOAL = 2.0  # review / positions


# -- the files -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    language: str
    file_name: str  # of the new file in the repository
    source: Path  # where the text comes from
    what: str  # which files of it

    def texts(self) -> list[str]:
        """The corpus's files, sorted by name, as text."""
        if self.source.suffix == ".zip":
            with zipfile.ZipFile(self.source) as zf:
                names = sorted(
                    n for n in zf.namelist() if n.startswith(self.what) and n.endswith(".java")
                )
                return [zf.read(n).decode("utf-8", "replace") for n in names]
        files = sorted(self.source.glob(self.what))
        return [
            p.read_text(encoding="utf-8", errors="replace")
            for p in files
            if p.is_file() and not p.name.endswith(".min.js")
        ]

    def describe(self) -> str:
        if self.source.suffix == ".zip":
            return f"`{self.what}*.java` of `{self.source}`"
        return f"`{self.source}/{self.what}`"


# Candidates per language, the first present wins. The JDK's sources come with Debian's
# openjdk-17-source (lib.corpora's default) or with a Temurin JDK.
JDK_ZIPS = (JDK_SRC_ZIP, Path("/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip"))
NPM = Path("/usr/lib/node_modules/npm")


def corpora() -> dict[str, Corpus]:
    """The languages whose corpus is on this machine."""
    found = {"python": Corpus("python", "big_module.py", STDLIB, "*.py")}
    zips = [z for z in JDK_ZIPS if z.is_file()]
    if zips:
        found["java"] = Corpus("java", "BigSource.java", zips[0], JDK_UTIL)
    if NPM.is_dir():
        found["javascript"] = Corpus("javascript", "big_module.js", NPM, "**/*.js")
    return found


def text_of_lines(corpus: Sequence[str], lines: int) -> str:
    """Whole files of ``corpus`` concatenated, cycling, until ``lines`` lines (ended by
    ``\\n``; other line separators such as form feeds stay inside lines), cut there."""
    parts: list[str] = []
    count = 0
    while count < lines:
        for text in corpus:
            chunk = text if text.endswith("\n") else text + "\n"
            parts.append(chunk)
            count += chunk.count("\n")
            if count >= lines:
                break
    whole = "".join(parts)
    end = -1
    for _ in range(lines):
        end = whole.index("\n", end + 1)
    return whole[: end + 1]


def build_repo(root: Path, name: str, data: bytes) -> None:
    """Two commits: a README and the configuration, then ``name`` added."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    git(root, "config", "gc.auto", "0")  # no background gc during the measurements
    git(root, "config", "maintenance.auto", "false")
    (root / "README").write_text("new-file scaling benchmark\n", encoding="utf-8")
    (root / ".reviewbot.toml").write_text(f"max_file_bytes = {MAX_FILE_BYTES}\n", encoding="utf-8")
    (root / "default.toml").write_text("# the defaults\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    (root / name).write_bytes(data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"add {name}")


# -- the commands --------------------------------------------------------------------------------


def review_args(repo: Path, *extra: str) -> list[str]:
    """``reviewbot``'s arguments for the review of the new file."""
    return ["review", "-C", str(repo), "HEAD~1..HEAD", "--format", "json", *extra]


def positions_args(repo: Path, name: str) -> list[str]:
    """``reviewbot``'s arguments for the positions of the new file."""
    return [
        "positions",
        "--no-cache",
        "--config",
        str(repo / ".reviewbot.toml"),
        str(repo / name),
        "--format",
        "json",
    ]


def reviewbot(args: Sequence[str]) -> list[str]:
    return [*tool("reviewbot"), *args]


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def check_review(path: Path, name: str) -> dict[str, Any]:
    """The report, after making sure the new file was analysed (not skipped)."""
    report = load(path)
    files = report["files"]
    if [(f["path"], f["status"]) for f in files] != [(name, "added")]:
        raise SystemExit(f"the review did not analyse {name}: {files}")
    if report["stats"]["files_analysed"] != 1 or report["stats"]["files_not_reviewed"]:
        raise SystemExit(f"the review did not analyse {name}: {report['stats']}")
    return report


def check_positions(path: Path, name: str, lines: int) -> None:
    doc = load(path)
    found = [(f["path"], f["lines"]) for f in doc["files"]]
    if doc["skipped"] or len(found) != 1 or found[0][1] != lines:
        raise SystemExit(f"positions did not analyse {name}: {found}, skipped {doc['skipped']}")


@dataclass
class Size:
    language: str
    lines: int
    size_bytes: int
    review: list[Run] = field(default_factory=list)
    budget0: list[Run] = field(default_factory=list)
    positions: list[Run] = field(default_factory=list)
    before: list[Run] = field(default_factory=list)  # the review at --before REV
    analysis: list[float] = field(default_factory=list)  # the report's own stats.seconds
    report: dict[str, Any] = field(default_factory=dict)
    output_bytes: int = 0  # of the review's JSON
    default_status: str = ""

    def ratio(self) -> float:
        return median_run(self.review).seconds / median_run(self.positions).seconds

    def cpu_ratio(self) -> float:
        return median_run(self.review).cpu_seconds / median_run(self.positions).cpu_seconds

    def ratio0(self) -> float:
        return median_run(self.budget0).seconds / median_run(self.positions).seconds


def repo_of(tmp: Path, language: str, lines: int) -> Path:
    return tmp / f"{language}-{lines}"


def measure_size(
    corpus: Corpus,
    texts: Sequence[str],
    lines: int,
    repeat: int,
    tmp: Path,
    before: Path | None = None,
) -> Size:
    language, name = corpus.language, corpus.file_name
    data = text_of_lines(texts, lines).encode("utf-8")
    repo = repo_of(tmp, language, lines)
    build_repo(repo, name, data)
    out = tmp / "out.json"
    size = Size(language, data.count(b"\n"), len(data))
    for _ in range(repeat):
        size.review.append(checked(reviewbot(review_args(repo)), out))
        size.report = check_review(out, name)
        size.output_bytes = out.stat().st_size
        size.analysis.append(float(size.report["stats"]["seconds"]))
        if before is not None:  # "-m" imports the package of the current directory first
            argv = [sys.executable, "-m", "reviewbot", *review_args(repo)]
            size.before.append(checked(argv, out, cwd=before))
            check_review(out, name)
        size.budget0.append(checked(reviewbot(review_args(repo, "--budget", "0")), out))
        check_review(out, name)
        size.positions.append(checked(reviewbot(positions_args(repo, name)), out))
        check_positions(out, name, size.lines)
    # What the README's defaults would do with the same change (one run).
    checked(reviewbot(review_args(repo, "--config", str(repo / "default.toml"))), out)
    f = load(out)["files"][0]
    size.default_status = f["status"] + (f" ({f['reason']})" if f.get("reason") else "")
    return size


# -- the profile ---------------------------------------------------------------------------------


# The steps of a review, for the profile: (what, file, function).
REVIEW_STEPS = (
    ("the whole review command", "reviewbot/doors/cli.py", "_review"),
    (
        "reading the change (git diff, cat-file, decoding)",
        "reviewbot/app/pipeline.py",
        "read_change",
    ),
    ("analysis of the file (measures)", "reviewbot/analysis/review.py", "measure_file"),
    ("&nbsp;&nbsp;index: the signal scan (as positions)", "reviewbot/engine/index.py", "__init__"),
    ("&nbsp;&nbsp;index: the structure (as positions)", "reviewbot/engine/lines.py", "structure"),
    ("&nbsp;&nbsp;pairing units old/new", "reviewbot/analysis/units.py", "pair_units"),
    ("&nbsp;&nbsp;measuring the touched units", "reviewbot/analysis/review.py", "_metrics_of"),
    (
        "&nbsp;&nbsp;&nbsp;&nbsp;of which their heat, all at once",
        "reviewbot/engine/entropy.py",
        "heat_totals",
    ),
    (
        "&nbsp;&nbsp;nesting profiles (sparklines)",
        "reviewbot/analysis/measure.py",
        "nesting_profile",
    ),
    ("findings", "reviewbot/analysis/review.py", "judge_file"),
    ("hunk context", "reviewbot/analysis/context.py", "hunk_contexts"),
    ("bundles", "reviewbot/analysis/bundles.py", "explain"),
    ("impact search", "reviewbot/app/full.py", "_impact"),
    ("hotspots touched", "reviewbot/app/full.py", "_hotspots_touched"),
    ("rendering the JSON", "reviewbot/render/formats.py", "render_report"),
)
POSITIONS_STEPS = (
    ("the whole positions command", "reviewbot/app/inspect.py", "positions_of"),
    ("index: the signal scan", "reviewbot/engine/index.py", "__init__"),
    ("index: the structure", "reviewbot/engine/lines.py", "structure"),
    ("ranking positions", "reviewbot/engine/index.py", "important_positions"),
    ("rendering the JSON", "reviewbot/render/indented.py", "dumps_indented"),
)


def profile(
    argv: Sequence[str], cwd: Path, phases: Sequence[tuple[str, str, str]] = (), top: int = 15
) -> list[str]:
    """cProfile of one ``reviewbot ARGV...`` run: the time of each of ``phases`` (what, file,
    function), functions by own time, then reviewbot's by time with callees."""
    prof = cwd / "run.prof"
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "reviewbot", *argv],
        check=False,
        capture_output=True,
        cwd=cwd,  # not the checkout: "-m" puts the current directory first on sys.path
    )
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise SystemExit(f"the profiled run failed: {err[-2000:]}")
    # pstats keeps its table in attributes that typeshed does not declare.
    stats = vars(pstats.Stats(str(prof)))
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats["stats"]
    # Shares of the whole run: the outermost frame's time with callees (at least the sum of
    # the functions' own times).
    total: float = max([stats["total_tt"], *(v[3] for v in raw.values())])

    def label(func: tuple[str, int, str]) -> str:
        filename, line, fn = func
        p = Path(filename)
        for base in (ROOT, STDLIB):
            if p.is_relative_to(base):
                return f"`{p.relative_to(base).as_posix()}:{line}` {fn}"
        return f"`{p.name}:{line}` {fn}" if filename != "~" else fn

    rows = [
        f"Profiled wall time {wall:.1f} s (cProfile overhead included), "
        f"{total:.1f} s of profiled time.\n",
    ]
    if phases:
        rows += ["By step (time with callees; steps nest where indented):", ""]
        rows += ["| step | function | calls | with callees | share |", "|---|---|---:|---:|---:|"]
        for what, suffix, fn in phases:
            found = [(k, v) for k, v in raw.items() if k[2] == fn and k[0].endswith(suffix)]
            if found:
                calls = sum(v[1] for _, v in found)
                cum = sum(v[3] for _, v in found)
                rows.append(
                    f"| {what} | {label(found[0][0])} | {calls:,} | {cum:.2f} s "
                    f"| {cum / total:.0%} |"
                )
        rows += ["", "Functions by own time:", ""]
    rows += [
        "| function | calls | own time | share | with callees |",
        "|---|---:|---:|---:|---:|",
    ]
    for func, (_, ncalls, own, cum, _) in sorted(raw.items(), key=lambda kv: -kv[1][2])[:top]:
        rows.append(
            f"| {label(func)} | {ncalls:,} | {own:.2f} s | {own / total:.0%} | {cum:.2f} s |"
        )
    rows += ["", "reviewbot's own functions by time with callees:", ""]
    rows += ["| function | calls | with callees | share |", "|---|---:|---:|---:|"]
    ours = [kv for kv in raw.items() if Path(kv[0][0]).is_relative_to(ROOT / "reviewbot")]
    for func, (_, ncalls, _, cum, _) in sorted(ours, key=lambda kv: -kv[1][3])[:top]:
        rows.append(f"| {label(func)} | {ncalls:,} | {cum:.2f} s | {cum / total:.0%} |")
    print("\n".join(rows), flush=True)
    return rows


# -- the report ----------------------------------------------------------------------------------


def table(sizes: Sequence[Size]) -> list[str]:
    """Wall time and memory."""
    rows = [
        "| language | lines | MB | review | review --budget 0 | positions | review / positions "
        "| --budget 0 / positions | max RSS review | max RSS --budget 0 | max RSS positions "
        "| runs |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        r, b, p = median_run(s.review), median_run(s.budget0), median_run(s.positions)
        flag = "" if s.ratio() <= GOAL else " **over**"
        rows.append(
            f"| {s.language} | {s.lines:,} | {s.size_bytes / 1e6:.1f} | {r.seconds:.2f} s "
            f"| {b.seconds:.2f} s | {p.seconds:.2f} s | {s.ratio():.2f}x{flag} "
            f"| {s.ratio0():.2f}x | {r.rss_mib:.0f} MiB | {b.rss_mib:.0f} MiB "
            f"| {p.rss_mib:.0f} MiB | {len(s.review)} |"
        )
    return rows


def cpu_table(sizes: Sequence[Size]) -> list[str]:
    """CPU time and the cost per line."""
    rows = [
        "| language | lines | review CPU | positions CPU | review / positions (CPU) "
        "| review CPU µs/line | positions CPU µs/line | review wall µs/line "
        "| positions wall µs/line | analysis in-process |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        r, p = median_run(s.review), median_run(s.positions)
        rows.append(
            f"| {s.language} | {s.lines:,} | {r.cpu_seconds:.2f} s | {p.cpu_seconds:.2f} s "
            f"| {s.cpu_ratio():.2f}x | {r.cpu_seconds / s.lines * 1e6:.1f} "
            f"| {p.cpu_seconds / s.lines * 1e6:.1f} | {r.seconds / s.lines * 1e6:.1f} "
            f"| {p.seconds / s.lines * 1e6:.1f} | {statistics.median(s.analysis):.2f} s |"
        )
    return rows


def before_table(sizes: Sequence[Size], rev: str) -> list[str]:
    """The review before and after, next to positions, from the same rounds."""
    rows = [
        f"| language | lines | review at {rev} (wall) | review now (wall) | positions (wall) "
        f"| at {rev} / positions | now / positions | review at {rev} (CPU) | review now (CPU) "
        f"| positions (CPU) | at {rev} / positions (CPU) | now / positions (CPU) "
        f"| max RSS at {rev} | max RSS now | max RSS positions |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        b, r, p = median_run(s.before), median_run(s.review), median_run(s.positions)
        rows.append(
            f"| {s.language} | {s.lines:,} | {b.seconds:.2f} s | {r.seconds:.2f} s "
            f"| {p.seconds:.2f} s | {b.seconds / p.seconds:.2f}x | {s.ratio():.2f}x "
            f"| {b.cpu_seconds:.2f} s | {r.cpu_seconds:.2f} s | {p.cpu_seconds:.2f} s "
            f"| {b.cpu_seconds / p.cpu_seconds:.2f}x | {s.cpu_ratio():.2f}x "
            f"| {b.rss_mib:.0f} MiB | {r.rss_mib:.0f} MiB | {p.rss_mib:.0f} MiB |"
        )
    return rows


def details(sizes: Sequence[Size]) -> list[str]:
    rows = [
        "| language | lines | units changed | findings (total) | JSON output | hunk-context blocks "
        "| bundles | impact names | with the default max_file_bytes (2 MiB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s in sizes:
        st = s.report["stats"]
        rows.append(
            f"| {s.language} | {s.lines:,} | {st['units_changed']:,} | {st['findings_total']:,} "
            f"| {s.output_bytes / 1e6:.1f} MB "
            f"| {len(s.report.get('context') or [])} | {len(s.report.get('bundles') or [])} "
            f"| {len(s.report.get('impact') or [])} | {s.default_status} |"
        )
    return rows


def verdict(results: Sequence[Size], over: Sequence[Size]) -> list[str]:
    """What the numbers say, per language: the ratio to positions, and how the CPU time per
    line of each command moves from the 100,000-line file (interpreter start and the other
    fixed costs a small part) to the largest."""
    lines: list[str] = []
    if over:
        where = ", ".join(f"{s.language} {s.lines:,} lines ({s.ratio():.2f}x)" for s in over)
        lines += para(f"The review is NOT within {GOAL:.0f}x of positions at: {where}.")
    else:
        lines += para(f"The review is within {GOAL:.0f}x of positions at every size measured.")
    for language in dict.fromkeys(s.language for s in results):
        mine = [s for s in results if s.language == language]
        steady = [s for s in mine if s.lines >= 100_000] or mine
        a, b = steady[0], steady[-1]

        def per_line(runs: list[Run], s: Size) -> float:
            return median_run(runs).cpu_seconds / s.lines * 1e6

        ra, rb = per_line(a.review, a), per_line(b.review, b)
        pa, pb = per_line(a.positions, a), per_line(b.positions, b)
        lines += para(
            f"{language}: review / positions (wall) "
            f"{', '.join(f'{s.lines:,}: {s.ratio():.2f}x' for s in mine)}; in CPU time "
            f"{', '.join(f'{s.cpu_ratio():.2f}x' for s in mine)}. From {a.lines:,} to "
            f"{b.lines:,} lines ({b.lines / a.lines:.0f}x the lines) the review's CPU time per "
            f"line goes from {ra:.1f} to {rb:.1f} µs ({rb / ra:.2f}x), positions' from "
            f"{pa:.1f} to {pb:.1f} µs ({pb / pa:.2f}x); a cost per line that stays flat is "
            f"linear. Max RSS at {b.lines:,} lines: review {median_run(b.review).rss_mib:.0f} "
            f"MiB, --budget 0 {median_run(b.budget0).rss_mib:.0f} MiB, positions "
            f"{median_run(b.positions).rss_mib:.0f} MiB."
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per size (median)")
    parser.add_argument(
        "--large-repeat", type=int, default=3, help=f"runs per size from {LARGE:,} lines"
    )
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES))
    parser.add_argument("--languages", default="python,java,javascript")
    parser.add_argument(
        "--before", default="", help="also time the review as it was at this revision"
    )
    parser.add_argument("--skip-profile", action="store_true")
    parser.add_argument("--out", default=str(RESULTS / "new_file_scaling.md"))
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    languages = [lang for lang in args.languages.split(",") if lang]
    here = corpora()
    for lang in list(languages):
        if lang not in here:
            print(f"{lang}: no corpus on this machine; skipped", file=sys.stderr)
            languages.remove(lang)
    if not languages:
        parser.error(f"no corpus for {args.languages} here (there is for: {sorted(here)})")
    started = time.perf_counter()
    load_before = os.getloadavg()
    setup = versions(f"numpy {metadata.version('numpy')}")
    # As installed by pip, the package's modules are byte-compiled; this machine sets
    # PYTHONDONTWRITEBYTECODE, so compile them once here.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "reviewbot")],
        check=True,
        capture_output=True,
    )
    results: list[Size] = []
    with tempfile.TemporaryDirectory(prefix="reviewbot-bench-") as tmpdir:
        tmp = Path(tmpdir)
        baseline = median_run([checked([*tool("reviewbot"), "--version"]) for _ in range(5)])
        before: Path | None = None
        if args.before:
            before = tmp / "before"
            before.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.before, "reviewbot"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(before / "reviewbot")],
                check=True,
                capture_output=True,
            )
        texts = {lang: here[lang].texts() for lang in languages}
        for lines in sizes:
            for lang in languages:
                repeat = args.repeat if lines < LARGE else args.large_repeat
                results.append(measure_size(here[lang], texts[lang], lines, repeat, tmp, before))
                print(table(results[-1:])[-1], flush=True)
        # Profiled: the size with the worst ratio and the largest size, when over the goal.
        targets = [max(results, key=Size.ratio), max(results, key=lambda s: (s.lines, s.ratio()))]
        profiles: list[str] = []
        where = tmp / "profile"
        where.mkdir()
        chosen = [t for i, t in enumerate(targets) if t.ratio() > GOAL and t not in targets[:i]]
        for s in [] if args.skip_profile else chosen:
            repo, name = repo_of(tmp, s.language, s.lines), here[s.language].file_name
            profiles += [
                f"## Where the review of {s.language} {s.lines:,} lines spends its time "
                f"(cProfile; review / positions {s.ratio():.2f}x)\n",
                *profile(review_args(repo), where, REVIEW_STEPS),
                "",
                "### positions on the same file (cProfile), for comparison\n",
                *profile(positions_args(repo, name), where, POSITIONS_STEPS),
                "",
            ]
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    busy = max(load_before[0], load_after[0]) > (os.cpu_count() or 1)
    over = [s for s in results if s.ratio() > GOAL]
    command = (
        f".venv/bin/python bench/new_file_scaling.py --repeat {args.repeat} "
        f"--large-repeat {args.large_repeat} --sizes {args.sizes} --languages {args.languages}"
        + (f" --before {args.before}" if args.before else "")
        + (" --skip-profile" if args.skip_profile else "")
    )
    sections = [
        "# Review of one new file, 1,000 to 1,000,000 lines, next to positions\n",
        f"Command: `{command}` ({setup}; whole processes including interpreter start; machine: "
        f"{os.cpu_count()} shared cores, no pinning; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; the whole benchmark took {elapsed / 60:.1f} min).\n",
        *(
            para(
                "The machine was busy with other work during this run (load average above its "
                "core count): absolute times are inflated; the ratios, from interleaved runs, "
                "are the steadier figures."
            )
            if busy
            else []
        ),
        *para(
            "Each repository has two commits: a README and a `.reviewbot.toml` with "
            f"`max_file_bytes = {MAX_FILE_BYTES}` (1 GiB), then the new file. The configuration "
            "is needed: with the README's default `max_file_bytes` (2 MiB) a review skips the "
            "larger files instead of analysing them (last column of the second table). The "
            "file is real source text repeated: "
            + "; ".join(f"{lang}: {here[lang].describe()}" for lang in languages)
            + " (whole files sorted by name, concatenated, cycling, cut at the line count). "
            " `review` is `reviewbot review -C REPO HEAD~1..HEAD "
            "--format json` (the default hunk-context budget of 6,000 tokens); `--budget 0` "
            "drops the hunk context; `positions` is `reviewbot positions --no-cache --config "
            "REPO/.reviewbot.toml REPO/FILE --format json` (the per-file index alone). The "
            "three are interleaved in each round; wall times are medians of the runs in the "
            "last column; max RSS is the largest over the runs, measured by a fresh parent per "
            "run (`getrusage(RUSAGE_CHILDREN)`: the largest process of the tree, reviewbot's "
            'interpreter or a git child). "analysis in-process" is the report\'s own '
            "`stats.seconds` (reading aside: the per-file analysis, findings and hunk context; "
            "not git, the impact search, interpreter start or JSON output)."
        ),
        f"Interpreter start and imports alone (`reviewbot --version`): {baseline.seconds:.2f} s, "
        f"{baseline.rss_mib:.0f} MiB.\n",
        "## Wall time and memory by size\n",
        *table(results),
        "",
        "## CPU time and the cost per line\n",
        *para(
            "CPU time (user + system of the whole process tree, from the same runs, medians) "
            "depends less than wall time on what else the machine is doing; the cost per line "
            "shows whether the time grows in proportion to the file."
        ),
        *cpu_table(results),
        "",
        *(
            [
                f"## Before and after: the review at {args.before} and now\n",
                *para(
                    f"The same rounds: the review as it was at {args.before} (its `reviewbot/` "
                    "package from `git archive`, the same interpreter and libraries) ran after "
                    "the review of now, before `--budget 0` and positions."
                ),
                *before_table(results, args.before),
                "",
            ]
            if args.before
            else []
        ),
        "## What the reviews found\n",
        *details(results),
        "",
        "## Verdict\n",
    ]
    sections += verdict(results, over)
    sections += profiles
    write_result(args.out, sections)
    print(f"in {elapsed / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
