"""The global pass: each reference to the definitions it means, by the language's rules.

Module-level names go through the file's imports (Python absolute and relative imports and
packages' ``__init__`` re-exports; a folder without ``__init__.py`` (a namespace package,
``tests/``) makes its files modules also by their dotted path from each folder above it, used
when no regular module has the name, the nearest file to the importer when several do; relative
imports by the importing file's folder; ES named, default and namespace imports and ``export
... from`` re-exports; Go import paths through ``go.mod``; Java single-type, static and
on-demand imports; bare specifiers naming a package folder of the repository, ``export * as
ns``); Go and Java see their package's other files; ``self.m``/``this.m`` look in the enclosing
class and then its bases (found by the same rules); ``super().m`` in the bases only; ``x.m``
with a written receiver type (``instance``: a class, or what a called function's signature
says it returns) to that class's member, none for a builtin's or a library's class; ``x.a.m``
through the type x's class declares its property ``a`` with (TS/JS declarations; Python
class-level annotations and ``@property`` getters' return annotations); in TS/JS
also to the members of that name up and down the class hierarchy (``via = "family"``,
confidence 0.5: an override may run instead, and the TypeScript service counts them as one
method), including the repository's overrides of an outside class's method; a TS/JS
callback's untyped parameter (``f(x, p => p.m())``, ``f`` declared in TypeScript) as the type
of the call's one typed argument (``via = "callback"``, confidence 0.5); a member through a
union of classes (``f(): A | B``, ``type AB = A | B``) to each of its classes' that differ, at
1/their number (``via = "union"``); a Java constructor call (``new C(...)``, ``this(...)``,
``super(...)``) also to the constructor whose arity fits, else to each that may be it at
1/their number (``via = "overload"``), and a Java method call to the overloads of its name
that take as many arguments (a variadic one, as many or more), at 1/their number when several
do (``via = "overload"``); a class base that a local or a parameter names
(``local:``) is unknown; ``obj.m``
with a receiver nobody can type links to every member of that name in the files the referring
file reaches through its imports (none when it reaches none), with confidence
1/candidates; candidates in one file (overloads) are one meaning; a type position prefers
types, a value position values; a language without a grammar links by name only (``via =
"name"``).

Every edge goes to a definition whose name is the reference's ``lookup``, or an alias of it
(``export {make as build}``, ``from x import a as b`` re-exported): an update therefore
re-resolves only the references of changed files, those whose lookup names a definition or an
import of a changed file (before or after) or an alias of one, and ``self``/``super``/``class``
references in classes that inherit (by name) from a class of a changed file. When files change
in place (none added or removed), the names are narrowed to those whose definitions or imports
changed (``build._carry``; the other edges move to the new ids), and a file that imports other
files than before re-resolves the guesses for the members of the files its closure gained or
lost. A review bringing the index to its change's base narrows them so too when some files
are also added or removed (each of those counts all its names; ``build.apply_listing``). (Not
re-resolved when files are added or removed: ``obj.m`` guesses whose reach changed only through
other files' imports.) An update that adds or removes a Python package's
``__init__`` changes module names: it re-resolves everything.
"""

from __future__ import annotations

import itertools
import multiprocessing
import posixpath
import re
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from reviewbot.index.configs import TsConfigs, is_module_config
from reviewbot.index.extract import (
    ALIAS,
    ANY_OF,
    ARGUMENTS,
    AUGMENTS,
    DECLARED,
    GETTER,
    LITERAL,
    LOCAL,
    NEW,
    OWN,
    PROPERTY,
    PY_RETURNS,
    QUALIFIED,
    TS_PRIMITIVES,
    clean_type,
    constructor_arity,
    field_type,
    field_union,
    go_field_type,
    java_container_returns,
    parameter_types,
    type_parameters,
    union_types,
    written_element,
)
from reviewbot.index.records import COMMONJS
from reviewbot.index.store import ID_BITS, WEIGHT_UNIT

__all__ = [
    "CALLBACK",
    "Linked",
    "Loaded",
    "Resolver",
    "Row",
    "adjust_links",
    "file_weights",
    "link_all",
    "link_slices",
    "link_weight",
    "rebuild_links",
    "written_return",
]

_NO_CYCLE = 1 << 30
# An `obj.m` nobody can type with more members of that name in reach links to none: a guess
# of 1 in 6 or worse told a reader nothing (on the index bench's tune half, 5 and 20 found the
# same references; 4 lost TypeScript methods) and was 40% of a cold build's edges.
_MAX_CANDIDATES = 5
_MAX_NAMESAKES = 20  # a name-level link (no grammar) to more definitions of the name: none
_DEPTH = 12
_JS_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
_CLASSY = ("class", "interface", "enum", "struct", "type")
_TYPES = ("interface", "type")
_CALLABLE = frozenset({"method", "function", "constructor"})
_WANT = {"call": "call", "attribute": "value"}  # what a Java member lookup may find, by ref kind


# A reference as the global pass reads it: id, file id, how, target, qualifier, lookup, kind.
Row = tuple[int, int, str, int | None, str, str, str]


class Loaded(NamedTuple):
    """A cold build's rows as it wrote them (``store.file_rows``'s, in id order), for a
    resolver made without reading them back: the indexed files', definitions', imports'."""

    files: list[tuple[Any, ...]]
    defs: list[tuple[Any, ...]]
    imports: list[tuple[Any, ...]]


class _File(NamedTuple):
    id: int
    path: str
    language: str
    package: str
    parser: str


class _Def(NamedTuple):
    id: int
    file_id: int
    kind: str
    name: str
    parent_id: int | None
    container: str
    qualified: str
    bases: tuple[str, ...]


class _Import(NamedTuple):
    id: int
    file_id: int
    local: str
    module: str
    name: str
    export: bool


K = TypeVar("K")
V = TypeVar("V")


class _Lazy(dict[K, V]):
    """A table filled part by part on first ``get`` of a key of the part (``part(key)``
    names it, ``fill(part)`` loads it); ``complete`` when filled at once."""

    def __init__(self, part: Callable[[K], object], fill: Callable[[Any], None]) -> None:
        super().__init__()
        self._part = part
        self._fill = fill
        self._filled: set[object] = set()
        self.complete = False

    def get(self, key: K, default: Any = None) -> Any:
        if not self.complete:
            part = self._part(key)
            if part not in self._filled:
                self._filled.add(part)
                self._fill(part)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None  # type: ignore[arg-type]


def _same(key: object) -> object:
    return key


def _first(key: tuple[object, str]) -> object:
    return key[0]


def _file_part(key: int) -> object:
    """The file of a row id (its high bits)."""
    return key >> ID_BITS


def _shared(a: str, b: str) -> int:
    """How many leading folders two paths share."""
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n


_SELF = frozenset({"self", "cls", "this"})
_SUPER = frozenset({"super", "super()"})  # TS/JS/Java `super.m`, Python `super().m`
_OVERLOAD = "overload"  # a Java constructor call whose arity does not pick one constructor
_UNION = "union"  # a member of one of a union's classes (`f(): A | B`), 1/classes that have it
# A member found through a typed receiver also means the members of that name up and down its
# class hierarchy (an override runs in its place), at this confidence, in these languages.
# Members found through a known receiver, whose overrides up and down a TS/JS class hierarchy
# may run instead (not `super.m`: it runs the base's own method).
_SURE_MEMBER = frozenset({"self", "class", "instance", _UNION})
_FAMILIES = frozenset({"typescript", "tsx", "javascript"})
_FAMILY_WEIGHT = 0.5
# Calls a call's type is read through (`make()` returning `self.m()` returning ...): inferred
# returns chain (yup's `number().min()`: `this.test()`, then `this.clone()`, then `this`).
_MAX_RETURN_DEPTH = 5
_HALF_SURE = frozenset({"family", "callback"})  # links at _FAMILY_WEIGHT
CALLBACK = "=>"  # in a qualifier: `f=>T`, a callback parameter (extract._callback_types)
_SIGNED = frozenset({"typescript", "tsx"})  # languages whose functions write their types
_MAX_FAMILY = 200  # classes up or down
_MAX_RETURN_GUESS = 3  # `obj.m()` with obj untyped types its value by m's return type if so few
_TYPED_GLOBALS = frozenset({"python", "typescript", "tsx", "javascript", "java"})  # a builtin
# Go: `func New() *Foo`, `func New() (*Foo, error)`, `func (r *R) Get() Foo`.
_GO_RETURNS = re.compile(r"^func\b.*\)\s*\(?\s*(\*?[A-Za-z_][\w.]*)\s*(?:,[^()]*\))?\s*$", re.S)
_ARGUMENT = re.compile(r"(new )?(.*)\((\d+)\)")  # a literal argument's context: `f(0)`
# A TS property declared with a literal type (`kind: "circle"`, `ok: true`, `code: 404`).
_LITERAL_TYPE = re.compile(
    r"[\w$]\s*\??\s*:\s*(?:[\"'`]|-?\d|true\b|false\b)"
)  # a literal argument's context: `f(0)`
# Django's framework typing (``Resolver._django_model``, ``_managers``): `X = Base.from_queryset(
# Q)` and `class M(Base.from_queryset(Q))` make a class with Base's and Q's methods; a Python
# class-level `objects = UserManager()` holds what the name called makes.
_FROM_QUERYSET = re.compile(
    r"\s*[A-Za-z_]\w*\s*=\s*([A-Za-z_][\w.]*)\s*\.\s*from_queryset\s*\(\s*([A-Za-z_][\w.]*)\s*\)"
)
_FROM_QUERYSET_BASE = ".from_queryset"  # a base written `Base.from_queryset(Q)`: Base (and Q)
_PY_FIELD_VALUE = re.compile(r"[A-Za-z_]\w*\s*=\s*([A-Za-z_][\w.]*)\s*\(.*", re.S)
# A class deriving from Django's `Model` has the managers its metaclass adds: `objects` (when
# it declares none) and `_default_manager`, its first manager; `_base_manager`, a plain one.
_DJANGO_MODELS = frozenset({"django.db.models.Model", "django.db.models.base.Model"})
_DJANGO_MODEL_FILE = "django/db/models/base.py"
_MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})
# Manager and QuerySet methods that return a queryset (or manager) of the same model, and those
# that return one of its instances (`Model.objects.filter(...).first()`: a Model); iterating a
# model's queryset gives its instances too.
_QUERYSET_SAME = frozenset(
    "all filter exclude order_by select_related prefetch_related using annotate alias distinct "
    "only defer none reverse select_for_update db_manager".split()
)
_MODEL_INSTANCE = frozenset("get create first last earliest latest".split())
# A manager's method returning `self.model(...)` (a custom manager's `create_user`): the model
# the manager was reached through (``Resolver._model_context``).
_MANAGER_MODEL = frozenset({"self.model", "cls.model"})
_TS_RETURNS = re.compile(r"\)\s*:\s*([^()]+?)\s*(?:=>)?\s*$", re.S)


# Java: a method's header: annotations (`@GET("/")`), modifiers, type parameters, the type.
_JAVA_ANNOTATION = re.compile(r'\s*@[\w$.]+(?:\s*\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))?')
_JAVA_GENERIC = re.compile(r"<[^<>]*>")
_JAVA_PRIMITIVE = frozenset("void boolean byte char short int long float double var".split())


def java_returns(signature: str) -> str:
    """The class a Java method's header says it returns (``public static <T> Response<T>
    success(T body)``: ``Response``), or "" (void, a primitive, an array, a type variable)."""
    text = signature
    while (found := _JAVA_ANNOTATION.match(text)) is not None and found.end():
        text = text[found.end() :]
    paren = text.find("(")
    if paren < 0:
        return ""
    head = text[:paren]
    own = re.match(r"\s*(?:\w+\s+)*<([^()]*)>", head)  # the method's own type parameters
    variables = set(re.findall(r"(?:^|,)\s*([A-Za-z_$][\w$]*)", own.group(1))) if own else set()
    for _ in range(4):
        head, n = _JAVA_GENERIC.subn(" ", head)
        if not n:
            break
    words = head.split()
    if len(words) < 2 or "[" in words[-2] or "<" in head or ">" in head:
        return ""
    written = words[-2]
    if written in _JAVA_PRIMITIVE or written in variables or len(written) == 1:
        return ""  # (a lone capital is a type variable: the class's `T`)
    return written


def _returns(signature: str) -> str:
    """The class a function's signature says it returns, as written, or "" (an overload's
    signature ends with ``;``)."""
    signature = signature.rstrip().rstrip(";")
    if signature.startswith("async def"):
        return ""  # (a coroutine, what awaiting it gives is written)
    found = (
        PY_RETURNS.search(signature)
        or _TS_RETURNS.search(signature)
        or _GO_RETURNS.search(signature)
    )
    if found is None:
        return ""
    written = clean_type(found.group(1))
    if not written and "|" in found.group(1):
        # A union of classes (`f(): A | B`): each of them, `A|B` (``Resolver.typed``).
        members = union_types(found.group(1))
        return "|".join(members) if len(members) > 1 else ""
    return written


def written_return(kind: str, signature: str, returned: str = "", language: str = "") -> str:
    """What a definition says it returns, as the resolver reads it (``Resolver.returns``,
    ``Resolver.field_types``): a function's or method's written class (else what its body's
    `return`s say, ``returned``), a property's type, else "". An update compares these to
    know whether a changed file's functions still return (and its properties still hold)
    what they did."""
    if kind == "variable" and language == "go":
        return returned  # a package variable's type (`var x = NewT()`, `var x T`)
    if kind == "field":
        if language == "go":
            return go_field_type(signature)
        return field_type(signature) if ":" in signature else ""
    if kind not in ("function", "method"):
        return ""
    if language == "java":
        return java_returns(signature)
    if "->" in signature or "):" in signature or signature[:5] == "func ":
        return _returns(signature) or returned
    return returned


def _union(bases: tuple[str, ...]) -> bool:
    """Whether a type alias's bases are a union's members (not the one type it aliases)."""
    return bool(bases) and not bases[0].startswith(ALIAS)


def _strip_ext(path: str) -> str:
    for ext in sorted(_JS_EXTENSIONS, key=len, reverse=True):
        if path.endswith(ext):
            return path[: -len(ext)]
    return path


# A specifier's extension names its module's flavour, and TypeScript reads the typed file of
# that flavour first: `./index.cjs` is `index.cts` or `index.d.cts` where one exists (axios's
# index.d.ts re-exports all from './index.cjs', its index.d.cts), `./a.js` is `a.ts`.
_FLAVOURS = {
    ".cjs": (".cts", ".d.cts", ".cjs"),
    ".mjs": (".mts", ".d.mts", ".mjs"),
    ".js": (".ts", ".tsx", ".d.ts", ".js"),
}


def _js_flavour(base: str) -> tuple[str, ...]:
    """The files a specifier with a JavaScript extension names, in TypeScript's order."""
    stem, dot, ext = base.rpartition(".")
    if not dot or "/" in ext:
        return ()
    return tuple(stem + e for e in _FLAVOURS.get("." + ext, ()))


class Resolver:
    """Everything the rules need, loaded once from the store."""

    def __init__(
        self, conn: sqlite3.Connection, *, lazy: bool = False, loaded: Loaded | None = None
    ) -> None:
        """``loaded``: the rows themselves (a cold build's: reading them back took 0.2 s of
        its serial time), else read from ``conn``."""
        self.conn = conn
        self._loaded = loaded
        file_rows: Iterable[tuple[Any, ...]] = (
            conn.execute(
                "SELECT id, path, language, package, parser FROM files WHERE skipped IS NULL"
            )
            if loaded is None
            else ((r[0], r[1], r[3], r[5], r[4]) for r in loaded.files)
        )
        self.files: dict[int, _File] = {
            r[0]: _File(r[0], r[1], r[2] or "", r[3] or "", r[4] or "") for r in file_rows
        }
        # Classes (and types) in full; the other definitions all at once, or (``lazy``, for an
        # update that resolves a few references) each file's, class's and name's on first use.
        self.classes: dict[int, _Def] = {}
        self.class_by_name: dict[str, list[int]] = defaultdict(list)
        self.top: _Lazy[int, dict[str, list[int]]] = _Lazy(_same, self._load_top)
        self.members: _Lazy[tuple[object, str], dict[str, list[int]]] = _Lazy(
            _first, self._load_members
        )
        self.members_by_name: _Lazy[str, list[int]] = _Lazy(_same, self._load_by_name)
        self.callable_members: set[int] = set()
        # Java constructors' arities (fewest, most arguments; most -1: any), by id.
        self.arity: _Lazy[int, tuple[int, int]] = _Lazy(_file_part, self._load_arity)
        self.field_members: set[int] = set()  # (no family: a property is no method to override)
        # Java methods' arities (as constructors'), read on first use by a call that counts its
        # arguments (``ARGUMENTS``).
        self.method_arity: dict[int, tuple[int, int]] = {}
        classy = ", ".join(f"'{k}'" for k in _CLASSY)
        rows: Iterable[tuple[Any, ...]]
        if loaded is not None and not lazy:
            rows = (
                (r[0], r[1], r[2], r[3], r[8], r[9])
                + ((r[4], r[11]) if r[2] in _CLASSY else (None, None))
                for r in loaded.defs
            )
        elif lazy:
            rows = conn.execute(
                "SELECT id, file_id, kind, name, parent_id, container, qualified, bases "
                f"FROM defs WHERE kind IN ({classy})"
            )
        else:
            rows = conn.execute(
                "SELECT id, file_id, kind, name, parent_id, container, "
                f"CASE WHEN kind IN ({classy}) THEN qualified END, "
                f"CASE WHEN kind IN ({classy}) THEN bases END FROM defs"
            )
        classes = self.classes
        top: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        members: dict[tuple[object, str], dict[str, list[int]]] = defaultdict(
            lambda: defaultdict(list)
        )
        by_member: dict[str, list[int]] = defaultdict(list)
        nested: dict[tuple[int, str], list[int]] = defaultdict(list)
        callable_members = self.callable_members
        go_folder = {
            f.id: ("go", posixpath.dirname(f.path))
            for f in self.files.values()
            if f.language == "go"
        }
        for def_id, file_id, kind, name, parent_id, container, qualified, bases in rows:
            if qualified is not None:
                classes[def_id] = _Def(
                    def_id,
                    file_id,
                    kind,
                    name,
                    parent_id,
                    container,
                    qualified,
                    tuple(bases.split()) if bases else (),
                )
                self.class_by_name[name].append(def_id)
            if lazy:
                continue
            if container:
                members[(go_folder.get(file_id, file_id), container)][name].append(def_id)
                by_member[name].append(def_id)
                if kind in _CALLABLE:
                    callable_members.add(def_id)
                elif kind == "field":
                    self.field_members.add(def_id)
            elif parent_id is None:
                top[file_id][name].append(def_id)
            elif kind == "function":
                nested[(parent_id, name)].append(def_id)
        # A function's local functions of one name (`if x: def g()` / `else: def g()`): each
        # is the others' namesakes (``lazy``: read for each one on first use).
        self._local_twins: dict[int, tuple[int, ...]] = {
            d: tuple(ids) for ids in nested.values() if len(ids) > 1 for d in ids
        }
        self._local_twins_read = not lazy
        # What functions return, where it is written (`def f() -> Foo`, `f(): Foo`, Go's
        # `func New() *Foo`): in full, or (``lazy``) each function's on first use.
        self.returns: _Lazy[int, tuple[str, int | None]] = _Lazy(_same, self._load_returns)
        self.inferred: set[int] = set()  # those of ``returns`` read from the body's `return`s
        self.getters: set[int] = set()  # (of those: Python `@property` getters, read with it)
        # (Java methods returning a generic type written with arguments, `List<Attribute>`: a
        # library's such class still hands out the repository's classes, its elements)
        self.generic_returns: set[int] = set()
        # What a `for` over a function's result binds (read with ``returns``).
        self.elements: dict[int, str] = {}
        if not lazy:
            self._load_returns(None)
            self.returns.complete = True
            self._load_arity(None)
            self.arity.complete = True
        # TS properties' written types (`copy_: Set<any>`): in full, or each on first use;
        # and the members of those declared as a union of classes (read for literals' keys).
        self.field_types: _Lazy[int, str] = _Lazy(_same, self._load_field_types)
        self.field_unions: _Lazy[int, tuple[str, ...]] = _Lazy(_same, self._load_field_types)
        self._declared: set[int] = set()  # TS properties declared in a type (no guesses)
        self.literal_fields: set[int] = set()  # (of those: declared with a literal type)
        # TS functions' signatures that write types (what a literal argument's keys mean).
        # (signature, parent id, kind); and TS classes' that declare type parameters.
        self.signatures: _Lazy[int, tuple[str, int | None, str]] = _Lazy(
            _same, self._load_signatures
        )
        # Python class-level fields assigned a call of a plain name (`objects = UserManager()`):
        # the name called (read with ``field_types``; a Django model's own manager).
        self.field_values: dict[int, str] = {}
        # Python module-level `X = Base.from_queryset(Q)` (Django): X is a class with both
        # Base's and Q's methods; (Base, Q) as written, by the variable's id.
        self.queryset_made: dict[int, tuple[str, str]] = {}
        for found, signature in conn.execute(
            "SELECT id, signature FROM defs WHERE kind = 'variable' "
            "AND signature LIKE '%from\\_queryset%' ESCAPE '\\'"
        ):
            made = _FROM_QUERYSET.match(signature or "")
            if made is not None:
                self.queryset_made[found] = (made.group(1), made.group(2))
        self._model_memo: dict[int, bool] = {}
        # The models a manager's call is typed for (`User.objects.create_user()`): what the
        # manager's own `self.model` means while its return is read.
        self._model_context: tuple[int, ...] = ()
        if not lazy:
            self._load_field_types(None)
            self.field_types.complete = self.field_unions.complete = True
            self._load_signatures(None)
            self.signatures.complete = True
            for name, ids in by_member.items():
                if any(d in self._declared for d in ids):
                    by_member[name] = [d for d in ids if d not in self._declared]
        if not lazy:
            self.top.update(top)
            self.members.update(members)
            self.members_by_name.update(by_member)
            self.top.complete = self.members.complete = self.members_by_name.complete = True
        # TS object literals' methods under a written type (their `bases`): members of it
        # (read on first use when ``lazy``).
        self._typed_literals: list[tuple[int, int, str, tuple[str, ...]]] | None = None
        if not lazy:
            self.typed_literals()
        # The imports: all at once, or (``lazy``) each file's on first use.
        self.imports: _Lazy[int, _Import] = _Lazy(_file_part, self._load_imports)
        self.file_imports: _Lazy[int, list[_Import]] = _Lazy(_same, self._load_imports)
        self._imports_read: set[int] = set()
        if not lazy:
            self._load_imports(None)
        # Name-level links (files without a grammar) need every definition by name; loaded
        # here, before any worker forks, and only when such files exist.
        self.name_defs: dict[str, list[tuple[int, int]]] = defaultdict(list)
        if any(f.parser == "outline" for f in self.files.values()):
            named: Iterable[tuple[Any, ...]] = (
                conn.execute("SELECT id, file_id, name FROM defs")
                if loaded is None
                else ((r[0], r[1], r[3]) for r in loaded.defs)
            )
            for def_id, file_id, name in named:
                self.name_defs[name].append((def_id, file_id))
        self._modules()
        self._export_memo: dict[tuple[int, str], tuple[int, ...]] = {}
        # (language, folder or package, name) -> (file, definition) of every file there
        self._package_memo: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
        self._go_vars: dict[int, str] = {}  # a Go package variable's type (`_go_variable_type`)
        self._active: dict[tuple[int, str], int] = {}  # exports being worked out: stack place
        self._low = _NO_CYCLE  # the lowest stack place the answer being worked out read
        self._member_memo: dict[tuple[int, str, bool, str], tuple[tuple[int, ...], bool]] = {}
        self._base_memo: dict[int, tuple[tuple[int, ...], bool]] = {}
        self._up_memo: dict[int, dict[int, None]] = {}  # class -> ``_above([class])``
        self._kin_memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        # Told (done, done) before each reference ``link`` works out (none repeated): it may
        # raise to stop (a review's time budget, ``repo_impact._clock``). (No total: what the
        # rest costs is not known from what was done, the first answers fill the memos.)
        self.progress: Callable[[int, int], None] | None = None
        # (class, depth) -> ``_expand`` of that class alone at that depth
        self._expand_memo: dict[tuple[int, int], tuple[tuple[int, ...], tuple[str, ...]]] = {}
        self._reach: dict[int, int] | None = None
        # An update (``lazy``) works out the closures of the files it meets, one by one.
        self._reach_each: dict[int, int] | None = {} if lazy else None
        self._deps_memo: dict[int, set[int]] = {}
        self._spread: dict[str, tuple[int, dict[int, list[int]]]] = {}
        self._any_memo: dict[tuple[str, int], tuple[int, ...]] = {}
        self._typed_memo: dict[
            tuple[int, int | None, str, int, bool, int, tuple[int, ...]],
            tuple[tuple[int, ...], bool],
        ] = {}
        # The receiver qualifier of the Java call being linked and its calls' argument counts,
        # nearest first (``_step_arity``).
        self._chain: tuple[str, tuple[int, ...]] = ("", ())
        self._packages: set[str] | None = None
        self._owner: dict[int, int] | None = None
        # The members a union's receiver reaches -> how many of its classes have them.
        self._union_ways: dict[tuple[int, ...], int] = {}
        self._children: dict[int, list[int]] = {}
        self._member_name: dict[int, str] = {}
        self._outside_heirs: dict[str, list[int]] | None = None
        self._literal_members: dict[tuple[int, str], list[int]] | None = None
        self._kin: dict[tuple[int, int], tuple[int, ...]] = {}
        self._augmented: dict[int, tuple[int, ...]] | None = None
        self._bit: dict[int, int] = {}
        self._loaded = None  # (what reads on first use reads from ``conn``)

    # -- definitions read on first use (lazy) --------------------------------------------------

    def _load_top(self, file_id: int) -> None:
        found: dict[str, list[int]] = {}
        for def_id, name in self.conn.execute(
            "SELECT id, name FROM defs WHERE file_id = ? AND container = '' "
            "AND parent_id IS NULL ORDER BY id",
            (file_id,),
        ):
            found.setdefault(name, []).append(def_id)
        if found:
            self.top[file_id] = found

    def _load_members(self, scope: object) -> None:
        """The members of the classes of a file (Go: of a package's folder)."""
        if isinstance(scope, tuple):
            ids = self.go_folders.get(scope[1], [])
        else:
            ids = [scope] if isinstance(scope, int) else []
        marks = ",".join("?" * len(ids))
        for def_id, kind, name, container in self.conn.execute(
            f"SELECT id, kind, name, container FROM defs WHERE file_id IN ({marks}) "
            "AND container != '' ORDER BY id",
            ids,
        ):
            table = self.members.setdefault((scope, container), {})
            table.setdefault(name, []).append(def_id)
            if kind in _CALLABLE:
                self.callable_members.add(def_id)
            elif kind == "field":
                self.field_members.add(def_id)

    def _load_arity(self, file_id: int | None) -> None:
        """The arities of one file's Java constructors (``None``: every file's)."""
        rows: Iterable[tuple[Any, ...]]
        if file_id is None and self._loaded is not None:
            rows = ((r[0], r[5]) for r in self._loaded.defs if r[2] == "constructor")
        elif file_id is None:
            rows = self.conn.execute("SELECT id, signature FROM defs WHERE kind = 'constructor'")
        else:
            rows = self.conn.execute(
                "SELECT id, signature FROM defs WHERE file_id = ? AND kind = 'constructor'",
                (file_id,),
            )
        for def_id, signature in rows:
            dict.__setitem__(self.arity, def_id, constructor_arity(signature) or (0, -1))

    def _load_returns(self, def_id: int | None) -> None:
        """What one function (``None``: every function) says it returns, when it says."""
        where = "" if def_id is None else "id = ? AND "
        rows: Iterable[tuple[Any, ...]]
        if def_id is None and self._loaded is not None:
            java = {f.id for f in self.files.values() if f.language == "java"}
            rows = (
                (r[0], r[8], r[5], r[11], r[12])
                for r in self._loaded.defs
                if r[2] in ("function", "method")
                and ("->" in r[5] or "):" in r[5] or r[5][:5] == "func " or r[12] or r[1] in java)
            )
        else:
            rows = self.conn.execute(
                "SELECT d.id, d.parent_id, d.signature, d.bases, d.returned FROM defs d "
                f"JOIN files f ON f.id = d.file_id WHERE {where.replace('id', 'd.id')}"
                "d.kind IN ('function', 'method') "
                "AND (instr(d.signature, '->') > 0 OR instr(d.signature, '):') > 0 "
                "OR substr(d.signature, 1, 5) = 'func ' OR d.returned != '' "
                "OR f.language = 'java')",
                () if def_id is None else (def_id,),
            )
        for found, parent_id, signature, bases, returned in rows:
            # (what the body's `return`s say, when the signature writes nothing: the
            # extractor's ``Definition.returned``)
            home = self.files.get(found >> ID_BITS)
            written = (
                java_returns(signature)
                if home is not None and home.language == "java"
                else _returns(signature)
            )
            if not written and returned:
                written = returned
                self.inferred.add(found)
            if written:
                self.returns[found] = (written, parent_id)
                if bases == GETTER:
                    self.getters.add(found)
                if home is not None and home.language == "java" and "<" in signature:
                    head = signature.split("(", 1)[0]
                    if re.search(rf"\b{re.escape(written.rsplit('.', 1)[-1])}\s*<", head):
                        self.generic_returns.add(found)
                if "[" in signature:
                    element = written_element("function", signature)
                    if element:
                        self.elements[found] = element

    def _load_field_types(self, def_id: int | None) -> None:
        """What one property (``None``: every property) says it holds (a TS declaration's
        type, a Python class-level annotation); and (``None``) which TS/JS fields are declared
        in a type (not `this.x = ...`)."""
        where = "" if def_id is None else "id = ? AND "
        for found, signature in self.conn.execute(
            f"SELECT id, signature FROM defs WHERE {where}kind = 'field'",
            () if def_id is None else (def_id,),
        ):
            declared = self._is_declared(found, "field", signature)
            if declared:
                self._declared.add(found)
            language = self.files[found >> ID_BITS].language
            if language == "go":  # a struct's field: `Logger *Logger`
                written = go_field_type(signature)
                if written:
                    self.field_types[found] = written
                continue
            if language == "python":
                value = _PY_FIELD_VALUE.fullmatch(signature.strip())
                if value is not None:
                    self.field_values[found] = value.group(1)
            if ":" not in signature:
                continue
            if language in _SIGNED and _LITERAL_TYPE.search(signature):
                self.literal_fields.add(found)
            # TS declarations; Python class-level annotations (`x: Foo`, a dataclass's
            # fields), not `self.x: Foo = ...` (typed within its file already).
            if (declared and language in _SIGNED) or (
                language == "python" and not signature.startswith(("self.", "cls."))
            ):
                written = field_type(signature)
                if written:
                    self.field_types[found] = written
                if language in _SIGNED and ("|" in signature or "<" in signature):
                    members = field_union(signature)
                    if members and members != (written,):
                        dict.__setitem__(self.field_unions, found, members)

    def _load_signatures(self, def_id: int | None) -> None:
        """The signature of one TS function or method (``None``: every one) that writes a
        type in it."""
        rows: Iterable[tuple[Any, ...]]
        if def_id is None and self._loaded is not None:
            rows = (
                (r[0], r[2], r[5], r[8])
                for r in self._loaded.defs
                if (r[2] in ("function", "method") and ":" in r[5])
                or (r[2] in _CLASSY and "<" in r[5])
            )
        else:
            where = "" if def_id is None else "id = ? AND "
            rows = self.conn.execute(
                f"SELECT id, kind, signature, parent_id FROM defs WHERE {where}"
                "((kind IN ('function', 'method') AND instr(signature, ':') > 0) "
                f"OR (kind IN ({', '.join(repr(k) for k in _CLASSY)}) "
                "AND instr(signature, '<') > 0))",
                () if def_id is None else (def_id,),
            )
        for found, kind, signature, parent_id in rows:
            home = self.files.get(found >> ID_BITS)
            if home is not None and home.language in _SIGNED:
                dict.__setitem__(self.signatures, found, (signature, parent_id, kind))

    def _is_declared(self, def_id: int, kind: str, signature: str) -> bool:
        """A TS/JS property declared in an interface, a type literal or a class body (`copy_:
        Set<any>`): found through its type's members only, never as a guess for an
        `obj.name` nobody can type (as before these were definitions)."""
        home = self.files.get(def_id >> ID_BITS)
        return (
            kind == "field"
            and home is not None
            and (home.language in _FAMILIES or home.language == "go")
            and not signature.startswith("this.")
        )

    def _load_by_name(self, name: str) -> None:
        found: list[int] = []
        for def_id, kind, signature in self.conn.execute(
            "SELECT id, kind, signature FROM defs WHERE name = ? AND container != '' ORDER BY id",
            (name,),
        ):
            if self._is_declared(def_id, kind, signature):
                continue
            found.append(def_id)
            if kind in _CALLABLE:
                self.callable_members.add(def_id)
            elif kind == "field":
                self.field_members.add(def_id)
        if found:
            self.members_by_name[name] = found

    def close(self) -> None:
        """Drops every table. They refer back to the resolver (their loaders are its
        methods): a cycle, which only the cycle collector frees, walking all that a build
        made on the way (0.15 s after a cold build of the speed corpus, on a slow host; the
        tables freed here at once, 0.1 s)."""
        self.__dict__.clear()

    def load_all(self) -> None:
        """Every definition now (before worker processes fork: they must not read)."""
        if self.top.complete:
            return
        full = Resolver(self.conn)
        self.top, self.members = full.top, full.members
        self.members_by_name = full.members_by_name
        self.returns = full.returns
        self.inferred = full.inferred
        self.getters = full.getters
        self.field_types = full.field_types
        self.field_unions = full.field_unions
        self.field_values = full.field_values
        self.literal_fields = full.literal_fields
        self.signatures = full.signatures
        self.callable_members |= full.callable_members
        self.field_members |= full.field_members
        self.imports, self.file_imports = full.imports, full.file_imports
        self._typed_literals = full.typed_literals()

    def _load_imports(self, file_id: object) -> None:
        """One file's imports (``None``: every file's)."""
        rows: Iterable[tuple[Any, ...]]
        if file_id is None and self._loaded is not None:
            rows = ((r[0], r[1], r[2], r[3], r[4], r[6]) for r in self._loaded.imports)
        elif file_id is None:
            rows = self.conn.execute(
                "SELECT id, file_id, local, module, name, export FROM imports ORDER BY id"
            )
        elif not isinstance(file_id, int) or file_id in self._imports_read:
            return
        else:
            self._imports_read.add(file_id)
            rows = self.conn.execute(
                "SELECT id, file_id, local, module, name, export FROM imports "
                "WHERE file_id = ? ORDER BY id",
                (file_id,),
            )
        for r in rows:
            imp = _Import(r[0], r[1], r[2], r[3], r[4], bool(r[5]))
            dict.__setitem__(self.imports, imp.id, imp)
            listed = dict.get(self.file_imports, imp.file_id)
            if listed is None:
                listed = []
                dict.__setitem__(self.file_imports, imp.file_id, listed)
            listed.append(imp)
        if file_id is None:
            self.imports.complete = self.file_imports.complete = True

    def typed_literals(self) -> list[tuple[int, int, str, tuple[str, ...]]]:
        """TS object literals' methods written under a type: (id, file id, name, types)."""
        if self._typed_literals is None:
            rows: Iterable[tuple[Any, ...]] = (
                self.conn.execute(
                    "SELECT id, file_id, name, bases FROM defs "
                    f"WHERE kind = 'method' AND bases != '' AND bases != '{GETTER}'"
                )
                if self._loaded is None
                else (
                    (r[0], r[1], r[3], r[11])
                    for r in self._loaded.defs
                    if r[2] == "method" and r[11] != "" and r[11] != GETTER
                )
            )
            self._typed_literals = [
                (def_id, file_id, name, tuple(bases.split()))
                for def_id, file_id, name, bases in rows
            ]
        return self._typed_literals

    # -- modules ------------------------------------------------------------------------------

    def _scope_key(self, file_id: int) -> object:
        """Where a type's members live: its file, or (Go) its package's folder."""
        f = self.files.get(file_id)
        if f is not None and f.language == "go":
            return ("go", posixpath.dirname(f.path))
        return file_id

    def _modules(self) -> None:
        self.py_modules: dict[str, list[int]] = defaultdict(list)
        self.js_modules: dict[str, int] = {}
        self.js_paths: dict[str, int] = {}  # (by their whole path, for ``_js_flavour``)
        self.go_folders: dict[str, list[int]] = defaultdict(list)
        self.java_packages: dict[str, list[int]] = defaultdict(list)
        folders_with_init = {
            posixpath.dirname(f.path)
            for f in self.files.values()
            if posixpath.basename(f.path) in ("__init__.py", "__init__.pyi")
        }
        self.go_modules: list[tuple[str, str]] = []
        self.py_module_of: dict[int, str] = {}
        # Python files by path (no extension; a package's `__init__` by its folder), and the
        # longer names through folders without `__init__.py` above a file's package
        # (namespace packages, `tests/`): used when no regular module has that name.
        self.py_paths: dict[str, list[int]] = defaultdict(list)
        py_namespace: dict[str, list[int]] = defaultdict(list)
        package_of: dict[str, str] = {}
        for f in self.files.values():
            if f.language == "python":
                module = self._py_module(f.path, folders_with_init, package_of)
                self.py_modules[module].append(f.id)
                self.py_module_of[f.id] = module
                where = f.path.rsplit(".", 1)[0]
                if posixpath.basename(where) == "__init__":
                    where = posixpath.dirname(where)
                self.py_paths[where].append(f.id)
                above = where.split("/")[: -(module.count(".") + 1) or None]
                for k in range(len(above)):
                    py_namespace[".".join([*above[k:], module])].append(f.id)
            elif f.language in ("javascript", "typescript", "tsx"):
                self.js_modules.setdefault(_strip_ext(f.path), f.id)
                self.js_paths[f.path] = f.id
            elif f.language == "go":
                self.go_folders[posixpath.dirname(f.path)].append(f.id)
            elif f.language == "java":
                self.java_packages[f.package].append(f.id)
        for name, ids in py_namespace.items():
            self.py_modules.setdefault(name, ids)
        found: list[tuple[str, str]] = []
        for path, module in self.conn.execute(
            "SELECT path, package FROM files WHERE path LIKE '%go.mod' AND package != ''"
        ):
            if posixpath.basename(path) == "go.mod":
                found.append((posixpath.dirname(path), module))
        self.go_modules = sorted(found, key=lambda x: -len(x[1]))
        # TypeScript's `baseUrl` and `paths` (`import { create } from 'zustand'` in zustand's
        # own tests means `src/index.ts`).
        self.ts_configs = TsConfigs(
            [
                (path, text)
                for path, text in self.conn.execute(
                    "SELECT path, package FROM files WHERE path LIKE '%config%.json' "
                    "AND package != ''"
                )
                if is_module_config(path)
            ]
        )
        # Packages of the repository by their folder's name (`packages/zod/package.json`):
        # where a bare specifier (`zod/v4`, `@scope/zod`) naming one of them leads.
        self.js_packages: dict[str, list[str]] = defaultdict(list)
        for (path,) in self.conn.execute("SELECT path FROM files WHERE path LIKE '%package.json'"):
            folder, base = posixpath.split(path)
            if base == "package.json" and folder and "node_modules" not in path:
                self.js_packages[posixpath.basename(folder)].append(folder)

    @staticmethod
    def _py_module(path: str, packages: set[str], package_of: dict[str, str]) -> str:
        """A Python file's module name: its folders up to the first without ``__init__.py``
        (``package_of`` remembers each folder's dotted package)."""
        folder, base = posixpath.split(path)
        name = base.rsplit(".", 1)[0]

        def package(folder: str) -> str:
            known = package_of.get(folder)
            if known is None:
                if folder not in packages:
                    known = ""
                else:
                    parent, part = posixpath.split(folder)
                    above = package(parent)
                    known = f"{above}.{part}" if above else part
                package_of[folder] = known
            return known

        prefix = package(folder)
        if name == "__init__":
            return prefix
        return f"{prefix}.{name}" if prefix else name

    def _py_absolute(self, file: _File, spec: str) -> str:
        if not spec.startswith("."):
            return spec
        dots = len(spec) - len(spec.lstrip("."))
        rest = spec[dots:]
        module = self.py_module_of.get(file.id, "")
        package = (
            module
            if file.path.endswith(("__init__.py", "__init__.pyi"))
            else (module.rpartition(".")[0])
        )
        for _ in range(dots - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{rest}".strip(".") if rest else package

    def module_files(self, file: _File, spec: str) -> list[int]:
        """The files a module specifier of ``file`` names (several for a package of Go or
        Java)."""
        lang = file.language
        if lang == "python":
            return self._py_files(file, spec)
        if lang in ("javascript", "typescript", "tsx"):
            if spec.startswith("."):
                bases = [posixpath.normpath(posixpath.join(posixpath.dirname(file.path), spec))]
            elif self.ts_configs:
                bases = self.ts_configs.candidates(file.path, spec)
            else:
                bases = []
            for base in bases:
                for candidate in _js_flavour(base):
                    found = self.js_paths.get(candidate)
                    if found is not None:
                        return [found]
                for candidate in (base, _strip_ext(base), base + "/index"):
                    found = self.js_modules.get(candidate)
                    if found is not None:
                        return [found]
            return [] if spec.startswith(".") else self._js_package(spec)
        if lang == "go":
            for folder, module in self.go_modules:
                if spec == module or spec.startswith(module + "/"):
                    rel = spec[len(module) :].lstrip("/")
                    return self.go_folders.get(posixpath.join(folder, rel).strip("/"), [])
            return []
        if lang == "java":
            return self.java_packages.get(spec, [])
        return []

    def _py_files(self, file: _File, spec: str) -> list[int]:
        """A Python module: a relative one by the importing file's folder (Python's rule,
        packages or not), else by its name; of several files of one name, those nearest to
        the importing file (the longest common folder)."""
        if spec.startswith("."):
            dots = len(spec) - len(spec.lstrip("."))
            folder = posixpath.dirname(file.path)
            for _ in range(dots - 1):
                folder = posixpath.dirname(folder)
            rest = spec[dots:].replace(".", "/")
            found = self.py_paths.get(posixpath.join(folder, rest) if rest else folder)
            if found:
                return found
        found = self.py_modules.get(self._py_absolute(file, spec), [])
        if len(found) < 2:
            return found
        near = {f: _shared(file.path, self.files[f].path) for f in found}
        best = max(near.values())
        return [f for f in found if near[f] == best]

    def _js_package(self, spec: str) -> list[int]:
        """A bare specifier naming a package of the repository (by its folder's name): its
        ``src/`` or its folder, the rest of the specifier as a path in it (``zod/v4`` ->
        ``packages/zod/src/v4/index.ts``)."""
        parts = spec.split("/")
        if spec.startswith("@"):
            parts = parts[1:]
        if not parts or not parts[0]:
            return []
        rest = "/".join(parts[1:])
        for folder in self.js_packages.get(parts[0], ()):
            for root in (posixpath.join(folder, "src"), folder):
                base = posixpath.join(root, rest) if rest else root
                for candidate in (base + "/index", _strip_ext(base)):
                    found = self.js_modules.get(candidate)
                    if found is not None:
                        return [found]
        return []

    # -- lookups ------------------------------------------------------------------------------

    def _file(self, file_id: int) -> _File | None:
        return self.files.get(file_id)

    def package_peers(self, file: _File) -> list[int]:
        """The other files of a Go or Java file's package."""
        if file.language == "go":
            peers = self.go_folders.get(posixpath.dirname(file.path), [])
        elif file.language == "java":
            peers = self.java_packages.get(file.package, [])
        else:
            return []
        return [p for p in peers if p != file.id]

    def package_top(self, file: _File, name: str) -> list[int]:
        """Top-level definitions of ``name`` in the other files of a Go or Java package. (Each
        package's are read once per name: a relink asks for the same name from every file of
        a package, each time through all of its files.)"""
        if file.language == "go":
            scope = posixpath.dirname(file.path)
            peers = self.go_folders.get(scope, [])
        elif file.language == "java":
            scope = file.package
            peers = self.java_packages.get(scope, [])
        else:
            return []
        key = (file.language, scope, name)
        found = self._package_memo.get(key)
        if found is None:
            found = [(p, d) for p in peers for d in self.top.get(p, {}).get(name, [])]
            self._package_memo[key] = found
        return [d for p, d in found if p != file.id]

    def java_on_demand(self, file: _File, name: str) -> tuple[int, ...]:
        """Java: the top-level types named ``name`` in the packages a file imports on demand
        (`import org.acme.nodes.*;`) and in `java.lang`, which every file imports so (it is in
        the repository when the repository is the JDK's own sources). Each package's are
        read once per name."""
        modules = [
            imp.module
            for imp in self.file_imports.get(file.id, [])
            if imp.name == "*" and not imp.local
        ]
        out: list[int] = []
        for module in dict.fromkeys([*modules, "java.lang"]):
            if module == file.package:
                continue  # the file's own package: `package_top`, before imports
            key = ("java.*", module, name)
            found = self._package_memo.get(key)
            if found is None:
                found = [
                    (t, d)
                    for t in self.java_packages.get(module, [])
                    for d in self.top.get(t, {}).get(name, [])
                ]
                self._package_memo[key] = found
            out.extend(d for _, d in found)
        return tuple(dict.fromkeys(out))

    def exported(self, file_id: int, name: str, depth: int = 0) -> tuple[int, ...]:
        """The definitions ``name`` means in a module: its own, else what it imports under
        that name (re-exports), else through its star imports."""
        key = (file_id, name)
        memo = self._export_memo.get(key)
        if memo is not None:
            return memo
        file = self._file(file_id)
        if file is not None and file.language == "java":
            # A Java file gives others its own top-level types and nothing it imports: an
            # on-demand import (`import java.util.*`) is not passed on. (Followed through
            # every file's own `import x.*`, the JDK's packages, which import each other so,
            # made the link phase exponential: java.base's java.util, java.lang, java.io and
            # sun.nio did not finish in ten minutes.)
            found = tuple(self.top.get(file_id, {}).get(name, []))
            self._export_memo[key] = found
            return found
        entered = self._enter(key)
        if entered is None:
            return ()  # a cycle: nothing more than what the key being worked out finds
        if file is None:
            found = tuple(self.top.get(file_id, {}).get(name, []))
        else:
            found, final = self._bound_here(file, name, depth)
            if not final:
                found = self._through_stars(
                    file, name, depth, lambda t, at: self._bound_here(t, name, at), ""
                )
        self._leave(key, entered, found)
        return found

    def _bound_here(self, file: _File, name: str, depth: int) -> tuple[tuple[int, ...], bool]:
        """What ``name`` means in a module without its star imports (an export list's
        renaming, its own definitions, what it imports under that name), and whether that
        is the answer (else its star imports are read)."""
        imports = self.file_imports.get(file.id, [])
        # `export { a as b, b as a }`: an export list's name is what it renames, before any
        # definition of the module that has the name (not exported under it).
        listed = [
            imp
            for imp in imports
            if imp.local == name and not imp.module and imp.export and imp.name != name
        ]
        if listed and depth < _DEPTH:
            out_listed: list[int] = []
            for imp in listed:
                out_listed.extend(self.imported(file, imp, depth + 1))
            return tuple(dict.fromkeys(out_listed)), True
        found = tuple(self.top.get(file.id, {}).get(name, []))
        if found:
            return found, True
        if depth >= _DEPTH:
            self._low = -1  # cut by depth: an answer to work out again, never to keep
            return (), True
        out: list[int] = []
        for imp in imports:
            if imp.local == name and imp.name not in ("", "*"):
                if not imp.module and imp.export and imp.name == name:
                    continue  # (`export { g }`: g is found by the file's other names)
                out.extend(self.imported(file, imp, depth + 1))
        return tuple(dict.fromkeys(out)), bool(out)

    def _through_stars(
        self,
        file: _File,
        name: str,
        depth: int,
        here: Callable[[_File, int], tuple[tuple[int, ...], bool]],
        prefix: str,
        exports_only: bool = False,
    ) -> tuple[int, ...]:
        """What ``name`` means through a module's star imports (`from m import *`, `export *
        from`, Go's `import . "m"`): breadth first, each module reached read once, a path
        ending at the first module that binds the name (``here``; memo keys ``prefix +
        name``). A module whose answer is being worked out above is left to that caller.
        (Walked recursively, a cycle of star imports, which nothing memoises since its
        answers depend on the order of questions, cost every path through it: 9 modules
        importing each other so did not index in two minutes.)"""
        out: list[int] = []
        seen = {file.id}
        frontier = [file]
        level = depth
        while frontier:
            level += 1
            ahead: list[_File] = []
            for module in frontier:
                for imp in self.file_imports.get(module.id, []):
                    if imp.name != "*" or (exports_only and not imp.export):
                        continue
                    for t in self.module_files(module, imp.module):
                        if t in seen:
                            continue
                        seen.add(t)
                        key = (t, prefix + name)
                        memo = self._export_memo.get(key)
                        if memo is not None:
                            out.extend(memo)
                            continue
                        at = self._active.get(key)
                        if at is not None:
                            self._low = min(self._low, at)
                            continue
                        target = self._file(t)
                        if target is None:
                            continue
                        found, final = here(target, level)
                        if final:
                            out.extend(found)
                        else:
                            ahead.append(target)
            frontier = ahead
        return tuple(dict.fromkeys(out))

    def _own(self, file: _File, name: str, depth: int) -> tuple[int, ...]:
        """What ``name`` is bound to in the module itself (an export list names it): its
        definitions, else what it imports under that name."""
        found = self.top.get(file.id, {}).get(name, [])
        if found:
            return tuple(found)
        out: list[int] = []
        for imp in self.file_imports.get(file.id, []):
            if imp.local == name and imp.module and imp.name not in ("", "*"):
                out.extend(self.imported(file, imp, depth))
        return tuple(dict.fromkeys(out))

    def _enter(self, key: tuple[int, str]) -> tuple[int, int] | None:
        """Start working out an export (``exported``, ``namespaces``): its place on the stack
        of those being worked out and the caller's lowest place read so far; None when the
        key is being worked out already (a cycle, noted)."""
        at = self._active.get(key)
        if at is not None:
            self._low = min(self._low, at)
            return None
        index = len(self._active)
        self._active[key] = index
        saved, self._low = self._low, index + 1
        return index, saved

    def _leave(
        self, key: tuple[int, str], entered: tuple[int, int], found: tuple[int, ...]
    ) -> None:
        """Done with a key: its answer is kept only if it read no key still being worked
        out below it (a cycle through a caller: that caller's answer was not known yet) and
        was cut by no depth limit, so that answers never depend on the order of questions."""
        index, saved = entered
        del self._active[key]
        if self._low >= index:
            self._export_memo[key] = found
        self._low = min(saved, self._low) if self._active else _NO_CYCLE

    def imported(self, file: _File, imp: _Import, depth: int = 0) -> tuple[int, ...]:
        """The definitions an import binds (none for a module)."""
        if imp.name in ("", "*") or depth > _DEPTH:
            return ()
        if file.language == "python":
            absolute = self._py_absolute(file, imp.module)
            if f"{absolute}.{imp.name}".strip(".") in self.py_modules:
                return ()  # a submodule
        name = imp.local if imp.name == "default" else imp.name
        if not imp.module and imp.export:  # `export { g as h }`: g in the file itself
            return self._own(file, name, depth + 1)
        if file.language == "java" and imp.module:
            # `import a.b.C` (a class of package a.b) or `import static a.b.C.m` (a member).
            direct = [
                d
                for t in self.module_files(file, imp.module)
                for d in self.top.get(t, {}).get(name, [])
            ]
            if direct:
                return tuple(direct)
            owner, _, cls = imp.module.rpartition(".")
            out: list[int] = []
            for t in self.java_packages.get(owner, []):
                for c in self.top.get(t, {}).get(cls, []):
                    out.extend(self.class_member(c, name)[0])
            return tuple(out)
        out = []
        for target in self.module_files(file, imp.module):
            found = self.exported(target, name, depth + 1)
            if not found and imp.name == "default" and file.language != "python":
                # `import adapter from './adapter.js'` of a default export behind a condition
                # (`export default ok ? function fetchAdapter(c) {` ... `: function (c) {`):
                # its named functions (entries `default` of its export list), its anonymous
                # ones (definitions `default`).
                found = self.exported(target, "default", depth + 1)
            out.extend(found)
        return tuple(dict.fromkeys(out))

    def in_file(self, file: _File, dotted: str, depth: int = 0) -> tuple[tuple[int, ...], bool]:
        """What a dotted name written at the top of ``file`` means (base classes): the
        definitions, and whether it was understood at all."""
        first, _, rest = dotted.partition(".")
        found: list[int] = list(self.top.get(file.id, {}).get(first, []))
        known = bool(found)
        if not found:
            for imp in self.file_imports.get(file.id, []):
                if imp.local != first:
                    continue
                known = True
                if imp.name in ("", "*"):
                    module = (
                        imp.module
                        if file.language != "python"
                        else (imp.module if imp.local != imp.module.split(".")[0] else first)
                    )
                    if rest:
                        head, _, last = rest.rpartition(".")
                        spec = f"{module}.{head}" if head and file.language == "python" else module
                        for t in self.module_files(file, spec):
                            found.extend(self.exported(t, last))
                        return tuple(found), True
                found.extend(self.imported(file, imp, depth + 1))
                if not found and rest and file.language == "python":
                    # `from . import core` then `core.Command`: a submodule's definition.
                    sep = "" if imp.module.endswith(".") else "."
                    head, _, last = rest.rpartition(".")
                    spec = f"{imp.module}{sep}{imp.name}" + (f".{head}" if head else "")
                    for t in self._py_files(file, spec):
                        found.extend(self.exported(t, last))
                    if found:
                        return tuple(dict.fromkeys(found)), True
                if not found and rest and "." not in rest:
                    # `import {z} from "..."` where z is `export * as z`: z.f is a module's f.
                    for t in self.module_files(file, imp.module):
                        for ns in self.namespaces(t, imp.name):
                            found.extend(self.exported(ns, rest))
                    if found:
                        return tuple(dict.fromkeys(found)), True
        if not found and not known:
            found = self.package_top(file, first)
            known = bool(found)
        if not found and not known and file.language == "java":
            # `import org.acme.nodes.*;` then `Node n`: the class of the package imported
            found.extend(self.java_on_demand(file, first))
            known = bool(found)
        if not found and not known and rest and file.language == "java":
            # `org.acme.nodes.Element` (a local's, a field's, a return's type)
            found = list(self._java_qualified(dotted))
            if found:
                return tuple(found), True
        if rest and found:
            out: list[int] = []
            for c in found:
                out.extend(self.class_member(c, rest.rsplit(".", 1)[-1])[0])
            return tuple(out), True
        return tuple(found), known

    def bases(self, class_id: int) -> tuple[tuple[int, ...], bool]:
        """A class's bases as definitions, and whether every base was found."""
        memo = self._base_memo.get(class_id)
        if memo is not None:
            return memo
        self._base_memo[class_id] = ((), True)
        d = self.classes.get(class_id)
        file = self._file(d.file_id) if d is not None else None
        if d is None or file is None:
            return (), False
        out: list[int] = []
        complete = True
        for base in d.bases:
            if base.startswith((AUGMENTS, ALIAS)):
                continue  # the module it augments, the type it aliases: not a base
            if base.startswith(LOCAL):
                complete = False  # a local's or a parameter's: not known
                continue
            if base.endswith(_FROM_QUERYSET_BASE) and file.language == "python":
                # `class Manager(BaseManager.from_queryset(QuerySet))`: BaseManager's methods
                # (QuerySet's, the next base written)
                base = base[: -len(_FROM_QUERYSET_BASE)]
            found, _ = self.in_file(file, base)
            classes = [c for c in found if c in self.classes]
            classes += [c for f in found if f in self.queryset_made for c in self._made(f)]
            outer = d.parent_id
            while not classes and file.language == "java" and outer in self.classes:
                # Java `interface Request extends Base<Request>` nested in Connection beside
                # its Base: a member type of a class around it (jsoup's `request().url()`)
                if "." not in base:
                    classes = [c for c in self.class_member(outer, base)[0] if c in self.classes]
                outer = self.classes[outer].parent_id
            if not classes:
                complete = False
            out.extend(c for c in classes if c != class_id)
        result = (tuple(dict.fromkeys(out)), complete)
        self._base_memo[class_id] = result
        return result

    def class_member(
        self, class_id: int, name: str, skip_own: bool = False, want: str = ""
    ) -> tuple[tuple[int, ...], bool]:
        """Members ``name`` of a class or its bases (the nearest that has one), and whether
        the answer is certain (every base on the way was found). ``want`` (Java): ``call``,
        a call's lookup, which no field answers; ``value``, a read's, which no method
        answers (jsoup's `Element.childNodes`, a field, does not hide `Node.childNodes()`)."""
        key = (class_id, name, skip_own, want)
        memo = self._member_memo.get(key)
        if memo is not None:
            return memo
        self._member_memo[key] = ((), True)
        d = self.classes.get(class_id)
        if d is None:
            return (), False
        if not skip_own:
            own = self.members.get((self._scope_key(d.file_id), d.qualified), {}).get(name)
            if own and want:
                own = [m for m in own if self._wanted(m, want)]
            if own:
                result = (tuple(own), True)
                self._member_memo[key] = result
                return result
        if self._aliases_one(class_id):
            # `schema: AnySchema`, `type AnySchema<T = any> = Schema<T>`: Schema's members
            # (not finding one is no proof: the caller treats a type alias as uncertain)
            aliased = self._expand([class_id])[0]
            found_there = [m for c in aliased for m in self.class_member(c, name)[0]]
            result = (tuple(dict.fromkeys(found_there)), False)
            self._member_memo[key] = result
            return result
        bases, complete = self.bases(class_id)
        out: list[int] = []
        file = self._file(d.file_id)
        if file is not None and file.language == "java" and d.kind in ("class", "enum"):
            # A Java class's superclass (its own chain) has the member a call runs before
            # the interfaces it implements declare it (`HttpConnection.Request`, a `Base`
            # implementing `Connection.Request`: Base's `url()`, not the interface's)
            for b in bases:
                if self.classes[b].kind == "class":
                    found, sure = self.class_member(b, name, want=want)
                    if found:
                        result = (found, sure and complete)
                        self._member_memo[key] = result
                        return result
        for b in bases:
            found, sure = self.class_member(b, name, want=want)
            out.extend(found)
            complete = complete and sure
        result = (tuple(dict.fromkeys(out)), complete)
        self._member_memo[key] = result
        return result

    def _wanted(self, member: int, want: str) -> bool:
        """Whether a Java class's member can answer a lookup ``want`` (``class_member``): a
        nested class either."""
        if member in self.classes:
            return True
        return (member in self.callable_members) == (want == "call")

    def any_member(self, name: str, file: _File | None = None) -> tuple[int, ...]:
        """Members of that name (``obj.m`` nobody can type) that the file can reach through its
        imports (transitively; its Go or Java package): none when it reaches none (a lone
        ``decode`` of the repository is no reason to link every ``data.decode()`` of code that
        never imports it), whichever their number."""
        found = self.members_by_name.get(name, [])
        if found and file is not None:
            key = (name, file.id)
            memo = self._any_memo.get(key)
            if memo is not None:
                return memo
            # The files of the candidates that the file reaches: one AND of two bit sets (the
            # candidates' files' bits, made once per name), then only the bits that are set.
            reach = self.reach(file.id)
            spread = self._spread.get(name)
            if spread is None:
                spread = self._spread[name] = self._files_of(found)
            common = reach & spread[0]
            near: list[int] = []
            while common and len(near) <= _MAX_CANDIDATES:
                low = common & -common
                near.extend(spread[1][low.bit_length() - 1])
                common ^= low
            if len(near) > 1:  # in the order of ``found``
                kept = set(near)
                near = [d for d in found if d in kept]
            result = tuple(near) if len(near) <= _MAX_CANDIDATES else ()
            self._any_memo[key] = result
            return result
        return tuple(found) if len(found) <= _MAX_CANDIDATES else ()

    def _files_of(self, found: list[int]) -> tuple[int, dict[int, list[int]]]:
        """The bit set of the files of definitions ``found`` (bit ``_bit[f]``, as ``reach``),
        and each bit's definitions, in the order of ``found``."""
        if not self._bit:
            self._bit = {fid: k + 1 for k, fid in enumerate(sorted(self.files))}
        mask = 0
        by_bit: dict[int, list[int]] = {}
        bit = self._bit
        for d in found:
            k = bit.get(d >> ID_BITS, 0)
            if k:
                mask |= 1 << k
                by_bit.setdefault(k, []).append(d)
        return mask, by_bit

    def reach(self, file_id: int) -> int:
        """The files ``file_id`` reaches through imports, as a bit set (bit ``_bit[f]``)."""
        if self._reach is None and self._reach_each is not None:
            found = self._reach_each.get(file_id)
            if found is None:
                found = self._reach_each[file_id] = self._closure(file_id)
            return found
        if self._reach is None:
            self._reach = self._closures()
        return self._reach.get(file_id, 0)

    def _closure(self, file_id: int) -> int:
        """One file's import closure (itself included; 0 for a file not indexed): what
        ``_closures`` finds for it, walked from it alone."""
        if file_id not in self.files:
            return 0
        if not self._bit:
            self._bit = {fid: k + 1 for k, fid in enumerate(sorted(self.files))}
        bit = self._bit
        mask = 0
        for f in self._walk(file_id, {}):
            mask |= 1 << bit[f]
        return mask

    def all_closures(self) -> None:
        """Work out every file's import closure at once from now on (``_closures``: the same
        sets as walking from each file, cheaper when many files need theirs)."""
        self._reach_each = None

    def _walk(self, file_id: int, instead: dict[int, set[int]]) -> set[int]:
        """The files ``file_id`` reaches through imports, itself included (``instead``: other
        imports for some files)."""
        seen = {file_id}
        todo = [file_id]
        memo = self._deps_memo
        while todo:
            f = todo.pop()
            deps = instead.get(f)
            if deps is None:
                deps = memo.get(f)
            if deps is None:
                deps = memo[f] = {g for g in self._deps(self.files[f]) if g in self.files}
            for g in deps:
                if g not in seen:
                    seen.add(g)
                    todo.append(g)
        return seen

    def reach_change(self, file_id: int, before: Iterable[tuple[str, str, str, int]]) -> set[int]:
        """The files that a file's import closure gains or loses since it imported
        ``before`` (local, module, name, export) instead of what it imports now: those whose
        members code reaching it guesses among for an ``obj.m``."""
        if file_id not in self.files:
            return set()
        old = {g for g in self.deps_of(file_id, before) if g in self.files}
        return self._walk(file_id, {}) ^ self._walk(file_id, {file_id: old})

    def _deps(self, f: _File) -> list[int]:
        return self._deps_from(
            f, [(imp.module, imp.name) for imp in self.file_imports.get(f.id, [])]
        )

    def _deps_from(self, f: _File, imports: Iterable[tuple[str, str]]) -> list[int]:
        """The files that imports (module, name) of ``f`` name (and its Go or Java peers)."""
        out: list[int] = []
        for module, name in imports:
            if not module:
                continue
            out.extend(self.module_files(f, module))
            if f.language == "python" and name not in ("", "*"):  # `from . import x`
                out.extend(self.py_modules.get(f"{self._py_absolute(f, module)}.{name}", []))
        if f.language in ("go", "java"):
            out.extend(self.package_peers(f))
        return out

    def deps_of(self, file_id: int, imports: Iterable[tuple[str, str, str, int]]) -> set[int]:
        """The files that a file of the repository would import with these imports (local,
        module, name, export): an update compares a changed file's before and after."""
        f = self.files.get(file_id)
        if f is None:
            return set()
        return set(self._deps_from(f, [(module, name) for _, module, name, _ in imports]))

    def _closures(self) -> dict[int, int]:
        """Every file's import closure (itself included): depth-first, each file after what it
        imports, then passes until nothing grows (import cycles)."""
        self._bit = {fid: k + 1 for k, fid in enumerate(sorted(self.files))}
        deps = {fid: sorted(set(self._deps(f))) for fid, f in self.files.items()}
        order: list[int] = []
        seen: set[int] = set()
        for root in sorted(self.files):
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, iter(deps[root]))]
            while stack:
                node, it = stack[-1]
                nxt = next((g for g in it if g not in seen), None)
                if nxt is None:
                    order.append(node)
                    stack.pop()
                elif nxt in deps:
                    seen.add(nxt)
                    stack.append((nxt, iter(deps[nxt])))
        bits = {fid: 1 << self._bit[fid] for fid in self.files}
        while True:  # until nothing grows: each file's bits are then all the files it reaches
            grew = False
            for fid in order:
                b = bits[fid]
                for g in deps[fid]:
                    b |= bits.get(g, 0)
                if b != bits[fid]:
                    bits[fid] = b
                    grew = True
            if not grew:
                break
        return bits

    # -- one reference ------------------------------------------------------------------------

    def resolve(
        self,
        file_id: int,
        how: str,
        target: int | None,
        qualifier: str,
        lookup: str,
        want: str = "",
    ) -> tuple[tuple[int, ...], str]:
        """(definitions, via) for one reference; ``want``: what a Java member lookup may find
        (``class_member``)."""
        file = self._file(file_id)
        if file is None:
            return (), ""
        if how == "def":
            return ((target,) if target is not None else ()), "local"
        if how == "import":
            imp = self.imports.get(target) if target is not None else None
            return (self.imported(file, imp) if imp is not None else ()), "import"
        if how == "module":
            found = self._module_member(file, target, qualifier, lookup)
            if not found and "." in qualifier and file.language == "python":
                # `Model.objects.m()`, Model imported: its class attribute's type, as
                # `x.objects.m()`'s (else a guess, as `mod.value.m()`'s)
                return self.property_member(file, None, qualifier.replace(".", PROPERTY), lookup)
            if not found and "." in qualifier and not self._outside(file, target):
                return self.any_member(lookup, file), "member"  # `mod.value.m()`: untyped
            return found, "import"
        if how in ("self", "super", "class"):
            if file.language == "go" and how == "self":
                return self._go_method(file, qualifier, lookup), "self"
            if target is None:
                return self.any_member(lookup, file), "member"
            found, sure = self.class_member(target, lookup, skip_own=how == "super", want=want)
            if qualifier.startswith(NEW):  # Java `this(...)`, `super(...)`: constructors only
                return tuple(d for d in found if d in self.arity), how
            if found or sure:
                return found, how
            return self.any_member(lookup, file), "member"
        if how == "member":
            return self.any_member(lookup, file), "member"
        if how == "instance" and qualifier[:1] == LITERAL:
            return self.literal_member(file, target, qualifier[1:], lookup)
        if how == "instance":  # `x = Foo(); x.m()`: Foo's members, else any member
            if CALLBACK in qualifier:
                return self.callback_member(file, qualifier, lookup)
            if PROPERTY in qualifier:
                return self.property_member(file, target, qualifier, lookup)
            classes, known = self.typed(file, target, qualifier)
            if known and not classes:
                # Foo comes from outside the repository (or is the language's): its methods
                # are not here, but TS/JS classes of the repository that extend it and
                # override the method may run in its place.
                if file.language in _FAMILIES and not qualifier.endswith("()"):
                    return self.outside_overrides(qualifier, lookup), "family"
                return (), "instance"
            if classes:
                out: list[int] = []
                certain = True
                # The classes of a union (by name: namesakes, one name's definitions, are one
                # meaning) and the members each has: the receiver is one of them.
                ways: dict[str, list[int]] = {}
                for c in classes:
                    found, sure = self.class_member(c, lookup, want=want)
                    out.extend(found)
                    if found:
                        self._ways(c, lookup, ways)
                    # A type alias has no members here (but a union's, through its "bases"):
                    # not finding one there is no proof.
                    kind = self.classes[c].kind
                    certain = certain and sure and (kind != "type" or _union(self.classes[c].bases))
                if out or certain:
                    members = tuple(dict.fromkeys(out))
                    # (a member all of them inherit from one base is surely that one)
                    distinct = len({tuple(sorted(set(m))) for m in ways.values()})
                    if distinct > 1:
                        self._union_ways[members] = distinct
                        return members, _UNION
                    return members, "instance"
                if file.language == "go" and all(
                    self.classes[c].kind in ("struct", "interface") for c in classes
                ):
                    # A Go struct or interface has the methods it declares and those of the
                    # types it embeds; not found in those of the repository, it is an outside
                    # embedded type's (`s.Read()`, s embedding `io.Reader`): no guess.
                    return (), "instance"
                if file.language in _FAMILIES:
                    inside, outside = self._expand(classes)
                    if outside and not inside:  # `type AnyMap = Map<any, any>`: a Map
                        overrides = [d for w in outside for d in self.outside_overrides(w, lookup)]
                        return tuple(dict.fromkeys(overrides)), "family"
            return self.any_member(lookup, file), "member"
        if how == "free":
            return self._free(file, target, qualifier, lookup, want)
        if how == "name":
            return self._by_name(file, lookup), "name"
        return (), ""

    def local_twins(self, def_id: int) -> tuple[int, ...]:
        """A local function and the others of its name in the same function (conditional
        definitions), or () when it is the only one."""
        found = self._local_twins.get(def_id)
        if found is None and not self._local_twins_read:
            row = self.conn.execute(
                "SELECT parent_id, name FROM defs WHERE id = ? AND kind = 'function' "
                "AND parent_id IS NOT NULL AND container = ''",
                (def_id,),
            ).fetchone()
            ids: tuple[int, ...] = ()
            if row is not None:
                ids = tuple(
                    i
                    for (i,) in self.conn.execute(
                        "SELECT id FROM defs WHERE parent_id = ? AND name = ? "
                        "AND kind = 'function' AND container = '' ORDER BY id",
                        row,
                    )
                )
            found = self._local_twins[def_id] = ids if len(ids) > 1 else ()
        return found or ()

    def _ways(self, cls: int, lookup: str, out: dict[str, list[int]]) -> None:
        """Into ``out``, by name, the classes a receiver of class ``cls`` may be that have a
        member ``lookup``, with those members: ``cls``, or a union's (``type AB = A | B``)
        members, ``_DEPTH`` unions deep at most. Level by level, each class once a level.
        (Followed path by path, unions of unions that share members, `type U2 = U1a | U1b`
        with each U1 a union of the same few, cost every path: 10 unions of 10 each, 7
        levels, took 14 s for one file of 30 calls.)"""
        level: dict[int, None] = {cls: None}
        depth = 0
        while level:
            ahead: dict[int, None] = {}
            for c in level:
                d = self.classes[c]
                if d.kind != "type" or not _union(d.bases) or depth > _DEPTH:
                    out.setdefault(d.name, []).extend(self.class_member(c, lookup)[0])
                    continue
                for b in self.bases(c)[0]:
                    if self.class_member(b, lookup)[0]:
                        ahead[b] = None
            level = ahead
            depth += 1

    def callback_member(
        self, file: _File, qualifier: str, lookup: str
    ) -> tuple[tuple[int, ...], str]:
        """``p.m`` where ``p`` is a callback's parameter, noted ``f=>T`` by the extraction
        (``f(x, p => ...)``, ``x`` of type ``T``). When ``f`` is declared in TypeScript (for a
        local ``f``: what the file's imported modules export as ``f``, else the few members
        ``f`` it reaches), whose generic signature hands ``x`` (or a wrapper of it, such as
        immer's ``Draft<T>``) to the callback: ``T``'s members ``m`` or, ``T`` being the
        language's (``Set``), the repository's overrides of it (``DraftSet.add``), at the
        confidence of a family link (``via = "callback"``). Else a guess, as before."""
        callee, _, written = qualifier.partition(CALLBACK)
        funcs, known = self.in_file(file, callee)
        if not funcs and not known:
            # A local (`const {produce} = createImmer()`, `immer.produce`): what the modules
            # the file imports export under that name, or the members of that name it
            # reaches, when there are few.
            name = callee.rsplit(".", 1)[-1]
            funcs = tuple(
                d
                for imp in self.file_imports.get(file.id, [])
                if imp.module
                for t in dict.fromkeys(self.module_files(file, imp.module))
                for d in self.exported(t, name)
            ) or self.any_member(name, file)
            funcs = funcs[:_MAX_RETURN_GUESS]
        homes = [self.files.get(f >> ID_BITS) for f in funcs]
        if homes and all(h is not None and h.language in _SIGNED for h in homes):
            found, known = self.in_file(file, written)
            classes = [c for c in found if c in self.classes]
            out = [m for c in classes for m in self.class_member(c, lookup)[0]]
            if out:
                return tuple(dict.fromkeys(out)), "callback"
            if not known:  # not defined nor imported: the language's own class
                return self.outside_overrides(written, lookup), "callback"
        return self.any_member(lookup, file), "member"

    def literal_member(
        self, file: _File, target: int | None, qualifier: str, lookup: str
    ) -> tuple[tuple[int, ...], str]:
        """A key of an object literal typed by where it stands (``extract._literal_key``):
        ``T#a#b`` (written type T, keys a then b), ``f(0)#a`` (f's first parameter's type,
        key a), ``new F(1)``: the member ``lookup`` of the classes found, following each
        key's property's declared type (each class of a union: a literal's key is a
        property of every member declaring it, as the TypeScript service reads it). Nothing
        when no class is found: the key of a literal nobody can type is no guess."""
        base, *names = qualifier.split(PROPERTY)
        classes = self._literal_classes(file, target, base)
        for name in names:
            classes = self._expand(classes)[0]
            following: list[int] = []
            for c in classes:
                for field in self.class_member(c, name)[0]:
                    home = self.files.get(field >> ID_BITS)
                    written = self.field_types.get(field)
                    members = self.field_unions.get(field) or ((written,) if written else ())
                    if home is None:
                        continue
                    for one in members:
                        following.extend(self.typed(home, None, one)[0])
            classes = self._one_each(following)
        classes = self._expand(classes)[0]
        holders = [c for c in classes if self.class_member(c, lookup)[0]]
        if len(holders) > 1 and self._discriminated(holders):
            return (), ""  # (the member the literal's tag picks is not read)
        out = [m for c in holders for m in self.class_member(c, lookup)[0]]
        return (tuple(dict.fromkeys(out)), "instance") if out else ((), "")

    def _is_tag(self, field: int) -> bool:
        self.field_types.get(field)  # (read on first use: ``literal_fields`` with it)
        return field in self.literal_fields

    def _discriminated(self, classes: list[int]) -> bool:
        """Whether TS union members share a property declared with a literal type (`kind:
        "circle"`): a literal of the union is one member's, picked by its tag's value."""
        tags: set[str] | None = None
        for c in classes:
            d = self.classes.get(c)
            if d is None:
                return False
            own = self.members.get((self._scope_key(d.file_id), d.qualified), {})
            mine = {
                name
                for name, ids in own.items()
                if any(
                    self.field_types.get(i) is not None and i in self.literal_fields for i in ids
                )
            }
            tags = mine if tags is None else tags & mine
            if not tags:
                return False
        return bool(tags)

    def _literal_classes(self, file: _File, target: int | None, base: str) -> list[int]:
        """The classes a literal's context names: a written type, or a call's parameter's
        declared type (``f(0)``; ``new F(1)``: F's constructor's), read in the file that
        declares the callee. A callee found only as a guess among namesakes types nothing."""
        found = _ARGUMENT.fullmatch(base)
        if found is None:
            return self._one_each(
                [c for w in base.split("|") for c in self.typed(file, target, w)[0]]
            )
        new, callee, place = found.group(1), found.group(2), int(found.group(3))
        if not callee:  # a function (class) of an inner scope: the reference's target
            own = (target,) if target is not None and target >= 0 else ()
            classes = list(own) if new else []
            funcs: tuple[int, ...] = () if new else own
        elif new:
            classes = self.typed(file, target, callee)[0]
        else:
            funcs, _outside, guessed = self._functions(file, target, callee, 0)
            if guessed:
                return []
        if new:
            funcs = tuple(m for c in classes for m in self.class_member(c, "constructor")[0])
        each: list[list[int]] = []
        for f in funcs:
            home = self.files.get(f >> ID_BITS)
            signed = self.signatures.get(f)
            if home is None or signed is None:
                continue
            signature, parent, _kind = signed
            generic = type_parameters(signature)
            owner = self.signatures.get(parent) if parent is not None else None
            if owner is not None:
                generic = generic | type_parameters(owner[0])
            found_here = [
                c
                for written in parameter_types(signature, place)
                if written.split(".", 1)[0] not in generic
                for c in self.typed(home, None, written)[0]
            ]
            if found_here:
                each.append(found_here)
        # Overloads that type the argument differently: which one the call picks is not read.
        if any(set(e) != set(each[0]) for e in each[1:]):
            return []
        return self._one_each(each[0]) if each else []

    def _one_each(self, classes: list[int]) -> list[int]:
        """``classes`` without those that share their name and kind with another of the same
        file (declarations of sibling scopes, `interface State` in two tests: which one is
        meant is not read; a class and the interface merged with it are one type)."""
        seen: dict[tuple[int, str, str], int] = defaultdict(int)
        for c in dict.fromkeys(classes):
            d = self.classes.get(c)
            if d is not None:
                seen[(d.file_id, d.name, d.kind)] += 1
        return [
            c
            for c in dict.fromkeys(classes)
            if (d := self.classes.get(c)) is None or seen[(d.file_id, d.name, d.kind)] == 1
        ]

    def property_member(
        self, file: _File, target: int | None, qualifier: str, lookup: str
    ) -> tuple[tuple[int, ...], str]:
        """``x.a.b.m`` with ``x`` of a written type ``T``, noted ``T#a#b`` by the extraction:
        the types T's property ``a`` is declared with (in T or its bases; each member's, when
        T is a union), then their ``b``'s; ``m`` of the classes found, or (a class from
        outside: ``processedForPatches_: Set<any>``) the repository's overrides of it, at the
        confidence of a family link. A property with no written type in some members of a
        union is passed over; when nothing is found this way, a guess, as before."""
        base, *names = qualifier.split(PROPERTY)
        if base in _SELF and target is not None:
            classes: list[int] = [target]
        else:
            classes = self.typed(file, target, base)[0]
        outside: list[str] = []
        for name in names:
            classes, outside = self._expand(classes)
            following: list[int] = []
            outside = []
            for c in classes:
                managers = self._managers(c, name)
                if managers is not None:
                    following.extend(managers)
                    continue
                for field in self.class_member(c, name)[0]:
                    written = self.field_types.get(field)
                    home = self.files.get(field >> ID_BITS)
                    if not written and home is not None and home.language == "python":
                        # A Python property: what its getter's return annotation says (a
                        # plain method's is no value of `x.name`: a bound method).
                        returned = self.returns.get(field)
                        if field not in self.getters:
                            continue
                        if returned is not None and returned[0] in ("Self", "self"):
                            following.append(c)  # (the receiver's class: a subclass's `me`)
                            continue
                        written = returned[0] if returned is not None else ""
                    if not written or home is None:
                        continue
                    # A class nested in the one declaring the property is the name's meaning
                    # there (`class Outer: class Inner ...; inner: Inner`).
                    nested = self._nested(c, name, field, written)
                    found, known = (nested, True) if nested else self.typed(home, None, written)
                    following.extend(found)
                    if known and not found:
                        outside.append(written)
            classes = list(dict.fromkeys(following))
        classes, more = self._expand(classes)
        outside += more
        out = [m for c in classes for m in self.class_member(c, lookup)[0]]
        if out:
            return tuple(dict.fromkeys(out)), "instance"
        if outside and file.language in _FAMILIES:
            overrides = [
                d for w in dict.fromkeys(outside) for d in self.outside_overrides(w, lookup)
            ]
            if overrides:
                return tuple(dict.fromkeys(overrides)), "family"
        if outside and not classes and file.language == "go":
            return (), ""  # `entry.Time.Format()`, Time a `time.Time`: the library's method
        return self.any_member(lookup, file), "member"

    def _manager_of(
        self, file: _File, target: int | None, dotted: str, depth: int
    ) -> list[int] | None:
        """The manager classes of a Django model's manager attribute written ``dotted``
        (`Model.objects`, `cls._default_manager`; ``_managers``), followed by calls of
        methods that keep the model (`Model.objects.db_manager(using)`); None when it is not
        one."""
        head, _, attr = dotted.rpartition(".")
        if file.language != "python" or not head or depth > _MAX_RETURN_DEPTH:
            return None
        if attr.endswith("()"):
            if attr[:-2] not in _QUERYSET_SAME or "." not in head:
                return None
            return self._manager_of(file, target, head, depth + 1)
        if attr not in _MANAGERS or head.endswith(")"):
            return None
        models = self.typed(file, target, head, depth + 1)[0]
        if not models or not all(self._django_model(m) for m in models):
            return None
        out: list[int] = []
        for m in models:
            found = self._managers(m, attr)
            if found is None:
                return None
            out.extend(found)
        return list(dict.fromkeys(out))

    def _model_call(
        self, file: _File, target: int | None, callee: str, depth: int
    ) -> tuple[list[int], str]:
        """The Django models whose manager a call ``callee`` (`Model.objects.filter().get`)
        is made on, through methods that keep the model (``_QUERYSET_SAME``), and the method
        called; ([], "") when it is no such call."""
        parts = callee.split(".")
        k = len(parts) - 2
        while k > 0 and parts[k].endswith("()") and parts[k][:-2] in _QUERYSET_SAME:
            k -= 1
        if k < 1 or parts[k] not in _MANAGERS or depth > _MAX_RETURN_DEPTH:
            return [], ""
        head = ".".join(parts[:k])
        if head.endswith(")"):
            return [], ""
        models = self.typed(file, target, head, depth + 1)[0]
        if not models or not all(self._django_model(m) for m in models):
            return [], ""
        return models, parts[-1]

    def _made(self, variable: int) -> list[int]:
        """The classes of `X = Base.from_queryset(Q)` (the variable ``variable``): Base's, then
        Q's, found in X's module."""
        home = self.files.get(variable >> ID_BITS)
        if home is None:
            return []
        out: list[int] = []
        for written in self.queryset_made[variable]:
            out.extend(c for c in self.in_file(home, written)[0] if c in self.classes)
        return list(dict.fromkeys(out))

    def _absolute(self, file: _File, dotted: str) -> str:
        """The dotted name a Python file's written name means through its imports
        (`models.Model` after `from django.db import models`: `django.db.models.Model`), or
        "" when its first name is not imported."""
        first, _, rest = dotted.partition(".")
        for imp in self.file_imports.get(file.id, []):
            if imp.local != first or imp.module.startswith("."):
                continue
            if imp.name in ("", "*"):
                head = imp.module if imp.local != imp.module.split(".")[0] else first
            else:
                head = f"{imp.module}.{imp.name}"
            return head + (f".{rest}" if rest else "")
        return ""

    def _django_model(self, cls: int, depth: int = 0) -> bool:
        """Whether a Python class derives (through the repository's classes) from Django's
        `Model`: the repository's own (`django/db/models/base.py`'s `Model`, when the
        repository is Django) or, from outside, a base whose import names
        `django.db.models.Model`."""
        memo = self._model_memo.get(cls)
        if memo is not None:
            return memo
        self._model_memo[cls] = False
        d = self.classes.get(cls)
        file = self._file(d.file_id) if d is not None else None
        if d is None or file is None or file.language != "python" or depth > _DEPTH:
            return False
        found = False
        if d.qualified == "Model" and file.path.endswith(_DJANGO_MODEL_FILE):
            found = True
        for base in d.bases:
            if found:
                break
            if base.startswith(LOCAL):
                continue
            written = [c for c in self.in_file(file, base)[0] if c in self.classes]
            if written:
                found = any(self._django_model(c, depth + 1) for c in written)
            else:
                found = self._absolute(file, base) in _DJANGO_MODELS
        self._model_memo[cls] = found
        return found

    def _managers(self, cls: int, name: str) -> list[int] | None:
        """What a Django model's class attribute ``name`` holds when it is a manager its
        metaclass makes (``_MANAGERS``): the class its own `objects = X()` calls (in it or an
        abstract base), else the `Manager` of `Model`'s module (the repository's, when it is
        Django; none from outside). None: not such an attribute (not a model's, not a
        manager's name, or declared otherwise)."""
        if name not in _MANAGERS or not self._django_model(cls):
            return None
        declared: list[str] = []
        homes: list[int] = []
        if name != "_base_manager":
            for field in self.class_member(cls, "objects")[0]:
                self.field_types.get(field)  # (reads its value too, on first use)
                value = self.field_values.get(field)
                if value is not None:
                    declared.append(value)
                    homes.append(field)
                elif name == "objects":
                    return None  # `objects` declared some other way: its own rules
        out: list[int] = []
        for value, field in zip(declared, homes, strict=True):
            home = self.files.get(field >> ID_BITS)
            if home is not None:
                out.extend(self.typed(home, None, value)[0])
        if declared:
            return list(dict.fromkeys(out))
        for model in self.class_by_name.get("Model", ()):
            d = self.classes[model]
            home = self.files.get(d.file_id)
            if (
                home is not None
                and d.qualified == "Model"
                and home.path.endswith(_DJANGO_MODEL_FILE)
            ):
                out.extend(c for c in self.in_file(home, "Manager")[0] if c in self.classes)
        return list(dict.fromkeys(out))

    def _nested(self, cls: int, name: str, member: int, written: str) -> list[int]:
        """The classes named ``written`` nested in ``cls``, when its member ``name`` (the
        definition ``member``) is declared in ``cls`` itself: in its body, the name means its
        own nested class."""
        d = self.classes.get(cls)
        if d is None or "." in written:
            return []
        own = self.members.get((self._scope_key(d.file_id), d.qualified), {})
        if member not in own.get(name, ()):
            return []
        return [i for i in own.get(written, ()) if i in self.classes]

    def _aliases_one(self, c: int) -> bool:
        """Whether ``c`` is a TS type alias of one named type (``type AnySet = Set<any>``)."""
        d = self.classes[c]
        return d.kind == "type" and len(d.bases) == 1 and d.bases[0].startswith(ALIAS)

    def _expand(self, classes: list[int], depth: int = 0) -> tuple[list[int], list[str]]:
        """Type aliases replaced by what they name (``type AnySet = Set<any>``, a union's
        members), 5 aliases deep at most: the classes of the repository, and the names of
        classes from outside it. Each class's answer at each depth is worked out once.
        (Worked out on every path, unions of unions that share members, `type U2 = U1a |
        U1b` with each U1 a union of the same few, cost every path: 10 unions of 10 each
        cost 10^5 lookups for each property read through one.)"""
        kept: list[int] = []
        outside: list[str] = []
        for c in classes:
            one = self._expand_memo.get((c, depth))
            if one is None:
                one = self._expand_memo[(c, depth)] = self._expand_one(c, depth)
            kept.extend(one[0])
            outside.extend(one[1])
        return list(dict.fromkeys(kept)), list(dict.fromkeys(outside))

    def _expand_one(self, c: int, depth: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """``_expand`` of one class."""
        d = self.classes.get(c)
        if d is None or d.kind != "type" or not d.bases or depth > 4:
            return (c,), ()
        home = self.files.get(d.file_id)
        if home is None:
            return (), ()
        kept: list[int] = []
        outside: list[str] = []
        for written in d.bases:
            base = written.removeprefix(ALIAS)
            found = self.in_file(home, base)[0]
            inner = [f for f in found if f in self.classes]
            if inner:
                more, names = self._expand(inner, depth + 1)
                kept.extend(more)
                outside.extend(names)
            elif not found:
                outside.append(base)  # the language's (`Set`) or imported from outside
        return tuple(dict.fromkeys(kept)), tuple(dict.fromkeys(outside))

    def from_outside(self, file: _File, dotted: str) -> bool:
        """Whether the first name of ``dotted`` is imported from outside the repository
        only (no file of the repository is the module it names)."""
        first = dotted.split(".", 1)[0]
        imports = [imp for imp in self.file_imports.get(file.id, []) if imp.local == first]
        if not imports or first in self.top.get(file.id, {}):
            return False
        for imp in imports:
            if self.module_files(file, imp.module):
                return False
            if file.language == "python" and (
                self._py_absolute(file, imp.module) in self._py_packages()
            ):
                return False
        return True

    def _py_packages(self) -> set[str]:
        """Every module of the repository and every dotted prefix of one (``a``, ``a.b`` for
        ``a.b.c``): the names an import from inside the repository starts with."""
        if self._packages is None:
            self._packages = set()
            for module in self.py_modules:
                parts = module.split(".")
                self._packages.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
        return self._packages

    def typed(
        self, file: _File, target: int | None, qualifier: str, depth: int = 0
    ) -> tuple[list[int], bool]:
        """The classes a written type (``Foo``, ``mod.Foo``) or a call (``make()``,
        ``self.make()``: what the function returns) means in ``file``, and whether that is
        known (an empty known answer: a type from outside the repository, a builtin)."""
        if qualifier in TS_PRIMITIVES and file.language in _FAMILIES:
            return [], True  # `string` in a type: never a function of that name
        if ANY_OF in qualifier:
            # `(c ? this.resolve(o) : this).m`: each part, which must come to the same classes
            agreed: list[int] | None = None
            for part in qualifier.split(ANY_OF):
                found, known = self.typed(file, target, part, depth)
                if not known or (agreed is not None and set(found) != set(agreed)):
                    return [], False
                agreed = found
            return agreed or [], True
        if qualifier in _SELF and target is not None and target in self.classes:
            return [target], True  # (a branch of the above: `this`)
        if qualifier == DECLARED:  # a class declared in a function: the reference's target
            return (
                ([target], True) if target is not None and target in self.classes else ([], False)
            )
        element = qualifier.endswith("()[]")  # `for x in make()`: what it returns holds
        if element:
            qualifier = qualifier[:-2]
        if "|" in qualifier and not element:  # a union's classes (``_returns``)
            out: list[int] = []
            for part in qualifier.split("|"):
                found, known = self.typed(file, target, part, depth)
                if not known:
                    return [], False
                out.extend(found)
            return list(dict.fromkeys(out)), True
        java = file.language == "java"
        if java and "<" in qualifier and qualifier.endswith("()"):
            # `nodes.get(0)` with `List<DataNode> nodes`: the element's class
            element_type = self._java_element(file, qualifier)
            if element_type is not None:
                return self.typed(file, target, element_type, depth + 1)
        if not qualifier.endswith("()"):
            if java and "<" in qualifier:
                qualifier = qualifier.partition("<")[0]  # (`List<DataNode>`: a List)
            managers = self._manager_of(file, target, qualifier, depth)
            if managers is not None:  # `Model.objects`, `cls._default_manager`
                return managers, True
            written, known = self.in_file(file, qualifier)
            if not known and java and "." not in qualifier:
                # Java `Req r` in a file declaring the nested class `Impl.Req`: that class,
                # when it is the file's only nested class of the name
                inner = [
                    c
                    for c in self.class_by_name.get(qualifier, ())
                    if self.classes[c].file_id == file.id
                    and self.classes[c].parent_id in self.classes
                ]
                if len(inner) == 1:
                    return inner, True
            if not known:
                # Not defined nor imported: a builtin or a global of the language (`str`,
                # `Map`), or a type parameter (`T`), which may stand for anything.
                return [], len(qualifier) > 2 and file.language in _TYPED_GLOBALS
            classes = [c for c in written if c in self.classes]
            classes += [c for f in written if f in self.queryset_made for c in self._made(f)]
            if not classes and written and depth < 2 and any(f in self.returns for f in written):
                # Go `x := NewFoo()`, Python `x = Make()`: a capitalised function, not a class.
                return self.typed(file, target, qualifier + "()", depth + 1)
            return classes, bool(classes) or self.from_outside(file, qualifier)
        arity = self._step_arity(qualifier)
        memo_key = (file.id, target, qualifier, depth, element, arity, self._model_context)
        memo = self._typed_memo.get(memo_key)
        if memo is None:
            found, sure = self._typed_call(file, target, qualifier, depth, element, arity)
            memo = self._typed_memo[memo_key] = (tuple(found), sure)
        return list(memo[0]), memo[1]

    def _java_element(self, file: _File, qualifier: str, depth: int = 0) -> str | None:
        """Java: the type a call on a library container written with its type arguments
        returns (``List<DataNode>.get()``: ``DataNode``; ``List<X>.iterator()``:
        ``Iterator<X>``, whose ``next()`` is an X), by ``JAVA_CONTAINERS``; None when that is
        not exactly known (another method, a wildcard without a bound, a class of the
        repository named like a container)."""
        owner, _, member = qualifier[:-2].rpartition(".")
        if owner.endswith("()") and depth < 4:
            inner = self._java_element(file, owner, depth + 1)
            if inner is None:
                return None
            owner = inner
        head = owner.partition("<")[0]
        if any(c in self.classes for c in self.in_file(file, head)[0]):
            return None  # the repository's own `List`
        return java_container_returns(owner, member)

    def _step_arity(self, qualifier: str) -> int:
        """How many arguments the last call of ``qualifier`` passes, when ``qualifier`` is
        the receiver chain of the Java call being linked or a head of it (`a.m(1)` of
        `a.m(1).n()`, read from its end: a local's type may stand for its head); else -1."""
        chain, counts = self._chain
        if not counts or not qualifier.endswith("()") or not chain.startswith(qualifier):
            return -1
        step = chain.count("()") - qualifier.count("()")
        return counts[step] if step < len(counts) else -1

    def _typed_call(
        self,
        file: _File,
        target: int | None,
        qualifier: str,
        depth: int,
        element: bool,
        arity: int = -1,
    ) -> tuple[list[int], bool]:
        """``typed`` of a call (``make()``, a chain ``make().m()``); ``arity``: how many
        arguments it passes, when known (Java: the overloads taking as many)."""
        callee = qualifier[:-2]
        if file.language == "python":
            if callee in _MANAGER_MODEL and self._model_context:
                return list(self._model_context), True  # a manager's `self.model(...)`
            models, method = self._model_call(file, target, callee, depth)
            if models and (method in _MODEL_INSTANCE or (element and method in _QUERYSET_SAME)):
                return models, True  # `Model.objects.get()`, `for m in Model.objects.all()`
            if models and not element and method in _QUERYSET_SAME:
                # `Model.objects.filter()`: a queryset of the model, its manager's class
                # standing for it (it has QuerySet's methods: `from_queryset`)
                managers = self._manager_of(file, target, qualifier, depth)
                if managers is not None:
                    return managers, True
            context = tuple(models)
            if (
                models
                and not element
                and method not in _QUERYSET_SAME
                and (context != self._model_context)
            ):
                # A custom manager's method (`create_user`): what it returns, with its
                # `self.model` the model it was reached through.
                outer = self._model_context
                self._model_context = context
                try:
                    return self._typed_call(file, target, qualifier, depth, element)
                finally:
                    self._model_context = outer
        funcs, outside, guessed = self._functions(file, target, callee, depth)
        if outside is None:
            return [], True  # a library's class: it returns none of ours
        if not funcs or depth > _MAX_RETURN_DEPTH:
            return [], outside  # a function from outside returns no class of the repository
        if arity >= 0 and not guessed and len(funcs) > 1:
            fit = self._taking(funcs, arity)
            if fit:
                funcs = fit
        out: list[int] = []
        # (a guess's functions, every `m` in reach, are members of different classes: no
        # overloads of one)
        overloads = not guessed and len(funcs) > 1 and all(self._signed(f) for f in funcs)
        if overloads:
            # TS overloads: the implementation's own signature is not one callers see.
            said = [f for f in funcs if self._overload(f)]
            if said and len(said) < len(funcs):
                funcs = tuple(said)
            elif not said:
                funcs = self._class_overloads(funcs)
        if not guessed and len(funcs) > 1:
            funcs = self._merged(funcs)
        each: list[tuple[int, ...]] = []
        for f in funcs:
            if f in self.classes:  # a class whose name is not capitalised
                if element:
                    return [], False  # what iterating its instance gives is not written
                out.append(f)
                continue
            returned = self.returns.get(f)
            home = self.files.get(f >> ID_BITS)
            if returned is None or home is None:
                return [], False  # nobody wrote what it returns
            says, owner = returned
            if element:
                says = self.elements.get(f, "")
                if not says:
                    return [], False  # nobody wrote what it holds
            # (an inferred return type: the `return`s' few qualifiers, when they differ, must
            # all come to the same classes)
            found: list[int] = []
            for k, alternative in enumerate(says.split(ANY_OF)):
                part, known = self._returns_of(
                    file, target, callee, depth, alternative, owner, home, guessed
                )
                if not known or (k and set(part) != set(found)):
                    return [], False
                if not part and f in self.generic_returns:
                    return [], False  # `asList().get(0).getKey()`: a List of ours
                found = part
            out.extend(found)
            each.append(tuple(found))
        if overloads and len(set(each)) > 1:
            # Overloads returning different classes: TS picks the first that fits the
            # arguments, whose types the index does not read; the first declared is the one
            # a call fits most often (`string()`: `ZodString`, before a generic variant).
            return list(each[0]), True
        return list(dict.fromkeys(out)), True

    def _returns_of(
        self,
        file: _File,
        target: int | None,
        callee: str,
        depth: int,
        says: str,
        owner: int,
        home: _File,
        guessed: bool,
    ) -> tuple[list[int], bool]:
        """The classes a call of ``callee`` returns when its function (a member of ``owner``,
        in ``home``) says it returns ``says``, and whether that is known."""
        selfish = says in ("Self", "self", "this")
        if (selfish or says.split(".", 1)[0] in _SELF | _SUPER) and owner in self.classes:
            # The receiver's class (a subclass's `me()`), when the chain says it or the
            # call is on `self` in a subclass's method.
            prefix = callee.rpartition(".")[0]
            if prefix.endswith(")") and not prefix.startswith("("):
                mine = self.typed(file, target, prefix, depth)[0] or [owner]
            elif prefix in _SELF | _SUPER and target is not None and target in self.classes:
                mine = [target]  # (`super.clone()` returning `this`: the receiver still)
            elif prefix and prefix[:1] != "(":
                # `Sub.create()` (a classmethod's `return cls(...)`), `x.m()` with x typed:
                # the receiver's written class.
                mine = self.typed(file, target, prefix, depth)[0] or [owner]
            else:
                mine = [owner]
            if selfish:
                return mine, True
            # An inferred `return this.m()`: m of the receiver's class (`this` stays it);
            # `return super.m()`: m of the bases of the class that says it (not of the
            # receiver's, a subclass whose base may be that class).
            above = says.split(".", 1)[0] in _SUPER
            found: list[int] = []
            for receiver in (owner,) if above else mine:
                part, known = self.typed(home, receiver, says, depth + 1)
                if not known:
                    return [], False
                found.extend(part)
            return found, True
        if home.language == "java" and "." not in says:
            # A class nested in the method's class (or around it) is the name's meaning
            # there: `CommandLine.builder()` returns its `Builder`, `Builder.set()` itself.
            k: int | None = owner
            while k is not None and k in self.classes:
                d = self.classes[k]
                if d.name == says:
                    return [k], True
                inner = self._member_type(k, says)
                if inner:
                    return inner, True
                k = d.parent_id
        found, known = self.typed(home, None, says, depth + 1)
        if not known or (guessed and not found):
            # (a guess returning a library's class, `httpx.Response`, may be the one
            # called: the repository's namesake is no surer than it)
            return [], False
        return found, True

    def _member_type(self, cls: int, name: str, depth: int = 0) -> list[int]:
        """Java: the classes named ``name`` declared in ``cls`` or, inherited, in its bases
        (`HttpConnection.Base implements Connection.Base`: Connection's `Method` is in scope
        there through it)."""
        found = [c for c in self.class_by_name.get(name, ()) if self.classes[c].parent_id == cls]
        if found or depth > 3:
            return found
        for base in self.bases(cls)[0]:
            found = self._member_type(base, name, depth + 1)
            if found:
                return found
            outer = self.classes[base].parent_id if base in self.classes else None
            if outer is not None and outer in self.classes:  # the base's own outer class
                found = self._member_type(outer, name, depth + 1)
                if found:
                    return found
        return []

    def _merged(self, funcs: tuple[int, ...]) -> tuple[int, ...]:
        """Of the members of a TS class and the interface of its name in its module (one
        type, by declaration merging), those the interface declares when only they write
        what they return: its signatures are what callers see of the class's methods (yup's
        `class StringSchema` leaves `required()`'s type to inference and `export default
        interface StringSchema` writes it). Any other set stays as it is."""
        # (a class's method whose `return`s say what it returns says less than the interface)
        written = tuple(f for f in funcs if f in self.returns and f not in self.inferred)
        if not written or len(written) == len(funcs):
            return funcs
        if self._owner is None:
            self._owner, self._children = self._hierarchy()
        owners = [self.classes.get(self._owner.get(f, -1)) for f in funcs]
        if any(o is None for o in owners):
            return funcs
        decls = [o for o in owners if o is not None]
        if len({(o.file_id, o.qualified) for o in decls}) != 1:
            return funcs  # (members of different types: a union's, a hierarchy's)
        declared = {o.id for o in decls if o.kind == "interface"}
        if not declared or any(self._owner[f] not in declared for f in written):
            return funcs
        return written

    def _class_overloads(self, funcs: tuple[int, ...]) -> tuple[int, ...]:
        """A TS class's method declared several times (``strip(on: false): BooleanSchema;``
        ``strip(on?: true): BooleanSchema;`` ``strip(v: any) { ... }``): its overloads, without
        the implementation, which TypeScript requires last (callers see only the overloads;
        a class body's overload signature keeps no ``;`` of its own, as a function's does)."""
        funcs = tuple(dict.fromkeys(funcs))  # (a member found through two merged types)
        parents = {self.signatures[f][1] if f in self.signatures else None for f in funcs}
        parent = parents.pop() if len(parents) == 1 else None
        if len(funcs) < 2 or parent is None:
            return funcs
        owner = self.classes.get(parent)
        if owner is None or owner.kind != "class":
            return funcs
        last = max(funcs)  # (ids follow the file's order)
        return tuple(f for f in funcs if f != last)

    def _overload(self, def_id: int) -> bool:
        """A TS overload's signature (``function f(x: string): Foo;``), not its
        implementation."""
        signed = self.signatures.get(def_id)
        return signed is not None and signed[0].rstrip().endswith(";")

    def _signed(self, def_id: int) -> bool:
        home = self.files.get(def_id >> ID_BITS)
        return home is not None and home.language in _SIGNED

    def _functions(
        self, file: _File, target: int | None, callee: str, depth: int
    ) -> tuple[tuple[int, ...], bool | None, bool]:
        """The functions a call of ``callee`` (``make``, ``mod.make``, ``self.make``,
        ``mod.Foo.m``) may run: (functions, whether it is a function from outside the
        repository, None when it is a method of a library's class, whether the functions are a
        guess: an untyped ``x.m``, every ``m`` in reach, any of which may be the one)."""
        first, _, rest = callee.partition(".")
        want = "call" if file.language == "java" else ""  # (no field is called)
        if target is not None and first in _SELF and rest and "." not in rest:
            return self.class_member(target, rest, want=want)[0], False, False
        if target is not None and first in _SUPER and rest and "." not in rest:
            # `next = super.clone(spec); return next` (TS/JS), `return super().make()`: the
            # bases' method
            return self.class_member(target, rest, skip_own=True, want=want)[0], False, False
        if target is not None and target not in self.classes and not rest:
            # a function declared in a body (the reference's target): `createPatchedImmer()`
            return (target,), False, False
        if want and not rest and target is not None:
            # Java `make().m()`: the method of the class (or of a class around it)
            k: int | None = target
            while k is not None and k in self.classes:
                own = self._not_constructors(self.class_member(k, first, want=want)[0])
                if own:
                    return own, False, False
                k = self.classes[k].parent_id
        owner, _, member = callee.rpartition(".")
        if owner.endswith(")") and not owner.startswith("("):  # (`().m`: what any `m` returns)
            # A chain (`string().required().notRequired()`): what its head's call returns,
            # then each method's written return type.
            classes, sure = self.typed(file, target, owner, depth)
            if not classes:
                return (), (None if sure else False), False
            return (
                tuple(m for c in classes for m in self.class_member(c, member, want=want)[0]),
                False,
                False,
            )
        if file.language == "python" and rest:
            managers = self._manager_of(file, target, owner, depth)
            if managers is not None:  # `Model.objects.m()`: the model's manager's m
                if not managers:
                    return (), None, False  # Django's own Manager, from outside
                return (
                    tuple(m for c in managers for m in self.class_member(c, member)[0]),
                    False,
                    False,
                )
        if file.language == "java" and rest and not owner.endswith(")"):
            # `HttpConnection.Request.method()` (a local of that nested class's type): the
            # member of the class the owner names, before any reading of it as a path
            classes, sure = self.typed(file, target, owner, depth + 1)
            if classes:
                return (
                    tuple(m for c in classes for m in self.class_member(c, member, want=want)[0]),
                    False,
                    False,
                )
            if sure and "." not in owner:
                # A local of a library's class (`Stream<Box> all; all.findFirst().m()`, a
                # container's method outside ``_java_element``'s table): it may hand out ours,
                # what it returns is not known (a guess follows, as before chains were typed).
                return (), False, False
        funcs, known = self.in_file(file, callee)
        outside = known and not funcs and self.from_outside(file, callee)
        if not funcs and not outside and "." in rest and first not in _SELF:
            # `mod.Foo.m()`: `y = x.m()` with `x = mod.Foo()` (or `x: mod.Foo`).
            owner, _, member = callee.rpartition(".")
            classes, sure = self.typed(file, target, owner, depth + 1)
            if not classes and sure:
                return (), None, False
            funcs = tuple(m for c in classes for m in self.class_member(c, member, want=want)[0])
        if not funcs and not outside and rest and "." not in rest and first not in _SELF:
            # `x = obj.m()`, obj untyped (or a local shadowing a module-level name that has no
            # `m`): the members `m` the file reaches, when each of them writes its return
            # type (one class or a few: what any of them returns).
            guess = self.any_member(rest, file)
            if 0 < len(guess) <= _MAX_RETURN_GUESS:
                return guess, False, True
        return funcs, outside, False

    def _module_member(
        self, file: _File, target: int | None, qualifier: str, lookup: str
    ) -> tuple[int, ...]:
        imp = self.imports.get(target) if target is not None else None
        if imp is None:
            return ()
        first, _, rest = qualifier.partition(".")
        if imp.name in ("", "*"):
            if file.language == "python":
                aliased = imp.local != imp.module.split(".")[0]
                module = imp.module if aliased else first
                spec = f"{module}.{rest}" if rest else module
            else:
                spec = imp.module
                if rest:
                    return self._inner_member(file, spec, rest, lookup)
            out: list[int] = []
            for t in self.module_files(file, spec):
                out.extend(self.exported(t, lookup))
            return tuple(dict.fromkeys(out))
        if file.language == "python":
            sep = "" if imp.module.endswith(".") else "."
            spec = f"{imp.module}{sep}{imp.name}" + (f".{rest}" if rest else "")
            modules = self._py_files(file, spec)
            if modules:
                return tuple(d for t in modules for d in self.exported(t, lookup))
        named = self.imported(file, imp)
        out = []
        for c in named:
            if c in self.classes and not (rest and file.language == "python"):
                # (`Model.objects.m()`: not Model's own m, but its attribute's)
                out.extend(self.class_member(c, lookup)[0])
        if file.language in ("javascript", "typescript", "tsx") and not rest:
            targets = self.module_files(file, imp.module)
            # `import {util} from "./core"` where core says `export * as util from "./util"`.
            for t in targets:
                for ns in self.namespaces(t, imp.name):
                    out.extend(self.exported(ns, lookup))
            if not out and (not named or imp.name == COMMONJS):
                # `export namespace util {...}`: the namespace is not a definition of its own,
                # its members are the module's; so are a CommonJS module's (`exports.f = ...`,
                # `module.exports = {f}`, beside a function or class `module.exports` holds).
                for t in targets:
                    out.extend(self.exported(t, lookup))
        return tuple(dict.fromkeys(out))

    def _outside(self, file: _File, target: int | None) -> bool:
        """Whether a JS/TS import names a package outside the repository (a Node built-in,
        `node:` or bare, a dependency): what its values hold is that package's, never a
        repository member of the name (axios's `stream.Readable.from(...)` with `import
        stream from 'stream'` was a guess among its three `from`s)."""
        imp = self.imports.get(target) if target is not None else None
        return (
            imp is not None
            and file.language in ("javascript", "typescript", "tsx")
            and bool(imp.module)
            and not imp.module.startswith(".")
            and not self.module_files(file, imp.module)
        )

    def _inner_member(self, file: _File, spec: str, rest: str, lookup: str) -> tuple[int, ...]:
        """``z.Kind.member`` (``z`` a module): a member of the class the module calls
        ``Kind``, or a definition of the module it re-exports as ``Kind`` (``z.core.f``)."""
        if "." in rest:
            return ()  # deeper: left to the member guess
        out: list[int] = []
        for t in self.module_files(file, spec):
            for c in self.exported(t, rest):
                if c in self.classes:
                    out.extend(self.class_member(c, lookup)[0])
            for ns in self.namespaces(t, rest):
                out.extend(self.exported(ns, lookup))
        return tuple(dict.fromkeys(out))

    def namespaces(self, file_id: int, name: str, depth: int = 0) -> tuple[int, ...]:
        """The modules that ``name`` of a module stands for as a whole (``import * as name``,
        ``export * as name from``, re-exported as they are)."""
        key = (file_id, "\0ns:" + name)
        memo = self._export_memo.get(key)
        if memo is not None:
            return memo
        entered = self._enter(key)
        if entered is None:
            return ()
        file = self._file(file_id)
        found: tuple[int, ...] = ()
        if file is not None:
            found, final = self._namespaces_here(file, name, depth)
            if not final:
                found = self._through_stars(
                    file,
                    name,
                    depth,
                    lambda t, at: self._namespaces_here(t, name, at),
                    "\0ns:",
                    exports_only=True,
                )
        self._leave(key, entered, found)
        return found

    def _namespaces_here(self, file: _File, name: str, depth: int) -> tuple[tuple[int, ...], bool]:
        """The modules ``name`` stands for in a module without its `export *` lines, and
        whether that is the answer (else they are read)."""
        if depth >= _DEPTH:
            self._low = -1
            return (), True
        if name in self.top.get(file.id, {}):
            return (), True
        out: list[int] = []
        for imp in self.file_imports.get(file.id, []):
            if imp.local != name or not imp.module:
                continue
            for t in self.module_files(file, imp.module):
                if imp.name == "":
                    out.append(t)
                elif imp.name != "*":
                    out.extend(self.namespaces(t, imp.name, depth + 1))
        return tuple(dict.fromkeys(out)), bool(out)

    def _go_method(self, file: _File, type_name: str, lookup: str) -> tuple[int, ...]:
        """``r.m`` with ``r`` a method's receiver of type ``type_name``: the type's own member
        ``m``, else one of the types it embeds (testify's ``suite.T()`` in a method of
        ``SuiteTester``, which embeds ``Suite``; ``t.Called()`` through ``mock.Mock``)."""
        own = self.members.get((self._scope_key(file.id), type_name), {}).get(lookup)
        if own:
            return tuple(own)
        out: list[int] = []
        for c in self.in_file(file, type_name)[0]:
            if c in self.classes:
                out.extend(self.class_member(c, lookup)[0])
        return tuple(dict.fromkeys(out))

    def _free(
        self, file: _File, target: int | None, qualifier: str, lookup: str, want: str = ""
    ) -> tuple[tuple[int, ...], str]:
        _, qualified, path = qualifier.partition(QUALIFIED)
        if qualified:  # Java: `org.acme.Element` (`new ...`, `.parse()`) through its package
            return self._java_qualified(f"{path}.{lookup}", want), "package"
        if qualifier and not qualifier.startswith(NEW):  # Java/Go: `Type.member`, Type here
            out: list[int] = []
            via = "package"
            for c in self.package_top(file, qualifier):
                if c in self.classes:
                    out.extend(self.class_member(c, lookup, want=want)[0])
                elif file.language == "go" and (held := self._go_variable_type(c)):
                    # `x.m()`, x a package variable of another file (`var x = NewT()`)
                    home = self.files.get(c >> ID_BITS)
                    if home is not None:
                        found, via = self.resolve(home.id, "instance", None, held, lookup, want)
                        out.extend(found)
            if not out and file.language == "go" and not qualifier[:1].isupper():
                return self.any_member(lookup, file), "member"  # an untyped value
            return tuple(dict.fromkeys(out)), via
        if target is not None:
            # (Java: a constructor is no member a bare name means; `C` is its class)
            found = self._not_constructors(self.class_member(target, lookup, want=want)[0])
            if found:
                return found, "self"
            here = self.classes.get(target)
            outer = here.parent_id if here is not None else None
            while outer is not None and outer in self.classes:  # enclosing classes (Java)
                found = self._not_constructors(self.class_member(outer, lookup, want=want)[0])
                if found:
                    return found, "self"
                outer = self.classes[outer].parent_id
        peers = self.package_top(file, lookup)
        if peers:
            return tuple(peers), "package"
        if file.language == "java":
            return self.java_on_demand(file, lookup), "import"
        out = []
        for imp in self.file_imports.get(file.id, []):
            if imp.name == "*":
                for t in self.module_files(file, imp.module):
                    out.extend(self.exported(t, lookup))
        return tuple(dict.fromkeys(out)), "import"

    def _go_variable_type(self, def_id: int) -> str:
        """What a Go package-level variable's declaration says it holds (its written type, or
        the call or literal it is set to: the extractor's ``Definition.returned``), or ""."""
        held = self._go_vars.get(def_id)
        if held is None:
            row = self.conn.execute(
                "SELECT returned FROM defs WHERE id = ? AND kind = 'variable'", (def_id,)
            ).fetchone()
            held = self._go_vars[def_id] = row[0] if row is not None else ""
        return held

    def _java_qualified(self, dotted: str, want: str = "") -> tuple[int, ...]:
        """Java: what a fully qualified name means (`org.acme.nodes.Element`, a nested class
        or a member after it): the class of the repository's package its longest package
        prefix names, then each member; none when no package of the repository is its
        prefix (`java.util.List`)."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            files = self.java_packages.get(".".join(parts[:i]))
            if not files:
                continue
            found = [d for t in files for d in self.exported(t, parts[i]) if d in self.classes]
            for k, name in enumerate(parts[i + 1 :], i + 1):
                found = [
                    m
                    for c in found
                    if c in self.classes
                    for m in self.class_member(c, name, want=want if k == len(parts) - 1 else "")[0]
                ]
            return tuple(dict.fromkeys(found))
        return ()

    def _not_constructors(self, found: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(d for d in found if d not in self.arity)

    def constructed(
        self, found: tuple[int, ...], arguments: int, via: str
    ) -> tuple[tuple[int, float, str], ...]:
        """The Java constructors a call with ``arguments`` arguments runs, with confidence and
        via, of the classes (``new C(...)``) or constructors (``this(...)``, ``super(...)``)
        ``found``: of a class's constructors, the one whose arity fits (any that fits, when
        it is the only one); when none or several fit, all of those (of them all, when none)
        at 1/their number (``via`` overload): which one the argument types pick is not read."""
        groups: dict[int, list[int]] = {}
        for d in found:
            if d in self.classes:
                c = self.classes[d]
                own = self.members.get((self._scope_key(c.file_id), c.qualified), {})
                groups.setdefault(d, []).extend(m for m in own.get(c.name, ()) if m in self.arity)
            elif d in self.arity:  # (the constructors of one class: the nearest that has some)
                groups.setdefault(-1, []).append(d)
        out: list[tuple[int, float, str]] = []
        for ctors in groups.values():
            ctors = list(dict.fromkeys(ctors))
            if len(ctors) == 1:
                out.append((ctors[0], 1.0, via))
                continue
            fit = [
                m
                for m in ctors
                if self.arity[m][0] <= arguments and self.arity[m][1] in (-1, arguments)
            ]
            if len(fit) == 1:
                out.append((fit[0], 1.0, via))
                continue
            some = fit or ctors
            out.extend((m, 1.0 / len(some), _OVERLOAD) for m in some)
        return tuple(out)

    def _by_name(self, file: _File, lookup: str) -> tuple[int, ...]:
        """Definitions of that name in files of the same language (name-level links)."""
        found = self.name_defs.get(lookup, [])
        if len(found) > _MAX_NAMESAKES:
            return ()
        language = file.language
        return tuple(d for d, f in found if (self.files.get(f) or file).language == language)

    # -- many references ------------------------------------------------------------------------

    def _fit(
        self, found: tuple[int, ...], kind: str, language: str, direct: bool = False
    ) -> tuple[int, ...]:
        """The candidates a reference of ``kind`` can mean: a type position means a type (a
        class, an interface ...), a value position not an interface or a type alias (TS
        lets ``interface X`` and ``const X`` share a name), when both are among them. In Java
        a member access without a call is never a method, a call never a field (but a
        ``direct`` link, an anonymous class's call of its own method, which is no class's
        member, is what it names)."""
        if language == "java" and kind in ("call", "attribute") and not direct:
            methods = kind == "call"
            found = tuple(
                d for d in found if d in self.classes or (d in self.callable_members) == methods
            )
        if len(found) < 2 or not kind or kind == "import":
            return found
        if kind == "type":
            kept = tuple(d for d in found if d in self.classes)
        else:
            kept = tuple(
                d for d in found if d not in self.classes or self.classes[d].kind not in _TYPES
            )
        return kept or found

    def link(self, rows: Iterable[Row]) -> list[tuple[int, int, float, str]]:
        """Edges (ref, def, confidence, via) for (ref id, file id, how, target, qualifier,
        lookup, kind) rows. Candidates in one file (overloads, a getter and its setter)
        are one meaning; members of one name in many classes (``obj.m`` nobody can type)
        are as many."""
        edges: list[tuple[int, int, float, str]] = []
        memo: dict[tuple[int, str, int | None, str, str, str], tuple[tuple[int, ...], str]] = {}
        # What a reference links to depends on these fields only (the language is its
        # file's): most references repeat another's, so each answer is worked out once.
        fitted: dict[
            tuple[int, str, int | None, str, str, str],
            tuple[tuple[int, ...], float, str, tuple[int, ...], tuple[tuple[int, float, str], ...]],
        ] = {}
        found: tuple[int, ...]
        append = edges.append
        progress = self.progress
        worked = 0
        for ref_id, file_id, how, target, written, lookup, kind in rows:
            known = fitted.get((file_id, how, target, written, lookup, kind))
            if known is None:
                if progress is not None:
                    # (a slow resolution, references by the thousand or a costly one, stops
                    # at the hook's time budget: it blocked the commit till the end)
                    progress(worked, worked)
                    worked += 1
                qualifier, counted, arguments = written.partition(ARGUMENTS)
                arguments, _, chain = arguments.partition(ARGUMENTS)
                if how == "def":
                    found, via = ((target,) if target is not None else ()), "local"
                    # Python: a module-level name bound to several definitions of one file
                    # (`@overload`s, `if ...: def f()` / `else: def f()`) means them all, as
                    # an import of it does; a function's local functions so bound too
                    # (Django's `queryset_iterator`). (TS: `interface X` and `const X` share
                    # names.)
                    if target is not None and self.files[file_id].language == "python":
                        same = self.top.get(file_id, {}).get(lookup)
                        if same is not None and len(same) > 1 and target in same:
                            found = tuple(same)
                        else:
                            found = self.local_twins(target) or found
                else:
                    # (Java: a call's lookup finds no field, a read's no method)
                    want = (
                        _WANT.get(kind, "")
                        if qualifier != OWN
                        and file_id in self.files
                        and self.files[file_id].language == "java"
                        else ""
                    )
                    key = (file_id, how, target, qualifier + ARGUMENTS + chain, lookup, want)
                    hit = memo.get(key)
                    if hit is None:
                        # (Java `a.m(1).n()`: the receiver's calls' argument counts, nearest
                        # first, pick the overloads its chain goes through: ``_step_arity``)
                        self._chain = (
                            qualifier,
                            tuple(int(c) for c in chain.split(",")) if chain else (),
                        )
                        try:
                            hit = memo[key] = self.resolve(
                                file_id, how, target, qualifier, lookup, want
                            )
                        finally:
                            self._chain = ("", ())
                    found, via = hit
                language = self.files[file_id].language if file_id in self.files else ""
                ways = self._union_ways.get(found, 1) if via == _UNION else 1
                found = self._fit(tuple(dict.fromkeys(found)), kind, language, qualifier == OWN)
                if language == "go" and found and lookup[:1].islower():
                    found = self._go_visible(file_id, found)
                built: tuple[tuple[int, float, str], ...] = ()
                if found and qualifier.startswith(NEW):
                    # Java `new C(...)` (C, and its constructor), `this(...)`, `super(...)`.
                    made = qualifier[len(NEW) :].partition(QUALIFIED)[0]
                    built = self.constructed(found, int(made), via)
                    found = tuple(d for d in found if d in self.classes)
                if via in _HALF_SURE:
                    weight = _FAMILY_WEIGHT
                elif via == _UNION:  # one of several classes: 1/their number, as a guess's
                    weight = 1.0 / ways
                elif via == "member" or len(found) <= 1:
                    weight = 1.0 / max(1, len(found))
                else:
                    weight = 1.0 / len({d >> ID_BITS for d in found})
                kin = (
                    self.family(found, self._receivers(file_id, how, target, qualifier))
                    if found
                    and via in _SURE_MEMBER
                    and language in _FAMILIES
                    and qualifier[:1] != LITERAL  # (a literal's key is its own implementation)
                    else ()
                )
                if found and language in _FAMILIES:
                    # TS module augmentation: `declare module "m" { interface X {...} }`
                    # elsewhere is one declaration with m's X.
                    augmented = self.augmentations()
                    more = tuple(a for d in found for a in augmented.get(d, ()))
                    if more:
                        found = found + tuple(a for a in more if a not in found)
                if counted and len(found) > 1:
                    # Java: a method call goes to the overloads that take as many arguments,
                    # at 1/their number when several do (which the argument types pick is
                    # not read); to them all when none does.
                    fit = self._taking(found, int(arguments))
                    if fit != found and fit:
                        found = fit
                    if (
                        len(found) > 1
                        and weight == 1.0
                        and all(d in self.callable_members for d in found)
                    ):
                        weight, via = 1.0 / len(found), _OVERLOAD
                known = fitted[(file_id, how, target, written, lookup, kind)] = (
                    found,
                    weight,
                    via,
                    kin,
                    built,
                )
            found, weight, via, kin, built = known
            if len(found) == 1:
                append((ref_id, found[0], weight, via))
            elif found:
                edges.extend([(ref_id, d, weight, via) for d in found])
            for d in kin:
                append((ref_id, d, _FAMILY_WEIGHT, "family"))
            for d, confidence, how_built in built:
                append((ref_id, d, confidence, how_built))
        return edges

    def _taking(self, found: tuple[int, ...], arguments: int) -> tuple[int, ...]:
        """Of ``found``, those a call with ``arguments`` arguments can mean: the methods whose
        parameters take as many (a variadic one, as many or more), and what is no method or
        has no parameter list read."""
        missing = [d for d in found if d in self.callable_members and d not in self.method_arity]
        if missing:
            marks = ",".join("?" * len(missing))
            for def_id, signature in self.conn.execute(
                f"SELECT id, signature FROM defs WHERE id IN ({marks})", missing
            ):
                self.method_arity[def_id] = constructor_arity(signature) or (0, -1)
        out = []
        for d in found:
            fewest, most = self.method_arity.get(d, (0, -1))
            if fewest <= arguments and most in (-1, arguments):
                out.append(d)
        return tuple(out)

    def _go_visible(self, file_id: int, found: tuple[int, ...]) -> tuple[int, ...]:
        """Go: of the definitions an unexported name may mean, those of the referencing
        file's own package (its folder and package clause): logrus's `tc.log(...)` in package
        `logrus_test`, a struct's func field, was a sure call of the unexported `Entry.log`."""
        here = self.files.get(file_id)
        if here is None:
            return found
        folder = posixpath.dirname(here.path)
        out = []
        for d in found:
            there = self.files.get(d >> ID_BITS)
            if there is None or (
                there.package == here.package and posixpath.dirname(there.path) == folder
            ):
                out.append(d)
        return tuple(out)

    def _receivers(
        self, file_id: int, how: str, target: int | None, qualifier: str
    ) -> tuple[int, ...]:
        """The classes a member reference's receiver is (``self``/``this``, a class, a typed
        instance), for its family: () when not known."""
        if how in ("self", "class"):
            return (target,) if target is not None and target in self.classes else ()
        file = self.files.get(file_id)
        if how != "instance" or file is None or not qualifier:
            return ()
        return tuple(self.typed(file, target, qualifier)[0])

    def family(self, found: tuple[int, ...], receivers: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The members of the same name up and down the class hierarchy of the members
        ``found`` (the overridden ones and the overrides), themselves left out: a call
        through a typed receiver may run any of them (TypeScript's service calls them one
        method). Below a receiver's class only, when it is a subclass of the member's: a
        TupleSchema's inherited `clone` never runs ArraySchema's override."""
        if self._owner is None:
            self._owner, self._children = self._hierarchy()
        out: list[int] = []
        for member in found:
            if member in self.field_members:
                continue  # a property's namesakes are other properties, not overrides
            cls = self._owner.get(member)
            below = [r for r in receivers if r != cls and cls is not None and self._under(r, cls)]
            if not below or len(below) != len(receivers):
                below = [-1]  # (the member's own class: all its subclasses)
            for root in below:
                known = self._kin.get((member, root))
                if known is None:
                    known = self._kin[(member, root)] = self._namesakes(member, root)
                out.extend(known)
        return tuple(d for d in dict.fromkeys(out) if d not in found)

    def _under(self, c: int, base: int) -> bool:
        """Whether class ``c`` inherits from ``base`` (by the bases found, a few levels)."""
        up = self._up_memo.get(c)
        if up is None:
            up = self._up_memo[c] = self._above([c])
        return base in up

    def _above(self, classes: list[int]) -> dict[int, None]:
        """The bases of ``classes``, theirs ..., up to ``_MAX_FAMILY`` of them."""
        up: dict[int, None] = {}
        todo = [b for c in classes for b in self.bases(c)[0]]
        while todo and len(up) < _MAX_FAMILY:
            c = todo.pop()
            if c not in up:
                up[c] = None
                todo.extend(self.bases(c)[0])
        return up

    def _namesakes(self, member: int, below: int = -1) -> tuple[int, ...]:
        """The members of ``member``'s name in the classes above and below its class (below
        class ``below`` instead, a subclass of it, when given), and the object literals'
        methods written under any of them."""
        cls = self._owner.get(member) if self._owner is not None else None
        if cls is None:
            return ()
        name = self._member_name.get(member, "")
        literal = self.literal_members()
        out: list[int] = []
        kin = self._kin_classes(cls, below)
        for c in kin:
            d = self.classes[c]
            out.extend(
                self.members.get((self._scope_key(d.file_id), d.qualified), {}).get(name, ())
            )
        for c in (cls, *kin):
            out.extend(literal.get((c, name), ()))
        return tuple(out)

    def _kin_classes(self, cls: int, below: int = -1) -> tuple[int, ...]:
        """The classes above ``cls`` (its bases, theirs ...) and below it (below ``below``
        when given: a subclass of ``cls``), up to ``_MAX_FAMILY`` each way. A TS class and the
        interface of its name in its module are one type (declaration merging: yup's `class
        Schema implements ISchema` and `interface Schema`): the bases and subclasses of each
        are the type's."""
        same = self._merged_with(cls)
        # (one answer for each declaration merged: a type declared 300 times, `interface X`
        # in one module, made `x.run()` cost 300 times 300 walks; 1000 did not index in 60 s)
        key = (tuple(same), below)
        known = self._kin_memo.get(key)
        if known is None:
            known = self._kin_memo[key] = self._kin_walk(same, below)
        return known

    def _kin_walk(self, same: list[int], below: int) -> tuple[int, ...]:
        """``_kin_classes`` of the declarations ``same`` (merged)."""
        up = self._above(same)
        down: dict[int, None] = {}
        roots = same if below < 0 else self._merged_with(below)
        if below >= 0:
            # the receiver's class itself too: no override of its own (else it would have been
            # found), but the object literals written under it (zod's `inst.lt = ...`)
            down.update(dict.fromkeys(roots))
        todo = [k for c in roots for k in self._children.get(c, ())]
        while todo and len(down) < _MAX_FAMILY:
            c = todo.pop()
            if c not in down:
                down[c] = None
                todo.extend(self._children.get(c, ()))
        return tuple(c for c in dict.fromkeys((*up, *down)) if c not in same)

    def _merged_with(self, cls: int) -> list[int]:
        """``cls`` and the declarations merged with it (a TS class and the interface of its
        name in its module)."""
        here = self.classes[cls]
        return [
            c
            for c in self.class_by_name.get(here.name, ())
            if c == cls
            or (
                self.classes[c].file_id == here.file_id
                and self.classes[c].qualified == here.qualified
            )
        ] or [cls]

    def augmentations(self) -> dict[int, tuple[int, ...]]:
        """Interface -> the interfaces that augment it from a ``declare module`` block of
        another file (their bases name the module)."""
        if self._augmented is None:
            found: dict[int, list[int]] = defaultdict(list)
            for c in self.classes.values():
                if c.kind != "interface" or not c.bases or not c.bases[0].startswith(AUGMENTS):
                    continue
                f = self.files.get(c.file_id)
                if f is None:
                    continue
                for t in self.module_files(f, c.bases[0][len(AUGMENTS) :]):
                    for o in self.exported(t, c.name):
                        if o != c.id and o in self.classes:
                            found[o].append(c.id)
            self._augmented = {k: tuple(v) for k, v in found.items()}
        return self._augmented

    def literal_members(self) -> dict[tuple[int, str], list[int]]:
        """(class or interface, name) -> the TS object literals' methods written under that
        type (``function f(): Methods<Foo> { return { m() {...} } }``): the TypeScript
        service calls them and Foo's ``m`` one symbol."""
        if self._literal_members is None:
            found: dict[tuple[int, str], list[int]] = defaultdict(list)
            for def_id, file_id, name, written in self.typed_literals():
                f = self.files.get(file_id)
                if f is None or f.language not in _FAMILIES:
                    continue
                for w in written:
                    for c in self.in_file(f, w)[0]:
                        if c in self.classes and self.classes[c].kind in ("class", "interface"):
                            found[(c, name)].append(def_id)
            self._literal_members = found
        return self._literal_members

    def outside_overrides(self, written: str, name: str) -> tuple[int, ...]:
        """Members ``name`` of the TS/JS classes that extend a class from outside the
        repository (``class DraftSet extends Set``), by the base's name as written."""
        if self._outside_heirs is None:
            heirs: dict[str, list[int]] = defaultdict(list)
            for cls in self.classes.values():
                f = self.files.get(cls.file_id)
                if f is None or f.language not in _FAMILIES:
                    continue
                for base in cls.bases:
                    if base.startswith(ALIAS):
                        continue
                    found, _ = self.in_file(f, base)
                    if not any(b in self.classes for b in found):
                        heirs[base.rsplit(".", 1)[-1]].append(cls.id)
            self._outside_heirs = heirs
        out: list[int] = []
        for c in self._outside_heirs.get(written.rsplit(".", 1)[-1], ()):
            d = self.classes[c]
            out.extend(
                self.members.get((self._scope_key(d.file_id), d.qualified), {}).get(name, ())
            )
        return tuple(out)

    def _hierarchy(self) -> tuple[dict[int, int], dict[int, list[int]]]:
        """Each member's class, and each class's direct subclasses (of the languages whose
        references are families)."""
        owner: dict[int, int] = {}
        children: dict[int, list[int]] = defaultdict(list)
        for c in self.classes.values():
            f = self.files.get(c.file_id)
            if f is None or f.language not in _FAMILIES:
                continue
            for name, ids in self.members.get(
                (self._scope_key(c.file_id), c.qualified), {}
            ).items():
                for d in ids:
                    owner[d] = c.id
                    self._member_name[d] = name
            for b in self.bases(c.id)[0]:
                children[b].append(c.id)
        return owner, children

    def heirs(self, class_names: set[str]) -> list[int]:
        """Classes that inherit, by name and transitively, from one of ``class_names``."""
        children: dict[str, list[int]] = defaultdict(list)
        for d in self.classes.values():
            for base in d.bases:  # (an alias follows what it names)
                children[base.removeprefix(ALIAS).rsplit(".", 1)[-1]].append(d.id)
        out: set[int] = set()
        todo = list(class_names)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for child in children.get(name, []):
                out.add(child)
                todo.append(self.classes[child].name)
        for name in class_names:
            out.update(self.class_by_name.get(name, []))
        return sorted(out)

    def go_receivers(self, classes: Iterable[int]) -> list[tuple[int, str]]:
        """(file, type name) where a Go method's receiver of one of ``classes`` may be used:
        the files of the type's package (`s.T()` reaches what the type embeds)."""
        out: set[tuple[int, str]] = set()
        for c in classes:
            d = self.classes.get(c)
            f = self.files.get(d.file_id) if d is not None else None
            if d is not None and f is not None and f.language == "go":
                folder = posixpath.dirname(f.path)
                out.update((peer, d.name) for peer in self.go_folders.get(folder, []))
        return sorted(out)


_ACTIVE: list[Resolver] = []  # the resolver and rows a forked worker inherits
_ROWS: list[list[Row]] = []
_PARALLEL_FROM = 60_000  # references: fewer are resolved in this process (forking costs)
_EACH_CLOSURE = 200  # files: references in more have every import closure worked out at once


def _link_slice(bounds: tuple[int, int]) -> list[tuple[int, int, float, str]]:
    return _ACTIVE[0].link(_ROWS[0][bounds[0] : bounds[1]])


def link_all(
    resolver: Resolver, rows: list[Row], workers: int
) -> list[tuple[int, int, float, str]]:
    """``resolver.link(rows)``, in ``workers`` forked processes when there are many rows (the
    resolver is read-only: each worker inherits it)."""
    methods = multiprocessing.get_all_start_methods()
    if len({r[1] for r in rows}) > _EACH_CLOSURE:
        resolver.all_closures()  # references in many files: every closure at once is cheaper
    if workers <= 1 or len(rows) < _PARALLEL_FROM or "fork" not in methods:
        return resolver.link(rows)
    resolver.load_all()
    resolver.all_closures()
    resolver.reach(0)  # the import closures, once, before the workers fork
    _ACTIVE[:] = [resolver]
    _ROWS[:] = [rows]
    try:
        step = max(1, len(rows) // (workers * 4))
        bounds = [(i, min(i + step, len(rows))) for i in range(0, len(rows), step)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_link_slice, bounds)
    finally:
        _ACTIVE.clear()
        _ROWS.clear()
    return [edge for part in parts for edge in part]


class Linked(NamedTuple):
    """A slice of the edges, for inserting (``OR IGNORE``) in order: sorted, flat (ref, def,
    confidence, via, ref, ...), and the file graph's weights they add (``file_weights``)."""

    edges: list[object]
    weights: dict[tuple[int, int], int]


def file_weights(edges: list[tuple[int, int, float, str]]) -> dict[tuple[int, int], int]:
    """(source file, target file) -> summed weight of sorted ``edges``, as ``rebuild_links``
    sums the stored ones: of two edges of one reference and definition the first (which
    ``INSERT OR IGNORE`` keeps), not ``member`` guesses, each confidence in millionths rounded
    as SQLite's ``ROUND`` does (half away from zero)."""
    weights: dict[tuple[int, int], int] = {}
    get = weights.get
    last_ref = last_def = -1
    for ref_id, def_id, confidence, via in edges:
        if def_id == last_def and ref_id == last_ref:
            continue
        last_ref, last_def = ref_id, def_id
        if via != "member":
            key = (ref_id >> ID_BITS, def_id >> ID_BITS)
            weights[key] = get(key, 0) + int(confidence * WEIGHT_UNIT + 0.5)
    return weights


def _linked(edges: list[tuple[int, int, float, str]]) -> Linked:
    edges.sort()
    return Linked(list(itertools.chain.from_iterable(edges)), file_weights(edges))


def _link_part(bounds: tuple[int, int]) -> Linked:
    return _linked(_link_slice(bounds))


def link_slices(
    resolver: Resolver,
    rows: list[Row],
    workers: int,
    meanwhile: Sequence[Callable[[], object]],
) -> Iterator[Linked]:
    """``resolver.link(rows)`` as slices of the rows in their order, each sorted (so rows
    sorted by id give edges sorted as a whole), linked in ``workers`` forked processes while
    this one takes each slice as soon as it is done and runs the steps of ``meanwhile`` (all
    of them, in order) while none is. The workers also sort the slices, flatten them and sum
    their part of the file graph (this process, which writes every row, has the longer share
    of the work: what it does after the last slice is the build's serial tail)."""
    methods = multiprocessing.get_all_start_methods()
    if workers <= 1 or len(rows) < _PARALLEL_FROM or "fork" not in methods:
        for step in meanwhile:
            step()
        yield _linked(resolver.link(rows))
        return
    resolver.load_all()
    _ACTIVE[:] = [resolver]
    _ROWS[:] = [rows]
    todo = list(meanwhile)
    try:
        size = max(1, len(rows) // (workers * 8))
        bounds = [(i, min(i + size, len(rows))) for i in range(0, len(rows), size)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.imap(_link_part, bounds)
            while True:
                try:
                    part = parts.next(timeout=0 if todo else None)
                except multiprocessing.TimeoutError:
                    todo.pop(0)()
                    continue
                except StopIteration:
                    break
                yield part
    finally:
        _ACTIVE.clear()
        _ROWS.clear()
    for step in todo:
        step()


def link_weight(confidence: float) -> int:
    return round(confidence * WEIGHT_UNIT)


def rebuild_links(conn: sqlite3.Connection) -> None:
    """The file graph: (source file, target file, summed confidence) over the edges the rules
    found (not ``member`` guesses for receivers nobody can type). A row's file is its id's high
    bits, so no join is needed."""
    conn.execute("DELETE FROM file_links")
    conn.execute(
        "INSERT INTO file_links(src, dst, weight) "
        f"SELECT ref_id >> {ID_BITS}, def_id >> {ID_BITS}, "
        f"SUM(CAST(ROUND(confidence * {WEIGHT_UNIT}) AS INTEGER)) FROM edges "
        "WHERE via != 'member' GROUP BY 1, 2"
    )


def adjust_links(conn: sqlite3.Connection, delta: dict[tuple[int, int], int]) -> None:
    """Add (or, negative, take away) weights of the file graph; rows that reach 0 go."""
    conn.executemany(
        "INSERT INTO file_links(src, dst, weight) VALUES (?, ?, ?) "
        "ON CONFLICT(src, dst) DO UPDATE SET weight = weight + excluded.weight",
        [(src, dst, w) for (src, dst), w in sorted(delta.items()) if w],
    )
    conn.execute("DELETE FROM file_links WHERE weight <= 0")
