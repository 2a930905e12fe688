"""Review bundles: the hunks of a change grouped into coherent pieces, in a reading order.

A hunk graph in the manner of ClusterChanges (ICSE 2015) and SmartCommit (FSE 2021): hunks of
one structural unit are joined outright (hard links); every other pair of hunks gets the
probability that one commit made both, from a logistic model of the evidence between them: the
same file, one defines (or changes) a name the other uses (resolved within the change: the same
file, the same package folder, or a file that names the definer's module, as an import does),
the textual similarity of their changed lines (tf-idf cosine of word parts, comments and
strings included), a test and the code it is named after, the same folder, one file naming the
other's module. Groups are then merged by average linkage while the mean probability between
two groups stays above ``JOIN``: a file's hunks can end in different bundles when they serve
different concerns, and no two groups are joined without evidence. The weights and ``JOIN``
were fitted on one half of the repositories of ``bench/tangles.py`` (tangles of consecutive
real commits) and measured on the other. Deterministic for the same input; above
``MAX_PAIRWISE`` hunks only units and files group (the pair model is quadratic).

With a repository index (``links``, from ``hunk_links``: references and calls the index
resolved across files, read in the transaction where the review applies the change's sides),
three more features join the pair model (``INDEX_FEATURES``, fitted the same way with the
index built at each tangle's base); without one the model above is used unchanged.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from reviewbot.analysis.exports import EXPORT_LANGUAGES, still_exported
from reviewbot.analysis.hunk_links import HunkKey, IndexLinks
from reviewbot.analysis.signatures import plain_header
from reviewbot.analysis.units import owner_at, pair_units, qualified_name
from reviewbot.engine import FileIndex
from reviewbot.engine.structure import CALLBACK, Unit
from reviewbot.model import Bundle, ChangedFile, Finding, Hunk, HunkSpan, qualified_label
from reviewbot.repo.paths import secondary

__all__ = [
    "MAX_GROUP",
    "BundleExplanation",
    "Grouping",
    "HunkRef",
    "attach_prose",
    "bundle_change",
    "explain",
    "group_hunks",
    "references",
]

MAX_GROUP = 12  # a group above this is "large" (diagnostics of bench/bundles_quality.py)
MAX_PAIRWISE = 400  # above this many hunks: units and files only (the pair model is quadratic)
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
    terms: tuple[tuple[str, int], ...] = ()  # word parts of the changed lines as written, counted
    gone: frozenset[str] = frozenset()  # of ``defines``, those only a removed header declared
    # the added and the removed lines as written, stripped ("" when too slight to be an edit
    # of its own, ``_edit``): hunks that add or remove the same lines are one edit repeated
    edit: tuple[str, str] = ("", "")
    # of ``gone``, those a unit renamed in the hunk's file had, with its new name
    renamed: tuple[tuple[str, str], ...] = ()
    # of ``defines``, those whose header the hunk removes and adds spelt otherwise (re-signed)
    resigned: frozenset[str] = frozenset()
    layout: bool = False  # the hunk changes whitespace only (a re-indented block)
    # of ``defines``, functions assigned to an object's member (`a.INTERNAL_onInit = (s) =>
    # {`): no declaration another hunk's use of the name reaches (``_assigned``)
    assigned: frozenset[str] = frozenset()
    # the names an import-only hunk brings in (its added imports' less its removed ones')
    imports: frozenset[str] = frozenset()


def _code(index: FileIndex | None, numbers: Sequence[int], skip: set[int]) -> list[str]:
    """The masked code (no strings, no comments) of the given 1-based lines."""
    if index is None:
        return []
    count, code = index.line_count, index.code
    return [code[n - 1] for n in numbers if 0 < n <= count and n not in skip]


def _unit_starts(index: FileIndex) -> frozenset[int]:
    """The (0-based) lines where a unit of ``index`` starts."""
    return frozenset(u.start for u in index.structure.units)


_TERM = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[0-9]+")  # word parts: camelCase, snake_case
SAME_EDIT = 16  # non-blank characters of the same added (or removed) lines that make one edit
# A shorter edit (`t.Parallel()`, 12) is one edit repeated when this many hunks of two files or
# more make it and it names something of its own (``_telling``): testify 603c2a0 added
# `t.Parallel()` to 196 tests in 7 files and had one bundle per file.
REPEATED = 3
# Words a short line shares with any code (keywords, the usual error and result names): a line
# of nothing else (`}`, `return nil`, `return err`, `import (`, `} else {`) repeated in several
# hunks is no edit of its own.
_PLAIN = _COMMON | frozenset(
    "nil err none null undefined true false return import from package var const let else "
    "elif for while break continue pass end try catch finally except raise throw throws self "
    "this super new func def function class struct type interface static public private "
    "protected void async await defer yield not and the ctx ok".split()
)


def _edit(lines: Sequence[str]) -> str:
    """The lines stripped, each once, as one text, if they can be a repeated edit of their
    own: a word, and ``SAME_EDIT`` non-blank characters or a word of their own (``_telling``:
    not a lone `}` or `return None`); ``_same_edits`` says how often a shorter one must
    repeat."""
    # (each line once: a hunk that spans two tests adds `t.Parallel()` twice, the same edit)
    text = "\n".join(dict.fromkeys(stripped for line in lines if (stripped := line.strip())))
    if not re.search(r"[A-Za-z_]{3}", text) or not (_long(text) or _telling(text)):
        return ""
    return text


def _own(text: str, path: str) -> str:
    """``text`` with the file's name (without its extension) as one word made one mark: the
    same edit in each file names its own (jotai 7fe16287's deprecation warning, "jotai/babel/
    plugin-debug-label is deprecated" and "jotai/babel/preset is deprecated")."""
    own = _stem(path)
    if len(own) < 3 or own not in text:
        return text
    return re.sub(rf"(?<![\w$-]){re.escape(own)}(?![\w$-])", "\x00file", text)


def _long(text: str) -> bool:
    """``SAME_EDIT`` non-blank characters or more: one edit even when made twice only."""
    return sum(not c.isspace() for c in text) >= SAME_EDIT


def _telling(text: str) -> bool:
    """A word of 3 characters or more other than keywords and the usual names (``_PLAIN``):
    `Parallel` in `t.Parallel()`, `Loop` in `for b.Loop() {`; not `return err`."""
    return any(w.lower() not in _PLAIN for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", text))


def _idents(lines: Sequence[str]) -> set[str]:
    # One scan of the lines joined by a character no identifier takes in (as `references`).
    return {w for w in set(_IDENT.findall(_APART.join(lines))) if w.lower() not in _COMMON}


# An import statement on one line: Java/Kotlin/Scala/Python `import a.b.C`, Python `from m
# import a, b as c`, JS/TS `import { a } from 'm'` / `export { a } from 'm'`, CommonJS
# `const { a } = require('m')`; a line of names of an import over lines (`  a,`, `} from 'm'`).
_IMPORT_LINE = re.compile(
    r"\s*(?:import\b|from\s+\S+\s+import\b|export\s.*\bfrom\s*['\"]"
    r"|(?:const|let|var)\s.*=\s*require\s*\("
    r"|(?:type\s+)?[\w$]+(?:\s+as\s+[\w$]+)?\s*,?\s*$"
    r"|[})]\s*(?:from\s*['\"].*)?;?\s*$)"
)
_IMPORT_WORDS = frozenset("import from static type typeof as const let var require export".split())
_STRING = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def _imported(added: Sequence[str], removed: Sequence[str]) -> frozenset[str]:
    """The names a hunk that changes only import lines brings in (valtio 9ad5228's
    `import { snapshot, subscribe, unstable_enableOp } from '../../vanilla.ts'` for
    `import { snapshot, subscribe } ...`: `unstable_enableOp`); empty for any other hunk. Of a
    dotted name (`org.apache.commons.cli.help.OptionFormatter`) each part."""
    lines = [t for t in (*added, *removed) if t.strip()]
    if (
        not added
        or not lines
        or not any(re.match(r"\s*(?:import|from|export|const|let|var)\b", t) for t in lines)
    ):
        return frozenset()
    if not all(_IMPORT_LINE.match(t) for t in lines):
        return frozenset()

    def names(side: Sequence[str]) -> set[str]:
        text = _STRING.sub(" ", "\n".join(side))
        return {w for w in re.findall(r"[A-Za-z_$][\w$]*", text) if w not in _IMPORT_WORDS}

    return frozenset(names(added) - names(removed))


def _import_uses(refs: Sequence[HunkRef]) -> dict[int, int]:
    """Each import-only hunk with a name it imports used by another hunk of its file: the
    first such hunk (the import joins the code that uses it, not a bundle of its own or the
    tests': valtio 9ad5228, commons-cli e852acf5's `import ...OptionFormatter;` in 6 files)."""
    by_path: dict[str, list[HunkRef]] = defaultdict(list)
    for r in refs:
        by_path[r.path].append(r)
    out: dict[int, int] = {}
    for r in refs:
        if not r.imports:
            continue
        for other in by_path[r.path]:
            if (
                other.index != r.index
                and not other.imports
                and r.imports & (other.refers | other.words)
            ):
                out[r.index] = other.index
                break
    return out


def _bare(name: str) -> str:
    return name.split("::")[-1].split(" for ")[0].rsplit(".", 1)[-1]


def _kept_export(old: FileIndex, unit: Unit, cf: ChangedFile) -> bool:
    """A top-level declaration deleted whose name the new side still exports as an alias of
    the same thing (``exports.still_exported``)."""
    if unit.parent >= 0:
        return False
    return still_exported(unit.name, "\n".join(old.lines[unit.start : unit.end + 1]), cf.new_text)


def _refs(
    files: Sequence[ChangedFile], indexes: dict[str, tuple[FileIndex | None, FileIndex | None]]
) -> list[HunkRef]:
    """Each hunk of ``files`` (in order; ``index`` is its position) with its enclosing unit,
    the names it defines, changes and refers to, and its identifiers: what the links are made
    of."""
    refs: list[HunkRef] = []
    # Text similarity (tf-idf) compares hunks with each other: one hunk alone needs no terms.
    alone = sum(len(cf.hunks) for cf in files) < 2
    for cf in files:
        old, new = indexes.get(cf.path, (None, None))
        # The lines as written, for the terms: only when hunks are compared (not ``alone``).
        new_lines = [] if alone else (cf.new_text or "").split("\n")
        old_lines = [] if alone else (cf.old_text or "").split("\n")
        side = new or old
        language = side.language.name if side is not None else ""
        folder = cf.path.split("/", 1)[0] if "/" in cf.path else ""
        respelt = _Respelt(cf)
        exports = language in EXPORT_LANGUAGES and new is not None
        # (a unit renamed, as the unit table pairs it: its old name is renamed, not removed)
        renames = (
            {
                _bare(p.old.name): _bare(p.new.name)
                for p in pair_units(old, new, cf.line_map)
                if p.old is not None and p.new is not None and p.old.name != p.new.name
            }
            if old is not None and new is not None
            else {}
        )
        for h in cf.hunks:
            defines: set[str] = set()
            assigned: set[str] = set()
            declared: dict[str, set[str]] = {"new": set(), "old": set()}  # (by side)
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
                        unit = owner_at(side, n - 1) or unit
                        unit_key = (
                            unit.start if side_name == "new" else -1 - unit.start,
                            qualified_label(qualified_name(side, unit)),
                        )
                    # A callback (`app.get("/")`) defines no name another hunk can use.
                    name = _bare(unit.name) if unit.name and unit.kind != CALLBACK else ""
                    if name and side_name == "old" and exports and _kept_export(side, unit, cf):
                        name = ""  # (still exported under its name: not gone, not defined)
                    if name and not (name.startswith("__") and name.endswith("__")):
                        owns.add(name)  # dunder methods are not called by name
                        if unit.start == n - 1:
                            headers[side_name].add(n)
                            if not respelt(h, side_name, n):
                                defines.add(name)
                                if _assigned(side.code[n - 1], name):
                                    assigned.add(name)
                            declared[side_name].add(name)
            if unit_key is None and new is not None:
                first, _ = h.changed_new
                unit = owner_at(new, first - 1)  # (a decorator's line is its method's)
                unit_key = (
                    (unit.start, qualified_label(qualified_name(new, unit))) if unit else None
                )
            # A declaration's own header is not a use of anything it names. What a hunk
            # refers to only links it to other hunks: one hunk alone needs none of it.
            changed = (
                []
                if alone
                else _code(new, h.added, headers["new"]) + _code(old, h.removed, headers["old"])
            )
            terms: Counter[str] = Counter()
            edit = ("", "")
            layout = False
            imports: frozenset[str] = frozenset()
            if not alone:
                added = [new_lines[n - 1] for n in h.added if 0 < n <= len(new_lines)]
                removed = [old_lines[n - 1] for n in h.removed if 0 < n <= len(old_lines)]
                # One scan: no word part spans the newline that joins two lines.
                terms.update(
                    w.lower() for w in _TERM.findall("\n".join(added + removed)) if len(w) >= 3
                )
                edit = (_edit(added), _edit(removed))
                layout = "".join("".join(added).split()) == "".join("".join(removed).split())
                imports = _imported(added, removed)
            refs.append(
                HunkRef(
                    len(refs),
                    cf.path,
                    h,
                    unit_key,
                    frozenset(defines),
                    frozenset(owns | defines),
                    frozenset(_idents(changed)),
                    references(changed),
                    language,
                    folder,
                    cf.new_text or "",
                    tuple(sorted(terms.items())),
                    frozenset(declared["old"] - declared["new"]),
                    edit,
                    # (also when the hunk declares the old name anew: a stub, not the unit
                    # the tables pair with another name)
                    tuple((n, renames[n]) for n in sorted(declared["old"]) if n in renames),
                    frozenset(defines & declared["old"] & declared["new"]),
                    layout,
                    frozenset(assigned),
                    imports,
                )
            )
    return refs


class _Respelt:
    """Whether a header line a hunk adds (removes) is one it also removes (adds) spelt
    otherwise (`err =>` made `(err) =>`, white space): that declaration was there before and
    stays as callers see it, so the hunk defines nothing by it."""

    def __init__(self, cf: ChangedFile) -> None:
        self.texts = {"new": cf.new_text or "", "old": cf.old_text or ""}
        self.lines: dict[str, list[str]] = {}

    def _line(self, side: str, n: int) -> str:
        if side not in self.lines:
            self.lines[side] = self.texts[side].split("\n")
        lines = self.lines[side]
        return plain_header(lines[n - 1]) if 0 < n <= len(lines) else ""

    def __call__(self, h: Hunk, side: str, n: int) -> bool:
        header = self._line(side, n)
        other, numbers = ("old", h.removed) if side == "new" else ("new", h.added)
        return bool(header) and any(self._line(other, k) == header for k in numbers)


_WORD_RUN = re.compile(r"\w+")


_MEMBER_ASSIGNED = re.compile(
    r"\s*((?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)+)\s*=(?![=>])\s*(?:async\s+)?(.*)"
)


def _assigned(code: str, name: str) -> bool:
    """Whether a unit's header line assigns a function to an object's member (jotai's
    `a.INTERNAL_onInit = (store) => {` in a test, which the bundle said other hunks "use"),
    not a module's or a prototype's method (`exports.parse = ...`, `Router.prototype.handle
    = ...`) nor one named as its member (`res.send = function send(body) {`): those declare
    what other code calls."""
    m = _MEMBER_ASSIGNED.match(code)
    if m is None:
        return False
    target, value = m.group(1), m.group(2)
    if target.split(".", 1)[0] in ("exports", "module") or ".prototype." in f"{target}.":
        return False
    return re.match(rf"function\s*\*?\s*{re.escape(name)}(?![\w$])", value) is None


def _linked(definer: HunkRef, user: HunkRef, name: str) -> bool:
    """Whether a use of ``name`` in ``user`` plausibly refers to ``definer``'s declaration:
    one language, and the same file, the same package folder, or a user that names the
    definer's module (an import); never a test's, a benchmark's or an example's declaration
    used by the product's code (commons-io 25114c8c5: main code "uses what
    IORandomAccessFileTest.java defines"), nor a function assigned to an object's member."""
    if definer.language != user.language or name.lower() in _GENERIC:
        return False
    if name in definer.assigned or (secondary(definer.path) and not secondary(user.path)):
        return False  # (the product's code does not use what a test defines)
    if definer.path == user.path or _parent(definer.path) == _parent(user.path):
        return True
    stem = _stem(definer.path)
    return len(stem) >= 3 and _names(user.text, stem)


@lru_cache(maxsize=512)
def _words(text: str) -> frozenset[str]:
    """The maximal runs of word characters of ``text`` (each file's text is read once)."""
    return frozenset(_WORD_RUN.findall(text))


def _names(text: str, stem: str) -> bool:
    """Whether ``stem`` occurs in ``text`` as a whole word (as `\\bstem\\b` would find it)."""
    if _WORD_RUN.fullmatch(stem):
        return stem in _words(text)
    return re.search(rf"\b{re.escape(stem)}\b", text) is not None


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".", 1)[0]


_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|testing)/|(^|/)test_|_test\.|\.test\.|\.spec\.|Tests?\.java$"
)
_TEST_AFFIX = re.compile(r"^test_|_test$|^test|tests?$|\.test$|\.spec$|_spec$", re.I)


def _tested(path: str) -> str:
    """The name a test file is named after (``test_core.py``, ``core_test.go``,
    ``core.test.ts``, ``CoreTest.java`` -> ``core``), lowercased."""
    return _TEST_AFFIX.sub("", _stem(path).lower()).strip("_-.")


# The pair model: features of two hunks and their weights (log-odds that one commit made
# both), fitted by logistic regression on the tune half of bench/tangles.py.
FEATURES = (
    "bias",
    "same file",
    "one defines what the other uses",
    "one changes a unit the other uses",
    "a test and the code it is named after",
    "the same folder",
    "two tests",
    "a test and other code",
    "one file names the other's module",
    "similar text (cosine of word parts, tf-idf)",
    "some similar text (cosine above 0.1)",
)
WEIGHTS = np.array([-0.76, 1.55, 1.09, 1.55, 0.84, 0.28, -0.77, -0.24, 0.31, 4.71, 0.59])
JOIN = 0.5  # groups are merged while the mean probability between them is above this

# With a repository index: the same features and three resolved by the index (the best
# confidence of the pair's edges, either direction; ``hunk_links``), fitted the same way on the
# same tune half with the index built at each tangle's base commit. Added to the name-based
# define -> use features rather than replacing them: +0.214 ARI over by file on the tune half
# against +0.209 replacing them and +0.180 without the index (``bench/tangles.py --fit``).
INDEX_FEATURES = (
    *FEATURES,
    "index: one refers to a declaration whose header the other changes",
    "index: one refers to a declaration whose body the other changes",
    "index: one's unit calls a unit the other changes",
)
INDEX_WEIGHTS = np.array(
    [-0.79, 1.49, 0.68, 0.67, 0.81, 0.28, -0.74, -0.26, 0.32, 4.57, 0.57, 1.42, 0.98, 1.14]
)
INDEX_JOIN = 0.5  # the best of 0.40-0.65 on the tune half, as JOIN


def _cosine(refs: Sequence[HunkRef]) -> NDArray[np.float64]:
    """Cosine similarity of the hunks' changed text (word parts weighted by tf-idf within the
    change): the textual similarity of SmartCommit's soft links."""
    n = len(refs)
    frequency = Counter(w for r in refs for w, _ in r.terms)
    vocabulary = {w: k for k, w in enumerate(w for w, c in frequency.items() if c < n)}
    if not vocabulary:
        return np.zeros((n, n))
    tfidf = np.zeros((n, len(vocabulary)))
    for i, r in enumerate(refs):
        for w, c in r.terms:
            if w in vocabulary:
                tfidf[i, vocabulary[w]] = c * np.log(n / frequency[w])
    norms = np.linalg.norm(tfidf, axis=1, keepdims=True)
    tfidf /= np.where(norms == 0, 1.0, norms)
    return np.clip(tfidf @ tfidf.T, 0.0, 1.0)


def _naming(refs: Sequence[HunkRef]) -> NDArray[np.float64]:
    """1 for two hunks of files of which one names the other's module (an import, mostly)."""
    files: dict[str, str] = {}
    for r in refs:
        files.setdefault(r.path, r.text)
    stems = {p: _stem(p) for p in files}
    related = {
        (a, b)
        for a in files
        for b, stem in stems.items()
        if a != b and len(stem) >= 3 and _names(files[a], stem)
    }
    n = len(refs)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            a, b = refs[i].path, refs[j].path
            if (a, b) in related or (b, a) in related:
                out[i, j] = 1.0
    return out


def _key(r: HunkRef) -> HunkKey:
    return (r.path, r.hunk.new_start, r.hunk.old_start)


def features(
    refs: Sequence[HunkRef], links: IndexLinks | None = None
) -> tuple[NDArray[np.float64], set[tuple[int, int]]]:
    """The pair features (hunk x hunk x ``FEATURES``, or ``INDEX_FEATURES`` with the index's
    ``links``) and the directed define -> use links (definer, user)."""
    n = len(refs)
    f = np.zeros((n, n, len(FEATURES if links is None else INDEX_FEATURES)))
    f[:, :, 0] = 1.0
    paths = [r.path for r in refs]
    same_file = np.array([[a == b for b in paths] for a in paths], dtype=float)
    f[:, :, 1] = same_file
    uses: set[tuple[int, int]] = set()
    definers: dict[str, list[int]] = defaultdict(list)
    changers: dict[str, list[int]] = defaultdict(list)
    for r in refs:
        for name in r.defines:
            definers[name].append(r.index)
        for name in r.owns - r.defines:
            changers[name].append(r.index)
    for r in refs:
        for name in r.refers:
            for d in definers.get(name, ()):
                if d != r.index and _linked(refs[d], r, name):
                    f[d, r.index, 2] = f[r.index, d, 2] = 1.0
                    uses.add((d, r.index))
            for d in changers.get(name, ()):
                if d != r.index and _linked(refs[d], r, name):
                    f[d, r.index, 3] = f[r.index, d, 3] = 1.0
    test = np.array([_TEST_PATH.search(p) is not None for p in paths])
    tested = [_tested(p) if t else _stem(p).lower() for p, t in zip(paths, test, strict=True)]
    other = 1.0 - same_file
    one_test = test[:, None] != test[None, :]
    named = np.array(
        [[len(a) >= 3 and len(b) >= 3 and (a in b or b in a) for b in tested] for a in tested]
    )
    f[:, :, 4] = other * one_test * named
    folders = [_parent(p) for p in paths]
    f[:, :, 5] = other * np.array([[a == b for b in folders] for a in folders])
    f[:, :, 6] = other * (test[:, None] & test[None, :])
    f[:, :, 7] = other * one_test * ~named
    f[:, :, 8] = other * _naming(refs)
    cosine = _cosine(refs)
    f[:, :, 9] = cosine
    f[:, :, 10] = cosine > 0.1
    if links is not None:
        at = {_key(r): r.index for r in refs}
        for k, found in enumerate((links.defines, links.changes, links.calls), len(FEATURES)):
            for (a, b), confidence in found.items():
                i, j = at.get(a), at.get(b)
                if i is None or j is None or i == j:
                    continue
                f[i, j, k] = f[j, i, k] = max(f[i, j, k], confidence)
                if k == len(FEATURES):
                    uses.add((j, i))  # (definer, user): the definition is read first
    for k in range(f.shape[2]):
        np.fill_diagonal(f[:, :, k], 0.0)
    return f, uses


def _graph(
    refs: Sequence[HunkRef], links: IndexLinks | None = None
) -> tuple[NDArray[np.float64], NDArray[np.bool_], set[tuple[int, int]]]:
    """The probability that one commit made each pair of hunks, the hard links (one unit)
    and the directed define -> use links (definer, user); with the index's ``links``, by the
    model fitted with them."""
    n = len(refs)
    strong = np.zeros((n, n), dtype=bool)
    by_unit: dict[tuple[str, int], list[int]] = defaultdict(list)
    for r in refs:
        if r.unit:
            by_unit[(r.path, r.unit[0])].append(r.index)
    for members in by_unit.values():
        strong[np.ix_(members, members)] = True
    imported = _import_uses(refs)
    for i, j in imported.items():
        strong[i, j] = strong[j, i] = True
    for members in _repeated(refs):
        strong[np.ix_(members, members)] = True
    np.fill_diagonal(strong, False)
    if n > MAX_PAIRWISE:  # too many pairs: the same file stands for the model
        paths = [r.path for r in refs]
        weight = np.array([[float(a == b) for b in paths] for a in paths])
        np.fill_diagonal(weight, 0.0)
        return weight, strong, set()
    f, uses = features(refs, links)
    weight = 1.0 / (1.0 + np.exp(-(f @ (WEIGHTS if links is None else INDEX_WEIGHTS))))
    # An import joined to its user links as its user does (it only names what the user
    # uses): it neither dilutes nor lifts the user's group's mean link to other hunks.
    for i, j in imported.items():
        weight[i, :] = weight[j, :]
        weight[:, i] = weight[:, j]
        weight[i, j] = weight[j, i] = 1.0
    np.fill_diagonal(weight, 0.0)
    return weight, strong, uses


def _same_edits(refs: Sequence[HunkRef]) -> list[list[int]]:
    """The hunks that add the same lines, and those that remove the same lines: one edit
    repeated (an import rewritten the same way in 19 files). Two hunks make one when the lines
    are long (``SAME_EDIT``); a shorter edit needs ``REPEATED`` hunks in two files or more
    (`t.Parallel()` atop 196 tests of 7 files), so a short line two unrelated hunks happen to
    add is no link."""
    by_edit: dict[tuple[int, str], list[int]] = defaultdict(list)
    for r in refs:
        for side, text in enumerate(r.edit):
            if text:
                # (as written, and with each file's own name one mark: gin 12508320's
                # `json "github.com/json-iterator/go"` in json.go and in errors.go is one edit)
                for key in dict.fromkeys((text, _own(text, r.path))):
                    by_edit[(side, key)].append(r.index)
    return [
        members
        for (_, text), members in by_edit.items()
        if len(members) > 1
        and (_long(text) or (len(members) >= REPEATED and len({refs[i].path for i in members}) > 1))
    ]


def _repeated(refs: Sequence[HunkRef]) -> list[list[int]]:
    """``_same_edits`` less the imports that join a hunk of their file using what they
    import (``_import_uses``): such an import is its file's user's, not one edit with the
    other files' imports, which would join those files' users too."""
    imported = _import_uses(refs)
    kept = ([i for i in members if i not in imported] for members in _same_edits(refs))
    return [members for members in kept if len(members) > 1]


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


def _average_linkage(
    groups: list[list[int]], weight: NDArray[np.float64], join: float
) -> list[list[int]]:
    """Merge the two groups with the highest mean link weight between them while it is
    above ``join`` (ties: the earliest pair); deterministic."""
    groups = [list(g) for g in groups]
    k = len(groups)
    if k < 2:
        return groups
    member = np.zeros((k, weight.shape[0]))
    for g, members in enumerate(groups):
        member[g, members] = 1.0
    total = member @ weight @ member.T
    sizes = member.sum(axis=1)
    alive = np.ones(k, dtype=bool)
    while True:
        mean = total / np.outer(sizes, sizes)
        mean[~alive, :] = -1.0
        mean[:, ~alive] = -1.0
        np.fill_diagonal(mean, -1.0)
        best = int(np.argmax(mean))
        a, b = divmod(best, k)
        if mean[a, b] <= join:
            break
        a, b = min(a, b), max(a, b)
        groups[a] += groups[b]
        groups[b] = []
        total[a, :] += total[b, :]
        total[:, a] += total[:, b]
        sizes[a] += sizes[b]
        alive[b] = False
    return sorted((sorted(g) for g in groups if g), key=lambda g: g[0])


def _title(
    refs: Sequence[HunkRef],
    group: Sequence[int],
    heat: Mapping[int, float],
    lead: tuple[str, str, int] | None = None,
) -> tuple[str, str, int]:
    """The bundle's weightiest unit (the one whose hunks hold its weightiest findings, by
    ``heat`` per hunk; else by the lines its hunks change there; the product's code before
    tests; one unit is one place, not a label: three `def test` closures in three tests are
    three units; a hunk changing whitespace only counts when the bundle has nothing else),
    named with its containers (`def ServerErrorMiddleware.__init__`), and its files, the
    unit's first; with the unit's path and line, to tell namesakes apart."""
    weight: Counter[tuple[bool, str, int, str]] = Counter()
    hot: dict[tuple[bool, str, int, str], float] = defaultdict(float)
    # (A unit only re-indented is no row of the unit table: it titles a bundle of nothing else.)
    edits = [i for i in group if not refs[i].layout and refs[i].unit is not None]
    for i in edits or group:
        r = refs[i]
        if r.unit is not None:
            size = len(r.hunk.added) + len(r.hunk.removed)
            key = (not secondary(r.path), r.path, r.unit[0], r.unit[1])
            weight[key] += max(1, size)
            hot[key] += heat.get(i, 0.0)
    paths = sorted({refs[i].path for i in group})
    if lead is not None:  # the unit its weightiest measured finding is about, whichever hunk
        label, path, line = lead
        paths.remove(path)
        paths.insert(0, path)
        files = ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
        return f"{label} ({files})", path, line
    if not weight:
        return ", ".join(paths[:3]) + (" …" if len(paths) > 3 else ""), "", 0
    top = max(weight, key=lambda k: (hot[k], k[0], weight[k]))  # ties: the first, by place
    paths.remove(top[1])
    paths.insert(0, top[1])  # the title's file among those shown
    files = ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
    line = top[2] + 1 if top[2] >= 0 else -top[2]  # (an old side's unit counts down from -1)
    return f"{top[3]} ({files})", top[1], line


def _distinct(titles: list[tuple[str, str, int]]) -> list[str]:
    """The titles, those shared by two bundles told apart by their unit's place
    (`def __init__ (a.py) at a.py:12`)."""
    seen = Counter(title for title, _, _ in titles)
    return [
        f"{title} at {path}:{line}" if seen[title] > 1 and path else title
        for title, path, line in titles
    ]


class Grouping(NamedTuple):
    """The grouping step: hard-link components and the groups merged from them."""

    components: tuple[tuple[int, ...], ...]  # connected components of the hard links
    # per component, the parts it was split into (always the component itself: the pair model
    # splits nothing that is hard-linked; kept for readers of earlier explanations)
    splits: tuple[tuple[tuple[int, ...], ...], ...]
    groups: tuple[tuple[int, ...], ...]  # components merged by average linkage


def group_hunks(
    refs: Sequence[HunkRef],
    strong: NDArray[np.bool_],
    weight: NDArray[np.float64],
    *,
    join: float = JOIN,
) -> Grouping:
    """Groups of hunks: connected components of ``strong`` (hard links), merged by average
    linkage on ``weight`` while the mean weight between two groups is above ``join``.
    ``bundle_change`` groups with the bundler's own links (``explain`` shows them); others can
    pass their own (what-if experiments)."""
    components = _components(strong)
    groups = _average_linkage(components, weight, join)
    return Grouping(
        tuple(tuple(c) for c in components),
        tuple((tuple(c),) for c in components),
        tuple(tuple(g) for g in groups),
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
    grouping: Grouping  # hard-link components and the merged groups
    bundles: tuple[Bundle, ...]  # the result, in reading order
    links: IndexLinks | None = None  # the repository index's hunk links (None: no index)


def explain(
    files: Sequence[ChangedFile],
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]],
    findings: Sequence[Finding],
    links: IndexLinks | None = None,
    resigns: frozenset[tuple[str, str]] | None = None,
) -> BundleExplanation:
    """``bundle_change`` with its steps: the hunks and their links (pair probabilities, hard
    links), the hard-link components, the merged groups and the bundles. With ``links`` (the
    repository index's, ``hunk_links``) the pair model is the one fitted with them. With
    ``resigns`` (the impact's re-signed declarations, (path, name)), a bundle re-signs what
    the impact says its hunks re-sign, whichever header line they touch."""
    refs = _refs(files, indexes)
    if not refs:
        empty = Grouping((), (), ())
        none = np.zeros((0, 0))
        return BundleExplanation(
            tuple(files), indexes, (), none, none.astype(bool), frozenset(), empty, (), links
        )
    weight, strong, uses = _graph(refs, links)
    grouping = group_hunks(refs, strong, weight, join=JOIN if links is None else INDEX_JOIN)
    return BundleExplanation(
        tuple(files),
        indexes,
        tuple(refs),
        weight,
        strong,
        frozenset(uses),
        grouping,
        tuple(_bundles(refs, strong, weight, uses, grouping.groups, findings, resigns)),
        links,
    )


def bundle_change(
    files: Sequence[ChangedFile],
    indexes: dict[str, tuple[FileIndex | None, FileIndex | None]],
    findings: Sequence[Finding],
    links: IndexLinks | None = None,
) -> list[Bundle]:
    """The hunks of a change in bundles, in the suggested reading order."""
    return list(explain(files, indexes, findings, links).bundles)


def reading_order(ranked: Sequence[int], before: Mapping[int, set[int]]) -> list[int]:
    """The groups ``ranked`` (best first), each after the groups ``before`` it (those that
    define what it uses: placed first, best first). So the weightiest findings come at once,
    after their own prerequisites only (click 2c8cd3ac~35: its two RB101 bundles came 14th and
    15th, after every bundle that had no prerequisite). Groups that need each other (a cycle:
    javapoet 4272265's two bundles each define a `modifyModifiers` the other uses) come in
    their rank's order, each after what it needs outside them."""
    rank = {g: k for k, g in enumerate(ranked)}
    reach: dict[int, set[int]] = {}

    def reaches(g: int) -> set[int]:
        """The groups ``g`` needs, directly or through others."""
        if g not in reach:
            seen: set[int] = set()
            stack = list(before.get(g, ()))
            while stack:
                d = stack.pop()
                if d not in seen:
                    seen.add(d)
                    stack.extend(before.get(d, ()))
            reach[g] = seen
        return reach[g]

    order: list[int] = []
    placed: set[int] = set()

    def place(g: int, on_the_way: set[int]) -> None:
        if g in placed or g in on_the_way:
            return
        on_the_way.add(g)
        mutual = {d for d in reaches(g) if g in reaches(d)}  # (its cycle's other groups)
        first = (set(before.get(g, set())) - mutual) | {d for d in mutual if rank[d] < rank[g]}
        for d in sorted(first - placed, key=rank.__getitem__):
            place(d, on_the_way)
        order.append(g)
        placed.add(g)

    for g in ranked:
        place(g, set())
    return order


def _bundles(
    refs: Sequence[HunkRef],
    strong: NDArray[np.bool_],
    weight: NDArray[np.float64],
    uses: set[tuple[int, int]],
    groups: Sequence[Sequence[int]],
    findings: Sequence[Finding],
    resigns: frozenset[tuple[str, str]] | None = None,
) -> list[Bundle]:
    """The groups in reading order (findings first, definitions before their uses), named."""
    where = {member: g for g, members in enumerate(groups) for member in members}
    heat: dict[int, float] = defaultdict(float)
    hunk_heat: dict[int, float] = defaultdict(float)  # (what titles a bundle)
    # A group's weightiest finding on a measured unit (not an RB105's deleted one): that
    # unit titles it, though a hunk spanning several units is another's (a new file).
    lead: dict[int, tuple[float, int, str, str, int]] = {}
    for k, f in enumerate(findings):
        for r in refs:
            if r.path == f.path and r.hunk.new_start <= f.end_line and f.line <= r.hunk.new_end:
                heat[where[r.index]] += 3.0**f.severity.rank
                hunk_heat[r.index] += 3.0**f.severity.rank
                g = where[r.index]
                # (the unit as the tables name it, with its containers: `def Attribute.evolve`
                # where the file also has a `def evolve`)
                named = r.unit[1] if r.unit and r.unit[0] == f.unit.start - 1 else None
                mine = (
                    3.0**f.severity.rank,
                    -k,
                    named or qualified_label(f.unit.label),
                    f.path,
                    f.unit.start,
                )
                if (f.metrics.before or f.metrics.after) and (g not in lead or mine > lead[g]):
                    lead[g] = mine
    before: dict[int, set[int]] = defaultdict(set)
    for d, u in uses:
        if where[d] != where[u]:
            before[where[u]].add(where[d])

    def weight_of(g: int) -> tuple[float, bool, int, str, int]:
        """Findings first; then the product's code before tests and benchmarks; then the
        most changed lines (a version bump's one line last); then by place."""
        members = groups[g]
        size = sum(len(refs[i].hunk.added) + len(refs[i].hunk.removed) for i in members)
        tests = all(secondary(refs[i].path) for i in members)
        return (-heat[g], tests, -size, refs[members[0]].path, members[0])

    order = reading_order(sorted(range(len(groups)), key=weight_of), before)
    declared_anywhere = {n for r in refs for n in r.defines - r.gone}
    # (a name whose unit the tables rename: a declaration of it elsewhere is a new one, not
    # that unit moved; rq ff886a1f renamed enqueue_dependents and added a stub of its name)
    renamed_away = {a for r in refs for a, _ in r.renamed}
    gone_anywhere = {n for r in refs for n in r.gone} - renamed_away
    repeated = _repeated(refs)
    out = []
    titles = _distinct(
        [_title(refs, groups[g], hunk_heat, lead[g][2:] if g in lead else None) for g in order]
    )
    for number, g in enumerate(order, 1):
        # (read in order: the product's hunks a finding is about, the product's others, then
        # tests, benchmarks and examples; each part in the diff's order)
        members = sorted(groups[g], key=lambda i: (secondary(refs[i].path), hunk_heat[i] == 0, i))
        # (the product's names before those of tests and benchmarks: echo's "defines
        # BenchmarkBind_JSON, BenchmarkBind_Query, …" hid `stringToBytes`)
        product = {n for i in members if not secondary(refs[i].path) for n in refs[i].defines}
        defined = sorted(
            {n for i in members for n in refs[i].defines - refs[i].gone - refs[i].assigned},
            key=lambda n: (n not in product, n),
        )
        # (a name another hunk of the change declares was moved there, not removed, unless
        # the tables pair its unit with another name)
        renamed = sorted({(a, b) for i in members for a, b in refs[i].renamed})
        removed = sorted(
            {n for i in members for n in refs[i].gone} - declared_anywhere - {a for a, _ in renamed}
        )
        needs = sorted({refs[d].path for d, u in uses if where[u] == g and where[d] != g})
        reasons = []
        paths = {refs[i].path for i in members}
        # (an edit's hunks are one component: all of them are here, or none)
        edits = [e for e in repeated if e[0] in members]
        widest = max(({refs[i].path for i in e} for e in edits), key=len, default=set())
        if len(widest) > 1:
            # (which files: "the same edit in 2 files; 4 files" said neither)
            names = sorted(p.rsplit("/", 1)[-1] for p in widest)
            which = f" ({', '.join(names)})" if len(names) <= 3 else ""
            reasons.append(f"the same edit in {len(widest)} files{which}")
        elif edits and set(members) <= {i for e in edits for i in e}:
            # (testify 603c2a0's four `// FIXME t.Parallel()` hunks said "one hunk")
            reasons.append(f"the same edit in {max(len(e) for e in edits)} hunks of one file")
        # (when every hunk is one of the edits', they say what joins them)
        if len(members) > 1 and set(members) - {i for e in edits for i in e}:
            block = weight[np.ix_(members, members)]
            mean = float(block.sum() / (len(members) * (len(members) - 1)))
            span = "one file" if len(paths) == 1 else f"{len(paths)} files"
            if len(widest) > 1:
                span = f"in all, {span}"
            units = {(refs[i].path, refs[i].unit) for i in members}
            if len(units) == 1 and None not in {u for _, u in units}:
                span += ", hunks of one unit"
            reasons.append(f"{span}, mean link {mean:.2f}")
        # (a name one hunk of the change declares and another's removed header declared is
        # moved there; one whose header a hunk rewrites is re-signed: neither is new)
        moved = [n for n in defined if n in gone_anywhere]
        respelt = {n for i in members for n in refs[i].resigned}
        if resigns is None:
            resigned = [n for n in defined if n not in moved and n in respelt]
        else:
            # As the impact says: a header the hunks respelt without re-signing it (jotai
            # baaa7020: a one-line arrow's expression body made a block) is neither defined
            # nor re-signed; one re-signed on a line of a multi-line header that declares no
            # name (rq's `Queue.all` dropping `= None` from `job_class`) is.
            resigned = sorted(
                {
                    n
                    for i in members
                    for n in refs[i].owns
                    if (refs[i].path, n) in resigns and n not in moved
                },
                key=lambda n: (n not in product, n),
            )
        defined = [n for n in defined if n not in moved and n not in resigned and n not in respelt]
        # (not a name a rename below says: packaging 668da866 "defines _format_full_version;
        # renames format_full_version to _format_full_version")
        told = {b for _, b in renamed}
        defined = [n for n in defined if n not in told]
        for verb, names in (("defines", defined), ("re-signs", resigned), ("moves", moved)):
            if names:
                more = f" and {len(names) - 5} more" if len(names) > 5 else ""
                reasons.append(f"{verb} " + ", ".join(names[:5]) + more)
        if removed:  # (a name only a deleted declaration had)
            more = f" and {len(removed) - 5} more" if len(removed) > 5 else ""
            reasons.append("removes " + ", ".join(removed[:5]) + more)
        if renamed:  # (a name only a renamed declaration had: the units' tables say so too)
            more = f" and {len(renamed) - 3} more" if len(renamed) > 3 else ""
            reasons.append("renames " + ", ".join(f"{a} to {b}" for a, b in renamed[:3]) + more)
        if needs:
            verb = "defines" if len(needs[:3]) == 1 else "define"
            reasons.append("uses what " + ", ".join(needs[:3]) + f" {verb}")
        if not reasons:
            reasons.append("one hunk, linked to no other")
        out.append(
            Bundle(
                f"B{number}",
                titles[number - 1],
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


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


_CODE_LIKE = re.compile(r"_|\d|.[A-Z]")  # snake_case, digits, camelCase: an identifier
_AS_CODE = re.compile(r"`([A-Za-z_$][\w$]*)(?:\(\))?`|\b([A-Za-z_$][\w$]*)\(")
NAMED = 5  # a definition's name this long, named by a prose hunk, pulls the hunk in


def attach_prose(
    bundles: Sequence[Bundle], refs: Sequence[HunkRef], prose: Sequence[ChangedFile]
) -> tuple[list[Bundle], list[HunkSpan]]:
    """Hunks of prose, data and configuration files (``prose``) that name what a code bundle
    defines (a declaration the bundle's hunks add or re-sign, ``NAMED`` characters or more, not
    a generic name) join that bundle, the first in reading order; the other hunks are returned,
    to be read last. Docs and changelogs stay out of code bundles unless they name its code."""
    at = {(r.path, r.hunk.new_start, r.hunk.old_start): r for r in refs}
    names: list[set[str]] = []
    for bundle in bundles:
        found: set[str] = set()
        for where in bundle.hunks:
            r = at.get((where.path, where.new_start, where.old_start))
            if r is not None:
                found |= {n for n in r.defines if len(n) >= NAMED and n.lower() not in _GENERIC}
        names.append(found)
    joined: dict[int, list[tuple[HunkSpan, set[str]]]] = defaultdict(list)
    rest: list[HunkSpan] = []
    for cf in prose:
        new = (cf.new_text or "").split("\n")
        old = (cf.old_text or "").split("\n")
        for h in cf.hunks:
            lines = [new[n - 1] for n in h.added if 0 < n <= len(new)]
            lines += [old[n - 1] for n in h.removed if 0 < n <= len(old)]
            words = {w for text in lines for w in _WORD.findall(text) if _CODE_LIKE.search(w)}
            # A plain word (`bundle`, `nested`) names code only where the prose writes it as
            # code: in backticks, or called.
            words |= {m[1] or m[2] for text in lines for m in _AS_CODE.finditer(text)}
            span = HunkSpan(cf.path, h.new_start, h.new_end, h.old_start, h.old_end, h.new_len == 0)
            target = next((k for k, ns in enumerate(names) if ns & words), None)
            if target is None:
                rest.append(span)
            else:
                joined[target].append((span, names[target] & words))
    out = []
    for k, bundle in enumerate(bundles):
        if k not in joined:
            out.append(bundle)
            continue
        spans = tuple(span for span, _ in joined[k])
        named = sorted({n for _, ns in joined[k] for n in ns})
        paths = sorted({span.path for span in spans})
        verb = "names" if len(paths) == 1 else "name"  # (`README.md names X`)
        reason = f"{bundle.reason}; {', '.join(paths[:3])} {verb} {', '.join(named[:3])}"
        out.append(bundle._replace(hunks=bundle.hunks + spans, reason=reason))
    return out, rest
