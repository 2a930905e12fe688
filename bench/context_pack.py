"""The context pack for LLM reviewers on real commits: budget kept, what it shows, what it costs.

    .venv/bin/python bench/context_pack.py [--commits 10] [--out bench/results/context_pack.md]

Real histories (pallets/click and encode/starlette, fetched into /work/.mirror with the search
tool's `fetch`; no repository reserved for independent checks). From each, ``--commits``
non-merge commits spread evenly over the history that change 10-400 lines (Python among
them). For each,
the repository is checked out at the commit, its index brought up to date (not timed), and
`review --format prompt` built for `HEAD~1..HEAD` at three budgets. Per commit and budget:

* the pack's tokens (characters / 4, the estimate every budget of reviewbot uses) and whether
  it stayed within the budget (it must, always);
* the share of the change's code lines (added + removed, not blank, in analysed files) the
  text shows (the units beyond the pack's 10 snippets are counted as not shown);
* how many snippets it holds of those chosen, and how many have callers from the index;
* the tokens a model would read instead: the changed files whole, on the new side (old side for
  deleted files), and the ratio;
* the time of the pack (review + choice + index queries + rendering) next to the review alone,
  wall and CPU (git's included), medians of 3 runs, alternating.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from reviewbot.app.config import Config
from reviewbot.app.context_pack import context_pack
from reviewbot.app.pipeline import GitChange, read_change, review
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.index.fresh import index_path
from reviewbot.model import ChangedFile, ContextPack
from reviewbot.render.prompt import CHARS_PER_TOKEN, prompt
from reviewbot.repo.git import Git

from lib.common import RESULTS, command_line, git, para, revision, write_result

MIRRORS = Path("/work/.mirror")
REPOS = ("pallets+click", "encode+starlette")
BUDGETS = (1500, 4000, 8000)
RUNS = 3
MIN_LINES, MAX_LINES = 10, 400  # lines a sampled commit changes (added + removed)


class Row(NamedTuple):
    repo: str
    commit: str
    subject: str
    changed: int  # code lines added + removed, not blank
    snippets: int  # chosen by the pack
    left_out: int  # changed units beyond the pack's snippet count
    with_callers: int  # snippets with at least one caller from the index
    read_tokens: int  # the changed files whole
    tokens: dict[int, int]
    shown: dict[int, int]  # snippets in the text, per budget
    coverage: dict[int, float]  # share of changed lines in the text, per budget
    pack_wall: float
    pack_cpu: float
    review_wall: float
    review_cpu: float


def commits(work: Path, n: int) -> list[tuple[str, str]]:
    log = git(work, "log", "--no-merges", "--format=%H %s", "--shortstat", "--", "*.py")
    found: list[tuple[str, str]] = []
    current: tuple[str, str] | None = None
    for line in log.splitlines():
        if not line.strip():
            continue
        if "changed" in line and current is not None:
            numbers = [int(w) for w in line.replace(",", " ").split() if w.isdigit()]
            if MIN_LINES <= sum(numbers[1:]) <= MAX_LINES:
                found.append(current)
            current = None
        else:
            sha, _, subject = line.partition(" ")
            current = (sha, subject)
    found.reverse()  # oldest first
    step = max(1, len(found) // n)
    return found[::step][:n]


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (git)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    fn()
    return time.perf_counter() - wall, _cpu() - cpu


def coverage(pack: ContextPack, text: str) -> int:
    """How many distinct changed lines (path, side, number), not blank, of the pack's snippets
    the text shows (as the renderer prints a code line: mark, number, tabs expanded)."""
    return len(
        {
            (s.path, line.mark, line.line)
            for s in pack.snippets
            for line in s.lines
            if line.mark in "+-"
            and line.text.strip()
            and f"{line.mark} {line.line:>5} {line.text.expandtabs(4)}\n" in text
        }
    )


def nonblank_changes(cf: ChangedFile) -> int:
    """The file's added and removed lines that are not blank."""
    new = (cf.new_text or "").split("\n")
    old = (cf.old_text or "").split("\n")
    added = [n for h in cf.hunks for n in h.added]
    removed = [n for h in cf.hunks for n in h.removed]
    return sum(1 for n in added if n <= len(new) and new[n - 1].strip()) + sum(
        1 for n in removed if n <= len(old) and old[n - 1].strip()
    )


def measure(repo: str, work: Path, sha: str, subject: str) -> Row:
    git(work, "checkout", "-q", "--force", sha)
    g = Git(work)
    config = Config()
    settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry)
    update_index(g, index_path(g), settings)
    source = GitChange(work, (f"{sha}~1..{sha}",))
    packs = {b: context_pack(source, config, budget=b) for b in BUDGETS}
    pack = packs[BUDGETS[-1]]
    rendered = {b: prompt(p) for b, p in packs.items()}
    changed = 0
    read_chars = 0
    files = {cf.path: cf for cf in read_change(source, config).files}
    for fs in review(source, config).files:
        if fs.language is None:
            continue
        changed += nonblank_changes(files[fs.path])
        read_chars += len(files[fs.path].new_text or files[fs.path].old_text or "")
    p_times, r_times = [], []
    for _ in range(RUNS):
        p_times.append(timed(lambda: prompt(context_pack(source, config, budget=4000))))
        r_times.append(timed(lambda: review(source, config)))
    cov = {}
    for b, shown in rendered.items():
        cov[b] = coverage(packs[b], shown.text) / changed if changed else 1.0
    return Row(
        repo.replace("+", "/"),
        sha[:8],
        subject[:60],
        changed,
        len(pack.snippets),
        pack.left_out,
        sum(1 for s in pack.snippets if s.callers),
        -(-read_chars // CHARS_PER_TOKEN),
        {b: r.tokens for b, r in rendered.items()},
        {b: len(r.shown) for b, r in rendered.items()},
        cov,
        statistics.median(t[0] for t in p_times),
        statistics.median(t[1] for t in p_times),
        statistics.median(t[0] for t in r_times),
        statistics.median(t[1] for t in r_times),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=10, help="commits per repository")
    parser.add_argument("--out", default=str(RESULTS / "context_pack.md"))
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="pack-") as tmp:
        for repo in REPOS:
            work = Path(tmp) / repo
            git(Path(tmp), "clone", "-q", "--no-checkout", str(MIRRORS / repo / "repo"), str(work))
            for sha, subject in commits(work, args.commits):
                row = measure(repo, work, sha, subject)
                rows.append(row)
                print(row.repo, row.commit, row.tokens, row.coverage, flush=True)
    load_after = os.getloadavg()[0]
    over = [(r, b) for r in rows for b in BUDGETS if r.tokens[b] > b]
    lines = [
        "# The context pack for LLM reviewers on real commits",
        "",
        f"Command: `{command_line('context_pack.py', argv)}` at reviewbot {revision()}.",
        f"Machine: 2 cores, shared; load average {load_before:.1f} before, {load_after:.1f} "
        "after (other helpers were running: wall times are inflated, CPU times less so).",
        "",
        *para(
            f"{len(rows)} commits ({args.commits} per repository, non-merge, 10-400 changed "
            "lines, Python among them, evenly spread over the history), each checked out with "
            "its index "
            f"current. Budgets {', '.join(map(str, BUDGETS))} tokens. Over the budget: "
            f"{len(over)} of {len(rows) * len(BUDGETS)} packs."
        ),
        "| repository | commit | subject | changed lines | snippets | units left out | "
        "with callers | "
        + " | ".join(f"tokens / shown / coverage @{b}" for b in BUDGETS)
        + " | files whole (tokens) | pack ms wall / CPU | review ms wall / CPU |",
        "|---|---|---|---:|---:|---:|---:|" + "---:|" * len(BUDGETS) + "---:|---:|---:|",
    ]
    for r in rows:
        cells = " | ".join(f"{r.tokens[b]:,} / {r.shown[b]} / {r.coverage[b]:.0%}" for b in BUDGETS)
        lines.append(
            f"| {r.repo} | {r.commit} | {r.subject.replace('|', '/')} | {r.changed} | "
            f"{r.snippets} | {r.left_out} | {r.with_callers} | {cells} | {r.read_tokens:,} | "
            f"{r.pack_wall * 1000:.0f} / {r.pack_cpu * 1000:.0f} | "
            f"{r.review_wall * 1000:.0f} / {r.review_cpu * 1000:.0f} |"
        )

    def med(values: list[float]) -> float:
        return statistics.median(values) if values else 0.0

    lines += [""]
    summary = [
        f"Medians over the {len(rows)} commits: "
        + "; ".join(
            f"at {b} tokens the pack used {med([r.tokens[b] for r in rows]):,.0f} tokens and "
            f"showed {med([r.coverage[b] for r in rows]):.0%} of the changed lines"
            for b in BUDGETS
        )
        + f". Reading the changed files whole instead: {med([r.read_tokens for r in rows]):,.0f} "
        f"tokens. Snippets with callers from the index: "
        f"{sum(r.with_callers for r in rows)} of {sum(r.snippets for r in rows)}. "
        f"The pack (at 4000 tokens) took {med([r.pack_cpu for r in rows]) * 1000:.0f} ms of CPU "
        f"({med([r.pack_wall for r in rows]) * 1000:.0f} ms wall) against "
        f"{med([r.review_cpu for r in rows]) * 1000:.0f} ms of CPU "
        f"({med([r.review_wall for r in rows]) * 1000:.0f} ms wall) for the review alone."
    ]
    lines += para(summary[0])
    smaller = [r for r in rows if r.tokens[4000] < r.read_tokens]
    larger = [r for r in rows if r.tokens[4000] >= r.read_tokens]
    partial = [r for r in rows if r.coverage[BUDGETS[-1]] < 1.0]
    lines += para(
        f"At 4000 tokens the pack was smaller than the changed files whole in {len(smaller)} of "
        f"{len(rows)} commits; the others changed small files (whole: "
        + (", ".join(f"{r.read_tokens:,}" for r in larger) or "none")
        + " tokens), where the pack's metadata (header, findings, impact, callers) costs more "
        f"than the code. At {BUDGETS[-1]} tokens, {len(partial)} commit(s) showed less than all "
        "changed lines: "
        + (
            ", ".join(
                f"{r.commit} ({r.coverage[BUDGETS[-1]]:.0%}, {r.left_out} units beyond the "
                f"{r.snippets} snippets)"
                for r in partial
            )
            or "none"
        )
        + ". The pack holds at most 10 snippets (the most relevant), whatever the budget."
    )
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
