"""Review bundles on tangled changes made of consecutive real commits of one repository.

A *tangle* is the combined diff ``base..tip`` of a run of 2 or 3 consecutive non-merge commits
on the first-parent history of a real project (one pull request, several concerns: the usual
tangled change). Ground truth of a hunk is the commit of the run that introduced its lines:
``git blame base..tip`` on the new side for added lines, ``git blame --reverse base..tip`` on
the old side for removed ones (a removed line was last present in commit ``i``, so commit
``i + 1`` removed it); a hunk whose lines come from several commits takes the majority.

Runs are picked with a fixed seed among the last ``--depth`` commits of each repository: every
commit of the run changes 1-40 hunks of code, the run 4-120, no commit is in two tangles. The
hunks scored are the bundler's own input (the code files the review analyses); a tangle whose
analysed hunks all come from one commit is dropped.

Each tangle is reviewed once (``reviewbot.app.pipeline.explain_bundles``: the files, both
sides' indexes) and three partitions of its hunks are scored against the truth by the adjusted
Rand index (``bench/lib/scoring.py``): the bundles of this checkout, the bundles of the
bundler as it was at ``BEFORE`` (its module loaded from git, run on the same input), and one
group per file.

Repositories are fixed in two halves (``REPOS``): constants were tuned on the *tune* half and
the headline is the *report* half. The repositories are bare mirrors brought by the session's
``fetch`` tool (``/work/.mirror/<owner>+<name>/repo``); a shared clone of each goes under
``bench/.corpus/tangles/``. Reviews are cached there too (``--fresh`` redoes them).

Usage::

    .venv/bin/python bench/tangles.py [--per-repo 20] [--seed 11] [--depth 1500] [--jobs 2]
        [--half report|tune|both] [--fresh] [--out bench/results/bundles_quality.md] [--json PATH]
    .venv/bin/python bench/tangles.py --half tune --fit   # the weights and JOIN, tune half only
"""

from __future__ import annotations

import argparse
import copyreg
import hashlib
import pickle
import random
import re
import subprocess
import sys
import time
import types
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.analysis import bundles as current
from reviewbot.analysis.hunk_links import IndexLinks
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, explain_bundles
from reviewbot.engine import FileIndex
from reviewbot.engine.languages import BUILTIN_LANGUAGES, Language
from reviewbot.model import Bundle, ChangedFile

from lib.common import CORPUS, RESULTS, command_line, git, para, revision, write_json, write_result
from lib.index_links import Linked, links_at
from lib.procs import parallel
from lib.scoring import ari, check_ari, mean, median, pair_scores

MIRRORS = Path("/work/.mirror")
HERE = CORPUS / "tangles"
BEFORE = "39ff7a5"  # main when this benchmark was written: "today's bundles"
CODE = re.compile(r"\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|go|java)$")
COMMIT_HUNKS = (1, 40)


def _language(name: str) -> Language:
    return next(lang for lang in BUILTIN_LANGUAGES if lang.name == name)


def _reduce_language(lang: Language) -> tuple[Any, tuple[str]]:
    return _language, (lang.name,)


copyreg.pickle(Language, _reduce_language)  # reviews are cached: a language by its name
TANGLE_HUNKS = (4, 120)


class Repo(NamedTuple):
    name: str  # owner/name on GitHub
    language: str
    half: str  # tune | report


REPOS = (
    Repo("pallets/click", "python", "tune"),
    Repo("python-attrs/attrs", "python", "tune"),
    Repo("expressjs/express", "javascript", "tune"),
    Repo("pmndrs/zustand", "typescript", "tune"),
    Repo("gin-gonic/gin", "go", "tune"),
    Repo("jhy/jsoup", "java", "tune"),
    Repo("encode/starlette", "python", "report"),
    Repo("marshmallow-code/marshmallow", "python", "report"),
    Repo("pytest-dev/pluggy", "python", "report"),
    Repo("koajs/koa", "javascript", "report"),
    Repo("colinhacks/zod", "typescript", "report"),
    Repo("immerjs/immer", "typescript", "report"),
    Repo("labstack/echo", "go", "report"),
    Repo("gorilla/mux", "go", "report"),
    Repo("sirupsen/logrus", "go", "report"),
    Repo("square/javapoet", "java", "report"),
    Repo("apache/commons-cli", "java", "report"),
)


@dataclass(frozen=True)
class Tangle:
    repo: Repo
    commits: tuple[str, ...]  # oldest first
    base: str  # the parent of the first

    @property
    def name(self) -> str:
        return f"{self.repo.name} {self.commits[0][:8]}..{self.commits[-1][:8]}"


# -- choosing runs of commits ---------------------------------------------------------------------


def clone(repo: Repo) -> Path | None:
    """A shared, work-tree-less clone of the mirror (reviewbot reads ranges from a work tree
    repository), or None when the mirror is absent."""
    mirror = MIRRORS / repo.name.replace("/", "+") / "repo"
    target = HERE / repo.name.replace("/", "+")
    if not target.exists():
        if not mirror.exists():
            return None
        HERE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["git", "clone", "-q", "--shared", "--no-checkout", str(mirror), str(target)],
            check=True,
        )
    return target


def code_hunks(path: Path, depth: int) -> list[tuple[str, str, int]]:
    """(commit, parent, hunks of code at -U3) of the last ``depth`` first-parent commits, newest
    first; merges and root commits get parent ""."""
    log = git(path, "log", "--first-parent", f"-n{depth}", "-p", "-U3", "--no-renames",
              "--format=@@@ %H %P", "HEAD")  # fmt: skip
    out: list[tuple[str, str, int]] = []
    commit, parent, count, code = "", "", 0, False
    for line in log.split("\n"):
        if line.startswith("@@@ "):
            if commit:
                out.append((commit, parent, count))
            parts = line.split()
            commit, parent = parts[1], (parts[2] if len(parts) == 3 else "")
            count, code = 0, False
        elif line.startswith("diff --git "):
            code = CODE.search(line.rsplit(" b/", 1)[-1]) is not None
        elif code and line.startswith("@@ "):
            count += 1
    if commit:
        out.append((commit, parent, count))
    return out


def pick(repo: Repo, path: Path, per_repo: int, depth: int, seed: int) -> list[Tangle]:
    """Up to ``per_repo`` disjoint runs of 2 or 3 consecutive commits (alternating)."""
    history = code_hunks(path, depth)[::-1]  # oldest first
    lo, hi = COMMIT_HUNKS
    good = [bool(p) and lo <= n <= hi for _, p, n in history]
    rng = random.Random(f"{seed} {repo.name}")
    starts = list(range(len(history)))
    rng.shuffle(starts)
    taken: set[int] = set()
    out: list[Tangle] = []
    for s in starts:
        k = 2 + len(out) % 2
        run = range(s, s + k)
        if s + k > len(history) or any(i in taken or not good[i] for i in run):
            continue
        if not TANGLE_HUNKS[0] <= sum(history[i][2] for i in run) <= TANGLE_HUNKS[1]:
            continue
        commits = tuple(history[i][0] for i in run)
        if any(history[i + 1][1] != history[i][0] for i in run[:-1]):
            continue  # not a linear run (first parent of the next is not this one)
        taken.update(run)
        out.append(Tangle(repo, commits, history[s][1]))
        if len(out) == per_repo:
            break
    return out


# -- ground truth ------------------------------------------------------------------------------


def _blame(path: Path, rng: str, file: str, reverse: bool) -> dict[int, str]:
    """Line number -> commit of ``git blame`` (``--reverse``: the last commit with the line)."""
    args = ["blame", "--porcelain", *(["--reverse"] if reverse else []), rng, "--", file]
    try:
        text = git(path, *args)
    except RuntimeError:
        return {}
    out: dict[int, str] = {}
    for line in text.split("\n"):
        parts = line.split(" ")
        if len(parts) >= 3 and len(parts[0]) == 40 and parts[1].isdigit() and parts[2].isdigit():
            out[int(parts[2])] = parts[0]
    return out


def labels(t: Tangle, path: Path, files: Sequence[ChangedFile]) -> list[tuple[str, float]]:
    """Per hunk of ``files`` (in order): the commit (index in the run, as a string) that
    introduced most of its lines, and the share of its lines from that commit."""
    position = {c: i for i, c in enumerate(t.commits)}
    rng = f"{t.base}..{t.commits[-1]}"
    out: list[tuple[str, float]] = []
    for cf in files:
        new = _blame(path, rng, cf.path, False) if cf.new_text is not None else {}
        old = {}
        if cf.old_text is not None:
            old = _blame(path, rng, cf.old_path or cf.path, True)
        for h in cf.hunks:
            votes: Counter[int] = Counter()
            for n in h.added:
                if new.get(n) in position:
                    votes[position[new[n]]] += 1
            for n in h.removed:
                last = old.get(n)
                if last in position and position[last] + 1 < len(t.commits):
                    votes[position[last] + 1] += 1
                elif last == t.base:
                    votes[0] += 1  # gone in the first commit of the run
            if not votes:
                out.append(("?", 0.0))
                continue
            top, count = votes.most_common(1)[0]
            out.append((str(top), count / sum(votes.values())))
    return out


# -- reviewing ---------------------------------------------------------------------------------


class Reviewed(NamedTuple):
    files: tuple[ChangedFile, ...]
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]]
    truth: list[tuple[str, float]]
    seconds: float


def _cache(t: Tangle) -> Path:
    key = hashlib.sha1(f"{t.base} {' '.join(t.commits)}".encode()).hexdigest()[:16]
    return HERE / "reviews" / f"{t.repo.name.replace('/', '+')}-{key}.pickle"


def review(job: tuple[Tangle, bool]) -> Reviewed | None:
    t, fresh = job
    cached = _cache(t)
    if cached.exists() and not fresh:
        return Reviewed(*pickle.loads(cached.read_bytes()))
    path = clone(t.repo)
    if path is None:
        return None
    started = time.perf_counter()
    explained = explain_bundles(GitChange(path, (f"{t.base}..{t.commits[-1]}",)), Config())
    seconds = time.perf_counter() - started
    files = explained.files
    result = Reviewed(files, explained.indexes, labels(t, path, files), seconds)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(pickle.dumps(tuple(result)))  # no class: any module reads it
    return result


# -- the repository index at each tangle's base ---------------------------------------------------


def _links_cache(t: Tangle) -> Path:
    return HERE / "links" / _cache(t).name


def link_repo(job: tuple[Repo, list[Tangle], bool]) -> list[Linked | None]:
    """The index links of a repository's tangles: one index per repository, brought to each
    tangle's base in commit order (``update_index`` re-reads only the blobs that changed), and
    each tangle's two sides applied to it in a transaction that is rolled back (as a review
    does: ``repo_impact`` with the bundler's ``sides``)."""
    repo, tangles, fresh = job
    out: list[Linked | None] = [None] * len(tangles)
    path = clone(repo)
    if path is None:
        return out
    order = {c: k for k, c in enumerate(git(path, "rev-list", "--first-parent", "HEAD").split())}
    todo = []
    for k, t in enumerate(tangles):
        cached = _links_cache(t)
        if cached.exists() and not fresh:
            links, *times = pickle.loads(cached.read_bytes())
            out[k] = Linked(IndexLinks(*links), *times)
        else:
            todo.append(k)
    todo.sort(key=lambda k: -order.get(tangles[k].base, 0))  # oldest base first
    database = HERE / "index" / f"{repo.name.replace('/', '+')}.sqlite"
    database.parent.mkdir(parents=True, exist_ok=True)
    for k in todo:
        t = tangles[k]
        reviewed = review((t, False))
        if reviewed is None:
            continue
        linked = links_at(path, database, t.base, reviewed.files)
        cached = _links_cache(t)
        cached.parent.mkdir(parents=True, exist_ok=True)
        assert linked.links is not None
        cached.write_bytes(pickle.dumps((tuple(linked.links), *linked[1:])))
        out[k] = linked
    return out


def before_module() -> types.ModuleType:
    """The bundler as it was at ``BEFORE`` (today's bundles), loaded from git."""
    source = git(
        Path(__file__).resolve().parents[1], "show", f"{BEFORE}:reviewbot/analysis/bundles.py"
    )
    module = types.ModuleType("bundles_before")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{BEFORE}:bundles.py", "exec"), module.__dict__)
    return module


def _partition(bundles: Sequence[Bundle], files: Sequence[ChangedFile]) -> list[int]:
    """The bundle of each hunk of ``files``, in order."""
    where: dict[tuple[str, int, int], int] = {}
    for b, bundle in enumerate(bundles):
        for h in bundle.hunks:
            where[(h.path, h.new_start, h.old_start)] = b
    return [where[(cf.path, h.new_start, h.old_start)] for cf in files for h in cf.hunks]


def score(
    t: Tangle, r: Reviewed, before: types.ModuleType, linked: Linked | None
) -> dict[str, Any] | None:
    truth = [label for label, _ in r.truth]
    known = [i for i, label in enumerate(truth) if label != "?"]
    if len({truth[i] for i in known}) < 2:
        return None
    by_file_all = [cf.path for cf in r.files for _ in cf.hunks]
    cpu = time.process_time()
    ours_all = _partition(current.bundle_change(r.files, r.indexes, []), r.files)
    cpu_ours = time.process_time() - cpu
    cpu = time.process_time()
    old_all = _partition(before.bundle_change(r.files, r.indexes, []), r.files)
    cpu_old = time.process_time() - cpu
    links = linked.links if linked is not None else None
    cpu = time.process_time()
    indexed_all = _partition(current.bundle_change(r.files, r.indexes, [], links), r.files)
    cpu_indexed = time.process_time() - cpu
    t_ = [truth[i] for i in known]
    ours = [ours_all[i] for i in known]
    indexed = [indexed_all[i] for i in known]
    old = [old_all[i] for i in known]
    by_file = [by_file_all[i] for i in known]
    return {
        "name": t.name,
        "repo": t.repo.name,
        "language": t.repo.language,
        "half": t.repo.half,
        "commits": len(t.commits),
        "changes": len(set(t_)),
        "hunks": len(known),
        "unlabelled": len(truth) - len(known),
        "mixed": sum(1 for i in known if r.truth[i][1] < 1.0),
        "files": len(set(by_file)),
        "bundles": len(set(ours)),
        "bundles_before": len(set(old)),
        "ari": ari(t_, ours),
        "ari_index": ari(t_, indexed),
        "indexed": links is not None,
        "index_links": sum(len(x) for x in links) if links is not None else 0,
        "index_update_s": linked.update_s if linked is not None else None,
        "index_links_s": linked.links_s if linked is not None else None,
        "index_cpu_without": linked.cpu_without if linked is not None else None,
        "index_cpu_with": linked.cpu_with if linked is not None else None,
        "ari_before": ari(t_, old),
        "ari_file": ari(t_, by_file),
        "pair": pair_scores(t_, ours),
        "pair_index": pair_scores(t_, indexed),
        "pair_before": pair_scores(t_, old),
        "pair_file": pair_scores(t_, by_file),
        "cpu_ms": round(cpu_ours * 1000, 2),
        "cpu_ms_index": round(cpu_indexed * 1000, 2),
        "cpu_ms_before": round(cpu_old * 1000, 2),
        "review_s": round(r.seconds, 2),
    }


# -- the report ---------------------------------------------------------------------------------


def row(label: str, rows: Sequence[dict[str, Any]]) -> str:
    if not rows:
        return f"| {label} | 0 |" + " |" * 12
    new = [r["ari"] for r in rows]
    old = [r["ari_before"] for r in rows]
    fil = [r["ari_file"] for r in rows]
    ind = [r["ari_index"] for r in rows]
    wins = sum(1 for a, f in zip(new, fil, strict=True) if a > f + 1e-9)
    ties = sum(1 for a, f in zip(new, fil, strict=True) if abs(a - f) <= 1e-9)
    cells = [
        label,
        str(len(rows)),
        f"{mean(new):.3f}",
        f"{median(new):.3f}",
        f"{mean(ind):.3f}",
        f"{median(ind):.3f}",
        f"{mean(ind) - mean(new):+.3f}",
        f"{mean(fil):.3f}",
        f"{median(fil):.3f}",
        f"{mean(old):.3f}",
        f"{median(old):.3f}",
        f"{mean(new) - mean(fil):+.3f}",
        f"{mean(new) - mean(old):+.3f}",
        f"{100 * wins / len(rows):.0f}% ({wins}; {ties} ties)",
    ]
    return "| " + " | ".join(cells) + " |"


HEAD = [
    "| tangles | n | ARI bundles, mean | median | with the index, mean | median "
    "| index - without | ARI by file, mean | median "
    "| ARI today's bundles, mean | median | bundles - by file | bundles - today "
    "| bundles > by file |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
    "| ---: | ---: |",
]


def shape(label: str, rows: Sequence[dict[str, Any]]) -> str:
    def m(key: str) -> str:
        return f"{mean([float(r[key]) for r in rows]):.1f}"

    def p(key: str, i: int) -> str:
        return f"{mean([r[key][i] for r in rows]):.2f}"

    cells = [label, m("hunks"), m("changes"), m("files"), m("bundles"), m("bundles_before")]
    cells += [p("pair", 0), p("pair", 1), p("pair_before", 0), p("pair_before", 1)]
    cells += [p("pair_file", 0), p("pair_file", 1)]
    return "| " + " | ".join(cells) + " |"


SHAPE_HEAD = [
    "| tangles | hunks | true changes | files | bundles | today's bundles | pair precision "
    "| pair recall | today: precision | today: recall | by file: precision | by file: recall |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
]


def render(rows: list[dict[str, Any]], notes: list[str], argv: Sequence[str] | None,
           seconds: float) -> list[str]:  # fmt: skip
    report = [r for r in rows if r["half"] == "report"]
    tune = [r for r in rows if r["half"] == "tune"]
    lines = ["# Review bundles on tangles of consecutive real commits", ""]
    lines += para(__doc__.split("\n\n")[0] + " " + __doc__.split("\n\n")[1])
    lines += para(
        f"Run with reviewbot at {revision()}; today's bundles = the bundler at {BEFORE}. "
        f"{len(rows)} tangles scored in {seconds / 60:.1f} min."
    )
    lines += ["Reproduce (needs the mirrors, see the docstring of `bench/tangles.py`):", ""]
    lines += ["```bash", command_line("tangles.py", argv), "```", ""]
    halves = ", ".join(
        f"{h}: " + ", ".join(r.name for r in REPOS if r.half == h) for h in ("tune", "report")
    )
    lines += para(f"Repository halves (fixed before tuning). {halves}.")
    lines += para(
        "How the constants were chosen, on the tune half only: the pair features' same-commit "
        "rates were looked at there; the weights of `bundles.FEATURES` are an L2-regularised "
        "logistic regression over the tune half's hunk pairs, and `JOIN` the best of 0.40-0.65 "
        "in steps of 0.05 on the tune half (`bench/tangles.py --half tune --fit` reproduces "
        "both). The report half was looked at once before the final model, with an earlier "
        "feature set (rare, introduced and removed identifiers instead of text similarity: "
        "+0.077 over by file); that shortfall is why textual similarity was then tried, chosen "
        "and weighted on the tune half alone."
    )
    lines += para(
        "With the index: the repository's index (`reviewbot index`'s own build, one database per "
        "repository) is brought to each tangle's base commit, walking the tangles of a repository "
        "in commit order so that each update re-reads only the blobs that changed; the tangle's "
        "two sides are then applied to it in a transaction that is rolled back, as a review "
        "does, and `hunk_links` reads three links from it: a reference on one hunk's changed "
        "lines resolving to a declaration whose header another hunk changes, or whose body it "
        "changes, and a call in one hunk's unit resolving to a unit another hunk changes (each "
        "weighted by the index's confidence). Their weights (`bundles.INDEX_WEIGHTS`) were "
        "fitted like the others on the tune half only, two ways: added to the name-based "
        "define -> use features (tune half: +0.214 over by file, JOIN 0.5) or replacing them "
        "(+0.209); the first was kept, chosen on the tune half (without the index: +0.180 "
        "there). The report half was then run once. A fourth link, SmartCommit's use-use "
        "(two hunks refer to one declaration that at most 5 hunks of the change refer to), was "
        "tried the same way (on the tune half) and dropped: its fitted weight was 0.07 and the "
        "tune half moved by +0.001."
    )
    lines += ["## Headline: the report half", "", *HEAD, row("report half, all", report)]
    for k in (2, 3):
        lines.append(row(f"report, {k} commits", [r for r in report if r["commits"] == k]))
    for lang in sorted({r["language"] for r in report}):
        lines.append(row(f"report, {lang}", [r for r in report if r["language"] == lang]))
    lines.append(row("tune half (constants chosen here)", tune))
    lines += [""]
    if report:
        gain = mean([r["ari"] for r in report]) - mean([r["ari_file"] for r in report])
        lines += para(
            f"Goal: bundles beat by file by +0.10 ARI or more on average. Measured on the "
            f"report half: {gain:+.3f}, so the goal is {'met' if gain >= 0.10 else 'NOT met'}."
        )
        better = sum(1 for r in report if r["ari_index"] > r["ari"] + 1e-9)
        worse = sum(1 for r in report if r["ari_index"] < r["ari"] - 1e-9)
        delta = mean([r["ari_index"] - r["ari"] for r in report])
        tuned = mean([r["ari_index"] - r["ari"] for r in tune]) if tune else 0.0
        lines += para(
            f"With the index, on the report half: {delta:+.3f} ARI over the bundles without it "
            f"({better} tangles better, {worse} worse, the rest equal); on the tune half, where "
            f"its weights were fitted, {tuned:+.3f}. The index's links are kept because they do "
            f"not hurt the report half{'' if delta >= 0 else ' (they do here: see the table)'}; "
            f"{'a clear gain it is not' if delta < 0.02 else 'they help'}."
        )
    lines += ["## Per repository", "", *HEAD]
    for repo in REPOS:
        these = [r for r in rows if r["repo"] == repo.name]
        if these:
            lines.append(row(f"{repo.name} ({repo.half})", these))
    lines += ["", "## Shape (means per tangle)", "", *SHAPE_HEAD]
    lines += [shape("report", report), shape("tune", tune), ""]
    if rows:
        mixed = sum(r["mixed"] for r in rows)
        hunks = sum(r["hunks"] for r in rows)
        cpu = [r["cpu_ms"] for r in rows]
        cpu_old = [r["cpu_ms_before"] for r in rows]
        lines += para(
            f"Truth: {mixed} of {hunks} scored hunks ({100 * mixed / hunks:.1f}%) hold lines of "
            f"two or more commits of their run and are labelled by majority; "
            f"{sum(r['unlabelled'] for r in rows)} hunks with no line attributable to the run "
            f"(whitespace-only, moved) are not scored. Bundler CPU time per tangle, median: "
            f"{median(cpu):.1f} ms (today's: {median(cpu_old):.1f} ms), max {max(cpu):.0f} ms; "
            f"measured in one process, side by side, on a shared 2-core machine."
        )
        indexed = [r for r in rows if r["indexed"]]
        if indexed:
            lines += para(
                f"The index: {len(indexed)} of {len(rows)} tangles had its links. Per tangle, "
                f"median: bringing the index to the base "
                f"{median([r['index_update_s'] for r in indexed]):.2f} s, applying the two "
                f"sides and reading the links (the review's impact included) "
                f"{median([r['index_links_s'] for r in indexed]):.2f} s (wall, a loaded "
                f"machine; the first tangle of a repository is a cold build); "
                f"{median([float(r['index_links']) for r in indexed]):.0f} links; the bundler's "
                f"CPU with them {median([r['cpu_ms_index'] for r in indexed]):.1f} ms. What the "
                f"links add to a review's index step (`repo_impact` without and with them, CPU, "
                f"side by side, median): "
                f"{1000 * median([r['index_cpu_without'] for r in indexed]):.0f} ms -> "
                f"{1000 * median([r['index_cpu_with'] for r in indexed]):.0f} ms (without them a "
                f"change that adds, removes or re-signs no declaration skips the index)."
            )
    lines += release_pairs()
    if notes:
        lines += ["## Notes", "", *(f"- {n}" for n in notes), ""]
    return lines


PAIRS = RESULTS / "bundles_release_pairs.md"  # written by bench/bundles_quality.py


def release_pairs() -> list[str]:
    """The headline table of the release-pair tangles (``bench/bundles_quality.py``), as its
    last run wrote it."""
    if not PAIRS.exists():
        return []
    text = PAIRS.read_text(encoding="utf-8")
    table = [ln for ln in text.split("## Headline", 1)[-1].split("\n\n")[1].splitlines()]
    run = next((p for p in text.split("\n\n") if p.startswith("Run with reviewbot")), "")
    lines = ["## Second table: release-pair tangles", ""]
    lines += para(
        "Tangles of whole release pairs of packages (2-3 changes of different packages, or two "
        "release pairs of one package with disjoint files), from `bench/bundles_quality.py`; "
        f"details and the rest of that run in `{PAIRS.relative_to(RESULTS.parent.parent)}`. " + run
    )
    lines += para(
        "The '39ff7a5' column is the bundler at 39ff7a5 on the same tangles. Here it scores higher "
        "than the pair model: a release pair is many commits (the truth is the whole release, "
        "about 50 hunks per change), and each package sits under its own top folder, which the "
        "old bundler linked names within. The pair model, fitted on commit-sized concerns, "
        "keeps its bundles nearly pure and joins less: the release-pair results file says why "
        "(looked at on a few tangles) and gives the pair precision and recall."
    )
    return [*lines, *table, ""]


# -- fitting the pair model (tune half only) --------------------------------------------------


NAME_LINKS = (2, 3)  # the name-based define -> use features, left out by "replace"


def fit(
    pairs: Sequence[tuple[Reviewed, IndexLinks | None]],
    l2: float = 1.0,
    drop: Sequence[int] = (),
) -> NDArray[np.float64]:
    """Weights of ``bundles.FEATURES`` (``INDEX_FEATURES`` when the pairs have the index's
    links): L2-regularised logistic regression (Newton steps) of "one commit made both" over
    the hunk pairs of ``pairs`` (each pair weighted 1/hunks of its tangle; pairs of one unit
    left out, they are hard links). Features in ``drop`` are zeroed (their weight fits to 0)."""
    xs: list[NDArray[np.float64]] = []
    ys: list[float] = []
    ws: list[float] = []
    for r, links in pairs:
        refs = current._refs(r.files, r.indexes)
        truth = [label for label, _ in r.truth]
        n = len(refs)
        if n > current.MAX_PAIRWISE:
            continue
        f, _ = current.features(refs, links)
        for k in drop:
            f[:, :, k] = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                if "?" in (truth[i], truth[j]):
                    continue
                a, b = refs[i], refs[j]
                if a.unit is not None and a.unit == b.unit and a.path == b.path:
                    continue
                xs.append(f[i, j])
                ys.append(float(truth[i] == truth[j]))
                ws.append(1.0 / n)
    x, y, w = np.array(xs), np.array(ys), np.array(ws)
    w *= len(w) / w.sum()
    beta = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (w * (p - y)) + l2 * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def _sweep(pairs: Sequence[tuple[Reviewed, IndexLinks | None]], beta: NDArray[np.float64]) -> None:
    for join in (0.4, 0.45, 0.5, 0.55, 0.6, 0.65):
        gains = []
        for r, links in pairs:
            refs = current._refs(r.files, r.indexes)
            groups = current.group_hunks(
                refs, current._graph(refs)[1], _weights(refs, beta, links), join=join
            ).groups
            truth = [label for label, _ in r.truth]
            known = [i for i, label in enumerate(truth) if label != "?"]
            if len({truth[i] for i in known}) < 2:
                continue
            where = {i: g for g, members in enumerate(groups) for i in members}
            gains.append(
                ari([truth[i] for i in known], [where[i] for i in known])
                - ari([truth[i] for i in known], [refs[i].path for i in known])
            )
        print(f"JOIN {join:.2f}: bundles - by file {mean(gains):+.3f} over {len(gains)} tangles")


def tune(
    tangles: Sequence[Tangle], reviewed: Sequence[Reviewed | None], linked: Sequence[Linked | None]
) -> None:
    """Print the fitted weights and the tune half's mean ARI over a sweep of ``JOIN``: without
    the index, and with it (its three features added to the name-based ones, or replacing the
    name-based define -> use features)."""
    plain = [
        (r, None)
        for t, r in zip(tangles, reviewed, strict=True)
        if r is not None and t.repo.half == "tune"
    ]
    beta = fit(plain)
    for name, value in zip(current.FEATURES, beta, strict=True):
        print(f"{value:+.2f}  {name}")
    print("WEIGHTS = np.array([" + ", ".join(f"{v:.2f}" for v in beta) + "])")
    _sweep(plain, beta)
    indexed = [
        (r, x.links)
        for t, r, x in zip(tangles, reviewed, linked, strict=True)
        if r is not None and x is not None and x.links is not None and t.repo.half == "tune"
    ]
    for label, drop in (("added to the name-based links", ()), ("replacing them", NAME_LINKS)):
        print(f"-- with the index, {label} ({len(indexed)} tangles)")
        beta = fit(indexed, drop=drop)
        for name, value in zip(current.INDEX_FEATURES, beta, strict=True):
            print(f"{value:+.2f}  {name}")
        print("INDEX_WEIGHTS = np.array([" + ", ".join(f"{v:.2f}" for v in beta) + "])")
        _sweep(indexed, beta)


def _weights(
    refs: Sequence[current.HunkRef], beta: NDArray[np.float64], links: IndexLinks | None = None
) -> NDArray[np.float64]:
    if len(refs) > current.MAX_PAIRWISE:
        return current._graph(refs)[0]
    f, _ = current.features(refs, links)
    weight: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-(f @ beta)))
    np.fill_diagonal(weight, 0.0)
    return weight


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-repo", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--depth", type=int, default=1500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--half", choices=("report", "tune", "both"), default="both")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--fit", action="store_true", help="fit the pair model on the tune half")
    ap.add_argument("--out", default=str(RESULTS / "bundles_quality.md"))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    check_ari()
    started = time.perf_counter()
    notes: list[str] = []
    tangles: list[Tangle] = []
    for repo in REPOS:
        if args.half != "both" and repo.half != args.half:
            continue
        path = clone(repo)
        if path is None:
            notes.append(f"{repo.name}: no mirror here, skipped")
            continue
        try:
            tangles += pick(repo, path, args.per_repo, args.depth, args.seed)
        except RuntimeError as exc:  # a snapshot with objects missing
            notes.append(f"{repo.name}: history unreadable, skipped ({str(exc)[-80:]})")
    reviewed = parallel(review, [(t, args.fresh) for t in tangles], args.jobs)
    # One job per repository (its index is brought from base to base in commit order).
    repos = [repo for repo in REPOS if any(t.repo == repo for t in tangles)]
    per_repo = [[t for t in tangles if t.repo == repo] for repo in repos]
    done = parallel(
        link_repo, [(repo, ts, args.fresh) for repo, ts in zip(repos, per_repo, strict=True)],
        args.jobs,
    )  # fmt: skip
    found = {
        t: x for ts, xs in zip(per_repo, done, strict=True) for t, x in zip(ts, xs, strict=True)
    }
    linked = [found.get(t) for t in tangles]
    if args.fit:
        tune(tangles, reviewed, linked)
        return 0
    before = before_module()
    rows: list[dict[str, Any]] = []
    dropped: Counter[str] = Counter()
    for t, r, x in zip(tangles, reviewed, linked, strict=True):
        scored = score(t, r, before, x) if r is not None else None
        if scored is None:
            dropped[t.repo.name] += 1
        else:
            rows.append(scored)
    if dropped:
        notes.append(
            "tangles dropped (their analysed hunks come from one commit): "
            + ", ".join(f"{k} {v}" for k, v in sorted(dropped.items()))
        )
    seconds = time.perf_counter() - started
    write_result(args.out, render(rows, notes, argv, seconds))
    if args.json:
        write_json(args.json, rows)
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for one in rows:
        by[one["half"]].append((one["ari"] - one["ari_file"], one["ari_index"] - one["ari_file"]))
    for half, gains in sorted(by.items()):
        print(
            f"{half}: {len(gains)} tangles, bundles - by file {mean([g for g, _ in gains]):+.3f}, "
            f"with the index {mean([g for _, g in gains]):+.3f}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
