"""Hound's adaptive bundling, re-implemented from its description (our own code), as the
baseline of ``bench/repo_bundles.py``; and the measures both bundlings are scored with.

Hound: cards of 1,000-2,000 characters cut at blank lines; a similarity between two cards of
+0.5 for the same file, +0.3 the same folder, +0.1 the same grandparent folder (cumulative: two
cards of one file share its folder too), up to +0.3 for the Jaccard similarity of their top
tokens, +0.2 when their 5-gram shingle hashes are equal, capped at 1.0, edges above 0.1;
spectral clustering (normalised Laplacian, k = total characters / target, k-means on the
row-normalised eigenvectors, fixed seed); bundles over 150% of the target split (in card order,
into pieces of at most the target); a by-file grouping when the clustering fails.

Measures, on the resolved references of reviewbot's index (the same edges for both): cohesion
(the share of references, between two places in different cards, whose both ends lie in one
bundle; and the same weighted by the edge's confidence), the share of bundles within 30-150% of
the target, and the functions and methods whose lines lie in more than one bundle.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.cluster.vq import kmeans2
from scipy.linalg import eigh

MIN_CARD, MAX_CARD = 1000, 2000
TOP_TOKENS = 10
SEED = 7
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Place(NamedTuple):
    path: str
    start: int
    end: int
    chars: int


class Scored(NamedTuple):
    bundles: int
    cohesion: float
    weighted: float
    within: float
    units_cut: int
    mean_chars: float
    edges: int


def hound_cards(path: str, text: str) -> list[tuple[Place, str]]:
    """A file cut at blank lines into cards of 1,000-2,000 characters (a longer run without
    a blank line is cut at 2,000; a file's last short piece joins the card before it)."""
    lines = text.split("\n")
    out: list[tuple[Place, str]] = []
    start, acc = 0, 0
    for i, line in enumerate(lines):
        acc += len(line) + 1
        at_blank = not line.strip()
        if (acc >= MIN_CARD and at_blank) or acc >= MAX_CARD:
            body = "\n".join(lines[start : i + 1])
            if body.strip():
                out.append((Place(path, start + 1, i + 1, len(body)), body))
            start, acc = i + 1, 0
    if start < len(lines):
        body = "\n".join(lines[start:])
        if body.strip():
            if out and len(body) < MIN_CARD // 2:
                prev, prev_body = out.pop()
                merged = prev_body + "\n" + body
                out.append((Place(path, prev.start, len(lines), len(merged)), merged))
            else:
                out.append((Place(path, start + 1, len(lines), len(body)), body))
    return out


def _tokens(body: str) -> list[str]:
    return _TOKEN.findall(body)


def _shingle_hash(tokens: Sequence[str]) -> int:
    """The least hash of the card's token 5-grams (-1 when it has fewer than 5 tokens)."""
    if len(tokens) < 5:
        return -1
    return min(zlib.crc32(" ".join(tokens[i : i + 5]).encode()) for i in range(len(tokens) - 4))


def hound_bundles(cards: list[tuple[Place, str]], target: int) -> list[list[int]]:
    """Hound's bundles: lists of card indexes."""
    n = len(cards)
    if n == 0:
        return []
    total = sum(c.chars for c, _ in cards)
    k = max(1, round(total / target))
    if k == 1 or n <= k:
        return [list(range(n))] if k == 1 else [[i] for i in range(n)]
    try:
        labels = _spectral(cards, k)
    except (np.linalg.LinAlgError, ValueError):
        return _by_file(cards, target)
    groups: dict[int, list[int]] = defaultdict(list)
    for i, lab in enumerate(labels.tolist()):
        groups[int(lab)].append(i)
    out: list[list[int]] = []
    for _lab, members in sorted(groups.items()):
        size = sum(cards[i][0].chars for i in members)
        if size <= 1.5 * target:
            out.append(members)
            continue
        piece: list[int] = []
        acc = 0
        for i in members:
            if piece and acc + cards[i][0].chars > target:
                out.append(piece)
                piece, acc = [], 0
            piece.append(i)
            acc += cards[i][0].chars
        if piece:
            out.append(piece)
    return out


def _by_file(cards: list[tuple[Place, str]], target: int) -> list[list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, (c, _) in enumerate(cards):
        groups[c.path].append(i)
    return list(groups.values())


def _spectral(cards: list[tuple[Place, str]], k: int) -> NDArray[np.int64]:
    n = len(cards)
    paths = [c.path for c, _ in cards]
    folders = [p.rpartition("/")[0] for p in paths]
    grand = [f.rpartition("/")[0] for f in folders]

    def ids(values: list[str]) -> NDArray[np.int64]:
        table: dict[str, int] = {}
        return np.array([table.setdefault(v, len(table)) for v in values], dtype=np.int64)

    file_id, folder_id, grand_id = ids(paths), ids(folders), ids(grand)
    token_lists = [_tokens(body) for _, body in cards]
    top = [
        [t for t, _ in sorted(Counter(ts).items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TOKENS]]
        for ts in token_lists
    ]
    vocab: dict[str, int] = {}
    x = np.zeros((n, 0), dtype=np.float32)
    rows: list[int] = []
    cols: list[int] = []
    for i, ts in enumerate(top):
        for t in ts:
            rows.append(i)
            cols.append(vocab.setdefault(t, len(vocab)))
    x = np.zeros((n, len(vocab)), dtype=np.float32)
    x[rows, cols] = 1.0
    sizes = x.sum(axis=1)
    shingles = np.array([_shingle_hash(ts) for ts in token_lists], dtype=np.int64)
    w = np.zeros((n, n), dtype=np.float64)
    block = 1024
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        inter = x[lo:hi] @ x.T
        union = sizes[lo:hi, None] + sizes[None, :] - inter
        jac = np.where(union > 0, inter / np.maximum(union, 1.0), 0.0)
        s = (
            0.5 * (file_id[lo:hi, None] == file_id[None, :])
            + 0.3 * (folder_id[lo:hi, None] == folder_id[None, :])
            + 0.1 * (grand_id[lo:hi, None] == grand_id[None, :])
            + 0.3 * jac
            + 0.2 * ((shingles[lo:hi, None] == shingles[None, :]) & (shingles[lo:hi, None] >= 0))
        )
        s = np.minimum(s, 1.0)
        s[s <= 0.1] = 0.0
        w[lo:hi] = s
    np.fill_diagonal(w, 0.0)
    degree = w.sum(axis=1)
    inv = 1.0 / np.sqrt(np.maximum(degree, 1e-12))
    m = w * inv[:, None] * inv[None, :]
    del w
    # The k smallest eigenvalues of the normalised Laplacian I - m: m's k largest.
    _vals, vecs = eigh(m, subset_by_index=[n - k, n - 1], overwrite_a=True)
    emb = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    _centers, labels = kmeans2(emb, k, minit="++", seed=SEED)
    return np.asarray(labels, dtype=np.int64)


# -- the measures ----------------------------------------------------------------------------------


class Located:
    """Which bundle holds a place: the card containing the line, else the nearest card
    before it in that file (blank lines), else the first card of the file."""

    def __init__(self, places: Sequence[tuple[Place, int]]) -> None:
        per: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for p, bundle in places:
            per[p.path].append((p.start, p.end, bundle))
        self.starts: dict[str, list[int]] = {}
        self.spans: dict[str, list[tuple[int, int, int]]] = {}
        for path, spans in per.items():
            spans.sort()
            self.spans[path] = spans
            self.starts[path] = [s for s, _, _ in spans]

    def card(self, path: str, line: int) -> tuple[int, int] | None:
        """(card number within the file, bundle)."""
        starts = self.starts.get(path)
        if not starts:
            return None
        k = max(0, bisect.bisect_right(starts, line) - 1)
        return k, self.spans[path][k][2]

    def bundles_over(self, path: str, line: int, end: int) -> set[int]:
        spans = self.spans.get(path, [])
        starts = self.starts.get(path, [])
        k = max(0, bisect.bisect_right(starts, line) - 1)
        out: set[int] = set()
        while k < len(spans) and spans[k][0] <= end:
            if spans[k][1] >= line:
                out.add(spans[k][2])
            k += 1
        return out


class Edge(NamedTuple):
    src_path: str
    src_line: int
    dst_path: str
    dst_line: int
    confidence: float


def reference_edges(index: Path, scope: str = "") -> list[Edge]:
    """Resolved references of the index between two places, a definition's own body left out
    (recursion, a method naming its own class)."""
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT rf.path, r.line, df.path, d.line, d.end_line, e.confidence FROM edges e "
        "JOIN refs r ON r.id = e.ref_id JOIN files rf ON rf.id = r.file_id "
        "JOIN defs d ON d.id = e.def_id JOIN files df ON df.id = d.file_id"
    ).fetchall()
    conn.close()
    out: list[Edge] = []
    for sp, sl, dp, dl, de, conf in rows:
        if sp == dp and dl <= sl <= de:
            continue
        if scope and not (sp.startswith(scope + "/") and dp.startswith(scope + "/")):
            continue
        out.append(Edge(sp, sl, dp, dl, float(conf)))
    return out


def callables(index: Path) -> list[tuple[str, int, int]]:
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT f.path, d.line, d.end_line FROM defs d JOIN files f ON f.id = d.file_id "
        "WHERE d.kind IN ('function', 'method', 'constructor')"
    ).fetchall()
    conn.close()
    return [(str(p), int(a), int(b)) for p, a, b in rows]


def score(
    bundlings: dict[str, Sequence[tuple[Place, int]]],
    edges: Sequence[Edge],
    units: Sequence[tuple[str, int, int]],
    target: int,
) -> dict[str, Scored]:
    """The measures of each bundling (each card with its bundle number), on one set of
    edges: those whose two ends lie in different cards under every bundling."""
    where = {name: Located(places) for name, places in bundlings.items()}
    inside = dict.fromkeys(bundlings, 0)
    w_inside = dict.fromkeys(bundlings, 0.0)
    total = 0
    w_total = 0.0
    for e in edges:
        found = {
            name: (w.card(e.src_path, e.src_line), w.card(e.dst_path, e.dst_line))
            for name, w in where.items()
        }
        if any(a is None or b is None for a, b in found.values()):
            continue
        if e.src_path == e.dst_path and any(
            a is not None and b is not None and a[0] == b[0] for a, b in found.values()
        ):
            continue
        total += 1
        w_total += e.confidence
        for name, (a, b) in found.items():
            if a is not None and b is not None and a[1] == b[1]:
                inside[name] += 1
                w_inside[name] += e.confidence
    out: dict[str, Scored] = {}
    for name, places in bundlings.items():
        sizes: dict[int, int] = defaultdict(int)
        for p, bundle in places:
            sizes[bundle] += p.chars
        within = sum(1 for s in sizes.values() if 0.3 * target <= s <= 1.5 * target)
        cut = sum(1 for path, a, b in units if len(where[name].bundles_over(path, a, b)) > 1)
        out[name] = Scored(
            len(sizes),
            inside[name] / total if total else 0.0,
            w_inside[name] / w_total if w_total else 0.0,
            within / len(sizes) if sizes else 1.0,
            cut,
            sum(sizes.values()) / len(sizes) if sizes else 0.0,
            total,
        )
    return out
