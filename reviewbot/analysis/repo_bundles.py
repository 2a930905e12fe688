"""Repository bundles: a repository (or a folder) cut into blocks of about ``target`` characters
that a model can read in one go, each holding code that belongs together.

Cards are structural units (``repo_cards``); the clustering moves *atoms* (a unit's cards
together), so no function is ever cut across two bundles. The graph between atoms:

* resolved references from the index (strong): calls weigh 1, other references 0.6, imports
  0.2, times the edge's confidence; a pair's sum is damped (``log1p``);
* a class's members to its header card, and neighbours in a file (medium);
* files next to each other in a folder, and a folder's first file to its parent's (weak: it
  keeps the graph connected and folders together when nothing else says otherwise);
* shared rare identifiers (weak, each atom to its few most similar atoms).

Spectral clustering, run top-down: a group larger than 150% of the target is embedded with the
leading eigenvectors of its normalised adjacency (``scipy.sparse.linalg.eigsh``; at most
``MAX_WAYS`` a step, so that a repository of 100,000 cards needs no thousand eigenvectors) and
split by k-means (k = its size / target), or, when k is 2, along its weakest cut (a sweep over
the Fiedler vector). Bundles under 30% of the target are then merged into their most connected
neighbour when the result stays within 150%. Fixed seed, stable orders: the same index gives
the same bundles. When the eigensolver fails the bundling falls back to packing files in path
order, folder by folder (``method = "fallback"``, with the reason).

Incremental: ``previous`` (the state of the last bundling, as ``Bundling.state`` gave it) lets a
small change re-cluster only the bundles that held a changed file's cards.
"""

from __future__ import annotations

import itertools
import math
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.linalg import eigh
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, eigsh

from reviewbot.analysis.repo_cards import CALLABLE, Card, FileUnits, all_cards, load_units
from reviewbot.index.store import ID_SPACE

__all__ = [
    "DEFAULT_TARGET",
    "SCHEMA",
    "Bundling",
    "RepoBundle",
    "bundle_repository",
    "bundling_doc",
    "bundling_text",
    "units_cut",
]

SCHEMA = "reviewbot.bundles/1"
STATE_VERSION = 1
DEFAULT_TARGET = 25_000
UPPER = 1.5  # a bundle over this share of the target is split
LOWER = 0.3  # ... under this share, merged into a neighbour
MAX_WAYS = 12  # eigenvectors per step of the top-down clustering
SEED = 20_240_601
SMALL_CHANGE = 0.1  # incremental when the changed files hold at most this share of the code

DAMP = True  # a pair's summed references count as log(1 + sum)
STRONG = 1.0  # a resolved reference's weight, relative to the others below
W_CALL, W_REF, W_IMPORT = 1.0, 0.6, 0.2
W_CLASS, W_FILE, W_FILE2 = 0.2, 0.1, 0.03
W_FOLDER, W_PARENT, W_WORDS = 0.08, 0.04, 0.15
SIMILAR = 3  # identifier-similarity neighbours per atom
RARE = 40  # an identifier in more atoms than this links nothing

Float = NDArray[np.float64]
Ints = NDArray[np.int64]


class RepoBundle(NamedTuple):
    id: str
    title: str
    files: tuple[str, ...]
    cards: tuple[Card, ...]
    chars: int
    links_inside: int  # resolved references between different cards of the bundle
    links_outside: int  # ... between a card of it and a card of another bundle
    preview: str

    @property
    def cohesion(self) -> float | None:
        total = self.links_inside + self.links_outside
        return None if total == 0 else self.links_inside / total


class Bundling(NamedTuple):
    target: int
    scope: str
    bundles: tuple[RepoBundle, ...]
    method: str  # "spectral" or "fallback"
    note: str  # why the fallback, "" otherwise
    update: str  # "full", "incremental" or "unchanged"
    recomputed: int  # bundles computed anew (all of them for "full")
    state: dict[str, Any]  # what the next run needs to be incremental

    def stats(self) -> dict[str, Any]:
        sizes = [b.chars for b in self.bundles]
        within = sum(1 for s in sizes if LOWER * self.target <= s <= UPPER * self.target)
        return {
            "count": len(sizes),
            "mean_chars": round(sum(sizes) / len(sizes)) if sizes else 0,
            "min_chars": min(sizes, default=0),
            "max_chars": max(sizes, default=0),
            "within_bounds": round(within / len(sizes), 4) if sizes else 1.0,
        }


class _Graph(NamedTuple):
    cards: list[Card]  # all cards, by path and line
    atom_of: Ints  # card -> atom
    chars: Float  # atom -> characters
    weights: sp.csr_matrix  # symmetric atom graph, all kinds of links
    refs: sp.csr_matrix  # resolved references between atoms (counts, ref atom -> def atom)
    strong: sp.csr_matrix  # their weights (symmetric), for titles
    paths: list[str]  # atom -> path


class EigenFailure(Exception):
    """The eigensolver did not converge (or could not run) on a group."""


# -- the graph -------------------------------------------------------------------------------------


def _reference_rows(conn: sqlite3.Connection) -> tuple[Ints, Ints, Ints, Ints, Float, Float]:
    """Every resolved reference: (ref file, ref line, def file, def line, confidence, weight).
    Three plain scans joined here (faster than SQLite's join of half a million rows)."""
    edges = np.array(
        conn.execute("SELECT ref_id, def_id, confidence FROM edges").fetchall(), dtype=np.float64
    ).reshape(-1, 3)
    if not len(edges):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty, np.zeros(0), np.zeros(0)
    ref_id = edges[:, 0].astype(np.int64)
    def_id = edges[:, 1].astype(np.int64)
    confidence = edges[:, 2]
    refs = conn.execute(
        "SELECT id, line, kind FROM refs WHERE id IN (SELECT ref_id FROM edges) ORDER BY id"
    ).fetchall()
    kind_weight = {"call": W_CALL, "import": W_IMPORT}
    r_id = np.fromiter((r[0] for r in refs), dtype=np.int64, count=len(refs))
    r_line = np.fromiter((r[1] for r in refs), dtype=np.int64, count=len(refs))
    r_weight = np.fromiter(
        (kind_weight.get(r[2], W_REF) for r in refs), dtype=np.float64, count=len(refs)
    )
    defs = np.array(
        conn.execute("SELECT id, line FROM defs ORDER BY id").fetchall(), dtype=np.int64
    ).reshape(-1, 2)
    at_ref = np.minimum(np.searchsorted(r_id, ref_id), max(len(r_id) - 1, 0))
    at_def = np.minimum(np.searchsorted(defs[:, 0], def_id), max(len(defs) - 1, 0))
    known = (
        (len(r_id) > 0)
        & (len(defs) > 0)
        & (r_id[at_ref] == ref_id if len(r_id) else False)
        & (defs[at_def, 0] == def_id if len(defs) else False)
    )
    ref_id, def_id, confidence = ref_id[known], def_id[known], confidence[known]
    at_ref, at_def = at_ref[known], at_def[known]
    return (
        ref_id // ID_SPACE,
        r_line[at_ref],
        def_id // ID_SPACE,
        defs[at_def, 1],
        confidence,
        r_weight[at_ref] * confidence,
    )


def _locate(
    keys: Ints, starts: Ints, atom_by_start: Ints, file_of_start: Ints, files: Ints
) -> Ints:
    """The atom holding each (file, line) key (-1 outside the cards' files)."""
    pos = np.searchsorted(starts, keys, side="right") - 1
    ok = pos >= 0
    out = np.full(len(keys), -1, dtype=np.int64)
    safe = np.where(ok, pos, 0)
    same = ok & (file_of_start[safe] == files)
    out[same] = atom_by_start[safe[same]]
    return out


def _build_graph(
    conn: sqlite3.Connection, units: list[FileUnits], cards: list[list[Card]]
) -> _Graph:
    flat: list[Card] = []
    atom_of: list[int] = []
    atom_chars: list[float] = []
    paths: list[str] = []
    key_start: list[int] = []
    key_file: list[int] = []
    first_atom: dict[int, int] = {}  # file index -> its first atom
    header: dict[tuple[int, str], int] = {}  # (file index, class) -> atom of its header card
    links: dict[tuple[int, int], float] = defaultdict(float)

    def link(a: int, b: int, w: float) -> None:
        if a != b:
            links[(a, b) if a < b else (b, a)] += w

    for fi, (unit, file_cards) in enumerate(zip(units, cards, strict=True)):
        local: dict[int, int] = {}
        file_atoms: list[int] = []
        for card in file_cards:
            if card.atom not in local:
                local[card.atom] = len(atom_chars)
                atom_chars.append(0.0)
                paths.append(card.path)
                file_atoms.append(local[card.atom])
            g = local[card.atom]
            atom_chars[g] += card.chars
            flat.append(card)
            atom_of.append(g)
            key_start.append((unit.id << 32) | card.start)
            key_file.append(unit.id)
            if card.label.startswith(("class ", "interface ", "enum ", "struct ", "type ")):
                header.setdefault((fi, card.qualified), g)
        if file_atoms:
            first_atom[fi] = file_atoms[0]
        for k in range(len(file_atoms) - 1):
            link(file_atoms[k], file_atoms[k + 1], W_FILE)
            if k + 2 < len(file_atoms):
                link(file_atoms[k], file_atoms[k + 2], W_FILE2)
        for card in file_cards:
            owner, dot, _ = card.qualified.rpartition(".")
            if dot and (fi, owner) in header:
                link(local[card.atom], header[(fi, owner)], W_CLASS)
    n = len(atom_chars)
    # Folders: each file to the next one in its folder, a folder's first file to its parent's.
    by_folder: dict[str, list[int]] = defaultdict(list)
    for fi, unit in enumerate(units):
        if fi in first_atom:
            by_folder[unit.path.rpartition("/")[0]].append(fi)
    for folder, members in by_folder.items():
        for a, b in itertools.pairwise(members):
            link(first_atom[a], first_atom[b], W_FOLDER)
        parent = folder
        while parent:
            parent = parent.rpartition("/")[0]
            if parent in by_folder:
                link(first_atom[members[0]], first_atom[by_folder[parent][0]], W_PARENT)
                break
        else:
            if folder and "" in by_folder:
                link(first_atom[members[0]], first_atom[by_folder[""][0]], W_PARENT)
    roots = [by_folder[f][0] for f in sorted(by_folder) if f and "/" not in f]
    if "" not in by_folder:
        for a, b in itertools.pairwise(roots):
            link(first_atom[a], first_atom[b], W_PARENT)
    # Resolved references.
    starts = np.array(key_start, dtype=np.int64)
    order = np.argsort(starts, kind="stable")
    starts = starts[order]
    atom_by_start = np.array(atom_of, dtype=np.int64)[order] if flat else np.zeros(0, np.int64)
    file_of_start = np.array(key_file, dtype=np.int64)[order] if flat else np.zeros(0, np.int64)
    rf, rl, df, dl, _conf, weight = _reference_rows(conn)
    if len(rf) and len(starts):
        src = _locate((rf << 32) | rl, starts, atom_by_start, file_of_start, rf)
        dst = _locate((df << 32) | dl, starts, atom_by_start, file_of_start, df)
        keep = (src >= 0) & (dst >= 0) & (src != dst)
        src, dst, weight = src[keep], dst[keep], weight[keep]
    else:
        src = dst = np.zeros(0, dtype=np.int64)
        weight = np.zeros(0)
    refs = sp.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    summed = sp.csr_matrix((weight, (src, dst)), shape=(n, n))
    summed = summed + summed.T
    strong = summed.copy()
    strong.data = STRONG * (np.log1p(strong.data) if DAMP else strong.data)
    # Identifier similarity: atoms sharing rare top identifiers.
    words = _word_links(flat, atom_of, n)
    if links:
        pairs = np.array(list(links.keys()), dtype=np.int64)
        vals = np.array(list(links.values()))
        local_links = sp.csr_matrix((vals, (pairs[:, 0], pairs[:, 1])), shape=(n, n))
        local_links = local_links + local_links.T
    else:
        local_links = sp.csr_matrix((n, n))
    weights = (strong + local_links + words).tocsr()
    weights.setdiag(0)
    weights.eliminate_zeros()
    return _Graph(
        flat,
        np.array(atom_of, dtype=np.int64),
        np.array(atom_chars),
        weights,
        refs.tocsr(),
        strong.tocsr(),
        paths,
    )


def _word_links(flat: list[Card], atom_of: list[int], n: int) -> sp.csr_matrix:
    vocabulary: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    for card, atom in zip(flat, atom_of, strict=True):
        for w in card.words:
            rows.append(atom)
            cols.append(vocabulary.setdefault(w, len(vocabulary)))
    if not rows or n < 2:
        return sp.csr_matrix((n, n))
    x = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, len(vocabulary)))
    x.data[:] = 1.0
    df = np.asarray((x > 0).sum(axis=0)).ravel()
    rare = (df >= 2) & (df <= RARE)
    x = (x > 0).astype(np.float64) @ sp.diags(rare * np.log(n / np.maximum(df, 1)))
    x = x.tocsr()
    x.eliminate_zeros()
    sim = (x @ x.T).tocsr()
    sim.setdiag(0)
    sim.eliminate_zeros()
    if sim.nnz == 0:
        return sp.csr_matrix((n, n))
    # Keep each atom's SIMILAR best neighbours, scaled to at most W_WORDS.
    top = float(sim.max()) or 1.0
    coo = sim.tocoo()
    order = np.lexsort((coo.col, -coo.data, coo.row))
    rows, cols, vals = coo.row[order], coo.col[order], coo.data[order]
    first = np.searchsorted(rows, rows, side="left")
    keep = (np.arange(len(rows)) - first) < SIMILAR
    kept = sp.csr_matrix((W_WORDS * vals[keep] / top, (rows[keep], cols[keep])), shape=(n, n))
    return kept.maximum(kept.T).tocsr()


# -- clustering ------------------------------------------------------------------------------------


def _eigenvectors(m: sp.csr_matrix, k: int, rng: np.random.Generator) -> Float:
    """The ``k`` leading eigenvectors of the symmetric matrix ``m`` (columns)."""
    size = m.shape[0]
    if size <= 300:
        try:
            _vals, vecs = eigh(m.toarray())
        except (np.linalg.LinAlgError, ValueError) as exc:
            raise EigenFailure(f"the eigensolver failed ({type(exc).__name__})") from None
        return np.asarray(vecs[:, ::-1][:, :k], dtype=np.float64)
    try:
        v0 = rng.random(size) + 0.5
        _vals, vecs = eigsh(m, k=k, which="LA", v0=v0, tol=1e-4, maxiter=max(2000, 20 * size))
    except (ArpackError, ArpackNoConvergence, ValueError) as exc:
        raise EigenFailure(f"the eigensolver did not converge ({type(exc).__name__})") from None
    order = np.argsort(-_vals, kind="stable")
    return np.asarray(vecs[:, order], dtype=np.float64)


def _normalised(w: sp.csr_matrix) -> tuple[sp.csr_matrix, Float]:
    degree = np.asarray(w.sum(axis=1)).ravel()
    inv = 1.0 / np.sqrt(np.maximum(degree, 1e-12))
    d = sp.diags(inv)
    # Shifted by the identity: the same eigenvectors, all eigenvalues in [0, 2], the wanted
    # ones the largest (which ARPACK finds fastest).
    return (d @ w @ d + sp.identity(w.shape[0], format="csr")).tocsr(), inv


def _kmeans(x: Float, k: int, rng: np.random.Generator, rounds: int = 40) -> Ints:
    """k-means with k-means++ seeding (fixed generator): a label per row."""
    n = x.shape[0]
    centers = np.empty((k, x.shape[1]))
    centers[0] = x[int(rng.integers(n))]
    dist = ((x - centers[0]) ** 2).sum(axis=1)
    for j in range(1, k):
        total = dist.sum()
        pick = int(rng.choice(n, p=dist / total)) if total > 0 else int(rng.integers(n))
        centers[j] = x[pick]
        dist = np.minimum(dist, ((x - centers[j]) ** 2).sum(axis=1))
    labels = np.zeros(n, dtype=np.int64)
    norms = (x * x).sum(axis=1)[:, None]
    for step in range(rounds):
        d2 = norms - 2 * x @ centers.T + (centers * centers).sum(axis=1)
        new = np.argmin(d2, axis=1).astype(np.int64)
        if step > 0 and np.array_equal(new, labels):
            break
        labels = new
        counts = np.bincount(labels, minlength=k).astype(np.float64)
        onehot = sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(k, n))
        sums = np.asarray(onehot @ x)
        filled = counts > 0
        centers[filled] = sums[filled] / counts[filled, None]
    return labels


def _sweep(sub: sp.csr_matrix, chars: Float, order: Ints, target: int) -> int:
    """Where to cut ``order`` in two (the size of the first part): the cut of least weight
    per character of the smaller side, both sides at least 30% of the target when they can
    be."""
    n = len(order)
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    coo = sp.triu(sub, k=1).tocoo()
    a, b = pos[coo.row], pos[coo.col]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    diff = np.zeros(n + 1)
    np.add.at(diff, lo, coo.data)
    np.add.at(diff, hi, -coo.data)
    cut = np.cumsum(diff)[: n - 1]  # cut[i]: weight across a cut after position i
    left = np.cumsum(chars[order])[: n - 1]
    total = float(chars.sum())
    right = total - left
    small = np.minimum(left, right)
    floor = min(LOWER * target, total / 4)
    valid = small >= floor
    if not valid.any():
        valid = small >= small.max()
    score = np.where(valid, cut / np.maximum(small, 1.0), np.inf)
    return int(np.argmin(score)) + 1


def _split(
    w: sp.csr_matrix, chars: Float, nodes: Ints, target: int, rng: np.random.Generator
) -> list[Ints]:
    """One step of the top-down clustering of ``nodes`` (a connected group)."""
    sub = w[nodes][:, nodes].tocsr()
    total = float(chars[nodes].sum())
    k = min(max(2, math.ceil(total / target)), MAX_WAYS, len(nodes))
    m, inv = _normalised(sub)
    if k <= 2:
        vecs = _eigenvectors(m, 2, rng)
        fiedler = vecs[:, 1] * inv
        order = np.lexsort((np.arange(len(nodes)), np.round(fiedler, 12)))
        at = _sweep(sub, chars[nodes], order.astype(np.int64), target)
        return [np.sort(nodes[order[:at]]), np.sort(nodes[order[at:]])]
    vecs = _eigenvectors(m, k, rng)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    emb = vecs / np.maximum(norms, 1e-12)
    labels = _kmeans(emb, k, rng)
    parts = [nodes[labels == j] for j in range(k) if (labels == j).any()]
    if len(parts) < 2:
        vecs = _eigenvectors(m, 2, rng)
        order = np.argsort(vecs[:, 1] * inv, kind="stable")
        at = _sweep(sub, chars[nodes], order.astype(np.int64), target)
        return [np.sort(nodes[order[:at]]), np.sort(nodes[order[at:]])]
    return parts


def _partition(w: sp.csr_matrix, chars: Float, nodes: Ints, target: int) -> list[Ints]:
    """Groups of ``nodes`` of at most 150% of the target (but single atoms larger than it)."""
    rng = np.random.default_rng(SEED)
    out: list[Ints] = []
    stack: list[Ints] = [np.sort(nodes)]
    while stack:
        group = stack.pop()
        total = float(chars[group].sum())
        if total <= UPPER * target or len(group) == 1:
            out.append(group)
            continue
        sub = w[group][:, group]
        count, labels = connected_components(sub, directed=False)
        if count > 1:
            comps = [group[labels == j] for j in range(count)]
            comps.sort(key=lambda c: int(c[0]))
            packed: list[Ints] = []
            acc: list[Ints] = []
            size = 0.0
            for comp in comps:
                c = float(chars[comp].sum())
                if c > target:
                    stack.append(comp)
                    continue
                if acc and size + c > target:
                    packed.append(np.sort(np.concatenate(acc)))
                    acc, size = [], 0.0
                acc.append(comp)
                size += c
            if acc:
                packed.append(np.sort(np.concatenate(acc)))
            out.extend(packed)
            continue
        stack.extend(reversed(_split(w, chars, group, target, rng)))
    return out


def _merge_small(
    w: sp.csr_matrix, chars: Float, groups: list[Ints], target: int, movable: set[int] | None
) -> tuple[list[Ints], set[int]]:
    """Merge groups under 30% of the target into their most connected neighbour while the
    result stays within 150%; ``movable``: only these groups may be merged (None: all).
    Returns the groups and the indexes (in the result) of those that are new or changed."""
    n = w.shape[0]
    members: dict[int, list[Ints]] = {j: [g] for j, g in enumerate(groups)}
    size = {j: float(chars[g].sum()) for j, g in enumerate(groups)}
    changed: set[int] = set() if movable is None else set(movable)
    for _round in range(8):
        small = sorted(
            (j for j in members if size[j] < LOWER * target and (movable is None or j in movable)),
            key=lambda j: (size[j], j),
        )
        if not small:
            break
        label = np.full(n, 0, dtype=np.int64)
        for j, parts in members.items():
            for g in parts:
                label[g] = j
        assign = sp.csr_matrix((np.ones(n), (np.arange(n), label)), shape=(n, len(groups)))
        between = (assign.T @ w @ assign).tocsr()
        merged = False
        done: set[int] = set()
        for j in small:
            if j in done:
                continue
            lo, hi = between.indptr[j], between.indptr[j + 1]
            options = sorted(
                (
                    (float(v), -int(k))
                    for k, v in zip(between.indices[lo:hi], between.data[lo:hi], strict=True)
                    if int(k) != j
                    and int(k) in members
                    and int(k) not in done
                    and size[int(k)] + size[j] <= UPPER * target
                ),
                reverse=True,
            )
            if not options:
                continue
            into = -options[0][1]
            members[into].extend(members.pop(j))
            size[into] += size.pop(j)
            changed.add(into)
            done.update((j, into))
            merged = True
        if not merged:
            break
    keys = sorted(members)
    out = [np.sort(np.concatenate(members[j])) for j in keys]
    return out, {k for k, j in enumerate(keys) if j in changed}


def _fallback(graph: _Graph, nodes: Ints, target: int) -> list[Ints]:
    """Atoms in path order, packed folder by folder, at most ``target`` characters a group
    (a new group at a folder change once the current one holds 30% of the target)."""
    out: list[Ints] = []
    acc: list[int] = []
    size = 0.0
    folder = None
    for atom in np.sort(nodes).tolist():
        here = graph.paths[atom].rpartition("/")[0]
        c = float(graph.chars[atom])
        if acc and (size + c > target or (here != folder and size >= LOWER * target)):
            out.append(np.array(acc, dtype=np.int64))
            acc, size = [], 0.0
        acc.append(atom)
        size += c
        folder = here
    if acc:
        out.append(np.array(acc, dtype=np.int64))
    return out


# -- the result ------------------------------------------------------------------------------------


def _short(qualified: str) -> str:
    return ".".join(qualified.split(".")[-2:])


def _main_place(cards: Sequence[Card]) -> str:
    """The file holding most of the cards' characters when it holds most of them, else the
    folder that does ("." for the top)."""
    by_file: dict[str, int] = defaultdict(int)
    by_folder: dict[str, int] = defaultdict(int)
    for c in cards:
        by_file[c.path] += c.chars
        by_folder[c.path.rpartition("/")[0] or "."] += c.chars
    total = sum(by_file.values())
    path, size = max(by_file.items(), key=lambda kv: (kv[1], kv[0]))
    if size * 2 > total:
        return path
    return max(by_folder.items(), key=lambda kv: (kv[1], kv[0]))[0]


def _bundle(
    number: int,
    atoms: Ints,
    graph: _Graph,
    cards_of: dict[int, list[int]],
    degree: Float,
    links: tuple[int, int],
) -> RepoBundle:
    members = sorted(i for a in atoms.tolist() for i in cards_of[a])
    cards = tuple(graph.cards[i] for i in members)
    files = tuple(dict.fromkeys(c.path for c in cards))
    # The most central definitions: weighted degree of resolved references inside the bundle.
    by_atom: dict[int, Card] = {}
    for i in members:
        c = graph.cards[i]
        a = int(graph.atom_of[i])
        if c.qualified and a not in by_atom:
            by_atom[a] = c
    ranked = sorted(by_atom, key=lambda a: (-degree[a], -graph.chars[a], a))
    names = list(dict.fromkeys(_short(by_atom[a].qualified) for a in ranked))[:3]
    title = f"{_main_place(cards)}: {', '.join(names) if names else 'top-level code'}"
    central = by_atom[ranked[0]] if ranked else cards[0]
    return RepoBundle(
        f"b{number}",
        title,
        files,
        cards,
        int(sum(c.chars for c in cards)),
        links[0],
        links[1],
        f"{central.label} ({central.path}:{central.start})",
    )


def _result(graph: _Graph, groups: list[Ints]) -> tuple[list[RepoBundle], Ints]:
    groups = [g for g in groups if len(g)]
    groups.sort(key=lambda g: int(g.min()))
    n = len(graph.chars)
    m = len(groups)
    label = np.full(n, -1, dtype=np.int64)
    for j, g in enumerate(groups):
        label[g] = j
    cards_of: dict[int, list[int]] = defaultdict(list)
    for i, a in enumerate(graph.atom_of.tolist()):
        cards_of[a].append(i)
    refs = graph.refs.tocoo()
    a, b = label[refs.row], label[refs.col]
    same = a == b
    inside = np.bincount(a[same], weights=refs.data[same], minlength=m)
    outside = np.bincount(a[~same], weights=refs.data[~same], minlength=m) + np.bincount(
        b[~same], weights=refs.data[~same], minlength=m
    )
    strong = graph.strong.tocoo()
    keep = label[strong.row] == label[strong.col]
    degree = np.bincount(strong.row[keep], weights=strong.data[keep], minlength=n).astype(
        np.float64
    )
    bundles = [
        _bundle(j + 1, g, graph, cards_of, degree, (int(inside[j]), int(outside[j])))
        for j, g in enumerate(groups)
    ]
    return bundles, label


# -- the entry point -------------------------------------------------------------------------------


def _state_key(target: int, scope: str) -> dict[str, Any]:
    return {"version": STATE_VERSION, "target": target, "scope": scope}


def bundle_repository(
    conn: sqlite3.Connection,
    texts: Callable[[Sequence[FileUnits]], Callable[[FileUnits], str | None]],
    *,
    target: int = DEFAULT_TARGET,
    scope: str = "",
    previous: dict[str, Any] | None = None,
) -> Bundling:
    """The bundles of the indexed repository (or of the folder ``scope``), incrementally from
    ``previous`` (a ``Bundling.state``) when the change since is small."""
    if target < 1000:
        raise ValueError(f"target must be at least 1000 characters, got {target}")
    units = load_units(conn, scope)
    cards = all_cards(units, texts(units))
    graph = _build_graph(conn, units, cards)
    n = len(graph.chars)
    nodes = np.arange(n, dtype=np.int64)
    files = {u.path: u.blob for u in units}
    key = _state_key(target, scope)
    method, note = "spectral", ""
    update, recomputed = "full", -1
    groups: list[Ints] | None = None
    if previous is not None and previous.get("key") == key and n:
        groups, update, recomputed = _incremental(graph, files, previous, target)
    if groups is None:
        try:
            groups = _partition(graph.weights, graph.chars, nodes, target) if n else []
            groups, _moved = _merge_small(graph.weights, graph.chars, groups, target, None)
        except EigenFailure as exc:
            method, note = "fallback", str(exc)
            groups = _fallback(graph, nodes, target)
        update = "full"
    bundles, label = _result(graph, groups)
    if update == "full":
        recomputed = len(bundles)
    if previous is not None and update != "full" and previous.get("method") == "fallback":
        method, note = "fallback", str(previous.get("note", ""))
    assign = {c.id: int(label[graph.atom_of[i]]) for i, c in enumerate(graph.cards)}
    state = {
        "key": key,
        "files": files,
        "assign": assign,
        "method": method,
        "note": note,
        # What a review's context pack names: each bundle's id and title, by label.
        "titles": [[b.id, b.title] for b in bundles],
    }
    return Bundling(target, scope, tuple(bundles), method, note, update, recomputed, state)


def _incremental(
    graph: _Graph, files: dict[str, str], previous: dict[str, Any], target: int
) -> tuple[list[Ints] | None, str, int]:
    """(groups, "incremental" or "unchanged", bundles recomputed), or (None, ...) when the
    change is too large (or the state unusable) for anything but a full clustering."""
    old_files = previous.get("files")
    old_assign = previous.get("assign")
    if not isinstance(old_files, dict) or not isinstance(old_assign, dict):
        return None, "full", -1
    changed = {p for p, b in files.items() if old_files.get(p) != b}
    changed |= {p for p in old_files if p not in files}
    atom_bundle: dict[int, int] = {}
    free: set[int] = set()
    for i, card in enumerate(graph.cards):
        atom = int(graph.atom_of[i])
        old = old_assign.get(card.id)
        if (
            card.path in changed
            or not isinstance(old, int)
            or atom_bundle.setdefault(atom, old) != old
        ):
            free.add(atom)
    if not changed and not free:
        groups: dict[int, list[int]] = defaultdict(list)
        for atom, b in atom_bundle.items():
            groups[b].append(atom)
        return (
            [np.array(sorted(v), dtype=np.int64) for _, v in sorted(groups.items())],
            ("unchanged"),
            0,
        )
    changed_chars = float(graph.chars[sorted(free)].sum()) if free else 0.0
    if changed_chars > SMALL_CHANGE * float(graph.chars.sum()):
        return None, "full", -1
    # The bundles that held a changed file's cards are computed again, with the new cards.
    touched = {int(b) for cid, b in old_assign.items() if cid.split("::", 1)[0] in changed}
    keep: dict[int, list[int]] = defaultdict(list)
    for atom, b in atom_bundle.items():
        if atom in free:
            continue
        if b in touched:
            free.add(atom)
        else:
            keep[b].append(atom)
    free_nodes = np.array(sorted(free), dtype=np.int64)
    try:
        fresh = _partition(graph.weights, graph.chars, free_nodes, target) if len(free) else []
    except EigenFailure:
        return None, "full", -1
    kept = [np.array(sorted(v), dtype=np.int64) for _, v in sorted(keep.items())]
    groups_all = kept + fresh
    movable = set(range(len(kept), len(groups_all)))
    merged, moved = _merge_small(graph.weights, graph.chars, groups_all, target, movable)
    return merged, "incremental", len(moved)


def bundling_doc(b: Bundling) -> dict[str, Any]:
    """The JSON document (schema ``reviewbot.bundles/1``)."""
    return {
        "schema": SCHEMA,
        "target_chars": b.target,
        "scope": b.scope,
        "method": b.method,
        "note": b.note,
        "update": b.update,
        "recomputed": b.recomputed,
        "bundles": [
            {
                "id": x.id,
                "title": x.title,
                "files": list(x.files),
                "cards": [
                    {
                        "id": c.id,
                        "path": c.path,
                        "start": c.start,
                        "end": c.end,
                        "chars": c.chars,
                        "label": c.label,
                    }
                    for c in x.cards
                ],
                "chars": x.chars,
                "links_inside": x.links_inside,
                "links_outside": x.links_outside,
                "preview": x.preview,
            }
            for x in b.bundles
        ],
        "stats": b.stats(),
    }


LOOSE = 0.05  # cohesion under which a bundle's title says it is loosely linked


def bundling_text(b: Bundling, width: int = 80) -> str:
    """One line per bundle (id, size, files, cohesion, title), cut to ``width``, and a
    summary."""
    if not b.bundles:
        where = f" under {b.scope}" if b.scope else ""
        return f"no indexed code{where} to bundle\n"
    out = ["bundle   size files cohesion  title"]
    for x in b.bundles:
        cohesion = "    -" if x.cohesion is None else f"{x.cohesion:5.2f}"
        title = x.title.replace("\n", "\\n")  # a name may hold one; no line of its own
        if x.cohesion is not None and x.cohesion < LOOSE:
            title = f"(loosely linked) {title}"  # a remainder more than a topic
        line = f"{x.id:<6} {x.chars / 1000:5.1f}k {len(x.files):>5}    {cohesion}  {title}"
        out.append(line if len(line) <= width else line[: width - 1] + "…")
    st = b.stats()
    how = {
        "full": "clustered in full",
        "incremental": f"incremental: {b.recomputed} of {st['count']} bundles recomputed",
        "unchanged": "unchanged since the last bundling",
    }[b.update]
    method = (
        "spectral clustering"
        if b.method == "spectral"
        else f"fallback by folder and file ({b.note})"
    )
    out.append(
        f"{st['count']} bundles, {st['mean_chars']:,} characters on average (target "
        f"{b.target:,}; {st['within_bounds']:.0%} within 30-150%)"
    )
    out.append(f"  {method}; {how}")
    return "\n".join(out) + "\n"


def units_cut(bundles: Sequence[RepoBundle], conn: sqlite3.Connection) -> int:
    """Functions and methods of the index whose lines lie in more than one bundle."""
    spans: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for k, b in enumerate(bundles):
        for c in b.cards:
            spans[c.path].append((c.start, c.end, k))
    cut = 0
    marks = ",".join(f"'{k}'" for k in sorted(CALLABLE))
    for path, line, end in conn.execute(
        f"SELECT f.path, d.line, d.end_line FROM defs d JOIN files f ON f.id = d.file_id "
        f"WHERE d.kind IN ({marks})"
    ):
        inside = {k for s, e, k in spans.get(path, []) if s <= end and e >= line}
        cut += len(inside) > 1
    return cut
