"""Renamed and moved units on real history: how often a change renames or moves a unit, and
whether the pairing by body is right.

For the last N non-merge commits of real repositories (their histories brought here with the
search tool's `fetch` into /work/.mirror; none of the repositories reserved for independent
checks), reviews each commit (`commit~1..commit`, the fast mode: units and findings) and lists
every unit shown as ``renamed`` or ``moved``, with the similarity of its two bodies. It also
lists the near misses: a unit left ``added`` whose best body match among the change's
``removed`` units scores between ``--floor`` and the threshold, to see what the threshold
leaves out. A seeded sample of the pairs is printed in full (old and new text) for a hand
check; the verdicts are in ``VERDICTS``, written by reading them.

    .venv/bin/python bench/renames.py [--commits 300] [--out bench/results/renames.md]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from reviewbot.analysis import units as units_module
from reviewbot.analysis.renames import THRESHOLD, Match, body_of, similarity
from reviewbot.analysis.review import MeasuredFile
from reviewbot.app import pipeline as pipeline_module
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, Mode, policy_of, review
from reviewbot.engine import LineIndex, get_profile
from reviewbot.engine.structure import Unit
from reviewbot.model import ChangedFile, Report, UnitChange, UnitRef

from lib.common import RESULTS, command_line, git, revision, write_result

MIRRORS = Path("/work/.mirror")
# Tuned on the first, reported on the second (the threshold and MIN_TOKENS were chosen reading
# click's pairs and near misses; starlette's were read afterwards, as they came).
REPOS = ("pallets+click", "encode+starlette")


class Pair(NamedTuple):
    repo: str
    commit: str
    kind: str  # renamed | moved | near miss
    old_path: str
    old_label: str
    path: str
    label: str
    score: float
    old_text: str
    new_text: str


# Hand-check verdicts of the sampled pairs, keyed by `commit path label`: written by reading
# the old and new text the script prints (--show).
VERDICTS: dict[str, str] = {}


def _unit(index: LineIndex, ref: UnitRef | None) -> Unit | None:
    if ref is None:
        return None
    for u in index.structure.units:
        if u.start == ref.start - 1 and u.end == ref.end - 1:
            return u
    return None


def _text(index: LineIndex, unit: Unit) -> str:
    return "\n".join(index.lines[unit.start : unit.end + 1])


def _indexes(
    files: Sequence[ChangedFile], config: Config
) -> dict[str, tuple[LineIndex | None, LineIndex | None]]:
    profile = get_profile(config.profile)
    out: dict[str, tuple[LineIndex | None, LineIndex | None]] = {}
    for cf in files:
        language = config.registry.detect(cf.path)
        old = LineIndex(cf.old_text, language, profile) if cf.old_text is not None else None
        new = LineIndex(cf.new_text, language, profile) if cf.new_text is not None else None
        out[cf.path] = (old, new)
    return out


def pairs_of(
    repo: str,
    commit: str,
    report: Report,
    files: Sequence[ChangedFile],
    config: Config,
    floor: float,
) -> list[Pair]:
    indexes = _indexes(files, config)
    old_of = {cf.path: cf.old_path or cf.path for cf in files}
    found: list[Pair] = []
    left_old: list[tuple[str, UnitChange, LineIndex, Unit]] = []
    left_new: list[tuple[str, UnitChange, LineIndex, Unit]] = []
    for fs in report.files:
        old_index, new_index = indexes.get(fs.path, (None, None))
        for u in fs.units:
            if u.kind in ("renamed", "moved"):
                src = indexes.get(u.old_path or fs.path, (None, None))[0]
                a = _unit(src, u.old) if src is not None else None
                b = _unit(new_index, u.new) if new_index is not None else None
                if src is None or a is None or new_index is None or b is None:
                    continue
                score = similarity(body_of(src, a).tokens, body_of(new_index, b).tokens)
                found.append(
                    Pair(
                        repo,
                        commit,
                        u.kind,
                        u.old_path or old_of.get(fs.path, fs.path),
                        u.old_label or "",
                        fs.path,
                        u.label,
                        score,
                        _text(src, a),
                        _text(new_index, b),
                    )
                )
            elif u.kind == "removed" and old_index is not None:
                a = _unit(old_index, u.old)
                if a is not None:
                    left_old.append((fs.path, u, old_index, a))
            elif u.kind == "added" and new_index is not None:
                b = _unit(new_index, u.new)
                if b is not None:
                    left_new.append((fs.path, u, new_index, b))
    # Near misses: each added unit's best removed counterpart, when it scores in [floor,
    # threshold). Bounded: at most 60 x 60 leftovers a commit.
    if left_old and left_new and len(left_old) * len(left_new) <= 3600:
        olds = [(p, u, i, a, body_of(i, a)) for p, u, i, a in left_old]
        for path, u, index, b in left_new:
            nb = body_of(index, b)
            if len(nb.tokens) < 16:
                continue
            best: tuple[float, str, UnitChange, LineIndex, Unit] | None = None
            for p, ou, oi, a, ob in olds:
                if len(ob.tokens) < 16 or ob.container != nb.container:
                    continue
                lo, hi = sorted((len(ob.tokens), len(nb.tokens)))
                if 2 * lo / (lo + hi) < floor:
                    continue
                s = similarity(ob.tokens, nb.tokens)
                if best is None or s > best[0]:
                    best = (s, p, ou, oi, a)
            if best is not None and floor <= best[0] < THRESHOLD:
                s, p, ou, oi, a = best
                found.append(
                    Pair(
                        repo,
                        commit,
                        "near miss",
                        p,
                        ou.label,
                        path,
                        u.label,
                        s,
                        _text(oi, a),
                        _text(index, b),
                    )
                )
    return found


class Scan(NamedTuple):
    pairs: list[Pair]
    commits: int
    units: int
    cpu_on: float  # CPU seconds of the reviews, pairing by body on
    cpu_off: float  # the same reviews with it off (the same process, interleaved)


@contextmanager
def _pairing_off() -> Iterator[None]:
    """Reviews as before this feature: no pairing by body in a file, no moves across files."""

    def no_matches(*args: object, **kwargs: object) -> list[Match]:
        return []

    def no_moves(files: Sequence[MeasuredFile]) -> list[MeasuredFile]:
        return list(files)

    swaps: list[tuple[ModuleType, str, object]] = [
        (units_module, "match_bodies", no_matches),
        (pipeline_module, "link_moves", no_moves),
    ]
    saved = [(module, name, vars(module)[name]) for module, name, _ in swaps]
    for module, name, value in swaps:
        setattr(module, name, value)
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def scan(repo: str, commits: int, config: Config, floor: float) -> Scan:
    """The pairs of the last ``commits`` non-merge commits, how many commits were read, how
    many units they touched, and the CPU seconds of the reviews with and without pairing."""
    mirror = MIRRORS / repo / "repo"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / repo
        git(Path(tmp), "clone", "-q", "--no-checkout", str(mirror), str(work))
        shas = git(work, "rev-list", "--no-merges", f"-n{commits}", "HEAD").split()
        pairs: list[Pair] = []
        units = 0
        cpu = [0.0, 0.0]  # on, off
        for k, sha in enumerate(shas):
            try:
                change = GitChange(work, (f"{sha}~1..{sha}",)).read(policy_of(config))
            except Exception as exc:  # a root commit, say: no parent to compare with
                print(f"{repo} {sha[:10]}: skipped ({exc})", file=sys.stderr)
                continue
            report: Report | None = None
            for on in (True, False) if k % 2 else (False, True):  # alternate the order
                started = time.process_time()
                if on:
                    report = review(change, config, mode=Mode.FAST)
                else:
                    with _pairing_off():
                        review(change, config, mode=Mode.FAST)
                cpu[0 if on else 1] += time.process_time() - started
            assert report is not None
            units += report.stats.units_changed
            pairs.extend(pairs_of(repo, sha[:10], report, change.files, config, floor))
        return Scan(pairs, len(shas), units, cpu[0], cpu[1])


def _sample(pairs: list[Pair], n: int, seed: int) -> list[Pair]:
    """Every pair of similar (not equal) bodies, the hard cases, then equal ones drawn with
    ``seed`` up to ``n``."""
    similar = [p for p in pairs if p.score < 0.999]
    equal = [p for p in pairs if p.score >= 0.999]
    rng = random.Random(seed)
    picked = similar + rng.sample(equal, max(0, min(n - len(similar), len(equal))))
    return sorted(picked, key=lambda p: (p.repo, p.commit, p.path, p.label))


def _key(p: Pair) -> str:
    return f"{p.commit} {p.path} {p.label}"


def _show(p: Pair) -> str:
    head = (
        f"=== {p.repo} {p.commit} {p.kind} {p.score:.2f}: "
        f"{p.old_path} {p.old_label} -> {p.path} {p.label}"
    )
    return "\n".join([head, "--- old", p.old_text[:1500], "--- new", p.new_text[:1500], ""])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=300, help="non-merge commits per repository")
    parser.add_argument("--floor", type=float, default=0.5, help="near misses from this score")
    parser.add_argument("--sample", type=int, default=40, help="pairs hand-checked")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--show", action="store_true", help="print the sample's texts")
    parser.add_argument("--out", default=str(RESULTS / "renames.md"))
    args = parser.parse_args(argv)
    config = Config()
    rows: list[str] = []
    everything: list[Pair] = []
    for repo in REPOS:
        scanned = scan(repo, args.commits, config, args.floor)
        pairs, read, units = scanned.pairs, scanned.commits, scanned.units
        cpu = f"{scanned.cpu_on:.1f} / {scanned.cpu_off:.1f}"
        everything.extend(pairs)
        paired = [p for p in pairs if p.kind != "near miss"]
        kinds = Counter(p.kind for p in paired)
        both = sum(1 for p in paired if p.kind == "moved" and p.old_label != p.label)
        commits_with = len({p.commit for p in paired})
        exact = sum(1 for p in paired if p.score >= 0.999)
        near = [p for p in pairs if p.kind == "near miss"]
        rows.append(
            f"| {repo.replace('+', '/')} | {read} | {units} | {commits_with} | "
            f"{kinds['renamed']} | {kinds['moved'] - both} | {both} | {exact} | "
            f"{len(paired) - exact} | {len(near)} | {cpu} |"
        )
    paired = [p for p in everything if p.kind != "near miss"]
    sample = _sample(paired, args.sample, args.seed)
    near = sorted((p for p in everything if p.kind == "near miss"), key=lambda p: -p.score)
    if args.show:
        for p in [*sample, *near]:
            print(_show(p))
    checked = [p for p in sample if _key(p) in VERDICTS]
    right = sum(1 for p in checked if VERDICTS[_key(p)].startswith("right"))
    lines = [
        "# Renamed and moved units on real history",
        "",
        f"Command: `{command_line('renames.py', argv)}`  ",
        f"reviewbot at {revision()}; threshold {THRESHOLD} (`analysis/renames.py`).",
        "",
        "| repository | commits | units touched | commits with a pair | renamed | moved | "
        "moved and renamed | equal bodies | similar bodies | near misses | "
        "review CPU s, pairing on / off |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"## Hand check: {len(checked)} of a seeded sample of {len(sample)} pairs",
        "",
        f"Right: {right} of {len(checked)}.",
        "",
        "| commit | kind | score | old | new | verdict |",
        "|---|---|---|---|---|---|",
        *(
            f"| {p.repo.split('+')[1]} {p.commit} | {p.kind} | {p.score:.2f} | "
            f"`{p.old_path}` `{p.old_label}` | `{p.path}` `{p.label}` | "
            f"{VERDICTS.get(_key(p), 'not checked')} |"
            for p in sample
        ),
        "",
        "## Near misses (best score below the threshold)",
        "",
        "| commit | score | removed | added | verdict |",
        "|---|---|---|---|---|",
        *(
            f"| {p.repo.split('+')[1]} {p.commit} | {p.score:.2f} | `{p.old_path}` "
            f"`{p.old_label}` | `{p.path}` `{p.label}` | {VERDICTS.get(_key(p), 'not checked')} |"
            for p in near
        ),
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
