"""Bundles of real commits that repeat one short edit in many files, and the short-edit rule on
the tangles of ``bench/tangles.py``.

For each commit of ``COMMITS`` (``commit~1..commit``, reviewed as ``reviewbot review`` does,
without the repository index), the number of bundles of the bundler of this checkout and of
the bundler at ``--before`` (its module loaded from git, run on the same input). Then, on the
tangles of ``bench/tangles.py`` (its cached reviews: run it first), every group the short-edit
rule makes (``bundles.REPEATED`` hunks or more, in two files or more, of a line shorter than
``bundles.SAME_EDIT``) and whether its hunks are one commit of the tangle.

Usage::

    .venv/bin/python bench/repeated_edits.py [--before b48214a]
"""

from __future__ import annotations

import argparse
import sys
import types
from collections import defaultdict
from pathlib import Path

import tangles

from reviewbot.analysis import bundles as current
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, explain_bundles

from lib.common import CORPUS, ROOT, git

# (repository, commit, what it repeats)
COMMITS = (
    ("stretchr/testify", "603c2a0", "t.Parallel() atop 196 tests in 7 files"),
    ("gin-gonic/gin", "a85ef5ce", "for b.Loop() { for the b.N loop in 4 files"),
    ("labstack/echo", "3c4d3b30", '"io/ioutil" removed from 12 files'),
    ("gin-gonic/gin", "12508320", "the json-iterator import in json.go and errors.go"),
)
HERE = CORPUS / "repeated_edits"
_language = tangles._language  # (tangles.py's cached reviews name it in its __main__)


def _module(commit: str) -> types.ModuleType:
    source = git(ROOT, "show", f"{commit}:reviewbot/analysis/bundles.py")
    module = types.ModuleType(f"bundles_{commit}")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:bundles.py", "exec"), module.__dict__)
    return module


def _clone(name: str) -> Path | None:
    mirror = tangles.MIRRORS / name.replace("/", "+") / "repo"
    target = HERE / name.replace("/", "+")
    if not target.exists():
        if not mirror.exists():
            return None
        HERE.mkdir(parents=True, exist_ok=True)
        git(HERE, "clone", "-q", "--shared", "--no-checkout", str(mirror), str(target))
    return target


def commits(before: types.ModuleType, label: str) -> list[str]:
    lines = [f"| commit | repeats | hunks | files | bundles at {label} | bundles now |"]
    lines.append("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, commit, what in COMMITS:
        path = _clone(name)
        if path is None:
            lines.append(f"| {name} {commit} | (no mirror here) | | | | |")
            continue
        explained = explain_bundles(GitChange(path, (f"{commit}~1..{commit}",)), Config())
        files, indexes = explained.files, explained.indexes
        old = before.bundle_change(files, indexes, [])
        new = current.bundle_change(files, indexes, [])
        hunks = sum(len(cf.hunks) for cf in files)
        cells = [
            f"{name} {commit}",
            what,
            str(hunks),
            str(len(files)),
            str(len(old)),
            str(len(new)),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def purity() -> list[str]:
    """The short-edit groups on the tangles, and how many are one commit."""
    out = []
    for half in ("tune", "report"):
        found = []
        for repo in tangles.REPOS:
            path = tangles.clone(repo)
            if repo.half != half or path is None:
                continue
            for t in tangles.pick(repo, path, 20, 1500, 11):
                reviewed = tangles.review((t, False))
                if reviewed is None:
                    continue
                refs = current._refs(reviewed.files, reviewed.indexes)
                by: dict[tuple[int, str], list[int]] = defaultdict(list)
                for r in refs:
                    for side, text in enumerate(r.edit):
                        for key in dict.fromkeys(
                            (text, current._own(text, r.path)) if text else ()
                        ):
                            by[(side, key)].append(r.index)
                for (side, text), members in by.items():
                    if (
                        len(members) >= current.REPEATED
                        and len({refs[i].path for i in members}) > 1
                        and not current._long(text)
                    ):
                        commits_of = {reviewed.truth[i][0] for i in members} - {"?"}
                        shown = text.replace("\n", " / ")[:40]
                        found.append((t.name, "+-"[side] + " " + shown, members, commits_of))
        pure = sum(1 for *_, c in found if len(c) <= 1)
        out.append(f"- {half} half: {len(found)} short-edit groups, {pure} of them one commit")
        out += [f"  - {n}: `{e}`, {len(m)} hunks, commits {sorted(c)}" for n, e, m, c in found]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="b48214a")
    args = ap.parse_args(argv)
    for line in [*commits(_module(args.before), args.before), "", *purity()]:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
