"""Building and updating the index: list the repository's files (git's index plus the working
tree's changes), re-read only the files whose blob changed, extract them in worker processes,
write them in the parent in one transaction, and re-resolve what the change can affect.

A file is skipped, with its reason kept, when it is a symbolic link or submodule, excluded by
the configuration, vendored (``vendor/``, ``node_modules/``, ``third_party/``), not in a source
language, larger than ``max_file_bytes``, binary, or generated (linguist-generated, lock files,
minified code, a generated header; `linguist-generated=false` keeps one whatever its header
says, as a review does). A file whose name is not UTF-8 is left out altogether (the
index's text columns hold UTF-8 only; a review still analyses it, without the index).
"""

from __future__ import annotations

import fnmatch
import functools
import gc
import hashlib
import json
import multiprocessing
import os
import re
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, cast

from reviewbot import __version__
from reviewbot.engine.languages import Language, LanguageRegistry, default_registry
from reviewbot.index.configs import is_module_config, summary
from reviewbot.index.extract import (
    ANY_OF,
    ARGUMENTS,
    GETTER,
    LITERAL,
    PROPERTY,
    constructor_arity,
    facts_of,
    written_element,
)
from reviewbot.index.fresh import git_index_file, own_index, repository_id, stat_key
from reviewbot.index.grammars import compiled, grammar_for
from reviewbot.index.records import FileFacts
from reviewbot.index.resolve import (
    CALLBACK,
    Loaded,
    Resolver,
    adjust_links,
    link_all,
    link_slices,
    link_weight,
    written_return,
)
from reviewbot.index.store import (
    ID_BITS,
    REF_WIDTH,
    TARGETED,
    WEIGHT_UNIT,
    FileRows,
    Store,
    file_rows,
    insert_flat,
    insert_rows,
    locked_writer,
    storable,
)
from reviewbot.repo.cache import language_key
from reviewbot.repo.changes import MARKED_GENERATED, generated_reason
from reviewbot.repo.files import decode, is_binary
from reviewbot.repo.git import Git
from reviewbot.repo.listing import Listed, list_files

__all__ = [
    "RULES",
    "VENDORED",
    "IndexSettings",
    "UpdateStats",
    "apply_listing",
    "holds",
    "update_index",
]

VENDORED = ("vendor", "node_modules", "third_party")
# The extraction and resolution rules' version: a change rebuilds every index (the per-blob rows
# of an older extractor are not reused).
# 55 (session 21, go21): Go `var x = NewT()` / `var x = pkg.T(v)` (in a body, at the package's
# level, in `var ( ... )`) types x as `x := ...` does (a second name of `var a, b = ...` is typed
# by no value); package-level variables in `var ( ... )` are definitions (`_` is none); a
# package variable's type (`Definition.returned`) types `x.m()` in the package's other files.
# Java 10 `var x = ...` is no local of the type `var` (`x.m()` linked nothing): `new Foo()`,
# `make()` (the class's), `nodes.get(0)` (a typed container's element), `a.n()` type x as an
# explicit type would.
# A Java call's receiver chain counts its calls' arguments too (`a.m(1).n()`: `ARGUMENTS` then
# the chain's counts, nearest first): the chain goes through the overloads taking as many (it
# went through all of them: n a union of what each overload of m returns).
# A Java nested type's base named by its simple name is looked for in the classes around it
# too (jsoup's `interface Request extends Base<Request>` in Connection); a Java class's
# superclass has a member before the interfaces it implements; a Java local or parameter
# written with the simple name of its file's one nested class of that name is of that class
# (it linked nothing: jsoup 172 references, commons-io 375).
# djt21: Django's framework typing: a class deriving from Django's `Model` (the
# repository's django/db/models/base.py, or `django.db.models.Model` by import) has `objects`,
# `_default_manager`, `_base_manager` (its own `objects = X()`, else the repository's `Manager`);
# `Base.from_queryset(Q)` (a base, `X = ...`) has Base's and Q's methods; `Model.attr.m()` (a
# class's attribute, the class in the file or imported) is typed through the attribute;
# `Model.objects.get()` (create, first, last, earliest, latest; after filter() and the like),
# iterating `Model.objects.all()` and a manager's method returning `self.model(...)` are a Model.
# misc21: a change of a `.gitattributes` re-decides which unchanged files under it
# are skipped as `linguist-generated` (indexes updated before kept stale rows: built again).
# 54 (session 21): a Java on-demand import (`import q.*;`) brings q's own top-level types and
# not what q's files import on demand in turn (followed, the JDK's packages made the link phase
# exponential); every Java file imports `java.lang.*` (the JDK's own sources define it).
# Star imports (`from m import *`, `export * from`) are read breadth first, each module once per
# name (the same answers; a cycle of them was walked path by path, exponential).
# 53 (session 20, res20): a Java call's member lookup skips fields and a read's skips methods, so a
# class's field does not hide its base's method of that name (jsoup's `Element.childNodes`).
# A Java fully qualified name (`org.jsoup.nodes.Element`: a type, after `new`, before a static
# member) is the class of the repository's package (its package segments are no references);
# a chain headed by a call of the class's own method (`make().m()`) is typed. A Java local,
# parameter or field written as a library container keeps its type arguments
# (`List<DataNode>`): `get`, `iterator().next()`, Map's `get`, Optional's `get` give the element
# (a table of the exact ones); a chain headed by a field of a written type is typed; a Java
# type imported on demand (`import org.acme.nodes.*;`) types a local, a field, a return.
# JS/TS `export default ok ? function a(c) {...} : function b(c) {...}`: a and b are functions
# (anonymous branches: the statement, `default`), and entries `default` of the module's
# export list (as `ok && function a`'s a): a default import under any name means them.
# JS/TS `const {produce, b: c} = x` (x a typed local, a call, a `new`): each key is a read of
# the property of x's type (immer's `Immer.produce`); a renamed key is no free name. A call of
# a JS/TS function declared in a body (`one = createPatchedImmer(o); one.produce()`) is typed by
# what it returns (the function is the reference's target; it was a guess).
# 52 (session 20, go20): a Go method's receiver reaches the methods and fields of the types its
# type embeds (testify's `suite.T()` in a method of `SuiteTester { Suite }`, `t.Called()`
# through `mock.Mock`), and `x := new(T)` / `var x = new(pkg.T)` types x as a T, `args :=
# r.Called()` (r the receiver) as what its type's `Called` returns. A Python
# decorator's references are the decorated definition's, its name (`@wrap`, `@app.command`) a
# call: rq's 9 `@pass_cli_config` were `other` in no unit, and `callers` found none.
# 51 (session 20): the outliner (languages without a grammar: Rust, Ruby, C#, ...) keeps a
# header whose `where` clause stands at its indentation one unit with its body, reads no
# member in a multi-line Rust attribute (`#[cfg(all(`), and closes no block at a name that
# starts with `end` (`endpoint = 2`); Ruby's `def self.parse(` defines `parse`.
# 50 (session 19): Go struct fields are definitions with their written types, so `x.a.m()`
# goes through a's type (a library's type: no guess); `&pkg.T{}` and `var x = T{}` typed; every
# name of `a, b int`, `var a, b = ...` and Java's `int a, b;` is a definition; a bundler's output
# (its last lines name a source map) is generated: skipped. Go embedded types are a struct's or an
# interface's bases (gin's `router.GET` through `Engine { RouterGroup }`); a member found in none of
# a Go struct's or interface's types of the repository is an outside embedded type's: no guess.
# A Python function's local functions of one name (`if`/`else` definitions) are one meaning.
# A Go call of an instantiated generic (`arg[string](x)`, `pkg.F[int](x)`) is a call.
# A Go type's signature says its kind: `type Command struct`, `type SchemaTyper interface`.
# A Java method call counts its arguments (`ARGUMENTS`, after its qualifier): it goes to the
# overloads of its name that take as many, at 1/their number when several do (`via` overload).
# Java methods' written return types are read, so a call chain is typed through them
# (`call.execute().isSuccessful()`; a nested or inherited member type by its simple name).
# A JS/TS specifier's extension reads the typed file of its flavour first, as TypeScript does:
# `./index.cjs` is `index.cts` / `index.d.cts`, `./a.mjs` `a.mts` / `a.d.mts`, `./a.js` `a.ts`.
# A TS/JS class field holding an arrow or a function expression (`m = (a) => {`) is a method
# (it was a TS field, no JS definition at all), so `this.m(...)` is checked on its re-sign.
# `mod.a.m()` with `mod` a JS/TS import of a package outside the repository (`import stream
# from 'stream'`, `node:fs`, a dependency) is that package's: no guess among the members `m`.
# JS/TS `export default COND && function httpAdapter(config) {` is the function httpAdapter (axios'
# adapters: 695 lines of the file's top), an anonymous default export (`export default function (`,
# `(c) => {`, `COND && (async (c) => {`) the function `default`, which a default import of its
# module binds when the module has no definition of the import's local name; `const f = ok &&
# function g(c) {` is the function f.
# JS/TS: a function literal a wrapping call binds to a name is a function (formik's `const
# resetForm = React.useCallback((nextState) => {...}, [...])`, `useEventCallback(fn)`, `memo(fn)`,
# `forwardRef(fn)`, `debounce`, `throttle`, `once`; not `xs.map(fn)`), local to its function.
# 49 (session 18): TypeScript's `paths` and `baseUrl` (tsconfig.json / jsconfig.json, through
# `extends`) lead bare specifiers to the repository's files; a changed go.mod or tsconfig
# resolves every reference again; a TS type parameter (`class Box<T>`, `type F<T>`, a
# signature's, a mapped type's `[K in ...]`) shadows the module's T where it is declared;
# the search table matches words by their stem (porter).
# JS: a class assigned to a member (`module.exports = class Application {`, `exports.Foo =
# class Foo {`) is a class with its methods; `exports.f = ...`, `module.exports.f = ...` and
# `module.exports = function name () {}` define functions.
# CommonJS `require` is an import: `const x = require('./m')` binds what m's `module.exports`
# holds (an entry `module.exports` of m's export list: a function, a class, `require('./n')`),
# `x.f` m's exports; `const { a, b: c } = require('./m')` and `require('./m').f` bind m's names;
# no variable is defined by a require.
# A Java parameter or local of a generic type (`Response<T> r`) has that type (it had none).
# A Go call chain (`r.NewRoute().Name()`, r a method's receiver or a local) is typed through
# each method's written return type (it was a guess by name). A Go unexported name means
# its own package's definitions only; a line comment ending with a dot above a member
# access is no part of its receiver (`// adds its own.` then `entry.log(msg)`).
# 48 (session 17): a Java field is a constant by its own modifiers (a window of 200 bytes read
# the next declaration's), an interface's constants are indexed; a TS header without a body is
# cut at its first `{` outside brackets (`<S = {}>(o: { a: 1 })` was cut at `S =`).
# TS `infer X` binds X in its conditional type's `extends` clause and true branch.
# `x.f` with x typed by a class declared in a function (Go `type Opts struct` in a body): its
# members or none.
# 47 (session 15): the outliner (a JS/TS file tree-sitter cannot read) takes no `from`, `as` or
# `type` of an import or export statement for a name.
# 46 (session 14, an adversarial pass): a Java anonymous class's `m()` is the own `m` of one
# around it (nested ones), in a static block too, and an enum constant's body is one; TS
# `(x as Foo['k']).m()` is no Foo's (an indexed access type); an object literal's `this.m()`
# is no own `m` written before a spread (`{ m() {}, ...o, n() { this.m() } }`); nor is a TS
# parameter, local or field typed `Foo['k']` a Foo; a class method's `this: T` parameter types
# its `this` as T.
# 45 (session 14): TS/JS plain `this.m` is the class's only where `this` is its instance or the
# class (its methods, arrows there, static methods); a function's `this: T` parameter types it;
# in an object literal's method (no type written over the literal) the literal's own `m`; a
# Java anonymous class's `this.m()` / `m()` its own method; TS `(x as Foo).m()` Foo's.
# 44 (session 13, an adversarial pass): `this` (`x = this`, a ternary's branch) and `super.m`
# only where they are the class's instance / base: not in a nested `function`, a static
# method, an object literal's method, nor (Java `super`) an anonymous class; `super.m()`
# returning `this` is the calling class's instance.
# 37-43 (session 13): a chained call's type arguments no longer hide its head
# (`mixed<string>().strip().cast`); TS/JS and Java `super.m` look in the bases; what a
# `super.m()` / `super().m()` call returns is the base method's; a TS class method's overloads
# without its implementation; `return`s that differ typed when they come to one class; a
# generic alias of one class, `(c ? a : b).m`, `x = this`; a family below a subclass receiver;
# a function bound to a `const` typed by its body's `return`s or expression.
# 36 (session 12, an adversarial pass): a generator (`yield`) is not typed by its `return`, nor
# `return Model()` with Model a parameter, nor a static method's `return this`, nor a local
# `cls`'s call.
# 33-35 (session 12): return types read from bodies' `return`s where none is written; a TS
# class and the interface merged with it share one family; Go structs are structs; the
# outliner (files tree-sitter cannot read) names Go methods by receiver and wrapped JS calls.
# 32 (session 11): a local bound to a chain typed from its head, TS class + interface merged,
# comments out of signatures, Go type assertions typed, union members 1/N, shadowed bases
# unknown, Java constructors by arity, `cls()`.
# 31-21 (session 10): TS object literals' keys typed where they stand, call chains typed from
# their head, TS export lists renaming, `x.constructor` no reference, Python `@property`
# getters marked, bases through a submodule; 20: Python properties' and loops' types; ...
RULES = 55
_BATCH = 32  # files whose rows go in together
_READ_FIRST = 64  # files read from git before the first are parsed (then 4 times more each time)
_PARALLEL_FROM = 24  # files: fewer are parsed in this process (a pool costs more than it saves)

Progress = Callable[[int, int], None]

# A process that exits once the index is written (``reviewbot index``: ``leave_to_exit``)
# leaves what the build made to its exit: freed object by object, then walked by the cycle
# collector as it came back on, the rows kept for the global pass, the definitions loaded for
# it and the resolver were about 0.3 s of a cold build's serial tail (speed corpus, on a host
# half as fast as the one of index_speed.md). Not empty: leaving (a marker first).
_LEFT: list[object] = []


def leave_to_exit() -> None:
    """This process ends (``os._exit``, no clean-up) as soon as it has built the index: what
    the build made stays where it is, and the cycle collector off once it is done."""
    if not _LEFT:
        _LEFT.append(leave_to_exit)


class IndexSettings(NamedTuple):
    max_bytes: int
    exclude: tuple[str, ...]
    registry: LanguageRegistry
    jobs: int = 2

    def key(self) -> str:
        languages = sorted(language_key(self.registry.get(n)) for n in self.registry.names())
        text = json.dumps([RULES, __version__, self.max_bytes, list(self.exclude), languages])
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class UpdateStats(NamedTuple):
    database: str  # the database file
    files: int  # files indexed
    skipped: int  # files listed but not indexed
    lines: int
    definitions: int
    references: int
    edges: int
    read: int  # files (re-)read and indexed by this update (not those it found to skip)
    reused: int  # indexed files kept as they were: read + reused == files
    removed: int  # files gone from the listing (files + skipped + removed: those listed before)
    seconds: float
    created: bool  # the database was created (first build, or a damaged one replaced)


def _storable(listing: dict[str, Listed]) -> dict[str, Listed]:
    if all(map(storable, listing)):
        return listing
    return {p: x for p, x in listing.items() if storable(p)}


def exclusion(patterns: Sequence[str]) -> Callable[[str], bool]:
    """``excluded(path, patterns)`` (the configuration's globs) as at most three matches of two
    regular expressions, each the globs' alternation: a cold build tests every file of the
    repository, and a glob at a time cost 0.1-0.2 s of serial time on 7k files."""
    if not patterns:
        return lambda path: False
    whole = re.compile("|".join(fnmatch.translate(p) for p in patterns)).match
    bare = re.compile("|".join(fnmatch.translate(p.removeprefix("**/")) for p in patterns)).match

    def test(path: str) -> bool:
        rel = path.replace(os.sep, "/")
        return bool(whole(rel) or whole("./" + rel) or bare(rel))

    return test


def _vendored(path: str) -> bool:
    parts = path.split("/")[:-1]
    return any(p in VENDORED for p in parts)


# The languages of the update in progress: worker processes inherit them (fork), so that
# jobs carry only a language's name (a Language holds mapping proxies, which do not pickle).
_LANGUAGES: dict[str, Language] = {}


def _facts(path: str, text: str, language: Language) -> FileFacts:
    """One file's facts (tree-sitter when the language has a grammar, else the outliner)."""
    grammar = grammar_for(language.name, path)
    if grammar is not None:
        facts = facts_of(compiled(grammar.name), text)[0]
        if facts is not None:
            return facts
    # Lazy: the outliner is the engine's, which needs numpy (0.1-0.3 s to import); an update
    # of files that all have a grammar never pays for it.
    from reviewbot.index.outline import outline

    if grammar is not None:
        return outline(text, language, "tree-sitter could not parse most of it")
    return outline(text, language)


Job = tuple[int, str, str, str, str]  # file id, path, blob, text, language name
# A reference as the global pass reads it: id, file id, how, target id, qualifier, lookup, kind.
LinkRow = tuple[int, int, str, int | None, str, str, str]


def _link_rows(refs: list[object]) -> Iterable[LinkRow]:
    """A file's references (``FileRows.refs``: flat, ``REF_WIDTH`` values each) as the global
    pass reads them: their id, file id, how, target id, qualifier, lookup and kind columns."""
    w = REF_WIDTH
    columns = (refs[k::w] for k in (0, 1, 7, 8, 9, 10, 5))
    return cast(Iterable[LinkRow], zip(*columns, strict=True))


def _parse(job: Job) -> FileRows:
    """Worker: one file's rows, ready to insert."""
    file_id, path, blob, text, name = job
    language = _LANGUAGES.get(name) or default_registry().get(name)
    return file_rows(file_id, path, blob, _facts(path, text, language))


def _parsed(jobs: Iterable[Job], count: int, workers: int) -> Iterator[FileRows]:
    """Each job's rows, in order (``count``: about how many jobs there are). With workers,
    they start at once and ``jobs`` is drawn by the pool's feeding thread while they parse."""
    if workers <= 1 or count < _PARALLEL_FROM:
        for job in jobs:
            yield _parse(job)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(workers) as pool:
        yield from pool.imap(_parse, jobs, chunksize=8)


class _Plan(NamedTuple):
    read: list[Listed]
    gone: list[int]  # ids of files whose rows go (changed or removed)
    reused: int
    removed: int


def _plan(store: Store, listing: dict[str, Listed], everything: bool, git: Git) -> _Plan:
    stored = {
        path: (file_id, blob, skipped)
        for file_id, path, blob, skipped in store.conn.execute(
            "SELECT id, path, blob, skipped FROM files"
        )
    }
    read = [
        e
        for path, e in sorted(listing.items())
        if everything or path not in stored or stored[path][1] != e.blob
    ]
    if not everything:
        again = _attributes_redecide(git, stored, listing, {e.path for e in read})
        if again:
            read = sorted([*read, *(listing[p] for p in again)], key=lambda e: e.path)
    gone = [stored[e.path][0] for e in read if e.path in stored]
    removed = [row[0] for path, row in stored.items() if path not in listing]
    return _Plan(read, gone + removed, len(listing) - len(read), len(removed))


_ATTRIBUTES = ".gitattributes"


def _attributes_redecide(
    git: Git,
    stored: dict[str, tuple[int, str, str | None]],
    listing: dict[str, Listed],
    reading: set[str],
) -> list[str]:
    """The unchanged files whose skip status a changed ``.gitattributes`` (added, edited or
    removed) changes: marked ``linguist-generated`` now and indexed, no longer marked and
    skipped for it, marked ``=false`` and skipped as generated; and, when an old version of
    one of them said ``linguist-generated`` (maybe ``=false``), indexed files no longer marked
    whose content says they are generated. Only the files under the changed ones' folders
    are asked about, and only when one changed (a file's rows are otherwise kept by blob)."""
    names = {
        p
        for p in (*stored, *listing)
        if p.endswith(_ATTRIBUTES) and p.rsplit("/", 1)[-1] == _ATTRIBUTES
    }
    changed = [
        p for p in names if p not in stored or p not in listing or stored[p][1] != listing[p].blob
    ]
    if not changed:
        return []
    folders = tuple(p[: -len(_ATTRIBUTES)] for p in changed)  # "" (the root) or "dir/"
    under = [p for p in listing if p in stored and p not in reading and p.startswith(folders)]
    marks = git.generated_attributes(under)
    again: list[str] = []
    unmarked: list[Listed] = []
    for p in under:
        mark, skipped = marks.get(p), stored[p][2]
        if mark is None and skipped is None:
            unmarked.append(listing[p])
        elif (
            (mark is True and skipped is None)
            or (mark is False and (skipped or "").startswith("generated"))
            or (mark is None and skipped == MARKED_GENERATED)
        ):
            again.append(p)
    old_blobs = [stored[p][1] for p in changed if p in stored]
    old_texts = git.blobs(old_blobs) if old_blobs else {}
    if unmarked and any(
        b not in old_texts or b"linguist-generated" in old_texts[b] or b"[attr]" in old_texts[b]
        for b in old_blobs
    ):
        # (one marked `=false` before, indexed whatever its header said: is it generated now?)
        contents = git.blobs(e.blob for e in unmarked if e.worktree is None)
        for e in unmarked:
            data = e.worktree if e.worktree is not None else contents.get(e.blob)
            if data is not None and generated_reason(e.path, decode(data)[0]):
                again.append(e.path)
    return again


def _py_packages(store: Store) -> set[str]:
    """The folders of Python's regular packages (an indexed ``__init__``): when they change,
    so do the module names of the files below them, and every reference is resolved again."""
    return {
        path
        for (path,) in store.conn.execute(
            "SELECT path FROM files WHERE skipped IS NULL AND path LIKE '%__init__.py%'"
        )
        if path.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")
    }


def _module_configs(store: Store) -> set[tuple[str, str]]:
    """What the repository's ``go.mod`` and ``tsconfig.json`` files say of where imports lead:
    when it changes, every reference is resolved again."""
    return {
        (path, package)
        for path, package in store.conn.execute(
            "SELECT path, package FROM files WHERE skipped IS NOT NULL AND package != ''"
        )
        if is_module_config(path)
    }


class _Names(NamedTuple):
    """What files define and import, by name: what their change can make others mean."""

    defined: set[str]
    imported: set[str]  # locals and original names of their imports
    classes: set[str]  # classes they define, and names they import (maybe classes)

    def __or__(self, other: _Names) -> _Names:
        return _Names(
            self.defined | other.defined,
            self.imported | other.imported,
            self.classes | other.classes,
        )


_CLASSY = ("class", "interface", "enum", "struct", "type")
_SIGNED = ("typescript", "tsx")
_TYPING = ("function", "method", "field")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
DefKey = tuple[object, ...]


class _Shape(NamedTuple):
    """What the resolver can see of one file (an update compares it before and after)."""

    file_id: int
    meta: tuple[object, ...]  # language, parser, package, whether indexed
    keys: dict[DefKey, list[int]]  # each definition's key -> the ids with that key, in order
    names: _Names
    imports: list[tuple[str, str, str, int]]  # local, module, name, export, in order
    written: set[str]  # names written in the file's bases and return types


def _shapes(store: Store, file_ids: list[int]) -> dict[str, _Shape]:
    """Each file's shape, by path. A definition's key is everything the resolver reads of it
    (kind, name, qualified name, container, bases, what it returns) and its parent's key with
    the parent's rank among the definitions of that key: two definitions of one key are
    indistinguishable to the resolver but by their order."""
    conn = store.conn
    out: dict[str, _Shape] = {}
    for file_id in file_ids:
        row = conn.execute(
            "SELECT path, language, parser, package, skipped IS NULL FROM files WHERE id = ?",
            (file_id,),
        ).fetchone()
        if row is None:
            continue
        keys: dict[DefKey, list[int]] = {}
        key_of: dict[int, tuple[DefKey, int]] = {}
        names = _Names(set(), set(), set())
        written: set[str] = set()
        # TS: the types a signature writes (what its parameters and properties are declared
        # as) type the keys of object literals passed to it (`extract._literal_key`).
        signed = row[1] in _SIGNED
        for (
            def_id,
            kind,
            name,
            qualified,
            container,
            parent_id,
            bases,
            signature,
            returned,
        ) in conn.execute(
            "SELECT id, kind, name, qualified, container, parent_id, bases, signature, "
            "returned FROM defs WHERE file_id = ? ORDER BY id",
            (file_id,),
        ):
            returns = written_return(kind, signature, returned, row[1])
            element = written_element(kind, signature) if "[" in signature else ""
            if parent_id is None:
                parent: tuple[DefKey, int] | None = None
            else:
                parent = key_of.get(parent_id)
                if parent is None:  # a parent after its child: no key can stand for it
                    parent = (("unknown", parent_id), 0)
            typing = signature if signed and kind in _TYPING and ":" in signature else ""
            if kind == "constructor":  # (Java: the calls of its arity are its)
                typing = str(constructor_arity(signature))
            key = (kind, name, qualified, container, parent, bases, returns, element, typing)
            same = keys.setdefault(key, [])
            key_of[def_id] = (key, len(same))
            same.append(def_id)
            names.defined.add(name)
            if kind in _CLASSY:
                names.classes.add(name)
            written.update(_WORD.findall(f"{bases} {returns} {element}"))
        imports: list[tuple[str, str, str, int]] = []
        for local, module, name, export in conn.execute(
            "SELECT local, module, name, export FROM imports WHERE file_id = ? ORDER BY id",
            (file_id,),
        ):
            imports.append((local, module, name, export))
            found = {x for x in (local, name) if x and x not in ("*", "default")}
            names.imported.update(found)
            names.classes.update(found)
        out[row[0]] = _Shape(file_id, tuple(row[1:]), keys, names, imports, written)
    return out


class _Carry(NamedTuple):
    """What an update keeps of the edges into changed files: the names whose meaning may have
    changed (the rest keep their edges, moved to the definitions' new ids). The edges from
    unchanged files into the changed ones wait in the temporary table ``moved``."""

    names: _Names
    new_id: dict[int, int]  # old id -> new id of each definition that stayed as it was
    # Files that import other files than before (new id, the imports before): the import
    # closures of all code reaching them change.
    reimported: list[tuple[int, list[tuple[str, str, str, int]]]]


def _keep_incoming(store: Store, file_ids: list[int]) -> None:
    """The edges from other files' references to the definitions of ``file_ids``, into the
    temporary table ``moved`` (before the files' rows, and these edges, go)."""
    conn = store.conn
    store.temp_ids("moved_from", file_ids)
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS moved("
        "ref_id INTEGER, def_id INTEGER, confidence REAL, via TEXT)"
    )
    conn.execute("DELETE FROM moved")
    for file_id in file_ids:
        conn.execute(
            "INSERT INTO moved SELECT ref_id, def_id, confidence, via FROM edges "
            f"WHERE def_id >= ? AND def_id < ? AND ref_id >> {ID_BITS} NOT IN "
            "(SELECT id FROM moved_from)",
            (file_id << ID_BITS, (file_id + 1) << ID_BITS),
        )


def _carry(
    before: dict[str, _Shape],
    after: dict[str, _Shape],
    deps: Callable[[int, list[tuple[str, str, str, int]]], set[int]],
    whole: bool = False,
) -> _Carry | None:
    """Which names a change of files in place (none added or removed, each of the same
    language) can make mean something else, and the new id of every definition that stayed as
    it was; None when the change is not of that kind (then every name the files define or
    import counts as changed). With ``whole``, files added or removed may come with those
    changed in place: every name each of them defines or imports counts as changed (as
    without a carry), and the others' as below.

    A definition stayed when one of the same key (``_shapes``) is there before and after, as
    many times. The others' names changed. Imports added or removed change the names they bind
    (what the file re-exports under them), when the files the file imports (``deps``: its
    reach, which every `obj.m` guess of code importing it depends on) stay the same. A file
    that added, removed or changed a class (its bases: what its heirs and typed receivers
    mean), changed a name its own bases, return types or imports mention (a definition
    shadowing an import), changed a star import or the files it imports, counts all its names
    as changed, as before."""
    if set(before) != set(after) and not whole:
        return None
    names = _Names(set(), set(), set())
    new_id: dict[int, int] = {}
    reimported: list[tuple[int, list[tuple[str, str, str, int]]]] = []
    for path in sorted(before.keys() ^ after.keys()):  # (added or removed: all its names)
        names = names | (before[path] if path in before else after[path]).names
    for path, old in before.items():
        new = after.get(path)
        if new is None:
            continue
        if old.meta != new.meta:
            return None
        changed: set[str] = set()
        classy = False
        pairs: list[tuple[int, int]] = []
        for key in old.keys.keys() | new.keys.keys():
            was, now = old.keys.get(key, []), new.keys.get(key, [])
            if len(was) == len(now) and not (len(was) > 1 and key[0] in _CLASSY):
                pairs.extend(zip(was, now, strict=True))
            else:
                changed.add(str(key[1]))
                classy = classy or key[0] in _CLASSY
        written = old.written | new.written
        mentioned = written | old.names.imported | new.names.imported
        coarse = classy or bool(changed & mentioned)
        rebound: set[str] = set()
        if old.imports != new.imports:
            if deps(new.file_id, old.imports) != deps(new.file_id, new.imports):
                reimported.append((new.file_id, old.imports))
                coarse = True
            went = Counter(old.imports) - Counter(new.imports)
            came = Counter(new.imports) - Counter(old.imports)
            differ = [*went.elements(), *came.elements()]
            rebound = {x for t in differ for x in (t[0], t[2]) if x and x not in ("*", "default")}
            coarse = (
                coarse
                or not differ  # the same imports in another order
                or any(t[2] == "*" for t in differ)
                or bool(rebound & written)
            )
        if coarse:
            names = names | old.names | new.names
            continue
        names.imported.update(rebound)
        names.classes.update(rebound)
        names.defined.update(changed)
        names.classes.update(changed)  # (heirs by name: a base may now mean another thing)
        new_id.update(pairs)
    return _Carry(names, new_id, reimported)


def _before(store: Store, plan: _Plan, whole: bool = False) -> dict[str, _Shape] | None:
    """The changed files' shapes and the edges into them, before their rows go, when the
    change is of files in place (none added or removed; with ``whole``, some may be: see
    ``_carry``)."""
    if not plan.gone or (not whole and (plan.removed or len(plan.gone) != len(plan.read))):
        return None
    _keep_incoming(store, plan.gone)
    return _shapes(store, plan.gone)


def _through_returns(conn: sqlite3.Connection, names: set[str]) -> set[str]:
    """``names`` and the functions whose `return`s, read from their bodies (no written
    type), name one of them, and so on: `fluent()` returning `make()` returns something else
    when `make` changed (``Definition.returned``)."""
    said = conn.execute("SELECT DISTINCT name, returned FROM defs WHERE returned != ''")
    returns = [(name, set(_WORD.findall(returned))) for name, returned in said]
    reached = set(names)
    grew = True
    while grew:
        grew = False
        for name, words in returns:
            if name not in reached and not words.isdisjoint(reached):
                reached.add(name)
                grew = True
    return reached


def _through_properties(
    conn: sqlite3.Connection, qualifiers: list[str], names: set[str]
) -> set[str]:
    """The qualifiers `T#a#b` (`x.a.b.m()`, x of type T) to resolve again: those naming a
    changed name (T, a property, ...) or a property whose written type names one, or names
    such a property's type (and so on: the properties of those types). And the keys of TS
    object literals (`{f(0)#a`: f's parameter's type's `a`): those naming a changed name or
    a function or property whose TS signature names one (and so on)."""
    chains = [q for q in qualifiers if PROPERTY in q and q[:1] != LITERAL]
    literals = [q for q in qualifiers if q[:1] == LITERAL]
    if not chains and not literals:
        return set()
    fields = [  # (and Python's `@property` getters: what their return annotation says)
        (name, written.rsplit(".", 1)[-1])
        for name, kind, signature, language in conn.execute(
            "SELECT DISTINCT d.name, d.kind, d.signature, f.language FROM defs d JOIN files f "
            "ON f.id = d.file_id WHERE (d.kind = 'field' AND (instr(d.signature, ':') > 0 "
            "OR f.language = 'go')) OR (d.kind = 'method' AND instr(d.signature, '->') > 0 "
            f"AND d.bases = '{GETTER}')"
        )
        if (written := written_return(kind, signature, "", language))
    ]
    if literals:
        fields.extend(
            (name, word)
            for name, signature in conn.execute(
                "SELECT DISTINCT d.name, d.signature FROM defs d JOIN files f "
                "ON f.id = d.file_id WHERE d.kind IN ('function', 'method', 'field') "
                "AND instr(d.signature, ':') > 0 AND f.language IN ('typescript', 'tsx')"
            )
            for word in set(_WORD.findall(signature))
            if word != name
        )
    reached = set(names)
    grew = True
    while grew:
        grew = False
        for name, written in fields:
            if written in reached and name not in reached:
                reached.add(name)
                grew = True
    if "constructor" in reached:  # (`{new F(1)#a`: F's constructor's parameter)
        reached.add("new")
    return {
        q
        for q in chains
        if any(p.removesuffix("()").rsplit(".", 1)[-1] in reached for p in q.split(PROPERTY))
    } | {q for q in literals if any(w in reached for w in _WORD.findall(q))}


def _member_names(store: Store, file_ids: Iterable[int]) -> set[str]:
    """The names of the members (of classes, types ...) that the files define."""
    ids = sorted(file_ids)
    out: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        out.update(
            name
            for (name,) in store.conn.execute(
                f"SELECT DISTINCT name FROM defs WHERE file_id IN ({marks}) AND container != ''",
                chunk,
            )
        )
    return out


def _names_of(store: Store, file_ids: Iterable[int]) -> _Names:
    ids = list(file_ids)
    names = _Names(set(), set(), set())
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for name, kind in store.conn.execute(
            f"SELECT name, kind FROM defs WHERE file_id IN ({marks})", chunk
        ):
            names.defined.add(name)
            if kind in ("class", "interface", "enum", "struct", "type"):
                names.classes.add(name)
        for local, name in store.conn.execute(
            f"SELECT local, name FROM imports WHERE file_id IN ({marks})", chunk
        ):
            found = {x for x in (local, name) if x and x not in ("*", "default")}
            names.imported.update(found)
            names.classes.update(found)  # a base class may be found through this import
    return names


def update_index(
    git: Git,
    path: Path,
    settings: IndexSettings,
    *,
    progress: Progress | None = None,
    listing: dict[str, Listed] | None = None,
) -> UpdateStats:
    """Bring the index at ``path`` up to date with the repository of ``git`` (``listing``:
    its files, when the caller has just listed them). An index SQLite finds damaged on the way
    is deleted and built again."""
    listing = _storable(list_files(git) if listing is None else listing)
    # The build makes millions of tuples and no reference cycles: the cycle collector would
    # only walk them again and again (about 5% of a cold build's CPU). Forked workers inherit
    # this.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _update(git, path, settings, progress, listing, fresh=False)
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise
        return _update(git, path, settings, progress, listing, fresh=True)
    finally:
        if collecting and not _LEFT:
            gc.enable()


def _update(
    git: Git,
    path: Path,
    settings: IndexSettings,
    progress: Progress | None,
    listing: dict[str, Listed],
    *,
    fresh: bool,
) -> UpdateStats:
    started = time.perf_counter()
    identity = repository_id(git)
    with locked_writer(path, fresh=fresh) as store:
        moved = own_index(path, git)  # (a moved or copied repository's own index)
        if store.meta("settings") != settings.key() or (
            store.meta("repository") not in (None, identity) and not moved
        ):
            store.rebuild()  # other settings, rules or repository: all again, in a new file
        conn = store.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            everything = store.meta("settings") != settings.key()
            plan = _plan(store, listing, everything, git)
            cold = everything or store.created
            old_names = _names_of(store, plan.gone)
            packages = _py_packages(store)
            configs = _module_configs(store)
            before = None if cold else _before(store, plan)
            store.delete_files(plan.gone)
            if cold:
                store.drop_indexes()
            else:
                store.create_indexes()  # those an index built by an older version lacks
            kept: list[LinkRow] | None = [] if cold else None
            loaded = Loaded([], [], []) if cold else None
            new_ids, indexed = _write(git, store, plan.read, settings, progress, kept, loaded)
            store.set_meta("settings", settings.key())
            store.set_meta("repository", identity)
            # The files' stats, taken once every file was read: while the link workers work
            # (when this process waits for them), else after the links.
            record = functools.partial(_record_stats, store, git)
            if plan.read or plan.gone:
                # Python's packages changed: other files' module names did; a go.mod or a
                # tsconfig.json changed: where other files' imports lead did.
                relink = (
                    cold or _py_packages(store) != packages or _module_configs(store) != configs
                )
                jobs = settings.jobs
                _resolve(store, relink, new_ids, old_names, jobs, kept, before, loaded, (record,))
            else:
                record()
            if cold:
                store.create_indexes()
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        totals = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(lines), 0) FROM files WHERE skipped IS NULL"
        ).fetchone()
        skipped = conn.execute("SELECT COUNT(*) FROM files WHERE skipped IS NOT NULL").fetchone()
        counts = [
            conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("defs", "refs", "edges")
        ]
        store.publish()
        if _LEFT:
            _LEFT.extend((kept, loaded))
        return UpdateStats(
            str(path),
            totals[0],
            skipped[0],
            totals[1],
            counts[0],
            counts[1],
            counts[2],
            indexed,
            totals[0] - indexed,
            plan.removed,
            time.perf_counter() - started,
            store.created,
        )


def _record_stats(store: Store, git: Git) -> None:
    """What ``looks_current`` compares with next time: git's index file and every file (rows
    whose stat did not change are left alone)."""
    store.set_meta("git_index", stat_key(git_index_file(git)))
    root = str(git.root) + os.sep
    changed: list[tuple[str, int]] = []
    for file_id, path, recorded in store.conn.execute("SELECT id, path, stat FROM files"):
        try:
            st = os.lstat(root + path)
            now = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
        except OSError:
            now = "-"
        if now != recorded:
            changed.append((now, file_id))
    store.conn.executemany("UPDATE files SET stat = ? WHERE id = ?", changed)


def _write(
    git: Git,
    store: Store,
    entries: list[Listed],
    settings: IndexSettings,
    progress: Progress | None,
    kept: list[LinkRow] | None = None,
    loaded: Loaded | None = None,
) -> tuple[list[int], int]:
    """Read, extract and write the files; returns the ids of the files written (indexed or
    skipped) and how many of them were indexed (the others' reasons are kept). ``kept``
    receives what the global pass needs of each reference, ``loaded`` the rows of files,
    definitions and imports (a cold build then need not read them back)."""
    ids: list[int] = []
    reasons: dict[str, str] = {}
    languages: dict[str, Language] = {}
    is_excluded = exclusion(settings.exclude)
    for e in entries:
        language = settings.registry.detect(e.path)
        languages[e.path] = language
        if e.reason:
            reasons[e.path] = e.reason
        elif is_excluded(e.path):
            reasons[e.path] = "excluded by the configuration"
        elif _vendored(e.path):
            reasons[e.path] = "vendored"
        elif language.name == "generic" and not is_module_config(e.path):
            reasons[e.path] = "not a source language"
    wanted = [e for e in entries if e.path not in reasons]
    sizes = git.sizes(e.blob for e in wanted if e.worktree is None)
    small = []
    for e in wanted:
        size = len(e.worktree) if e.worktree is not None else sizes.get(e.blob)
        if size is None:
            reasons[e.path] = "missing from git's object store"
        elif size > settings.max_bytes:
            reasons[e.path] = f"larger than max_file_bytes ({size} bytes)"
        else:
            small.append(e)
    generated = git.generated_attributes([e.path for e in small])
    first = store.next_id("files", len(entries))
    order = {e.path: first + k for k, e in enumerate(entries)}
    packages: dict[str, str] = {}
    for e in small:  # before the workers fork: they inherit them
        _LANGUAGES[languages[e.path].name] = languages[e.path]

    def jobs() -> Iterator[Job]:
        """The files to parse, read from git a part at a time (the first part small, so
        that the workers start soon): the skipped ones go to ``reasons`` on the way."""
        start, step = 0, _READ_FIRST
        while start < len(small):
            part = small[start : start + step]
            start, step = start + step, step * 4
            contents = git.blobs(e.blob for e in part if e.worktree is None)
            for e in part:
                data = e.worktree if e.worktree is not None else contents.get(e.blob)
                if data is None:
                    reasons[e.path] = "missing from git's object store"
                    continue
                if is_binary(data):
                    reasons[e.path] = "binary"
                    continue
                text, _warnings = decode(data)
                if is_module_config(e.path) and languages[e.path].name == "generic":
                    packages[e.path] = summary(e.path, text)
                    reasons[e.path] = "not a source language"
                    continue
                why = generated_reason(e.path, text, generated.get(e.path))
                if why:
                    reasons[e.path] = why
                    continue
                yield (order[e.path], e.path, e.blob, text, languages[e.path].name)

    total = len(small)
    batch: list[FileRows] = []
    done = 0
    for done, rows in enumerate(_parsed(jobs(), total, settings.jobs), 1):
        batch.append(rows)
        if kept is not None:
            kept.extend(_link_rows(rows.refs))
        if loaded is not None:
            loaded.files.append(rows.file)
            loaded.defs.extend(rows.defs)
            loaded.imports.extend(rows.imports)
        ids.append(int(str(rows.file[0])))
        if len(batch) == _BATCH:
            store.add_rows(batch)
            batch = []
        if progress is not None and done < total:
            progress(done, total)
    store.add_rows(batch)
    if progress is not None and total:
        progress(total, total)  # every file read (the rest skipped as binary, generated...)
    for e in entries:
        if e.path in reasons:
            file_id = order[e.path]
            store.add_skipped(
                file_id,
                e.path,
                e.blob,
                reasons[e.path],
                languages[e.path].name,
                packages.get(e.path, ""),
            )
            ids.append(file_id)
    return ids, done


def _with_aliases(conn: sqlite3.Connection, names: set[str]) -> set[str]:
    """``names`` and every name an import anywhere binds to one of them under another name
    (re-exports and aliases), transitively."""
    aliases: dict[str, set[str]] = {}
    for local, name in conn.execute("SELECT local, name FROM imports WHERE local != name"):
        aliases.setdefault(name, set()).add(local)
    out = set(names)
    todo = list(names)
    while todo:
        for alias in aliases.get(todo.pop(), ()):
            if alias and alias not in out:
                out.add(alias)
                todo.append(alias)
    return out


def _resolve(
    store: Store,
    cold: bool,
    new_ids: list[int],
    old_names: _Names,
    store_jobs: int,
    kept: list[LinkRow] | None = None,
    shapes: dict[str, _Shape] | None = None,
    loaded: Loaded | None = None,
    meanwhile: Sequence[Callable[[], object]] = (),
    whole: bool = False,
    progress: Progress | None = None,
) -> None:
    """``_relink`` with a resolver made for it (an update's reads the definitions it meets; a
    cold build's has them all in ``loaded``), closed after it or left to the exit. The steps of
    ``meanwhile`` run while link workers link, or after the links. ``whole``: ``shapes`` may
    hold files added or removed (``_carry``). ``progress``: told of the references resolved
    (``Resolver.link``; it may raise to stop)."""
    resolver = Resolver(store.conn, lazy=not cold, loaded=loaded if cold else None)
    resolver.progress = progress
    try:
        _relink(
            store, resolver, cold, new_ids, old_names, store_jobs, kept, shapes, meanwhile, whole
        )
    finally:
        if _LEFT:
            _LEFT.append(resolver)
        else:
            resolver.close()


def _relink(
    store: Store,
    resolver: Resolver,
    cold: bool,
    new_ids: list[int],
    old_names: _Names,
    store_jobs: int,
    kept: list[LinkRow] | None,
    shapes: dict[str, _Shape] | None,
    meanwhile: Sequence[Callable[[], object]],
    whole: bool = False,
) -> None:
    """Edges for what the change can affect (everything when ``cold``): the references of
    changed files; those whose lookup a changed file defines (or an alias of it); those whose
    lookup it imports, when they resolve through imports (a re-export); and those that look in
    classes inheriting, by name, from a class a changed file defines or imports. With
    ``shapes`` (those of files changed in place, before), only the names ``_carry`` says changed
    count, and the other edges into the changed files move to their definitions' new ids."""
    conn = store.conn
    select = "SELECT id, file_id, how, target_id, qualifier, lookup, kind FROM refs"
    if cold:  # (or every reference again, in an update)
        conn.execute("DELETE FROM edges")
        rows = kept if kept is not None else conn.execute(select).fetchall()
        # While the workers link, this process indexes the tables they do not change; the
        # edges go in slice by slice, as they come, in order.
        # The file graph is summed by the workers, slice by slice (as ``rebuild_links``
        # would sum the edges). The edges' index is kept up as they go in, while the workers
        # link (built after the last one, it was 0.3 s of serial time; about the same CPU);
        # the other tables are indexed while no slice is waiting.
        for step in store.index_steps(only=("edges", "file_links")):
            step()
        weights: dict[tuple[int, int], int] = {}
        get = weights.get
        steps = [*store.index_steps(skip=("edges", "file_links")), *meanwhile]
        for part in link_slices(resolver, rows, store_jobs, steps):
            insert_flat(conn, "INSERT OR IGNORE INTO edges VALUES", 4, part.edges)
            for key, weight in part.weights.items():
                weights[key] = get(key, 0) + weight
        conn.execute("DELETE FROM file_links")
        insert_rows(
            conn,
            "INSERT INTO file_links VALUES",
            3,
            [(src, dst, weight) for (src, dst), weight in sorted(weights.items())],
        )
        return
    carry = (
        None if shapes is None else _carry(shapes, _shapes(store, new_ids), resolver.deps_of, whole)
    )
    changed = carry.names if carry is not None else old_names | _names_of(store, new_ids)
    if carry is not None and carry.reimported:
        # A file imports other files than before: the `obj.m` guesses of all code that reaches
        # it may gain or lose the members of the files its closure gained or lost.
        reach: set[int] = set()
        for file_id, imports in carry.reimported:
            reach |= resolver.reach_change(file_id, imports)
        changed.defined.update(_member_names(store, reach))
    names = _with_aliases(conn, changed.defined)
    imported = _with_aliases(conn, changed.imported) - names
    heirs = resolver.heirs(changed.classes)
    for table, values in (("sel_files", new_ids), ("sel_classes", heirs)):
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table}(id INTEGER PRIMARY KEY)")
        conn.execute(f"DELETE FROM {table}")
        conn.executemany(f"INSERT INTO {table}(id) VALUES (?)", [(v,) for v in values])
    for table, words in (("sel_names", names), ("sel_imported", imported)):
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table}(name TEXT PRIMARY KEY)")
        conn.execute(f"DELETE FROM {table}")
        conn.executemany(f"INSERT INTO {table}(name) VALUES (?)", [(n,) for n in words])
    # `x = Foo(); x.m()` follows Foo's bases too: those of changed classes' heirs again;
    # `x = make(); x.m()` what make returns: again when a changed file defines or imports make.
    heir_names = {resolver.classes[c].name for c in heirs if c in resolver.classes}
    typed_names = _through_returns(conn, heir_names | names | imported)
    # (`x = Make(); x.m()` with Make a function: what Make returns, when Make changed.)
    # The qualifiers are read once each (about 4k for 37k references, through a small partial
    # index), then the references of those that match.
    # (a Java call's argument count after its qualifier is no part of the type: `ARGUMENTS`)
    written = {
        q: q.partition(ARGUMENTS)[0]
        for (q,) in conn.execute("SELECT DISTINCT qualifier FROM refs WHERE how = 'instance'")
    }
    through = _through_properties(conn, list(dict.fromkeys(written.values())), typed_names)
    typed = [
        (stored,)
        for stored, qualifier in written.items()
        if qualifier in through
        or qualifier.rsplit(".", 1)[-1] in typed_names
        or qualifier.split(".", 1)[0] in typed_names  # (Go `args := r.Called()`: `T.Called`)
        or (qualifier.endswith("()") and qualifier[:-2].rsplit(".", 1)[-1] in typed_names)
        or (qualifier.endswith("()[]") and qualifier[:-4].rsplit(".", 1)[-1] in typed_names)
        or (  # a chain `f().m().n()`, branches `c ? this.m() : this`, a Java container's
            # element `List<Foo>.get()`: again when any name along it changed
            ("()." in qualifier or ANY_OF in qualifier or "<" in qualifier)
            and any(w in typed_names for w in _WORD.findall(qualifier))
        )
        or (  # `f(x, p => p.m())` (`f=>T`): again when f or T changed
            CALLBACK in qualifier
            and any(p.rsplit(".", 1)[-1] in typed_names for p in qualifier.split(CALLBACK))
        )
    ]
    # Go `x.m()`, x a package variable of another file (how 'free', qualifier x): again when
    # x changed or what its declaration holds (`var x = NewT()`: NewT, T) did.
    held = {
        name
        for name, returned in conn.execute(
            "SELECT name, returned FROM defs WHERE kind = 'variable' AND returned != ''"
        )
        if any(w in typed_names for w in _WORD.findall(returned))
    }
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS sel_values(name TEXT PRIMARY KEY)")
    conn.execute("DELETE FROM sel_values")
    conn.executemany("INSERT INTO sel_values(name) VALUES (?)", [(n,) for n in held | names])
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS sel_typed(qualifier TEXT PRIMARY KEY)")
    conn.execute("DELETE FROM sel_typed")
    conn.executemany("INSERT INTO sel_typed(qualifier) VALUES (?)", typed)
    # A Go method's receiver (`s.T()`, how 'self', its type's name the qualifier) reaches the
    # types its type embeds: again when that type or one it embeds changed.
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS sel_receivers(file_id INTEGER, qualifier TEXT, "
        "PRIMARY KEY(file_id, qualifier))"
    )
    conn.execute("DELETE FROM sel_receivers")
    conn.executemany("INSERT INTO sel_receivers VALUES (?, ?)", resolver.go_receivers(heirs))
    rows = conn.execute(
        # (a file's references: the range of its ids, ``row_id``)
        "SELECT r.id, r.file_id, r.how, r.target_id, r.qualifier, r.lookup, r.kind "
        f"FROM sel_files s JOIN refs r ON r.id >= s.id << {ID_BITS} "
        f"AND r.id < (s.id + 1) << {ID_BITS} "
        f"UNION {select} WHERE lookup IN (SELECT name FROM sel_names) "
        f"UNION {select} WHERE lookup IN (SELECT name FROM sel_imported) "
        "AND how IN ('import', 'module', 'free') "
        f"UNION {select} WHERE target_id IN (SELECT id FROM sel_classes) AND {TARGETED} "
        "AND how IN ('self', 'super', 'class', 'free', 'instance') "
        f"UNION {select} WHERE how = 'instance' AND qualifier IN "
        "(SELECT qualifier FROM sel_typed) "
        f"UNION {select} WHERE how = 'free' AND qualifier IN (SELECT name FROM sel_values) "
        "UNION SELECT r.id, r.file_id, r.how, r.target_id, r.qualifier, r.lookup, r.kind "
        f"FROM sel_receivers s JOIN refs r ON r.id >= s.file_id << {ID_BITS} "
        f"AND r.id < (s.file_id + 1) << {ID_BITS} AND r.how = 'self' "
        "AND r.qualifier = s.qualifier ORDER BY 1"
    ).fetchall()
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS sel_refs(id INTEGER PRIMARY KEY)")
    conn.execute("DELETE FROM sel_refs")
    conn.executemany("INSERT INTO sel_refs(id) VALUES (?)", [(r[0],) for r in rows])
    if carry is not None:
        # The other edges into changed files go to the same definitions' new ids (below); one
        # to a definition that did not stay (none should be) has its reference resolved again.
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS renamed(old INTEGER PRIMARY KEY, new INTEGER)"
        )
        conn.execute("DELETE FROM renamed")
        conn.executemany("INSERT INTO renamed VALUES (?, ?)", sorted(carry.new_id.items()))
        again = conn.execute(
            f"{select} WHERE id IN (SELECT ref_id FROM moved WHERE def_id NOT IN "
            "(SELECT old FROM renamed)) AND id NOT IN (SELECT id FROM sel_refs)"
        ).fetchall()
        if again:
            conn.executemany("INSERT INTO sel_refs(id) VALUES (?)", [(r[0],) for r in again])
            rows = sorted(rows + again)
    # The edges of these references before and after: only those that differ are deleted and
    # inserted (most stay as they were; rewriting them all was most of an update's writing).
    before: dict[tuple[int, int], tuple[float, str, int]] = {
        (ref_id, def_id): (confidence, via, weight)
        for ref_id, def_id, confidence, via, weight in conn.execute(
            "SELECT ref_id, def_id, confidence, via, "
            f"CAST(ROUND(confidence * {WEIGHT_UNIT}) AS INTEGER) FROM edges "
            "WHERE ref_id IN (SELECT id FROM sel_refs)"
        )
    }
    after: dict[tuple[int, int], tuple[float, str]] = {}
    for ref_id, def_id, confidence, via in link_all(resolver, rows, store_jobs):
        after.setdefault((ref_id, def_id), (confidence, via))  # the first one stands
    delta: dict[tuple[int, int], int] = defaultdict(int)
    gone: list[tuple[int, int]] = []
    for key, (confidence, via, weight) in before.items():
        if after.get(key) != (confidence, via):
            gone.append(key)
            if via != "member":
                delta[(key[0] >> ID_BITS, key[1] >> ID_BITS)] -= weight
    added: list[tuple[int, int, float, str]] = []
    for (ref_id, def_id), (confidence, via) in after.items():
        old = before.get((ref_id, def_id))
        if old is None or old[:2] != (confidence, via):
            added.append((ref_id, def_id, confidence, via))
            if via != "member":
                delta[(ref_id >> ID_BITS, def_id >> ID_BITS)] += link_weight(confidence)
    conn.executemany("DELETE FROM edges WHERE ref_id = ? AND def_id = ?", gone)
    conn.executemany("INSERT INTO edges VALUES (?, ?, ?, ?)", added)
    if carry is not None:
        stayed = (
            "FROM moved m JOIN renamed r ON r.old = m.def_id "
            "WHERE m.ref_id NOT IN (SELECT id FROM sel_refs)"
        )
        conn.execute(f"INSERT INTO edges SELECT m.ref_id, r.new, m.confidence, m.via {stayed}")
        for src, dst, weight in conn.execute(
            f"SELECT m.ref_id >> {ID_BITS}, r.new >> {ID_BITS}, "
            f"SUM(CAST(ROUND(m.confidence * {WEIGHT_UNIT}) AS INTEGER)) {stayed} "
            "AND m.via != 'member' GROUP BY 1, 2"
        ):
            delta[(src, dst)] += weight
    adjust_links(conn, delta)
    for step in meanwhile:
        step()


def holds(git: Git, store: Store, listing: dict[str, Listed]) -> bool:
    """Whether the rows are at ``listing`` already (``apply_listing`` would read and remove
    nothing)."""
    plan = _plan(store, _storable(listing), False, git)
    return not plan.read and not plan.gone


def apply_listing(
    git: Git,
    store: Store,
    listing: dict[str, Listed],
    settings: IndexSettings,
    progress: Progress | None = None,
) -> int:
    """Inside the caller's open transaction, bring the rows to ``listing`` (re-reading only
    the files whose blob differs) and re-resolve what that can affect, as an update does;
    nothing is committed. A review resolves a change's two sides this way and rolls back.
    ``progress`` is told of each file read, then of the references resolved again (it may
    raise to stop: the caller rolls back). Returns how many files were read."""
    plan = _plan(store, _storable(listing), False, git)
    old_names = _names_of(store, plan.gone)
    packages = _py_packages(store)
    configs = _module_configs(store)
    before = _before(store, plan, whole=True)
    store.delete_files(plan.gone)
    new_ids, _ = _write(git, store, plan.read, settings, progress)
    if plan.read or plan.gone:
        # (as an update: a go.mod or a tsconfig.json that differs leads other files' imports
        # elsewhere; a review whose base or change has another one resolves everything again)
        relink = _py_packages(store) != packages or _module_configs(store) != configs
        _resolve(
            store,
            relink,
            new_ids,
            old_names,
            settings.jobs,
            shapes=before,
            whole=True,
            progress=progress,
        )
    return len(plan.read)
