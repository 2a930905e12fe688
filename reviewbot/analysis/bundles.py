"""Review bundles: the hunks of a change grouped into coherent pieces, in a reading order.

Links between hunks: the same structural unit (strong), one hunk defines a name another uses
(strong, and directed: the definition is read first), the same file, and shared rare
identifiers (weak). Connected groups of strong links come first; spectral clustering (graph
Laplacian, eigenvectors, k-means with the number of clusters from the eigengap) splits large
groups; hunks with no strong link are grouped by file. Deterministic for the same input.
scipy is imported only when a group is large enough to need it (measured: importing it costs
about 0.5 s, more than the rest of a small review).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine import FileIndex
from reviewbot.model import Bundle, ChangedFile, Finding, Hunk, HunkSpan

__all__ = [
    "MAX_GROUP",
    "BundleExplanation",
    "Grouping",
    "HunkRef",
    "bundle_change",
    "explain",
    "group_hunks",
    "references",
]

MAX_GROUP = 12  # groups larger than this are refined with spectral clustering
SPLIT_BELOW = 0.05  # ... when k eigenvalues of the normalised Laplacian are this close to 0
SPLIT_GAP = 0.2  # ... and the next one is this much larger
DISTINCT = 10  # a rare identifier this long links hunks strongly
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_COMMON = frozenset(
    "self this that true false none null return import from class function const let var "
    "static public private protected void string number boolean int float double self_ "
    "value values result data item items name type args kwargs error print assert".split()
)


def references(lines: Sequence[str]) -> frozenset[str]:
    """Names the lines refer to as code does: calls `f(`, members `.f`/`::f`, and types
    (capitalised words), not every word (a parameter called `rate` is not a use of `rate()`)."""
    # One scan of the lines joined by a character no match can take in or step over (not
    # white space, not a word character): each line's matches, as if scanned alone.
    found = {a or b or c for a, b, c in _REFERENCE.findall(_APART.join(lines))}
    return frozenset(name for name in found if name and name.lower() not in _COMMON)


_APART = "\x00"


_REFERENCE = re.compile(
    r"([A-Za-z_]\w{2,})\s*\(|(?:\.|::|->)([A-Za-z_]\w{2,})|\b([A-Z][A-Za-z0-9_]{2,})\b"
)


# Names too common to link two hunks on their own (methods every codebase has).
_GENERIC = frozenset(
    "get set add append remove pop update copy clear keys values items len run main init "
    "test tests setup teardown close open read write load save start stop reset parse format "
    "build create make process handle send emit render call apply next iter str repr hash "
    "equals eq lt gt compare to_string tostring valueof from of new delete insert find index "
    "count push shift map filter reduce join split replace trim match exec then catch error "
    "log info debug warn warning print string number object array list dict type name value "
    "data id key node item size length default options config context request response".split()
)


@dataclass(frozen=True)
class HunkRef:
    index: int
    path: str
    hunk: Hunk
    unit: tuple[int, str] | None  # (start line, label) of the enclosing unit, either side
    defines: frozenset[str]  # names declared by units whose header the hunk changes
    owns: frozenset[str]  # names of the units the hunk changes (header or body)
    words: frozenset[str]  # identifiers on the hunk's changed code
    refers: frozenset[str]  # names the changed code calls, accesses or names as types
    language: str
    folder: str  # the top-level folder (names are linked within one, or through an import)
    text: str  # the new side's text, to see whether it mentions another file's module


def _code(index: FileIndex | None, numbers: Sequence[int], skip: set[int]) -> list[str]:
    """The masked code (no strings, no comments) of the given 1-based lines."""
    if index is None:
        return []
    count, code = index.line_count, index.code
    return [code[n - 1] for n in numbers if 0 < n <= count and n not in skip]


def _unit_starts(index: FileIndex) -> frozenset[int]:
    """The (0-based) lines where a unit of ``index`` starts."""
    return frozenset(u.start for u in index.structure.units)


def _refs(
    files: Sequence[ChangedFile], indexes: dict[str, tuple[FileIndex | None, FileIndex | None]]
) -> list[HunkRef]:
    """Each hunk of ``files`` (in order; ``index`` is its position) with its enclosing unit,
    the names it defines and refers to, and its identifiers: what the links are made of."""
    refs: list[HunkRef] = []
    for cf in files:
        old, new = indexes.get(cf.path, (None, None))
        side = new or old
        language = side.language.name if side is not None else ""
        folder = cf.path.split("/", 1)[0] if "/" in cf.path else ""
        for h in cf.hunks:
            defines: set[str] = set()
            owns: set[str] = set()
            headers: dict[str, set[int]] = {"new": set(), "old": set()}
            unit_key: tuple[int, str] | None = None
            for side_name, side, numbers in (("new", new, h.added), ("old", old, h.removed)):
                if side is None:
                    continue
                # Only a line where a unit starts can be a header: once the hunk's unit is
                # known, the other lines need no look-up.
                starts = _unit_starts(side)
                for n in numbers:
                    if unit_key is not None and n - 1 not in starts:
                        continue
                    unit = side.unit_at(n - 1)
                    if unit is None:
                        continue
                    if unit_key is None:
                        unit_key = (
                            unit.start if side_name == "new" else -1 - unit.start,
                            unit.label,
                        )
                    if unit.start == n - 1 and unit.name:
                        headers[side_name].add(n)
                        name = unit.name.split("::")[-1].split(" for ")[0]
                        if not (name.startswith("__") and name.endswith("__")):
                            defines.add(name)  # dunder methods are not called by name
            if unit_key is None and new is not None:
                first, _ = h.changed_new
                unit = new.unit_at(first - 1)
                unit_key = (unit.start, unit.label) if unit else None
            # A declaration's own header is not a use of anything it names.
            changed = _code(new, h.added, headers["new"]) + _code(old, h.removed, headers["old"])
            words = frozenset(
                w for w in set(_IDENT.findall(_APART.join(changed))) if w.lower() not in _COMMON
            )
            refs.append(
                HunkRef(
                    len(refs),
                    cf.path,
                    h,
                    unit_key,
                    frozenset(defines),
                    frozenset(owns | defines),
                    words,
                    references(changed),
                    language,
                    folder,
                    cf.new_text or "",
                )
            )
    return refs


def _linked(definer: HunkRef, user: HunkRef, name: str) -> bool:
    """Whether a use of ``name`` in ``user`` plausibly refers to ``definer``'s declaration."""
    if definer.language != user.language or name.lower() in _GENERIC:
        return False
    if definer.path == user.path or definer.folder == user.folder:
        return True
    stem = definer.path.rsplit("/", 1)[-1].split(".", 1)[0]
    return len(stem) >= 3 and re.search(rf"\b{re.escape(stem)}\b", user.text) is not None


def _graph(
    refs: Sequence[HunkRef],
) -> tuple[NDArray[np.float64], NDArray[np.bool_], set[tuple[int, int]]]:
    """Weights of all links, which links are strong, and the directed define -> use edges
    (definer, user)."""
    n = len(refs)
    weight = np.zeros((n, n))
    strong = np.zeros((n, n), dtype=bool)
    uses: set[tuple[int, int]] = set()
    by_unit: dict[tuple[str, int], list[int]] = defaultdict(list)
    by_file: dict[str, list[int]] = defaultdict(list)
    for r in refs:
        by_file[r.path].append(r.index)
        if r.unit:
            by_unit[(r.path, r.unit[0])].append(r.index)

    def link(members: list[int], w: float, is_strong: bool) -> None:
        if len(members) < 2:
            return
        block = np.ix_(members, members)
        weight[block] += w
        if is_strong:
            strong[block] = True
        weight[members, members] -= w  # no self links
        strong[members, members] = False

    for members in by_unit.values():
        link(members, 3.0, True)
    # A hunk that changes a unit (its header or its body) is linked to the hunks that call or
    # use that unit by name: a function and its changed call sites are read together.
    definers: dict[str, list[int]] = defaultdict(list)
    for r in refs:
        for name in r.owns:
            definers[name].append(r.index)
    for r in refs:
        for name in r.refers:
            for d in definers.get(name, ()):
                if d != r.index and _linked(refs[d], r, name):
                    weight[d, r.index] += 3.0
                    weight[r.index, d] += 3.0
                    strong[d, r.index] = strong[r.index, d] = True
                    uses.add((d, r.index))
    for members in by_file.values():
        link(members, 2.0, True)  # one file's hunks are read together
    frequency = Counter(w for r in refs for w in r.words)
    rare = {w for w, c in frequency.items() if 2 <= c <= max(2, n // 10)}
    holders: dict[str, list[int]] = defaultdict(list)
    for r in refs:
        for w in r.words & rare:
            holders[w].append(r.index)
    for word, members in holders.items():
        # A long, rare identifier on the changed lines of a few hunks names one concept.
        link(members, 1.0 if len(word) >= DISTINCT else 0.5, len(word) >= DISTINCT)
    return weight, strong, uses


def _components(strong: NDArray[np.bool_]) -> list[list[int]]:
    """The connected components of the strong links, each sorted, by their first hunk."""
    n = strong.shape[0]
    seen = [False] * n
    groups = []
    for start in range(n):
        if seen[start]:
            continue
        stack, group = [start], []
        seen[start] = True
        while stack:
            a = stack.pop()
            group.append(a)
            for b in np.flatnonzero(strong[a]):
                if not seen[b]:
                    seen[b] = True
                    stack.append(int(b))
        groups.append(sorted(group))
    return groups


def _spectral(members: list[int], weight: NDArray[np.float64]) -> list[list[int]]:
    """Split a large group: normalised Laplacian, k from the eigengap, k-means (seeded)."""
    # Lazy: scipy costs about 0.5 s to import, and most changes never need this.
    from scipy.cluster.vq import kmeans2
    from scipy.sparse.csgraph import laplacian

    sub = weight[np.ix_(members, members)]
    lap = laplacian(sub, normed=True)
    values, vectors = np.linalg.eigh(lap)
    limit = min(len(members) - 1, 10)
    gaps = np.diff(values[: limit + 1])
    k = int(np.argmax(gaps)) + 1 if gaps.size else 1
    # Split only along a clear weak bridge: the k smallest eigenvalues near zero and a wide gap
    # after them. A tightly knit group (one change) is left whole.
    if k <= 1 or values[k - 1] > SPLIT_BELOW or gaps[k - 1] < SPLIT_GAP:
        return [members]
    embedding = vectors[:, :k]
    norms = np.linalg.norm(embedding, axis=1, keepdims=True)
    embedding = embedding / np.where(norms == 0, 1, norms)
    _, labels = kmeans2(embedding, k, minit="++", seed=np.random.default_rng(0))
    parts: dict[int, list[int]] = defaultdict(list)
    for member, label in zip(members, labels, strict=True):
        parts[int(label)].append(member)
    return sorted((sorted(p) for p in parts.values()), key=lambda p: p[0])


def _title(refs: Sequence[HunkRef], group: Sequence[int]) -> str:
    units = [unit[1] for i in group if (unit := refs[i].unit) is not None]
    paths = sorted({refs[i].path for i in group})
    if units:
        top = Counter(units).most_common(1)[0][0]
        return f"{top} ({', '.join(paths[:3])}{' …' if len(paths) > 3 else ''})"
    return ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")


class Grouping(NamedTuple):
    """The grouping step: strong-link components, the spectral split of each, the groups."""

    components: tuple[tuple[int, ...], ...]  # connected components of the strong links
    # per component, the parts it was split into (the component itself when it is not split)
    splits: tuple[tuple[tuple[int, ...], ...], ...]
    # the strong groups as split, then the hunks with no strong link, one group per file
    groups: tuple[tuple[int, ...], ...]


def group_hunks(
    refs: Sequence[HunkRef],
    strong: NDArray[np.bool_],
    weight: NDArray[np.float64],
    *,
    spectral: bool = True,
) -> Grouping:
    """Groups of hunks: connected components of ``strong``, those above ``MAX_GROUP`` split
    by spectral clustering on ``weight`` (unless ``spectral`` is off), and the hunks with no
    strong link grouped by file (the fallback). ``bundle_change`` groups with the bundler's own
    links (``explain`` shows them); others can pass their own (what-if experiments)."""
    components = _components(strong)
    splits: list[tuple[tuple[int, ...], ...]] = []
    groups: list[list[int]] = []
    loose: dict[str, list[int]] = defaultdict(list)
    for group in components:
        if len(group) == 1 and not strong[group[0]].any():
            loose[refs[group[0]].path].append(group[0])
            splits.append((tuple(group),))
        elif spectral and len(group) > MAX_GROUP:
            parts = _spectral(group, weight)
            groups.extend(parts)
            splits.append(tuple(tuple(p) for p in parts))
        else:
            groups.append(group)
            splits.append((tuple(group),))
    groups.extend(sorted(loose.values(), key=lambda g: refs[g[0]].path))  # the fallback: by file
    return Grouping(
        tuple(tuple(c) for c in components), tuple(splits), tuple(tuple(g) for g in groups)
    )


@dataclass(frozen=True)
class BundleExplanation:
    """How ``bundle_change`` got its bundles: its input and every intermediate step, for
    diagnostics. Hunks are numbered by their position in ``refs`` (``HunkRef.index``)."""

    files: tuple[ChangedFile, ...]  # the input: the analysed files of the change ...
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]]  # ... and both sides' indexes
    refs: tuple[HunkRef, ...]
    weight: NDArray[np.float64]  # link weights, hunk x hunk
    strong: NDArray[np.bool_]  # which links are strong
    uses: frozenset[tuple[int, int]]  # directed define -> use links (definer, user)
    grouping: Grouping  # components, spectral splits and groups
    bundles: tuple[Bundle, ...]  # the result, in reading order


def explain(
    files: Sequence[ChangedFile],
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]],
    findings: Sequence[Finding],
) -> BundleExplanation:
    """``bundle_change`` with its steps: the hunks and their links, the strong-link
    components, the spectral splits, the groups and the bundles."""
    refs = _refs(files, indexes)
    if not refs:
        empty = Grouping((), (), ())
        none = np.zeros((0, 0))
        return BundleExplanation(
            tuple(files), indexes, (), none, none.astype(bool), frozenset(), empty, ()
        )
    weight, strong, uses = _graph(refs)
    grouping = group_hunks(refs, strong, weight)
    return BundleExplanation(
        tuple(files),
        indexes,
        tuple(refs),
        weight,
        strong,
        frozenset(uses),
        grouping,
        tuple(_bundles(refs, strong, uses, grouping.groups, findings)),
    )


def bundle_change(
    files: Sequence[ChangedFile],
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]],
    findings: Sequence[Finding],
) -> list[Bundle]:
    """The hunks of a change in bundles, in the suggested reading order."""
    return list(explain(files, indexes, findings).bundles)


def _bundles(
    refs: Sequence[HunkRef],
    strong: NDArray[np.bool_],
    uses: set[tuple[int, int]],
    groups: Sequence[Sequence[int]],
    findings: Sequence[Finding],
) -> list[Bundle]:
    """The groups in reading order (findings first, definitions before their uses), named."""
    where = {member: g for g, members in enumerate(groups) for member in members}
    heat: dict[int, float] = defaultdict(float)
    for f in findings:
        for r in refs:
            if r.path == f.path and r.hunk.new_start <= f.end_line and f.line <= r.hunk.new_end:
                heat[where[r.index]] += 3.0**f.severity.rank
    before: dict[int, set[int]] = defaultdict(set)
    for d, u in uses:
        if where[d] != where[u]:
            before[where[u]].add(where[d])
    order: list[int] = []
    placed: set[int] = set()
    pending = sorted(
        range(len(groups)), key=lambda g: (-heat[g], refs[groups[g][0]].path, groups[g][0])
    )
    while pending:
        ready = [g for g in pending if before[g] <= placed] or pending[:1]  # cycles: best first
        g = ready[0]
        order.append(g)
        placed.add(g)
        pending.remove(g)
    out = []
    for number, g in enumerate(order, 1):
        members = groups[g]
        defined = sorted({n for i in members for n in refs[i].defines})
        needs = sorted({refs[d].path for d, u in uses if where[u] == g and where[d] != g})
        reasons = []
        if strong[np.ix_(members, members)].any():
            reasons.append("hunks share units or names")
        if defined:
            reasons.append("defines " + ", ".join(defined[:5]))
        if needs:
            reasons.append("uses what " + ", ".join(needs[:3]) + " defines")
        if not reasons:
            reasons.append("same file")
        out.append(
            Bundle(
                f"B{number}",
                _title(refs, members),
                "; ".join(reasons),
                tuple(
                    HunkSpan(
                        refs[i].path,
                        refs[i].hunk.new_start,
                        refs[i].hunk.new_end,
                        refs[i].hunk.old_start,
                        refs[i].hunk.old_end,
                        refs[i].hunk.new_len == 0,
                    )
                    for i in members
                ),
            )
        )
    return out
