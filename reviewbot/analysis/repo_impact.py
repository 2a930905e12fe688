"""Impact from the repository index: where the declarations a change adds, deletes, renames,
moves or re-signs are referenced, resolved by the index's rules; RB105 (deleted or renamed,
still referenced) and RB106 (re-signed, still called the old way).

The change's declarations come from its two sides, parsed here (tree-sitter, the index's own
extractor). The index answers for the repository around them: in one write transaction that is
always rolled back, its rows are brought to the change's *old* side (the changed files' old
contents; every other file as the index holds it), the references to what the change deletes
or renames are read, then to the *new* side, where the references to what it adds or re-signs
are read. Only the changed files are (re-)parsed; the index file is left as it was, whatever
the change (a commit, the staged blobs or the working tree).

A reference is kept when the index resolved it by a rule with at least ``CONFIDENT``
confidence; an ``obj.m`` whose receiver nobody can type (linked to every member of that name)
is counted as ``uncertain`` and left out. Never a reference inside the declaration itself.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import functools
import os
import posixpath
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, TypeVar

import tree_sitter as ts

from reviewbot.analysis.exports import export_aliases, still_exported
from reviewbot.analysis.findings import fingerprint, suppressed
from reviewbot.analysis.impact import bound_by_import, deleted_anchor, in_hunk
from reviewbot.analysis.renames import MAX_TOKENS, MIN_TOKENS, THRESHOLD
from reviewbot.analysis.review import not_code
from reviewbot.analysis.signatures import (
    Call,
    Param,
    call_at,
    call_end,
    class_change,
    fits,
    header_change,
    parameters,
    reordered,
    same_header,
)
from reviewbot.engine.languages import LanguageRegistry
from reviewbot.errors import ReviewbotError
from reviewbot.index import query
from reviewbot.index.build import IndexSettings, apply_listing, holds
from reviewbot.index.extract import cut_signature, facts_of, one_extraction_each
from reviewbot.index.fresh import built_with, same_repository
from reviewbot.index.grammars import compiled, grammar_for
from reviewbot.index.outline import outline
from reviewbot.index.store import SCHEMA, Store, storable
from reviewbot.model import (
    RETURN_ONLY,
    TYPES_ONLY,
    ChangedFile,
    Finding,
    Impact,
    ImpactRef,
    MetricsChange,
    Severity,
    UnitRef,
    place,
)
from reviewbot.repo.files import blob_id, decode
from reviewbot.repo.git import Git, GitError
from reviewbot.repo.listing import Listed, list_tree
from reviewbot.repo.paths import secondary

__all__ = [
    "CONFIDENT",
    "Decl",
    "DeclChange",
    "IndexNotUsed",
    "declaration_changes",
    "repo_impact",
]

CONFIDENT = 0.5  # an edge's confidence from which a reference is shown (1/candidates below)
MAX_SHOWN = 20  # references listed per declaration (all are counted)
MAX_DECLARATIONS = 40  # declarations looked up per change
_LIMIT = 2000  # references read per declaration
# Line similarity from which a deleted + an added declaration, too small to compare as token
# sequences (renames.MIN_TOKENS), are a rename.
_RENAMED = 0.75
_TOKEN = re.compile(r"\w+|[^\w\s]")  # (as the units' bodies are read: renames.py)
_MASK = "\x00"
_CROSS_PAIRS = 2500  # removed x added outermost declarations compared across files, at most
_NAME = re.compile(r"[\w$]+")
_VALUES = frozenset({"constant", "variable"})  # a value has no parameters: never "re-signed"
_SKIP_KINDS = frozenset({"field"})
# A module's variable (`export const useStore = defineStore(...)`, `logger = getLogger()`) is
# a declaration its deletion breaks; one added is not told (most are used where they are made).
_NOT_ADDED = frozenset({"variable"})
_CONSTRUCTORS = frozenset({"__init__", "constructor"})  # (their classes' calls run them)
_CLASSES = frozenset({"class", "interface", "struct", "enum", "type"})
_BODIES = frozenset({"function", "method", "constructor", "variable", "constant"})
_NAME_BOUND = frozenset({"def", "import", "module", "free", "class", "name"})


_T = TypeVar("_T")

# A caller that asks the index more of the same change after the review (the context pack's
# callers and callees at the change's new side) sets a list here: ``repo_impact`` then leaves
# its rolled-back transaction open at the new side and puts (connection, closer) in it, instead
# of closing it; the caller reads and calls the closer (a third application of the change's
# files, ~5 s on zod's 84-file sides, was a third of `review --format prompt`).
HELD: contextvars.ContextVar[list[tuple[sqlite3.Connection, Callable[[], None]]] | None] = (
    contextvars.ContextVar("reviewbot_held_new_side", default=None)
)


class IndexNotUsed(ReviewbotError):
    """The index cannot answer for this change (none, built with other settings, busy).
    ``note``: the same, as a report's impact label says it after "git grep; "."""

    def __init__(self, message: str, *, note: str) -> None:
        super().__init__(message)
        self.note = note


class Decl(NamedTuple):
    name: str
    qualified: str
    kind: str
    signature: str
    path: str
    line: int
    end_line: int
    language: str
    # the header whole (``signature`` is cut as the index cuts it: fingerprints keep it); ""
    # when it is the signature
    header: str = ""

    @property
    def label(self) -> str:
        return f"{self.kind} {self.qualified}"

    @property
    def whole(self) -> str:
        """The header, however long: what a re-sign compares and RB106 reads parameters from."""
        return self.header or self.signature


class DeclChange(NamedTuple):
    change: str  # added | removed | renamed | moved | signature
    old: Decl | None
    new: Decl | None
    cf: ChangedFile  # the file of the new declaration (the old one's when removed)


class _Side(NamedTuple):
    decls: tuple[Decl, ...]
    broken: bool  # tree-sitter found syntax errors in it (anywhere)
    fields: frozenset[str] = frozenset()  # (qualified names: not declarations here)


@functools.lru_cache(maxsize=32)  # a renamed file's sides are read by two passes
def _read(text: str | None, path: str, registry: LanguageRegistry) -> _Side:
    """The declarations of one side of a file: tree-sitter's, or the outliner's when tree-sitter
    cannot parse most of it (as the index reads such a file)."""
    if text is None:
        return _Side((), False)
    detected = registry.detect(path)
    language = detected.name
    grammar = grammar_for(language, path)
    if grammar is None:
        return _Side((), False)
    facts, broken = facts_of(compiled(grammar.name), text, whole=True)
    if facts is None:
        facts = outline(text, detected, "tree-sitter could not parse most of it")
    decls = []
    for d in facts.definitions:
        kind = d.kind
        if (
            kind not in _SKIP_KINDS
            and (d.name in _CONSTRUCTORS or not (d.name.startswith("__") and d.name.endswith("__")))
            and _NAME.fullmatch(d.name)  # not a string key: `"validate + return": () => ...`
        ):
            cut = cut_signature(d.signature)
            header = d.signature if cut != d.signature else ""
            decls.append(
                Decl(d.name, d.qualified, kind, cut, path, d.line, d.end_line, language, header)
            )
    fields = frozenset(d.qualified for d in facts.definitions if d.kind == "field")
    return _Side(tuple(decls), broken, fields)


# A review's file sides already read, by ChangedFile (``_read``'s own cache keeps 32: a change
# renaming 77 files read each twice, 3 of 18 seconds).
_Memo = dict[int, tuple[_Side, _Side]]


def _sides(
    cf: ChangedFile, registry: LanguageRegistry, memo: _Memo | None = None
) -> tuple[_Side, _Side]:
    if memo is not None and id(cf) in memo:
        return memo[id(cf)]
    both = (
        _read(cf.old_text, cf.old_path or cf.path, registry),
        _read(cf.new_text, cf.path, registry),
    )
    if memo is not None:
        memo[id(cf)] = both
    return both


# A line that defines NAME, read as text (a side with syntax errors: what tree-sitter or the
# outliner could not see there may still be written).
_DEFINES = (
    r"(?m)^[ \t]*(?:(?:export|default|public|private|protected|static|abstract|async|declare"
    r"|final|override|pub)\s+)*"
    r"(?:(?:def|class|function\*?|func(?:\s*\([^)]*\))?|interface|type|enum|struct|trait|const"
    r"|let|var|val)\s+)?{name}\s*(?:[(<\[:=]|\s+(?:extends|implements)\b|\s*\{{)"
)


def _written(name: str, text: str | None) -> bool:
    """Whether ``text`` still has a line defining ``name`` (``def name(``, ``name = ``,
    ``class name:``, ``function name(``...)."""
    if text is None:
        return False
    return re.search(_DEFINES.format(name=re.escape(name)), text) is not None


# A local bound again: with a declaring word, or assigned (`step = ...`); a call at a line's
# start (`normalizeSliceIndex(args[0], n) === n ||`) binds nothing.
_BINDS = (
    r"(?m)^[ \t]*(?:(?:export|default|async|static)\s+)*"
    r"(?:(?:def|class|function\*?|func|const|let|var|val)\s+{name}\b|{name}\s*(?::[^=\n]*)?=(?![=>]))"
)


def _rebound(name: str, text: str | None) -> bool:
    """Whether ``text`` binds the local ``name`` again (a declaration or an assignment)."""
    return text is not None and re.search(_BINDS.format(name=re.escape(name)), text) is not None


def _lines(text: str | None, d: Decl) -> list[str]:
    """The declaration's lines as written, its header first."""
    return (text or "").split("\n")[d.line - 1 : d.end_line]


def _rename_score(old: list[str], new: list[str], names: tuple[str, str]) -> float:
    """How much of a removed declaration's lines (``old``) an added one's (``new``) keep, with
    both names masked as words (a getter `callbackExecutor()` renamed `executor()` still
    returns its field `callbackExecutor`; a recursive call follows the rename). Bodies of
    ``MIN_TOKENS`` or more, header included, compare as the units' table pairs them (token
    sequences: mux's `requestWithRoute` grown into `requestWithRouteAndVars` is one unit
    renamed in both); smaller ones line by line, without the header, which would make two
    accessors alike (`int getA() { return a; }`, `int getB() { return b; }`)."""
    word = re.compile("|".join(rf"(?<![\w$]){re.escape(n)}(?![\w$])" for n in names))
    a = [_TOKEN.findall(word.sub(_MASK, x)) for x in old]
    b = [_TOKEN.findall(word.sub(_MASK, x)) for x in new]
    flat_a = [t for x in a for t in x]
    flat_b = [t for x in b for t in x]
    if min(len(flat_a), len(flat_b)) >= MIN_TOKENS and max(len(flat_a), len(flat_b)) <= MAX_TOKENS:
        seqs: tuple[Sequence[object], Sequence[object]] = (flat_a, flat_b)
        threshold = THRESHOLD
    else:
        seqs = ([" ".join(x) for x in a[1:]], [" ".join(x) for x in b[1:]])
        threshold = _RENAMED
        if not seqs[0] and not seqs[1]:
            return 0.0
    matcher = difflib.SequenceMatcher(None, seqs[0], seqs[1], autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    ratio = matcher.ratio()
    return ratio if ratio >= threshold else 0.0


def declaration_changes(
    files: Sequence[ChangedFile],
    registry: LanguageRegistry,
    check: Callable[[int, int], None] | None = None,
    memo: _Memo | None = None,
) -> list[DeclChange]:
    """What the change does to declarations: added, removed, renamed (the body survives under
    another name, same kind: in the same file, or in another changed file), moved (same
    qualified name, another file) or re-signed (the header changed). The members of a renamed
    or moved declaration go with it (``LazyFile.open`` is ``_LazyFile.open`` now): they are a
    change of their own only when their header changed. Overloads (one name declared twice in
    a scope) pair by header: one removed is removed, one whose header changed is re-signed when
    it is the only one unmatched on each side, and the others are left out (which one a call
    means is not for a name to say). The most telling come first, up to MAX_DECLARATIONS:
    removals, renames and re-signs, then moves, then additions of product code before those of
    tests and benchmarks, larger first. ``check(done, total)`` is told of each file read (it
    may raise to stop)."""
    removed: list[tuple[Decl, ChangedFile]] = []
    added: list[tuple[Decl, ChangedFile]] = []
    rebound: list[tuple[Decl, ChangedFile]] = []  # locals gone whose name is bound again
    out: list[DeclChange] = []
    for k, cf in enumerate(files, 1):
        if check is not None:
            check(k, len(files))
        if cf.old_text is None and cf.new_text is None:
            continue
        old_side, new_side = _sides(cf, registry, memo)
        old, new = old_side.decls, new_side.decls
        # A side with syntax errors (a half-edited file): a declaration tree-sitter (or the
        # outliner, past the error limit) does not see there is gone only when no line still
        # defines its name; when the change made (or mended) them, no header is re-signed
        # (a file the grammar cannot read on both sides, as committed, is compared as usual).
        broken = old_side.broken or new_side.broken
        mending = old_side.broken != new_side.broken
        old_keys: dict[tuple[str, str], list[Decl]] = {}
        new_keys: dict[tuple[str, str], list[Decl]] = {}
        for d in old:
            old_keys.setdefault((d.qualified, d.kind), []).append(d)
        for d in new:
            new_keys.setdefault((d.qualified, d.kind), []).append(d)
        bodies = {d.qualified for d in old if d.kind in _BODIES}  # (what holds locals)
        for key, olds in old_keys.items():
            news = new_keys.get(key)
            if news is None:
                d = olds[-1]
                # A function's local (`function step()` now `const step = action(() => ...)`
                # in the same function) is bound again where the index reads no declaration.
                local = d.qualified.rpartition(".")[0] in bodies
                if broken and _written(d.name, cf.new_text):
                    continue
                if d.kind == "method" and d.qualified in new_side.fields - old_side.fields:
                    continue  # now a property (axios's `use(...)` -> `use: UseType<V>`): kept
                if local and _rebound(d.name, cf.new_text):
                    rebound.append((d, cf))  # (not deleted; it follows its function's rename)
                else:
                    removed.append((d, cf))  # namesakes go together
            elif mending:
                continue
            else:
                _overloads(olds, news, cf, out)
        for key, news in new_keys.items():
            if key not in old_keys and not (broken and _written(news[-1].name, cf.old_text)):
                added.append((news[-1], cf))
    _pair_renames(removed, added, out, same_file=True)
    # Moves: the same qualified name and kind appear in another changed file.
    for d_old, cf in list(removed):
        for k, (d_new, cf_new) in enumerate(added):
            if d_new.qualified == d_old.qualified and d_new.kind == d_old.kind:
                added.pop(k)
                removed.remove((d_old, cf))
                out.append(DeclChange("moved", d_old, d_new, cf_new))
                break
    _pair_renames(removed, added, out, same_file=False)
    _members_follow(removed, added, out, rebound)
    _renames_followed(out)
    _aliases_followed(out)
    out.extend(
        DeclChange("removed", d, None, cf)
        for d, cf in removed
        if not _imported_now(d, cf) and not _generated_init(d, cf)
    )
    out.extend(DeclChange("added", None, d, cf) for d, cf in added if d.kind not in _NOT_ADDED)
    order = {"removed": 0, "renamed": 1, "signature": 2, "moved": 3, "added": 4}

    def rank(c: DeclChange) -> tuple[int, bool, int, str, int]:
        d = c.new or c.old
        assert d is not None
        size = -(d.end_line - d.line) if c.change == "added" else 0
        return (order[c.change], secondary(d.path), size, d.path, d.line)

    out.sort(key=rank)
    return out[:MAX_DECLARATIONS]


def _imported_now(d: Decl, cf: ChangedFile) -> bool:
    """A Python module's function, class or variable deleted whose name a module-level import
    of its file now binds (a fallback `def` dropped for the import it stood in for), or a
    JS/TS module's declaration whose name an export list of its file still exports as an alias
    of the same thing (jotai's `export type { AtomState as INTERNAL_AtomState }` for `export
    type INTERNAL_AtomState = AtomState`): not gone."""
    if "." in d.qualified:
        return False
    if d.language == "python":
        return bound_by_import(d.name, cf.new_text)
    if d.language not in _ECMA or cf.new_text is None or cf.old_text is None:
        return False
    if d.name not in export_aliases(cf.new_text):
        return False
    lines = "\n".join(cf.old_text.split("\n")[d.line - 1 : d.end_line])
    return still_exported(d.name, lines, cf.new_text)


def _overloads(olds: list[Decl], news: list[Decl], cf: ChangedFile, out: list[DeclChange]) -> None:
    """Namesakes (overloads, redefinitions) of one scope: the headers found on both sides are
    unchanged, wherever they now stand (commons-cli's "Sort members" re-signed nothing). Of
    the others, when as many are left on each side, they pair in order: re-signed (Java's
    overloads each, told apart by their calls' arguments; a Python redefinition or a TS
    overload list is one declaration's: the first). Else an old one alone is removed, a new
    one alone is added (nothing to look up), one on each side is re-signed, and more than
    that is left out."""
    came = list(news)
    # First the ones the diff keeps where they were (express 1574925c: of two `function no`
    # of sibling test callbacks, the first deleted; its namesake paired with the one kept,
    # which left the kept one "removed"), then by equal headers wherever they stand.
    left = []
    for d in olds:
        now = cf.line_map.old_to_new(d.line)
        kept = next((n for n in came if n.line == now and same_header(d.whole, n.whole)), None)
        if kept is None:
            left.append(d)
        else:
            came.remove(kept)
            _getter_flip(d, kept, cf, out)
    gone = []
    for d in left:
        twin = next((n for n in came if same_header(d.whole, n.whole)), None)
        if twin is None:
            gone.append(d)
        else:
            came.remove(twin)
            _getter_flip(d, twin, cf, out)
    if len(olds) == len(news):
        for a, b in zip(gone, came, strict=True):
            if a.kind not in _VALUES:
                out.append(DeclChange("signature", a, b, cf))
                if a.language != "java":
                    break
    elif len(gone) == 1 and len(came) == 1 and gone[0].kind not in _VALUES:
        out.append(DeclChange("signature", gone[0], came[0], cf))
    elif gone and not came:
        out.extend(DeclChange("removed", d, None, cf) for d in gone)


# A Python property's getter (as the index reads one: `@property`, `@functools.cached_property`).
_GETTER = re.compile(
    r"@\s*(?:(?:functools|abc)\s*\.\s*)?(?:property|cached_property|abstractproperty)\s*(?:#.*)?"
)


def _a_getter(text: str | None, d: Decl) -> bool:
    """Whether the Python method at ``d`` in ``text`` is a property's getter."""
    return (
        d.language == "python"
        and d.kind == "method"
        and text is not None
        and any(_GETTER.fullmatch(x) for x in _decorators(text, d.line))
    )


def _getter_flip(old: Decl, new: Decl, cf: ChangedFile, out: list[DeclChange]) -> None:
    """A Python method that became a property's getter (or stopped being one) under the same
    header is re-signed: `obj.total()` now calls its value, or `obj.total` is now a bound
    method."""
    if old.language == "python" and _a_getter(cf.old_text, old) != _a_getter(cf.new_text, new):
        out.append(DeclChange("signature", old, new, cf))


def _getter_change(c: DeclChange) -> str:
    """ "now a property" / "no longer a property" for a Python method's re-sign, else ""."""
    if c.old is None or c.new is None or c.old.path != (c.cf.old_path or c.cf.path):
        return ""
    was, now = _a_getter(c.cf.old_text, c.old), _a_getter(c.cf.new_text, c.new)
    if was == now:
        return ""
    return "now a property" if now else "no longer a property"


def _pair_renames(
    removed: list[tuple[Decl, ChangedFile]],
    added: list[tuple[Decl, ChangedFile]],
    out: list[DeclChange],
    *,
    same_file: bool,
) -> None:
    """A removed and an added declaration of one kind whose bodies (without the name) are
    mostly the same are one renamed: in the same file under the same container, or (with
    ``same_file`` False, after the moves) in another changed file, for the outermost
    declarations only and while the pairs to compare stay few."""
    if not same_file:
        outer = [p for p in removed if "." not in p[0].qualified]
        new_outer = [p for p in added if "." not in p[0].qualified]
        if not outer or not new_outer or len(outer) * len(new_outer) > _CROSS_PAIRS:
            return
    for d_old, cf in list(removed):
        container_old = d_old.qualified.rpartition(".")[0]
        if not same_file and container_old:
            continue
        body_old: list[str] | None = None
        best: tuple[float, int] | None = None
        for k, (d_new, cf_new) in enumerate(added):
            if d_new.kind != d_old.kind:
                continue
            if same_file:
                if cf_new is not cf or d_new.qualified.rpartition(".")[0] != container_old:
                    continue
            elif cf_new is cf or "." in d_new.qualified:
                continue
            if body_old is None:
                body_old = _lines(cf.old_text, d_old)
            ratio = _rename_score(
                body_old, _lines(cf_new.new_text, d_new), (d_old.name, d_new.name)
            )
            if ratio and (best is None or ratio > best[0]):
                best = (ratio, k)
        if best is not None:
            d_new, _ = added.pop(best[1])
            removed.remove((d_old, cf))
            # The old file's, where the old lines were (RB105 sits on them).
            out.append(DeclChange("renamed", d_old, d_new, cf))


def _renames_followed(out: list[DeclChange]) -> None:
    """Re-signs that only follow a rename of the same change are none: a subclass's `extends
    Writer` now `extends BaseWriter`, a parameter typed by the renamed class (commons-cli
    8677d165: each subclass was "re-signed", with its 30 places listed)."""
    names = {
        c.old.name: c.new.name
        for c in out
        if c.change == "renamed" and c.old is not None and c.new is not None
    }
    if not names:
        return
    # Where calls pass by position (not Python), a parameter named after the renamed type
    # follows it too: commons-cli 8677d165's `HelpFormatter(final HelpWriter helpWriter)` now
    # `(final HelpAppendable helpAppendable)` was "re-signed", with its 7 places.
    by_position = dict(names)
    for a, b in names.items():
        if a[:1].isupper() and b[:1].isupper():
            by_position.setdefault(a[0].lower() + a[1:], b[0].lower() + b[1:])

    def followed(c: DeclChange) -> bool:
        if c.change != "signature" or c.old is None or c.new is None:
            return False
        told = names if c.old.language == "python" else by_position
        word = re.compile(r"(?<![\w$])(" + "|".join(map(re.escape, told)) + r")(?![\w$])")
        return same_header(word.sub(lambda m: told[m.group(1)], c.old.whole), c.new.whole)

    out[:] = [c for c in out if not followed(c)]


def _aliases_followed(out: list[DeclChange]) -> None:
    """Re-signs that only follow an import renamed in the same file are none: `class
    BlackRunner(CliRunner)` now `(_CliRunner)` after `from click.testing import CliRunner as
    _CliRunner` (black 9e969ddc: 36 places listed for a class whose base is the same class)."""
    out[:] = [c for c in out if not (c.change == "signature" and _same_through_imports(c))]


def _same_through_imports(c: DeclChange) -> bool:
    old, new, cf = c.old, c.new, c.cf
    if old is None or new is None or cf.old_text is None or cf.new_text is None:
        return False
    if old.path != (cf.old_path or cf.path):
        return False
    grammar = grammar_for(new.language, new.path)
    if grammar is None:
        return False
    was, now = _imports_of(grammar.name, cf.old_text), _imports_of(grammar.name, cf.new_text)
    if was == now:
        return False  # (no import changed: the header did)

    def origin(header: str, imports: dict[str, str]) -> str:
        return re.sub(r"[A-Za-z_$][\w$]*", lambda m: imports.get(m.group(0), m.group(0)), header)

    return same_header(origin(old.whole, was), origin(new.whole, now))


@functools.lru_cache(maxsize=16)
def _imports_of(grammar: str, text: str) -> dict[str, str]:
    """What each name a file's imports bind stands for (`\x00module\x00name`)."""
    facts, _broken = facts_of(compiled(grammar), text)
    if facts is None:
        return {}
    return {i.local: f"\x00{i.module}\x00{i.name}" for i in facts.imports if i.local}


def _members_follow(
    removed: list[tuple[Decl, ChangedFile]],
    added: list[tuple[Decl, ChangedFile]],
    out: list[DeclChange],
    rebound: list[tuple[Decl, ChangedFile]],
) -> None:
    """The members of a renamed or moved declaration pair with their old selves under its
    new name: not removed and added, re-signed only when their own header changed. A Java
    constructor is named as its class: `Writer.Writer` follows as `BaseWriter.BaseWriter`.
    So do a function's locals whose names the new text binds again (``rebound``: not
    deleted, nor added under the renamed function: cattrs' `class C` in a test renamed)."""
    renamed = {
        c.old.qualified: c.new.qualified
        for c in out
        if c.change in ("renamed", "moved") and c.old is not None and c.new is not None
    }
    if not renamed:
        return
    new_at = {(d.qualified, d.kind, d.path): (d, cf) for d, cf in added}
    for d_old, cf in list(removed) + list(rebound):
        parts = d_old.qualified.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            head = ".".join(parts[:cut])
            if head not in renamed:
                continue
            qualified = ".".join([renamed[head], *parts[cut:]])
            own = cut == len(parts) - 1 and parts[-1] == parts[-2]  # a constructor: `A.A`
            if own and d_old.kind == "constructor":  # named as its class is now
                qualified = f"{renamed[head]}.{renamed[head].rsplit('.', 1)[-1]}"
            match = next(
                (v for (q, kind, _), v in new_at.items() if q == qualified and kind == d_old.kind),
                None,
            )
            if match is None:
                break
            d_new, cf_new = match
            del new_at[(d_new.qualified, d_new.kind, d_new.path)]
            added.remove(match)
            (removed if (d_old, cf) in removed else rebound).remove((d_old, cf))
            was = d_old.whole
            if d_new.name != d_old.name:  # (the constructor's own name followed its class's)
                was = re.sub(rf"(?<![\w$]){re.escape(d_old.name)}(?![\w$])", d_new.name, was)
            if d_old.kind not in _VALUES and not same_header(was, d_new.whole):
                out.append(DeclChange("signature", d_old, d_new, cf_new))
            break


class _Target(NamedTuple):
    """A definition a reference of a deleted declaration now reaches."""

    path: str
    qualified: str
    kind: str
    line: int
    signature: str
    container: str  # the kind of the definition holding it ("class", "interface", "" ...)


class _Ref(NamedTuple):
    path: str
    line: int
    column: int
    name: str
    unit: str | None
    kind: str
    confidence: float
    via: str
    in_change: bool
    # retargeted or namesake: the definitions the reference now reaches instead
    targets: tuple[_Target, ...] = ()

    @property
    def now(self) -> str:
        """What it now reaches, for readers: "method Base.save at core.py:2" ("" for none or
        several)."""
        if len(self.targets) != 1:
            return ""
        t = self.targets[0]
        return f"{t.kind} {t.qualified} at {t.path}:{t.line}"


def _open(git: Git, database: Path, settings: IndexSettings, wait: float) -> sqlite3.Connection:
    if database.is_dir():
        raise IndexNotUsed(
            f"{database} is a folder, not an index", note="the index's path is a folder"
        )
    if not database.is_file():
        raise IndexNotUsed("no index (run `reviewbot index`)", note="no index")
    # An index small enough to copy is copied rather than waited for past ``COPY_AFTER``:
    # another review holding it (an old commit's, re-reading hundreds of files: 10-40 s) kept
    # the hook from RB105/RB106 ("index busy") and made reviews wait their turn.
    copyable = _index_bytes(database) <= COPY_AT_MOST
    try:
        conn = sqlite3.connect(database, isolation_level=None, timeout=wait)
        turn = min(wait, COPY_AFTER) if copyable else wait
        conn.execute(f"PRAGMA busy_timeout = {int(turn * 1000)}")
        conn.execute("PRAGMA temp_store = MEMORY")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or row[0] != SCHEMA:
            conn.close()
            raise IndexNotUsed(
                "the index is of another version (run `reviewbot index`)",
                note="index of another version; run `reviewbot index`",
            )
        if not built_with(conn, settings.key()):
            conn.close()
            raise IndexNotUsed(
                "the index was built with other settings (run `reviewbot index`)",
                note="index built with other settings; run `reviewbot index`",
            )
        if not same_repository(conn, git, linked=True, database=database):
            conn.close()
            raise IndexNotUsed(
                "the index describes another repository (run `reviewbot index`)",
                note="index of another repository; run `reviewbot index`",
            )
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not (copyable and "locked" in str(exc)):
                raise
            conn = _private_copy(conn)
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):  # SQLite, but none of our tables: not our file
            raise IndexNotUsed(
                f"the index file is not a reviewbot index ({exc}; run `reviewbot index`)",
                note="not a reviewbot index; run `reviewbot index`",
            ) from None
        raise IndexNotUsed(
            f"the index is busy or unreadable ({exc})", note="index busy or unreadable"
        ) from None
    except sqlite3.DatabaseError as exc:
        raise IndexNotUsed(
            f"the index is damaged ({exc}; run `reviewbot index`)",
            note="index damaged; run `reviewbot index`",
        ) from None
    return conn


# Bytes of index (with its write-ahead log) a review copies into memory rather than wait for
# another process writing to it (Django + Pygments' index: 82 MB), and the seconds it waits first.
COPY_AT_MOST = 256 << 20
COPY_AFTER = 2.0


def _index_bytes(database: Path) -> int:
    total = 0
    for name in (str(database), f"{database}-wal"):
        with contextlib.suppress(OSError):
            total += os.stat(name).st_size
    return total


def _private_copy(conn: sqlite3.Connection) -> sqlite3.Connection:
    """The index as last committed, copied into memory (a WAL reader's snapshot: the writer
    holding it is not waited for, nor does it wait), in a transaction rolled back like the
    file's: a review's work on it never reaches the file."""
    copy = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.backup(copy)
    finally:
        conn.close()
    copy.execute("PRAGMA temp_store = MEMORY")
    copy.execute("BEGIN IMMEDIATE")
    return copy


def _stored(conn: sqlite3.Connection) -> dict[str, Listed]:
    return {
        path: Listed(path, blob, None, "")
        for path, blob in conn.execute("SELECT path, blob FROM files")
    }


# Seconds a review waits for the index while another review holds it (each applies its change
# in a transaction it rolls back; eight started at once waited 5 s and two of them fell back to
# git grep, so the JSON and the Markdown of one change disagreed). A deadline (the hook's
# budget) bounds it; an index of at most ``COPY_AT_MOST`` is copied after ``COPY_AFTER``.
REVIEW_WAIT = 60.0


# Files the index may differ by from the commit a change is made on and still answer (they are
# read again, in the rolled-back transaction and within the caller's time budget).
_BEHIND = 300


def _base(git: Git, conn: sqlite3.Connection, base_rev: str | None) -> dict[str, Listed]:
    """The files the change is made on, as the index must hold them to answer: the base
    commit's (the index built some commits ago holds the references of then: a function
    called from a file edited since is "still referenced" there, or not, by what the file says
    now). IndexNotUsed when the index is too far from it; the index's own files without a
    base."""
    stored = _stored(conn)
    if base_rev is None:
        return stored
    try:
        tree = {p: f for p, f in list_tree(git, base_rev).items() if storable(p)}
    except GitError:
        return stored
    behind = len(stored.keys() - tree.keys())
    behind += sum(1 for p, f in tree.items() if p not in stored or stored[p].blob != f.blob)
    if behind > _BEHIND:
        raise IndexNotUsed(
            f"the index differs from {git.short(base_rev)} in {behind} files "
            "(run `reviewbot index` there)",
            note=f"the index is {behind} files away from the change's base",
        )
    return tree


def _side(base: dict[str, Listed], files: Sequence[ChangedFile], new: bool) -> dict[str, Listed]:
    """The index's files with the change's files at one side."""
    listing = dict(base)
    for cf in files:
        old_path = cf.old_path or cf.path
        if cf.old_text is None and cf.new_text is None:
            continue  # skipped (binary, too large): as the index holds it
        path, gone = (cf.path, old_path) if new else (old_path, cf.path)
        text = cf.new_text if new else cf.old_text
        if gone != path:
            listing.pop(gone, None)
        if text is None:
            listing.pop(path, None)
        else:
            data = text.encode("utf-8", "surrogateescape")
            listing[path] = Listed(path, blob_id(data), data, "")
    return listing


def _symbols(conn: sqlite3.Connection, d: Decl) -> list[query.Symbol]:
    """The declaration in the index, with its namesakes of the same file and scope
    (``@overload`` stubs, a conditional second definition): a reference to any of them is one
    to the declaration."""
    rows = conn.execute(
        "SELECT d.id, d.name, d.qualified, d.kind, f.path, d.line, d.end_line, d.signature "
        "FROM defs d JOIN files f ON f.id = d.file_id "
        "WHERE f.path = ? AND d.qualified = ? AND d.kind = ? ORDER BY abs(d.line - ?)",
        (d.path, d.qualified, d.kind, d.line),
    ).fetchall()
    symbols = [query.Symbol(*row) for row in rows]
    # A namesake is the same declaration when a reference means both (the stubs and the body
    # of overloads, `if`/`else` definitions); not a local function of the same name in a
    # sibling callback (express 1574925c: each test's own `function no`, its calls its own).
    return symbols[:1] + [s for s in symbols[1:] if _shared(conn, symbols[0].id, s.id)]


def _shared(conn: sqlite3.Connection, a: int, b: int) -> bool:
    """Whether some reference is linked to both definitions."""
    return (
        conn.execute(
            "SELECT 1 FROM edges x JOIN edges y ON y.ref_id = x.ref_id "
            "WHERE x.def_id = ? AND y.def_id = ? LIMIT 1",
            (a, b),
        ).fetchone()
        is not None
    )


def _refs(
    conn: sqlite3.Connection,
    d: Decl,
    registry: LanguageRegistry,
    inside: list[query.Hit] | None = None,
) -> tuple[list[query.Hit], bool]:
    """The declaration's references (with its namesakes'), but those inside it, which go to
    ``inside`` when given (a recursive call: no use of it elsewhere, but a call all the
    same)."""
    symbols = _symbols(conn, d)
    merged: dict[tuple[str, int, int], query.Hit] = {}
    cut = False
    for sym in symbols:
        hits, more = query.references(conn, sym, _LIMIT)
        cut = cut or more
        for h in hits:
            if any(h.path == s.path and s.line <= h.line <= s.end_line for s in symbols):
                if inside is not None:
                    inside.append(h)
                continue  # inside the declaration (or a namesake): not a reference to it
            if not_code(h.path, registry.detect(h.path).name):
                continue
            key = (h.path, h.line, h.column)
            seen = merged.get(key)
            if seen is not None:
                total = min(1.0, round(seen.confidence + h.confidence, 4))
                merged[key] = seen._replace(confidence=total)
            else:
                merged[key] = h
    return sorted(merged.values(), key=lambda h: (h.path, h.line, h.column)), cut


class _Texts:
    """The new side's text of any file: the change's own, else the working tree's when it is
    what the index holds, else the index's blob."""

    def __init__(self, git: Git, files: Sequence[ChangedFile], conn: sqlite3.Connection):
        self.git = git
        self.conn = conn
        self.known: dict[str, str | None] = {cf.path: cf.new_text for cf in files}

    def get(self, path: str) -> str | None:
        if path not in self.known:
            row = self.conn.execute("SELECT blob FROM files WHERE path = ?", (path,)).fetchone()
            text = None
            if row is not None:
                try:
                    data: bytes | None = (self.git.root / path).read_bytes()
                except OSError:
                    data = None
                if data is None or blob_id(data) != row[0]:
                    data = self.git.blobs([row[0]]).get(row[0])
                text = decode(data)[0] if data is not None else None
            self.known[path] = text
        return self.known[path]


def repo_impact(
    git: Git,
    database: Path,
    settings: IndexSettings,
    files: Sequence[ChangedFile],
    *,
    wait: float = REVIEW_WAIT,
    sides: Callable[[sqlite3.Connection, bool], None] | None = None,
    keep: Callable[[str], bool] | None = None,
    deadline: float | None = None,
    base_rev: str | None = None,
) -> tuple[list[Impact], list[Finding]]:
    """The impact entries and the RB105/RB106 findings of a change; IndexNotUsed when the
    index cannot answer (the caller falls back and says so). ``sides`` (the bundler's hunk
    links) is called with the connection once its rows hold the change's old side (False) and
    once they hold its new side (True): one transaction for both. ``keep`` says which paths'
    references count (an MCP root's folder): the others are neither listed nor counted, nor
    can they raise a finding. Past ``deadline`` (time.monotonic) while the change's files are
    read, IndexNotUsed: the hook's time budget bounds this work too. ``base_rev``: the commit
    the change is made on (``_base``)."""
    check = None if deadline is None else _clock(deadline)
    if deadline is not None:
        wait = max(0.0, min(wait, deadline - time.monotonic()))
    memo: _Memo = {}
    # Each side of a changed file is parsed once: for its declarations and into the index.
    with one_extraction_each():
        changes = declaration_changes(files, settings.registry, check, memo)
        relocated = _relocated(files, settings.registry, memo)
        if not changes and not relocated and sides is None:
            return [], []
        held = HELD.get()
        with contextlib.ExitStack() as stack:
            conn = stack.enter_context(_rolled_back(git, database, settings, wait))
            out = _impact_in(
                conn, git, settings, files, changes, relocated, sides, keep, check, base_rev
            )
            if held is not None:
                held.append((conn, stack.pop_all().close))
            return out


def _impact_in(
    conn: sqlite3.Connection,
    git: Git,
    settings: IndexSettings,
    files: Sequence[ChangedFile],
    changes: list[DeclChange],
    relocated: list[DeclChange],
    sides: Callable[[sqlite3.Connection, bool], None] | None,
    keep: Callable[[str], bool] | None,
    check: Callable[[int, int], None] | None,
    base_rev: str | None,
) -> tuple[list[Impact], list[Finding]]:
    """``repo_impact``'s work in its open transaction (left at the change's new side)."""
    store = Store(conn, created=False)
    base = _base(git, conn, base_rev)
    by_old = {cf.old_path or cf.path: cf for cf in files}
    by_new = {cf.path: cf for cf in files}
    added_lines = {cf.path: set(cf.line_map.added_lines()) for cf in files}
    old_refs: dict[int, tuple[list[query.Hit], bool]] = {}
    # A deleted member's `obj.name` references linked to nothing on the old side (the new
    # side leaves unlinked the guesses that reached it too: those are counted already).
    old_unlinked: dict[int, int] = {}
    # Top-level declarations moved to another file: their references through the old
    # place (an import of the old module) break unless they follow.
    movers = [
        c
        for c in changes
        if c.change == "moved" and c.old is not None and "." not in c.old.qualified
    ] + relocated
    moved_refs: dict[int, list[query.Hit]] = {}
    new_side = _side(base, files, new=True)
    if sides is not None or movers or any(c.change in ("removed", "renamed") for c in changes):
        # An index built at the reviewed commit holds the new side already: the old side is
        # applied under a savepoint and rolled back to it after, so the new side is the index's
        # own rows, not read and resolved again (commons-io 25114c8c5, 19 files: 2 passes of
        # parsing and linking were 11 of a review's 20 s, profiled).
        held_new = holds(git, store, new_side)
        if held_new:
            conn.execute("SAVEPOINT old_side")
        apply_listing(git, store, _side(base, files, new=False), settings, check)
        for k, c in enumerate(changes):
            if c.change in ("removed", "renamed") and c.old is not None:
                old_refs[k] = _refs(conn, c.old, settings.registry)
                old_unlinked[k] = _unlinked(conn, c.old)
        for k, c in enumerate(movers):
            assert c.old is not None
            moved_refs[k] = _refs(conn, c.old, settings.registry)[0]
        if sides is not None:
            sides(conn, False)
        if held_new:
            conn.execute("ROLLBACK TO old_side")
            conn.execute("RELEASE old_side")
            store = Store(conn, created=False)  # (its next ids were the old side's)
    if check is not None:
        check(0, 0)
    apply_listing(git, store, new_side, settings, check)
    if sides is not None:
        sides(conn, True)
    texts = _Texts(git, files, conn)
    impact: list[Impact] = []
    findings: list[Finding] = []
    for k, c in enumerate(changes):
        refs: list[_Ref]
        cut = False
        recursive: list[query.Hit] = []  # its calls of itself: RB106 checks them too
        if k in old_refs:
            assert c.old is not None
            hits, cut = old_refs[k]
            refs = _remaining(conn, c.old, hits, by_old, by_new, added_lines)
            refs = [r for r in refs if not _anothers_call(r, c.old, texts)]
        else:
            assert c.new is not None
            hits, cut = _refs(conn, c.new, settings.registry, recursive)
            refs = [_new_ref(h, added_lines) for h in hits]
            refs = [_changed_call(r, texts, added_lines, c.new.language) for r in refs]
            if c.change == "signature" and c.old is not None:
                refs = _its_calls(conn, c.old, c.new, c.cf, refs, texts)
        if keep is not None:
            refs = [r for r in refs if keep(r.path)]
        # One per line, a sure one first (`other.x == self.x`: the guess on `other` must
        # not hide the sure `self.x`).
        sure = _one_per_line([r for r in refs if _confident(r)])
        told = _lines_of(sure)
        refs = sure + [r for r in _one_per_line(refs) if (r.path, r.line) not in told]
        sure.sort(key=lambda r: (r.in_change, r.path, r.line, r.column))
        # Removed and renamed: the old declaration, whose references are listed.
        decl = c.old if c.change in ("removed", "renamed") else c.new
        assert decl is not None
        unlinked = old_unlinked[k] if k in old_unlinked else _unlinked(conn, decl, texts)
        doubt = len(refs) - len(sure) + unlinked  # (counted, not listed)
        impact.append(
            Impact(
                decl.name,
                decl.label,
                decl.path,
                c.change,
                tuple(
                    ImpactRef(r.path, r.line, r.unit, r.kind, r.confidence, r.in_change, r.now)
                    for r in sure[:MAX_SHOWN]
                ),
                len(sure),
                cut or len(sure) > MAX_SHOWN,
                doubt,
                "index",
                retargeted=sum(r.via in _AGAIN for r in sure),
                now=_now(sure),
                in_change_total=sum(r.in_change for r in sure),
                incomplete=cut,
                detail=_detail(c),
            )
        )
        # A removed override's references that the method it overrode surely serves do
        # not break (a renamed one's callers were meant to follow the rename: they do).
        # A removed constructor's class is still built (by a base's constructor or the
        # language's default): its instantiations are listed, not broken.
        broken = [
            r
            for r in sure
            if not (
                r.via == _RETARGETED
                and c.change == "removed"
                and c.old is not None
                and _serves(r, texts, c.old.language)
            )
            and not (c.old is not None and c.old.name in _CONSTRUCTORS and r.name != c.old.name)
            and not (
                r.via == _NAMESAKE
                and c.change == "removed"
                and c.old is not None
                and _alternative(r, c.old, c.cf.old_text, texts)
            )
        ]
        if c.change in ("removed", "renamed") and broken and c.old is not None:
            gone = _rb105(c, c.old, broken, texts, doubt)
            if gone is not None:
                findings.append(gone)
        if c.change == "signature" and c.old is not None and c.new is not None:
            own = _one_per_line([_new_ref(h, added_lines) for h in recursive])
            calls = sorted(
                sure + [r for r in own if _confident(r)],
                key=lambda r: (r.in_change, r.path, r.line, r.column),
            )
            found = _rb106(conn, c.old, c.new, c.cf, calls, texts, doubt)
            if found is None:
                found = _rb106_getter(c, c.new, sure, texts, doubt)
            if found is not None:
                findings.append(found)
    findings += _left_behind(conn, movers, moved_refs, by_old, by_new, added_lines, keep)
    return _overloads_told(impact, changes), findings


def _overloads_told(impact: list[Impact], changes: list[DeclChange]) -> list[Impact]:
    """Java overloads re-signed in one change, labelled by their parameters' types
    (`method W.append(CharSequence)`), not three entries "method W.append" a reader cannot
    tell apart; those whose return type alone changed (commons-cli 62d1ba73 narrowed three
    `append`s' `Appendable` to `FilterHelpAppendable`) are one entry: no call breaks."""
    groups: dict[tuple[str, str], list[int]] = {}
    for k, (item, c) in enumerate(zip(impact, changes, strict=True)):
        if item.change == "signature" and c.new is not None and c.new.language == "java":
            groups.setdefault((item.unit, item.path), []).append(k)
    out: list[Impact | None] = list(impact)
    for (unit, _path), ks in groups.items():
        if len(ks) < 2:
            continue
        told: dict[int, Impact] = {}
        for k in ks:
            new = changes[k].new
            assert new is not None
            params = parameters(new.whole, new.name, new.language, new.kind == "method")
            told[k] = impact[k]
            if params is not None and all(p.type for p in params):
                types = ", ".join(p.type for p in params)
                told[k] = impact[k]._replace(unit=f"{unit}({types})")
            out[k] = told[k]
        same = [k for k in ks if told[k].detail == RETURN_ONLY]
        if len(same) < 2:
            continue
        first, *rest = [told[k] for k in same]
        merged = first._replace(
            unit=", ".join([first.unit] + [i.unit.rpartition(".")[2] for i in rest]),
            references=tuple(
                sorted(
                    {r for i in (first, *rest) for r in i.references},
                    key=lambda r: (r.in_change, r.path, r.line),
                )
            )[:MAX_SHOWN],
            total=sum(i.total for i in (first, *rest)),
            truncated=any(i.truncated for i in (first, *rest)),
            uncertain=sum(i.uncertain for i in (first, *rest)),
            in_change_total=sum(i.in_change_total for i in (first, *rest)),
            incomplete=any(i.incomplete for i in (first, *rest)),
        )
        out[same[0]] = merged
        for k in same[1:]:
            out[k] = None
    return [i for i in out if i is not None]


def _detail(c: DeclChange) -> str:
    """What a re-sign changed, in a few words: the parameters (``header_change``), or for a
    class, interface or type what its modifiers did (`now final; no longer abstract`)."""
    if c.change != "signature" or c.old is None or c.new is None:
        return ""
    if c.new.kind in _CLASSES:
        return class_change(c.old.whole, c.new.whole, c.new.language)
    said = header_change(
        (c.old.name, c.old.whole), (c.new.name, c.new.whole), c.new.language, c.new.kind == "method"
    )
    getter = _getter_change(c)
    if getter and said in ("", TYPES_ONLY):
        return getter
    return f"{getter}; {said}" if getter and said else said


def with_new_side(
    git: Git,
    database: Path,
    settings: IndexSettings,
    files: Sequence[ChangedFile],
    fn: Callable[[sqlite3.Connection], _T],
    *,
    wait: float = REVIEW_WAIT,
    base_rev: str | None = None,
) -> _T:
    """``fn`` asked of the index with the change's files at their new side (the reviewed
    commit's, not the work tree's; the others at ``base_rev``'s, as ``_base``), in a
    transaction rolled back after: the index file is never changed. IndexNotUsed when the
    index cannot answer."""
    with _rolled_back(git, database, settings, wait) as conn:
        base = _base(git, conn, base_rev)
        apply_listing(git, Store(conn, created=False), _side(base, files, True), settings)
        return fn(conn)


@contextlib.contextmanager
def _rolled_back(
    git: Git, database: Path, settings: IndexSettings, wait: float
) -> Iterator[sqlite3.Connection]:
    """The index in a write transaction that is always rolled back: a review applies a
    change's sides to it and reads, the file never changes."""
    conn = _open(git, database, settings, wait)
    try:
        yield conn
    finally:
        try:
            conn.execute("ROLLBACK")
        finally:
            conn.close()


def _clock(deadline: float) -> Callable[[int, int], None]:
    """A progress callback that stops the work (IndexNotUsed) once ``deadline`` has passed, or
    as soon as the files done so far say the rest of this pass cannot end before it (a
    153-file commit ran 2-3 times past the hook's budget: the check came between passes)."""
    began = [time.monotonic(), 0.0]  # when this pass was counted from, its files done then
    last = [0]

    def check(done: int, total: int) -> None:
        now = time.monotonic()
        if done <= last[0]:  # a new pass (its count starts again), or the check between two
            began[:] = [now, float(done)]
        last[0] = done
        counted = done - began[1]
        rest = (now - began[0]) / counted * (total - done) if counted >= 3 else 0.0
        if now > deadline or now + rest > deadline:
            raise IndexNotUsed(
                "the time budget was spent reading the change into the index",
                note="the time budget was spent first",
            )

    return check


def _one_per_line(refs: list[_Ref]) -> list[_Ref]:
    """The first reference of each (path, line), in order."""
    return list({(r.path, r.line): r for r in reversed(refs)}.values())[::-1]


def _lines_of(refs: list[_Ref]) -> set[tuple[str, int]]:
    return {(r.path, r.line) for r in refs}


def _confident(r: _Ref) -> bool:
    """Resolved by a rule, not guessed: an ``obj.m`` whose receiver nobody can type links to
    every member named ``m`` (``via`` member), whatever their number (one member of that name
    in the repository says nothing about a ``set.add``)."""
    return r.confidence >= CONFIDENT and r.via != "member"


def _new_ref(h: query.Hit, added_lines: dict[str, set[int]]) -> _Ref:
    return _Ref(
        h.path,
        h.line,
        h.column,
        h.name,
        h.unit.label if h.unit else None,
        h.kind,
        h.confidence,
        h.via,
        h.line in added_lines.get(h.path, set()),
    )


def _changed_call(r: _Ref, texts: _Texts, added: dict[str, set[int]], language: str) -> _Ref:
    """A call is in the change when any line of its argument list is (packaging c411a96f
    rewrote `prereleases=resolved` to `pre_region=…` on the second line of 6 calls of
    `self._build(`: they read as calls outside the change)."""
    lines = added.get(r.path)
    if r.in_change or r.kind != "call" or not lines:
        return r
    text = texts.get(r.path)
    start = None if text is None else _offset(text, r.line, r.column)
    if text is None or start is None or text[start : start + len(r.name)] != r.name:
        return r
    end = call_end(text, start + len(r.name), language)
    if end is None:
        return r
    last = r.line + text.count("\n", start, end)
    if any(n in lines for n in range(r.line + 1, last + 1)):
        return r._replace(in_change=True)
    return r


def _unit_at(conn: sqlite3.Connection, path: str, line: int) -> str | None:
    sym = query.symbol_at(conn, path, line)
    if sym is None or sym.kind in ("variable", "field"):
        return None
    return sym.label


def _remaining(
    conn: sqlite3.Connection,
    old: Decl,
    hits: list[query.Hit],
    by_old: dict[str, ChangedFile],
    by_new: dict[str, ChangedFile],
    added_lines: dict[str, set[int]],
) -> list[_Ref]:
    """The old side's references to a deleted (or renamed) declaration that are still there
    on the new side: those on lines the change leaves alone, and the new lines that still
    name it without resolving to anything."""
    out: list[_Ref] = []
    home = by_old.get(old.path)
    # What the declaration's namesakes in its scope are on the new side (the other overloads,
    # the other half of a getter and setter): the same symbol, not another definition.
    # (of its kind: jsoup's field `readFully` is no twin of the method `readFully()` removed)
    twin = (home.path if home is not None else old.path, old.qualified, old.kind)
    kept: bool | None = None  # (read on first need: most deletions reach nothing else)
    scopes: dict[str, _Scopes] = {}

    def declared(path: str, line: int, column: int) -> bool:
        # A declaration of the name in a function around the line (the module's `let x`
        # moved into `describe('…', () => { let x })`): the line means it, a local the
        # index defines nothing for, not the deleted declaration.
        if path not in by_new:
            return False
        if path not in scopes:
            scopes[path] = _Scopes(by_new[path].new_text, old)
        return scopes[path].declares(line, column, old.name)

    for h in hits:
        cf = by_old.get(h.path)
        now = h.line if cf is None else cf.line_map.old_to_new(h.line)
        via = h.via
        reached: tuple[_Target, ...] = ()
        if now is not None:
            # (a line the change leaves alone: the reference keeps its column)
            reached = _meant(conn, cf.path if cf else h.path, now, h.column, old.name)
            if (old.kind == "constructor" or old.name in _CONSTRUCTORS) and (
                h.name != old.name
                and _builds_another(
                    _meant(conn, cf.path if cf else h.path, now, h.column, h.name), twin, old
                )
            ):
                continue  # `new C(...)` now builds another C (its import leads elsewhere)
            if h.lookup and _imports_another(
                conn, cf.path if cf else h.path, now, h.column, h.name, h.lookup
            ):
                # The name an import binds there now stands for another declaration (jotai's
                # `import { INTERNAL_buildStoreRev2 as INTERNAL_buildStore }`, Rev1 before):
                # the line calls the local name, no longer the deleted one.
                continue
            if old.kind == "constructor":  # (Java: `new C(...)` reaches its class C too)
                reached = tuple(t for t in reached if t.kind == "constructor")
            if reached and kept is None:
                kept = _imported_on_both_sides(home, old)
            if reached and (kept or all((t.path, t.qualified, t.kind) == twin for t in reached)):
                # The overload or accessor left, or the import of the name that its module
                # had beside it (`if win: from ._win import wrap` / `else: def wrap`): listed,
                # and an RB105 (whether it serves where the deleted one did is not known).
                via = _NAMESAKE
            elif reached and _overridden(old, reached):
                via = _RETARGETED  # `self.m()` now runs the base's `m`: listed
            elif reached:
                continue  # `cmd` now means a new local `def cmd`: no reference to the old one
            elif cf is not None and declared(cf.path, now, h.column):
                continue
        if cf is None:
            out.append(
                _Ref(
                    h.path,
                    h.line,
                    h.column,
                    h.name,
                    h.unit.label if h.unit else None,
                    h.kind,
                    h.confidence,
                    via,
                    False,
                    reached,
                )
            )
            continue
        if cf.new_text is None:
            continue  # its file is deleted too
        line = cf.line_map.old_to_new(h.line)
        if line is not None:
            unit = _unit_at(conn, cf.path, line)
            out.append(
                _Ref(
                    cf.path, line, h.column, h.name, unit, h.kind, h.confidence, via, False, reached
                )
            )
    # New lines of the change naming it, left unresolved on the new side.
    local: bool | None = None  # (read on first need)
    for path, lines in added_lines.items():
        if not lines or path not in by_new:
            continue
        rows = conn.execute(
            "SELECT r.line, r.col, r.kind, r.how, i.module FROM refs r "
            "JOIN files f ON f.id = r.file_id LEFT JOIN imports i ON i.id = r.target_id "
            "AND r.how IN ('import', 'module') WHERE f.path = ? AND r.lookup = ? AND NOT EXISTS "
            "(SELECT 1 FROM edges e WHERE e.ref_id = r.id)",
            (path, old.name),
        ).fetchall()
        for line, col, kind, how, module in rows:
            if line in lines and module and path == old.path:
                continue  # `export { X } from './m'`: m's X, never the deleted local one
            if line in lines and path != old.path:
                if module is not None and not _may_name(module, path, old):
                    continue  # `http.request(...)`: another module's `request`
                if local is None:
                    local = home is not None and _in_function(home.old_text, old)
                if local:
                    continue  # (a function's local: nothing outside its file means it)
            if line in lines:
                if declared(path, line, col):
                    continue
                confidence = 1.0 if _could_mean(old, how) else 0.25
                unit = _unit_at(conn, path, line)
                out.append(_Ref(path, line, col, old.name, unit, kind, confidence, how, True))
    unique = {(r.path, r.line, r.column): r for r in out}
    return list(unique.values())


_ECMA = frozenset({"javascript", "typescript", "tsx"})
_FUNCTION_NODES = frozenset(
    {
        "arrow_function",
        "function_expression",
        "function_declaration",
        "generator_function",
        "generator_function_declaration",
        "method_definition",
    }
)


def _in_function(text: str | None, d: Decl) -> bool:
    """Whether a JS/TS declaration the index reads as top-level (no definition holds it) is
    written in a function's body: a function in a callback (`describe("…", () => { function
    request() {} })`), which nothing outside that body can name."""
    grammar = grammar_for(d.language, d.path)
    if text is None or grammar is None or grammar.name not in _ECMA or "." in d.qualified:
        return False
    lines = text.split("\n")
    if not 0 < d.line <= len(lines):
        return False
    row = lines[d.line - 1]
    column = len(row.encode()) - len(row.lstrip().encode())
    tree = compiled(grammar.name).parser.parse(text.encode("utf-8", "surrogatepass"))
    at = (d.line - 1, column)
    node = tree.root_node.named_descendant_for_point_range(at, at)
    up = node.parent if node is not None else None
    while up is not None and up.type in _FUNCTION_NODES and up.start_point[0] == d.line - 1:
        up = up.parent  # (the declaration itself)
    while up is not None:
        if up.type in _FUNCTION_NODES:
            return True
        up = up.parent
    return False


_SCOPE_NODES = _FUNCTION_NODES | {
    "statement_block",
    "arrow_function",
    "for_statement",
    "for_in_statement",
    "catch_clause",
    "class_body",
}
_DECLARATIONS = frozenset(
    {
        "lexical_declaration",
        "variable_declaration",
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
    }
)


class _Scopes:
    """A JS/TS file's new side, read for the declarations in its functions and blocks that a
    line's name may mean (the index defines none of a callback's locals)."""

    def __init__(self, text: str | None, d: Decl) -> None:
        grammar = grammar_for(d.language, d.path)
        self.tree = None
        if text is not None and grammar is not None and grammar.name in _ECMA:
            self.tree = compiled(grammar.name).parser.parse(text.encode("utf-8", "surrogatepass"))

    def declares(self, line: int, column: int, name: str) -> bool:
        """Whether a function or block holding (line, column), below the module's top level,
        declares ``name`` itself: a `let`/`const`/`var`, a function or class, a parameter."""
        if self.tree is None:
            return False
        at = (line - 1, column)
        node = self.tree.root_node.named_descendant_for_point_range(at, at)
        up = node.parent if node is not None else None
        while up is not None and up.type != "program":
            if up.type in _SCOPE_NODES and _declares(up, name):
                return True
            up = up.parent
        return False


def _declares(scope: ts.Node, name: str) -> bool:
    params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
    if params is not None and name in _bound(params):
        return True
    body = scope.child_by_field_name("body") if scope.type != "statement_block" else scope
    for part in (scope, body) if body is not None and body is not scope else (scope,):
        for child in part.named_children:
            if child.type == "export_statement":
                child = child.child_by_field_name("declaration") or child
            if child.type not in _DECLARATIONS:
                continue
            own = child.child_by_field_name("name")
            if own is not None and own.text == name.encode():
                return True
            for declarator in child.named_children:
                if declarator.type == "variable_declarator":
                    target = declarator.child_by_field_name("name")
                    if target is not None and name in _bound(target):
                        return True
    return False


def _bound(node: ts.Node) -> set[str]:
    """The identifiers a parameter list or a declarator's pattern binds (`{ a, b: [c] }`)."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        return {node.text.decode()} if node.text is not None else set()
    out: set[str] = set()
    for child in node.named_children:
        if child.type == "pair_pattern":
            value = child.child_by_field_name("value")
            if value is not None:
                out |= _bound(value)
        elif child.type in ("type_annotation", "predefined_type") or child.type.endswith("_type"):
            continue
        elif child.type == "assignment_pattern" or child.type == "object_assignment_pattern":
            left = child.child_by_field_name("left")
            if left is not None:
                out |= _bound(left)
        elif child.type in ("required_parameter", "optional_parameter"):
            pattern = child.child_by_field_name("pattern")
            if pattern is not None:
                out |= _bound(pattern)
        else:
            out |= _bound(child)
    return out


def _may_name(spec: str, importer: str, d: Decl) -> bool:
    """Whether a JS/TS module specifier written in ``importer`` may name the deleted
    declaration's file: a relative one that leads there; a bare one whose words are in its
    path (a package of the repository, a configured path), never a `node:` module or a
    package whose name its path does not hold (`require('http')`)."""
    if d.language not in _ECMA:
        return True
    own = _no_extension(d.path)
    if own.endswith(".d"):
        own = own[:-2]  # (`./types.js` names types.d.ts)
    names = {own, d.path}
    if posixpath.basename(own) == "index":
        names.add(posixpath.dirname(own))
    if spec.startswith("."):
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
        return base in names or _no_extension(base) in names
    if spec.startswith("node:"):
        return False
    parts = set(own.split("/"))
    return any(word in parts for word in spec.lstrip("@").split("/") if word)


def _builds_another(reached: tuple[_Target, ...], twin: tuple[str, str, str], old: Decl) -> bool:
    """Whether the class a deleted constructor's `new C(...)` names now is another class
    (axios's `AxiosHeaders` of index.d.ts now re-exported from index.d.cts), not its own."""
    own = (twin[0], old.qualified.rpartition(".")[0])
    return any(t.kind in _CLASSES and (t.path, t.qualified) != own for t in reached)


def _no_extension(path: str) -> str:
    stem, dot, ext = path.rpartition(".")
    return stem if dot and "/" not in ext else path


def _imported_on_both_sides(home: ChangedFile | None, old: Decl) -> bool:
    """Whether the deleted module-level definition's file imports its name on both sides of
    the change: the other branch of a conditional definition, not a move (which adds the
    import)."""
    if home is None or home.old_text is None or home.new_text is None or "." in old.qualified:
        return False
    if _in_handler(home.old_text, old.line):
        return False  # `try: import ... except ImportError: def ...`: a fallback dropped
    grammar = grammar_for(old.language, old.path)
    if grammar is None:
        return False
    return all(
        old.name in _imported_names(grammar.name, text) for text in (home.old_text, home.new_text)
    )


@functools.lru_cache(maxsize=16)
def _imported_names(grammar: str, text: str) -> frozenset[str]:
    """The names a file's imports bind (read once per file side: several definitions deleted
    from one file ask the same)."""
    facts, _broken = facts_of(compiled(grammar), text)
    return frozenset(i.local for i in facts.imports) if facts is not None else frozenset()


def _in_handler(text: str, line: int) -> bool:
    """Whether the (Python) block holding ``line`` is an ``except`` clause's: the nearest line
    above it indented less is one."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return False
    own = lines[line - 1]
    indent = len(own) - len(own.lstrip())
    for above in reversed(lines[: line - 1]):
        stripped = above.lstrip()
        if not stripped or stripped.startswith(("#", "@")):
            continue
        if len(above) - len(stripped) < indent:
            return stripped.startswith("except")
    return False


# Edges sure enough to say a name now means another definition: not the guesses for a receiver
# nobody can type (``member``), nor the members of a hierarchy an override may stand for.
_UNSURE_VIA = ("member", "family", "callback", "name", "union", "overload")
# A reference of a deleted declaration that now reaches another declaration of its name: the
# one a deleted override overrode (its behaviour changes; no RB105 when that method surely
# serves it), or a namesake left in its scope (an overload, a stub, an accessor's other half:
# whether it serves the reference is not known, so it is an RB105's, said so).
_RETARGETED = "retargeted"
_NAMESAKE = "namesake"
_AGAIN = (_RETARGETED, _NAMESAKE)


def _meant(
    conn: sqlite3.Connection, path: str, line: int, column: int, name: str
) -> tuple[_Target, ...]:
    """The definitions the reference named ``name`` at that new-side line and column resolves
    to, surely: removing an override leaves `self.m()` calling the base's `m`, and a deleted
    nested `cmd` is not the `cmd` a sibling function defines; the removed one of two overloads
    leaves its calls to the other. (Not another reference of the name on the line: in
    `a.size() + b.size()` each has its own.)"""
    marks = ", ".join("?" * len(_UNSURE_VIA))
    rows = conn.execute(
        "SELECT DISTINCT df.path, d.qualified, d.kind, d.line, d.signature, "
        "COALESCE(p.kind, '') FROM refs r JOIN files f ON f.id = r.file_id "
        "JOIN edges e ON e.ref_id = r.id JOIN defs d ON d.id = e.def_id "
        "JOIN files df ON df.id = d.file_id LEFT JOIN defs p ON p.id = d.parent_id "
        f"WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.lookup = ? AND e.confidence >= ? "
        f"AND e.via NOT IN ({marks}) ORDER BY 1, 4",
        (path, line, column, name, CONFIDENT, *_UNSURE_VIA),
    ).fetchall()
    return tuple(_Target(*row) for row in rows)


def _imports_another(
    conn: sqlite3.Connection, path: str, line: int, column: int, local: str, name: str
) -> bool:
    """Whether the reference written ``local`` at that new-side line and column goes through
    an import that now binds it to another name than ``name`` (the one it looked up before)."""
    rows = conn.execute(
        "SELECT r.lookup FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.name = ? AND r.how = 'import'",
        (path, line, column, local),
    ).fetchall()
    return bool(rows) and all(lookup != name for (lookup,) in rows)


def _now(refs: list[_Ref]) -> str:
    """The one definition all the references that now reach another declaration reach, or
    ""."""
    labels = {r.now for r in refs if r.via in _AGAIN}
    return labels.pop() if len(labels) == 1 else ""


def _anothers_call(r: _Ref, old: Decl, texts: _Texts) -> bool:
    """Whether a call that now reaches a namesake left in the scope never was one of the
    removed overload's: its arguments do not fit that overload's parameters (jsoup removed
    `onStack(ArrayList, Element)`; the 16 `onStack(el)` calls were the kept overload's all
    along: the index counts overloads as one meaning)."""
    if r.via != _NAMESAKE or r.kind != "call":
        return False
    if old.language in ("typescript", "tsx") and all(t.line < old.line for t in r.targets):
        # A TypeScript overload set's last declaration is its implementation, the one every
        # call runs: removed, the signatures left declare what nothing implements.
        return False
    params = parameters(old.whole, old.name, old.language, old.kind == "method")
    call = _call(r, texts, old.language)
    return params is not None and call is not None and fits(call, params, old.language) is False


def _its_calls(
    conn: sqlite3.Connection,
    old: Decl,
    new: Decl,
    cf: ChangedFile,
    refs: list[_Ref],
    texts: _Texts,
) -> list[_Ref]:
    """A re-signed Java constructor or method beside overloads: of the calls of its name,
    those that fit its old or its new parameters (javapoet 80ddc99 re-signed
    `CodeWriter(out, indent, staticImports)`: the 8 `new CodeWriter(out)` are the unchanged
    one-argument constructor's). Its other references, and the calls whose arguments cannot
    be read, are kept."""
    if new.language != "java" or new.kind not in ("constructor", "method"):
        return refs
    if not _overload_params(conn, new, cf.new_text):
        return refs
    method = new.kind == "method"
    old_params = parameters(old.whole, old.name, old.language, method)
    new_params = parameters(new.whole, new.name, new.language, method)
    if old_params is None or new_params is None:
        return refs
    out = []
    for r in refs:
        call = _call(r, texts, new.language) if r.kind == "call" else None
        if call is not None and not (
            fits(call, new_params, new.language) is not False
            or fits(call, old_params, new.language) is not False
        ):
            continue  # (another overload's)
        out.append(r)
    return out


def _call(r: _Ref, texts: _Texts, language: str) -> Call | None:
    """The call a reference makes, read at its place on the new side (None when the text
    there is not its name, or no call follows)."""
    text = texts.get(r.path)
    start = None if text is None else _offset(text, r.line, r.column)
    if text is None or start is None or text[start : start + len(r.name)] != r.name:
        return None
    return call_at(text, start + len(r.name), language)


def _unlinked(conn: sqlite3.Connection, d: Decl, texts: _Texts | None = None) -> int:
    """A member's `obj.name` references on receivers of unknown type, linked to nothing (too
    many members of the name, or none, in reach): uncertain, as a guess is. With the new
    side's ``texts``, a Python `__init__`'s are only those that may run it: `Other.__init__`
    runs another class's (black 0a6396ba: `_C.__init__.__code__` in test data counted 5)."""
    count = query.unlinked(conn, query.Symbol(0, d.name, d.qualified, d.kind, d.path, 0, 0, ""))
    if not count or texts is None or d.language != "python" or d.name != "__init__":
        return count
    own = d.qualified.rsplit(".", 2)[-2] if "." in d.qualified else ""
    rows = conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE r.lookup = ? AND r.how = 'member' "
        "AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = r.id)",
        (d.name,),
    ).fetchall()
    return sum(
        _receiver(texts.get(path), line, col) in (None, own, "self", "cls")
        for path, line, col in rows
    )


def _receiver(text: str | None, line: int, column: int) -> str | None:
    """The plain name an `x.name` reference is read on (`_C` of `_C.__init__`), or None when
    the receiver is an expression (`f().x`, `a[0].x`) or the text cannot be read."""
    start = None if text is None else _offset(text, line, column)
    if text is None or start is None:
        return None
    m = re.search(r"(?<![\w$)\]])([A-Za-z_]\w*)\s*\.\s*$", text[max(0, start - 200) : start])
    return m.group(1) if m is not None else None


def _overridden(old: Decl, reached: tuple[_Target, ...]) -> bool:
    """Whether a deleted method's reference now reaches only members of its name in other
    classes: the ones it overrode or implemented (a reference that surely resolves names its
    class), an interface's property typed as a function among them (immer's `produce:
    IProduce` in `ProducersFns`, which `Immer.produce = (...) => {...}` implements)."""
    return old.kind == "method" and all(
        t.kind in ("method", "field")
        and "." in t.qualified
        and t.qualified.rsplit(".", 1)[1] == old.name
        for t in reached
    )


_ABSTRACT = re.compile(r"@(?:abc\.)?abstract|\babstract\b")
# Python decorators that make a function one of several meanings of its name: an overload's
# stub, a property's accessor, an abstract method, a dispatcher's registration.
_NOT_PLAIN = re.compile(
    r"^@[\w.]*\b(?:overload|property|setter|getter|deleter|abstract\w*|register)\b"
)


def _alternative(r: _Ref, old: Decl, old_text: str | None, texts: _Texts) -> bool:
    """Python: whether a deleted function's reference now reaches only plain functions of its
    name left in its scope, which serve it: the other branch of `if sys.version_info >=
    (3, 10): def f` / `else: def f`, or the one `def f` written instead of the two of a
    `try` / `except ImportError` (cattrs 9e0e6ee). Python has no overloads: the name means the
    one left, unless the deleted one or the one left is an `@overload` stub, a property's
    accessor, abstract, or registered."""
    if old.language != "python" or old.kind not in ("function", "method") or not r.targets:
        return False
    if old_text is None or _decorated(old_text, old.line):
        return False
    for t in r.targets:
        if t.kind != old.kind or t.path != old.path:
            return False
        text = texts.get(t.path)
        if text is None or _decorated(text, t.line):
            return False
    return True


def _decorated(text: str, line: int) -> bool:
    """Whether the decorators right above the definition at ``line`` make it one of several
    meanings of its name (``_NOT_PLAIN``)."""
    return any(_NOT_PLAIN.search(d) for d in _decorators(text, line))


_DATACLASS = re.compile(r"@\s*(?:dataclasses\s*\.\s*)?dataclass\b(\s*\((?:[^()]|\([^()]*\))*\))?")
_NO_INIT = re.compile(r"\binit\s*=\s*False\b")


def _generated_init(d: Decl, cf: ChangedFile) -> bool:
    """Whether a Python `__init__` the change deletes is replaced by the one `@dataclass`
    generates for its class on the new side (not `init=False`): packaging 3c6e2aab went from
    `@dataclasses.dataclass(..., init=False)` with its own keyword-only `__init__` to
    `kw_only=True`: 10 classes' `__init__` "removed", still referenced in 2 to 24 places."""
    if d.language != "python" or d.name != "__init__" or "." not in d.qualified:
        return False
    text = cf.new_text
    if text is None:
        return False
    owner = d.qualified.rsplit(".", 2)[-2]
    for found in re.finditer(rf"(?m)^([ \t]*)class\s+{re.escape(owner)}\b", text):
        above = text[: found.start()].rstrip().split("\n")
        decorators: list[str] = []
        for row in reversed(above[-12:]):  # (a decorator's arguments may span lines)
            decorators.insert(0, row)
            if row.strip() == "" or row.lstrip().startswith(("class ", "def ", "return ")):
                break
        head = "\n".join(decorators)
        dataclass = _DATACLASS.search(head)
        if dataclass is not None:
            return _NO_INIT.search(dataclass.group(1) or "") is None
    return False


def _decorators(text: str, line: int) -> list[str]:
    """The decorator (annotation) lines right above the definition at ``line``, stripped."""
    lines = text.split("\n")
    out = []
    k = line - 2
    while 0 <= k < len(lines) and lines[k].lstrip().startswith("@"):
        out.append(lines[k].strip())
        k -= 1
    return out


def _serves(r: _Ref, texts: _Texts, language: str) -> bool:
    """Whether the methods a deleted override's reference now reaches surely serve it: each
    a concrete method of a class (not an interface's, not abstract: its header and the
    decorators above it say so), and a call fits its parameters (when they can be read)."""
    for t in r.targets:
        if t.container != "class" or _ABSTRACT.search(t.signature):
            return False
        if any(_ABSTRACT.search(d) for d in _decorators(texts.get(t.path) or "", t.line)):
            return False
        if r.kind != "call":
            continue
        params = parameters(t.signature, r.name, language, True)
        call = _call(r, texts, language)
        if params is not None and call is not None and fits(call, params, language) is False:
            return False
    return True


def _could_mean(old: Decl, how: str) -> bool:
    """Whether a new line's unresolved name, looked up ``how``, can mean the deleted ``old``:
    a bare or module-qualified name a top-level declaration; a member only a bare name in a
    language whose members are bare names in their class (Java). A builtin `open(...)` or
    an `os.write(...)` does not mean a deleted method `open` or `write`."""
    if how not in _NAME_BOUND:
        return False
    if "." not in old.qualified:
        return True
    grammar = grammar_for(old.language, old.path)
    return grammar is not None and grammar.members_visible and how in ("free", "name")


def _silenced(code: str, text: str | None, *lines: int) -> bool:
    if text is None:
        return False
    all_lines = text.split("\n")
    return suppressed(code, *(all_lines[n - 1] for n in lines if 0 < n <= len(all_lines)))


def _places(refs: Sequence[_Ref], limit: int = 5) -> str:
    """The references by file, then by unit (in the order of its first line; those in none an
    `import` or the `top level`), their lines in runs, each path once: `a/T.java:310-313
    (method T.testCenter), 320 (method T.testPad); b.py:4 (import)`; up to
    ``limit`` units, the references past them counted (commons-lang: four lines of
    StringUtilsTest.java, each with its whole path and unit, took 8 lines of an RB106)."""
    groups: dict[str, dict[str, list[int]]] = {}
    for r in refs:
        unit = r.unit or ("import" if r.kind == "import" else "top level")
        groups.setdefault(r.path, {}).setdefault(unit, []).append(r.line)
    parts, shown, told = [], 0, 0
    for path, units in groups.items():
        items = []
        for unit, lines in sorted(units.items(), key=lambda kv: min(kv[1])):
            if told == limit:
                break
            told += 1
            shown += len(lines)
            items.append(_runs(sorted(set(lines))) + (f" ({unit})" if unit else ""))
        if items:
            parts.append(f"{path}:" + ", ".join(items))
    more = len(refs) - shown
    return "; ".join(parts) + (f" and {more} more" if more > 0 else "")


def _runs(lines: Sequence[int]) -> str:
    """`310-313, 320` of the lines 310, 311, 312, 313 and 320."""
    out: list[str] = []
    start = prev = lines[0]
    for n in [*lines[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}-{prev}" if prev > start else str(start))
        if n is not None:
            start = prev = n
    return ", ".join(out)


def _rb105(
    c: DeclChange, old: Decl, refs: list[_Ref], texts: _Texts, doubt: int = 0
) -> Finding | None:
    """RB105 for a deleted or renamed declaration still referenced (``refs``); ``doubt``
    references of its name that no rule ties to it were not checked (said so, as RB106 does:
    black's `previous_block.original_line.is_docstring` when `Line.is_docstring` went)."""
    cf = c.cf
    line = deleted_anchor(cf, old.line, old.end_line)
    if _silenced("RB105", cf.new_text, line):
        return None
    if c.change == "renamed" and c.new is not None:
        title = f"{old.name} is renamed to {c.new.name} but still referenced"
        what = f"renames {old.label} to {c.new.name}"
    else:
        title = f"{old.name} is deleted but still referenced"
        what = f"deletes {old.label}"
    message = (
        f"This change {what} (was {place(old.path, old.line, old.end_line)}), but {old.name} is "
        f"still referenced in {len(refs)} place(s): {_places(refs)}."
    )
    again = [r for r in refs if r.via in _AGAIN]
    if again:
        reached = _now(again)
        some = "All" if len(again) == len(refs) else f"{len(again)} of them"
        if all(_fits_what_is_left(r, old, texts) is False for r in again):
            # (jsoup's deleted `padding(int, int)`: its 20 two-argument calls "now reach"
            # `padding(int)`, which none of them fits)
            what = (
                f"{reached}, which takes none of their arguments"
                if reached
                else f"other overloads of {old.name}, none of which takes their arguments"
            )
            message += f" ({some} now reach {what}.)"
        elif reached:
            message += f" ({some} now reach {reached}: check that it serves them.)"
        else:
            message += (
                f" ({some} now reach other declarations of {old.name}: check that they serve them.)"
            )
    if doubt:
        unsure = (
            f"`.{old.name}` reference(s) on receivers of unknown type"
            if old.kind == "method"
            else f"`{old.name}` reference(s) resolved with low confidence"
        )
        message += f" ({doubt} {unsure} were not checked)"
    return Finding(
        "RB105",
        Severity.WARNING,
        cf.path,
        line,
        line,
        title,
        message,
        MetricsChange(None, None),
        UnitRef(old.label, line, line),  # where the deleted lines were, on the new side
        fingerprint("RB105", old.path, old.label, old.signature),
        in_hunk(cf, line),
        len(refs),
    )


def _fits_what_is_left(r: _Ref, old: Decl, texts: _Texts) -> bool | None:
    """Whether a call that now reaches what is left of a deleted declaration's name fits one
    of those declarations' parameters (None: not a call, or not to be read)."""
    if r.kind != "call":
        return None
    call = _call(r, texts, old.language)
    if call is None:
        return None
    answers = [
        fits(call, params, old.language)
        for t in r.targets
        if (params := parameters(t.signature, old.name, old.language, t.kind == "method"))
        is not None
    ]
    if not answers or None in answers:
        return None
    return any(answers)


def _relocated(
    files: Sequence[ChangedFile], registry: LanguageRegistry, memo: _Memo | None = None
) -> list[DeclChange]:
    """The top-level declarations of renamed files (`git mv a.py b.py`), each moved: the same
    declarations on both sides of one file are no change to ``declaration_changes``."""
    out = []
    for cf in files:
        if cf.old_path is None or cf.old_path == cf.path or cf.new_text is None:
            continue
        old_side, new_side = _sides(cf, registry, memo)
        new = {d.qualified: d for d in new_side.decls}
        for d in old_side.decls:
            if "." not in d.qualified and d.qualified in new:
                out.append(DeclChange("moved", d, new[d.qualified], cf))
    return out


def _left_behind(
    conn: sqlite3.Connection,
    changes: list[DeclChange],
    moved_refs: dict[int, list[query.Hit]],
    by_old: dict[str, ChangedFile],
    by_new: dict[str, ChangedFile],
    added_lines: dict[str, set[int]],
    keep: Callable[[str], bool] | None,
) -> list[Finding]:
    """RB105 for declarations moved to another file (a module renamed, `git mv`) that code
    still reaches through their old place: references of the old side still there that no
    longer resolve (`from .formatting import HelpFormatter` after formatting.py became
    formatter.py). One finding per file moved from, naming what is left behind."""
    groups: dict[tuple[str, str], tuple[DeclChange, list[str], list[_Ref]]] = {}
    for k, hits in moved_refs.items():
        c = changes[k]
        assert c.old is not None and c.new is not None
        refs = [
            r
            for r in _remaining(conn, c.old, hits, by_old, by_new, added_lines)
            # (reaching its namesake at the new place: the reference followed the move)
            if _confident(r) and r.via not in _AGAIN and (keep is None or keep(r.path))
        ]
        if not refs:
            continue
        _c, names, left = groups.setdefault((c.old.path, c.new.path), (c, [], []))
        names.append(c.old.name)
        left += refs
    out: list[Finding] = []
    for (old_path, new_path), (c, names, left) in groups.items():
        assert c.old is not None
        refs = sorted(_one_per_line(left), key=lambda r: (r.path, r.line))
        cf = c.cf
        what = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        unit = None
        if (cf.old_path or cf.path) == old_path:  # the file moved (`git mv`)
            line = deleted_anchor(cf, c.old.line, c.old.end_line) if cf.new_text else 1
            title = f"{old_path.rsplit('/', 1)[-1]} is moved but still reached there"
        else:  # declarations moved out of a file that stays: on the first one's new header
            assert c.new is not None
            line = c.new.line
            unit = UnitRef(c.new.label, c.new.line, c.new.end_line)
            title = f"{what} moved to {new_path} but still imported from {old_path}"
        if _silenced("RB105", cf.new_text, line):
            continue
        out.append(
            Finding(
                "RB105",
                Severity.WARNING,
                cf.path,
                line,
                line,
                title,
                f"This change moves {what} from {old_path} to {new_path}, but "
                f"{len(refs)} place(s) still reach {'them' if len(names) > 1 else 'it'} "
                f"at the old place: {_places(refs)}.",
                MetricsChange(None, None),
                unit or UnitRef(c.old.label, line, line),
                fingerprint("RB105", old_path, new_path, ",".join(sorted(names))),
                in_hunk(cf, line),
                len(refs),
            )
        )
    return out


def _overload_params(
    conn: sqlite3.Connection, new: Decl, text: str | None
) -> list[tuple[tuple[Param, ...] | None, bool]]:
    """The parameters of a re-signed declaration's namesakes of its kind in its file on the
    new side (its overloads, not a field of its name; None for one whose list cannot be
    read), each with whether it has no body (a TS overload signature)."""
    rows = conn.execute(
        "SELECT d.signature, d.line, d.end_line FROM defs d JOIN files f ON f.id = d.file_id "
        "WHERE f.path = ? AND d.qualified = ? AND d.kind = ? AND d.line != ?",
        (new.path, new.qualified, new.kind, new.line),
    ).fetchall()
    return [
        (
            parameters(sig, new.name, new.language, new.kind == "method"),
            _bodyless(text, line, end),
        )
        for sig, line, end in rows
    ]


def _bodyless(text: str | None, line: int, end: int) -> bool:
    """Whether the declaration on lines ``line``-``end`` has no body (`save(p: string): void;`,
    an overload signature; an implementation's text ends with its `}`)."""
    lines = (text or "").split("\n")[line - 1 : end]
    return not "\n".join(lines).rstrip().endswith("}")


def _offset(text: str, line: int, column: int) -> int | None:
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    prefix = lines[line - 1].encode("utf-8", "surrogateescape")[:column]
    start = sum(len(x) + 1 for x in lines[: line - 1])
    return start + len(prefix.decode("utf-8", "surrogateescape"))


def _show(params: tuple[Param, ...], typed: bool = False, language: str = "python") -> str:
    """A parameter list as Python writes it: `(a, /, b=…, *, c, **kw)` (the `/` after
    positional-only ones, a bare `*` before keyword-only ones when no `*args` is there);
    as TypeScript and JavaScript do: `(a, b?, ...rest)`; as Go does a variadic one:
    `(name, arguments ...interface{})`; ``typed``: with the types read (Java's `(String x)`,
    where only a type changed)."""
    js = language in ("typescript", "tsx", "javascript", "jsx")
    words: list[str] = []
    for k, p in enumerate(params):
        if language == "go":
            words.append(f"{p.name} ...{p.type}".rstrip() if p.kind == "varargs" else p.name)
            continue
        if p.kind == "kwonly" and not any(q.kind in ("varargs", "kwonly") for q in params[:k]):
            words.append("*")
        optional = not (p.required or p.kind in ("varargs", "varkw"))
        words.append(
            ("..." if js and p.kind == "varargs" else "*" if p.kind == "varargs" else "")
            + ("**" if p.kind == "varkw" else "")
            + (f"{p.type} " if typed and p.type else "")
            + p.name
            + (("?" if js else "=…") if optional else "")
        )
        if p.kind == "posonly" and (k + 1 == len(params) or params[k + 1].kind != "posonly"):
            words.append("/")
    return "(" + ", ".join(words) + ")"


def _rb106(
    conn: sqlite3.Connection,
    old: Decl,
    new: Decl,
    cf: ChangedFile,
    refs: list[_Ref],
    texts: _Texts,
    doubt: int = 0,
) -> Finding | None:
    """RB106 for a re-signed declaration: the calls (``refs``) and overrides left with the old
    parameters; ``doubt`` references of its name whose receiver no rule types were not checked
    (said so: jsoup's 88 `.attr` calls on loop variables)."""
    language = new.language
    if new.kind in _CLASSES:
        return None  # a class's header lists its bases (its constructor's are its own)
    old_params = parameters(old.whole, old.name, language, old.kind == "method")
    new_params = parameters(new.whole, new.name, language, new.kind == "method")
    if old_params is None or new_params is None or old_params == new_params:
        return None
    others = _overload_params(conn, new, cf.new_text) if language != "python" else []
    typescript = language in ("typescript", "tsx")
    if others and (
        language not in ("java", "typescript", "tsx")
        or any(params is None for params, _ in others)
        or (typescript and not _bodyless(cf.new_text, new.line, new.end_line))
    ):
        # (JS namesakes are redefinitions; a TS implementation is not what a call picks)
        return None
    # A call that fits another overload left beside it is that one's (or may be). TS: the
    # signatures without a body are the ones a call can pick, not the implementation.
    kept = [
        params for params, bodyless in others if params is not None and (bodyless or not typescript)
    ]
    stale: list[_Ref] = []
    # Through the class's name (in its module, via "class"; imported, via "import": not a
    # constructor's `Thing(1)`), a static method takes what it is written to, a class method
    # binds `cls`; a plain one takes its receiver as an argument.
    unbound = not any(_BOUND_TO_CLASS.match(d) for d in _decorators(cf.new_text or "", new.line))
    for r in refs:
        if r.kind != "call" or r.in_change:
            continue
        if (
            language == "python"
            and new.kind == "method"
            and unbound
            and (r.via == "class" or (r.via == "import" and r.name == new.name))
        ):
            continue  # `Class.m(obj, ...)`: the receiver is an argument there
        call = _call(r, texts, language)
        if call is None:
            continue
        # The old way: the call fits the old parameters and not the new ones (a call that
        # fits neither, say through a decorator that supplies an argument, is not judged), or
        # its positional arguments now land in other parameters.
        ok = fits(call, new_params, language)
        was = fits(call, old_params, language)
        if any(fits(call, o, language) is not False for o in kept):
            continue
        if (ok is False and was) or (ok and was and reordered(old_params, new_params, call)):
            stale.append(r)
    left = (
        _stale_overrides(conn, new, old_params, new_params, kept)
        if new.kind == "method" and not (typescript and others)
        else []
    )
    if not stale and not left:
        return None
    line = next(iter(cf.line_map.added_between(new.line, new.end_line)), new.line)
    if _silenced("RB106", cf.new_text, new.line, line):
        return None
    told = []
    if stale:
        told.append(
            f"{len(stale)} caller(s) outside the change still call it the old way: {_places(stale)}"
        )
    if left:
        where = ", ".join(f"{o.path}:{o.line} ({o.qualified})" for o in left[:5])
        more = f" and {len(left) - 5} more" if len(left) > 5 else ""
        told.append(
            f"{len(left)} overriding method(s) still take the old parameters: {where}{more}"
        )
    unsure = (
        f"`.{new.name}(…)` reference(s) on receivers of unknown type"
        if new.kind == "method"
        else f"`{new.name}` reference(s) resolved with low confidence"
    )
    unchecked = f" ({doubt} {unsure} were not checked)" if doubt else ""
    # (the same names: a type changed, which only the types written say)
    typed = _show(new_params) == _show(old_params)
    shown = (_show(new_params, typed, language), _show(old_params, typed, language))
    message = (
        f"{new.label} now takes {shown[0]} (it took {shown[1]}), but "
        + "; ".join(told)
        + f".{unchecked}"
    )
    how = "called or overridden" if stale and left else "called" if stale else "overridden"
    return Finding(
        "RB106",
        Severity.WARNING,
        new.path,
        line,
        line,
        f"{new.name}() is {how} the old way in {len(stale) + len(left)} place(s)",
        message,
        MetricsChange(None, None),
        UnitRef(new.label, new.line, new.end_line),
        fingerprint("RB106", new.path, new.label, new.signature),
        cf.line_map.touches_new(new.line, new.end_line),
        len(stale) + len(left),
    )


_BOUND_TO_CLASS = re.compile(r"@(?:builtins\.)?(?:staticmethod|classmethod)\b")


def _rb106_getter(
    c: DeclChange, new: Decl, refs: list[_Ref], texts: _Texts, doubt: int
) -> Finding | None:
    """RB106 for a Python method that became a property (its calls `obj.total()` now call
    the value it returns) or stopped being one (`obj.total` read as a value is now a bound
    method), its header unchanged."""
    getter = _getter_change(c)
    if not getter:
        return None
    now = getter == "now a property"
    stale = []
    for r in refs:
        if r.in_change or r.name != new.name:
            continue
        text = texts.get(r.path)
        start = None if text is None else _offset(text, r.line, r.column)
        if text is None or start is None or text[start : start + len(r.name)] != r.name:
            continue
        called = _call(r, texts, new.language) is not None
        if called == now:
            stale.append(r)
    if not stale:
        return None
    cf = c.cf
    line = next(iter(cf.line_map.added_between(max(1, new.line - 1), new.line)), new.line)
    if _silenced("RB106", cf.new_text, new.line, line):
        return None
    unchecked = (
        f" ({doubt} `.{new.name}` reference(s) on receivers of unknown type were not checked)"
        if doubt
        else ""
    )
    if now:
        title = f"{new.name} is now a property but still called in {len(stale)} place(s)"
        said = (
            f"`.{new.name}` is the value it returns, but {len(stale)} place(s) outside the "
            "change still call it"
        )
    else:
        title = f"{new.name} is no longer a property but still read as one in {len(stale)} place(s)"
        said = (
            f"`.{new.name}` is now a bound method (call it), but {len(stale)} place(s) outside "
            "the change still read it as a value"
        )
    return Finding(
        "RB106",
        Severity.WARNING,
        new.path,
        line,
        line,
        title,
        f"{new.label} is {getter}: {said}: {_places(stale)}.{unchecked}",
        MetricsChange(None, None),
        UnitRef(new.label, new.line, new.end_line),
        fingerprint("RB106", new.path, new.label, getter),
        cf.line_map.touches_new(max(1, new.line - 1), new.end_line),
        len(stale),
    )


def _stale_overrides(
    conn: sqlite3.Connection,
    new: Decl,
    old_params: tuple[Param, ...],
    new_params: tuple[Param, ...],
    kept: list[tuple[Param, ...]],
) -> list[query.Symbol]:
    """The methods overriding a re-signed one (in the classes below its class) whose
    parameters still have the old shape (their kinds and which are required) where the new
    shape differs, or the old order of the same parameters where they were reordered: a call
    through the base the new way reaches them with arguments they do not take, or swapped.
    (A parameter only renamed is no new shape; an override taking ``*args`` has its own; a
    class that also has one taking the new parameters, a Java overload, has updated it; one
    shaped like another overload ``kept`` beside the re-signed one may override that one.)"""
    was, now = _shape(old_params), _shape(new_params)
    others = {_shape(k) for k in kept}
    if was in others:
        return []
    old_names = [p.name for p in old_params]
    new_names = [p.name for p in new_params]
    # (the same parameters in another order: an override of the old order gets them swapped)
    moved = sorted(old_names) == sorted(new_names) and old_names != new_names
    if was == now and not moved:
        return []
    out: list[query.Symbol] = []
    updated: set[str] = set()  # (the classes with an override already taking the new ones)
    for sym in _symbols(conn, new)[:1]:
        for o in query.overrides(conn, sym):
            params = parameters(o.signature, o.name, new.language, True)
            if params is None:
                continue
            names = [p.name for p in params]
            if _shape(params) in others:
                continue  # (it may override the other overload)
            if _shape(params) == now and (was != now or names == new_names):
                updated.add(o.qualified)  # (Java: an overload left beside it is no override)
            elif _shape(params) == was and (was != now or names == old_names):
                out.append(o)
    return sorted((o for o in out if o.qualified not in updated), key=lambda o: (o.path, o.line))


def _shape(params: tuple[Param, ...]) -> tuple[tuple[str, bool], ...]:
    return tuple((p.kind, p.required) for p in params)
