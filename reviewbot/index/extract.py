"""One file's facts from its tree-sitter tree: definitions, imports, and every identifier that
is code (never a string or a comment), each resolved as far as the file alone allows.

Scoping follows the language: a name is looked up from the innermost scope outwards; a binding
anywhere in a scope counts for the whole scope (Python's rule, and close enough for block
scopes elsewhere); Python class bodies are not seen by the functions inside them; a function's
name binds in the scope around it, its parameters inside it. Occurrences of locals and
parameters are not stored: they mean no definition. What the file cannot decide (imports,
``self.m``, ``obj.m``, free names) is said in the reference's ``how`` for the global pass.

A file whose tree is mostly errors (over a quarter of its bytes) returns None: the caller falls
back to the engine's outliner.
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import copy
import functools
import itertools
import operator
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import repeat

import tree_sitter as ts

from reviewbot.index.grammars import (
    Compiled,
    Grammar,
    ImportSite,
    commonjs_exports,
    conditional_default_exports,
    required,
)
from reviewbot.index.records import Definition, FileFacts, Import, Reference

__all__ = [
    "ALIAS",
    "ARGUMENTS",
    "AUGMENTS",
    "CLASS_KINDS",
    "LOCAL",
    "NEW",
    "PROPERTY",
    "QUALIFIED",
    "cut_signature",
    "extract",
    "extract_both",
    "extract_checked",
    "facts_of",
    "field_type",
    "go_field_type",
    "java_container_returns",
    "one_extraction_each",
]

CLASS_KINDS = frozenset({"class", "interface", "enum", "struct"})
_NOT_BARE = frozenset({"method", "constructor", "field"})  # members are not bare names (but Python)
_VALUES = frozenset({"variable", "constant"})
_CONTAINERS = CLASS_KINDS | {"type"}  # their members are qualified by them
_TYPE_ONLY = frozenset({"interface", "type"})  # no value: TS lets a value share the name
_SPACES = re.compile(r"\s+")
_JAVA_TYPE_SPACES = re.compile(r"\s*([<>,.])\s*")
_MAX_CALLEE = 256  # bytes of a callee read as a type name (`pkg.mod.Foo`)
# A header written over several lines: `def f(\n    a,\n    b,\n)` reads `def f(a, b)`.
_OPEN_SPACE = re.compile(r"([(\[]) ")
_CLOSE_SPACE = re.compile(r"(?:,? )([)\]])")
_TWICE = (2).__mul__
_START = operator.attrgetter("start_byte")
_END = operator.attrgetter("end_byte")
_DOT = ord(".")
_QUESTION = ord("?")
# Matched on the reversed bytes, from just before a name: the dot of a member access (not a
# spread), a dotted path of names, what would make it longer, `super(...)`.
# One anchored match answers the first three (the chain is greedy and what follows it is
# optional, so the chain found is the longest, as three matches in a row would find it). What
# follows is a dot only, not `?`: in `c ? A.b() : d` the `?` is a ternary's.
_REV_RECEIVER = re.compile(
    rb"[ \t\r\n]*\.(?!\.)[?!]?"  # the dot (TS: `x?.name`, `x!.name`)
    rb"(?:[ \t\r\n]*([\w$]+(?:[ \t\r\n]*\.[?!]?[ \t\r\n]*[\w$]+){0,7})"  # the chain
    rb"([ \t\r\n]*\.)?)?"  # more before it
)
_REV_SUPER = re.compile(rb"[ \t\r\n]*\)[^()]{0,40}\([ \t\r\n]*repus(?![\w$])")
_REV_STRING = re.compile(rb"[ \t\r\n]*[\"'`]")
_BASE_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*")
AUGMENTS = "module:"  # a base that names the module an interface augments
# The "base" of a TS alias of one named type (`type AnySet = Set<any>`: `alias:Set`): what a
# property declared with the alias holds; no base to find members in (as before).
ALIAS = "alias:"
# A base whose head names a local or a parameter (`def f(core): class G(core.Command)`): unknown.
LOCAL = "local:"
# The qualifier of a Java constructor call (`new C(a, b)`, `this(a)`, `super(a, b)`): `new/2`,
# its number of arguments (the resolver picks the constructor of that arity).
NEW = "new/"
# After the qualifier of a Java method call, its number of arguments (`ARGUMENTS + "2"`): the
# resolver splits the call among the overloads of its name that take as many (it was a sure
# link to every overload). The resolver takes it off before anything reads the qualifier.
ARGUMENTS = "\x1e"
# Before the package path of a Java fully qualified name (`org.acme.nodes.Element`, a type,
# `new org.acme.nodes.Element()`, `org.acme.nodes.Element.parse(s)`): the receiver written,
# after the constructor call's `new/N` if any; the resolver finds the path's classes through
# the repository's packages (its segments are no references).
QUALIFIED = "\x1d"
# The qualifier of a Java anonymous class's call of its own method (`this.go()`, `go()`): a
# method that is no class's member, which a call means all the same.
OWN = "own"
# The qualifier of `x.m` where x's type is a class declared in a body (a function's local
# struct or class): the class is the reference's target; its members or nothing.
DECLARED = "declared"
# Between the qualifiers of a function's `return`s when they differ (`return this.truncate()`,
# `return this.transform(...)`): the global pass types each, and they must agree on the classes.
ANY_OF = ";"  # (no qualifier holds one: a `;` ends a statement)
_MAX_ANY_OF = 3  # more different `return`s: untyped
_FIRST_PARAMETER = re.compile(r"\(\s*([A-Za-z_]\w*)")
# A definition's decorators, read back from its `def`: `@classmethod` among them.
_CLASSMETHOD = re.compile(
    rb"@\s*(?:builtins\s*\.\s*)?classmethod\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*\Z"
)
_JAVA_EXTENDS = re.compile(r"\bextends\s+([\w$.]+)")
# In a qualifier: `T#a#b` for `x.a.b.m()` with x of type T: the type of T's property a, then of
# its b (the resolver reads the properties' written types: TS/JS declarations, Python class-level
# annotations and the return annotations of `@property` methods).
PROPERTY = "#"
# The "base" of a Python method decorated as a property getter (`@property`,
# `@functools.cached_property`): `x.name` is what it returns, not a bound method.
GETTER = "@property"
_GETTER_DECORATOR = re.compile(
    r"@\s*(?:(?:functools|abc)\s*\.\s*)?(?:property|cached_property|abstractproperty)\s*"
)
# A qualifier's first character for a key of an object literal typed by where it stands (TS
# contextual typing: `_literal_key`): resolved through its type only, never guessed.
LITERAL = "{"
_PROPERTY_LANGUAGES = frozenset({"typescript", "tsx", "javascript", "python", "go"})
# A local's written type that is a call of a local's method (`x.m()`), and a plain class name.
_LOCAL_CALL = re.compile(r"([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\(\)")
_PLAIN_TYPE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
# A TS property's declaration: `readonly base_: T`, `copy_?: Set<any>`, `private x: Foo = ...`.
_FIELD_TYPE = re.compile(
    r"(?:@[\w$.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:declare|public|private|protected|static|readonly|override|abstract|accessor)\s+)*"
    r"[\w$]+\s*[?!]?\s*:\s*(.+)"
)
_LITERALS = re.compile(r"([\"'`]).*?\1")
_BASE_SKIP = frozenset({"extends", "implements", "metaclass", "object"})
_GO_RECEIVER = re.compile(r"func\s*\(\s*([A-Za-z_]\w*)\s")
_MAX_SIGNATURE = 300
_MAX_HEADER = 8000  # a whole header (``extract_checked(whole=True)``), at most
CUT = "…"  # where a signature longer than _MAX_SIGNATURE was cut (its parameters are not whole)
_LINE_COLUMN = operator.itemgetter(1, 2)  # a Reference's line and column
# A Reference from a tuple of its fields, without the Python-level __new__ of a NamedTuple
# (half the cost; a file has thousands).
_reference: Callable[[tuple[str, int, int, str, int, str, int, str, str]], Reference] = (
    functools.partial(tuple.__new__, Reference)
)
_DOC_CHARS = 400
_WINDOW = 120


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def field_type(signature: str) -> str:
    """The class a TS property's declaration (its signature) names as its type, or ""."""
    found = _FIELD_TYPE.fullmatch(signature.strip().rstrip(";,"))
    if found is None or _LOOKUP.search(found.group(1)):
        return ""
    return clean_type(found.group(1).split(" = ", 1)[0])


# A Go struct field's declaration: `Logger *Logger`, `a, b int`, `mu MutexWrap `json:"mu"``.
_GO_FIELD = re.compile(
    r"[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s+\*?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)"
    r"(?:\s+`[^`]*`)?\s*(?://.*)?"
)


def go_field_type(signature: str) -> str:
    """The type a Go struct field's declaration (its signature) names (``*Logger``:
    ``Logger``; ``time.Time``), or "" (a slice, a map, a function, an anonymous struct)."""
    found = _GO_FIELD.fullmatch(signature.strip())
    return found.group(1) if found else ""


# TS `Foo['k']`: the type of Foo's property k, not a Foo.
_LOOKUP = re.compile(r"\[\s*['\"`]")


def field_union(signature: str) -> tuple[str, ...]:
    """The classes a TS property's declared union names, one per member (``validator:
    ValidatorConstraintInterface | Function``: both), when its type is a union; else ()."""
    found = _FIELD_TYPE.fullmatch(signature.strip().rstrip(";,"))
    if found is None or _LOOKUP.search(found.group(1)):
        return ()
    return union_types(found.group(1).split(" = ", 1)[0])


def _with_arguments(refs: list[Reference], caps: dict[str, list[ts.Node]]) -> list[Reference]:
    """Java: each method call's reference with its number of arguments after its qualifier
    (``ARGUMENTS``)."""
    counts: dict[tuple[int, int], str] = {}
    for key in ("call", "call.member"):
        for node in caps.get(key, ()):
            call = node.parent
            if call is None or call.type != "method_invocation":
                continue
            args = call.child_by_field_name("arguments")
            if args is None:
                continue
            said = str(_arguments(args))
            # (`a.m(1).n()`: the calls of the receiver's chain count theirs too, nearest
            # first, after another ARGUMENTS: the overload of m taking one types n's receiver)
            chain: list[str] = []
            inner = call.child_by_field_name("object")
            while inner is not None and inner.type == "method_invocation" and len(chain) < 8:
                inner_args = inner.child_by_field_name("arguments")
                if inner_args is None:
                    break
                chain.append(str(_arguments(inner_args)))
                inner = inner.child_by_field_name("object")
            if chain:
                said += ARGUMENTS + ",".join(chain)
            counts[(node.start_point[0] + 1, node.start_point[1])] = said
    if not counts:
        return refs
    return [
        r._replace(qualifier=f"{r.qualifier}{ARGUMENTS}{counts[r.line, r.column]}")
        if r.kind == "call" and (r.line, r.column) in counts and not r.qualifier.startswith(NEW)
        else r
        for r in refs
    ]


def constructor_arity(signature: str) -> tuple[int, int] | None:
    """How many arguments a Java constructor's signature takes: (fewest, most), most -1 for a
    variadic one; None when its parameter list cannot be read."""
    text = _parameter_list(signature)
    if text is None:
        return None
    params = [p for p in _top_level(text, ",") if p.strip()]
    if params and "..." in params[-1]:
        return len(params) - 1, -1
    return len(params), len(params)


# TS utility types whose first argument's properties are theirs (`Partial<Options>`).
_SAME_KEYS = re.compile(r"(?:Partial|Required|Readonly|Omit|Pick|NonNullable)\s*<(.*)>", re.S)


def union_types(text: str) -> tuple[str, ...]:
    """The classes a written TS type names as a union's members (or the one it names), each
    as ``clean_type`` reads it; a utility type keeping its argument's keys (``Partial<T>``)
    stands for its argument."""
    text = text.strip()
    if len(text) > _MAX_TYPE:
        return ()
    out: list[str] = []
    for part in _top_level(text, "|"):
        part = part.strip()
        if part in ("any", "unknown"):
            return ()  # (a union with them is them: no type to read)
        wrapped = _SAME_KEYS.fullmatch(part)
        if wrapped is not None:
            part = _top_level(wrapped.group(1), ",")[0].strip()
        written = clean_type(part)
        if written and written not in TS_PRIMITIVES:
            out.append(written)
    return tuple(dict.fromkeys(out))


# TS's primitive type keywords: never a name of the repository in a type (a library may define
# functions named `string()`).
TS_PRIMITIVES = frozenset(
    {"string", "number", "boolean", "symbol", "bigint", "never", "object", "any", "unknown"}
)


_DECORATORS = re.compile(r"^(?:\s*@[\w$.]+(?:\([^()]*\))?)+\s*")


def _parameter_list(signature: str) -> str | None:
    """The text between a TS signature's parameter parentheses (after any type parameters),
    or None when there is none or it was cut (``CUT``)."""
    signature = _DECORATORS.sub("", signature)
    depth = 0
    start = -1
    for k, ch in enumerate(signature):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth > 0 and signature[k - 1] != "=":
            depth -= 1
        elif ch == "(" and depth == 0:
            start = k + 1
            break
    end = _group_end(signature, start - 1) if start > 0 else -1
    if end < 0:
        return None
    text = signature[start:end]
    return None if CUT in text else text


_PARAMETER = re.compile(
    r"(?:@[\w$.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|protected|readonly|override)\s+)*"
    r"(\.\.\.)?\s*([\w$]+|\{.*\}|\[.*\])\s*\??\s*:\s*(.+)",
    re.S,
)


_GENERIC_HEAD = re.compile(
    r"\s*(?:(?:export|default|declare|abstract|async|public|private|protected|static|readonly"
    r"|override)\s+)*(?:(?:class|interface|type|function)\s*\*?\s*)?[\w$]+\s*<"
)


@functools.lru_cache(maxsize=8192)
def type_parameters(signature: str) -> frozenset[str]:
    """The type parameters a TS declaration's signature declares after its name
    (``function take<State>(s: State)``, ``class Box<T, U extends X>``)."""
    head = _GENERIC_HEAD.match(_DECORATORS.sub("", signature))
    if head is None:
        return frozenset()
    text = head.string[head.end() :]
    depth = 1
    for k, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">" and (k == 0 or text[k - 1] != "="):
            depth -= 1
            if depth == 0:
                names = (_BASE_WORD.match(p.strip()) for p in _top_level(text[:k], ","))
                return frozenset(n.group(0) for n in names if n is not None)
    return frozenset()


@functools.lru_cache(maxsize=8192)
def parameter_types(signature: str, place: int) -> tuple[str, ...]:
    """The classes a TS function's signature declares its argument at ``place`` (0-based, a
    ``this`` parameter not counted) to be: its type's union members (``clean_type`` each),
    a rest parameter's element type for every place from its own; () when not written."""
    params = _parameter_list(signature)
    if params is None:
        return ()
    k = 0
    for raw in _top_level(params, ","):
        found = _PARAMETER.fullmatch(raw.strip())
        if found is None:
            if raw.strip().split(":", 1)[0].strip() == "this":
                continue
            k += 1
            continue
        rest, name, written = found.groups()
        if name == "this":
            continue
        written = _top_level(written, "=")[0] if "=" in written else written
        if rest:
            written = written.strip()
            if written.endswith("[]"):
                written = written[:-2]
            elif written.startswith("Array<") and written.endswith(">"):
                written = written[6:-1]
            else:
                return ()
            return union_types(written) if place >= k else ()
        if k == place:
            return union_types(written)
        k += 1
    return ()


def _property_path(base: str, receiver: str, first: str) -> str:
    """The qualifier of `x.a.b.m()` for x of type ``base``: `base#a#b`."""
    return base + PROPERTY + receiver[len(first) + 1 :].replace(".", PROPERTY)


def _without_comments(text: str, python: bool) -> str:
    """``text`` with its comments taken out (``#`` in Python; ``//`` and ``/* */`` else),
    quoted text kept: starlette's `def get(  # type: ignore[override]` had the comment in its
    signature, and a comment edited in a parameter list is no new signature."""
    out: list[str] = []
    quote = ""
    k, n = 0, len(text)
    while k < n:
        ch = text[k]
        if quote:
            out.append(ch)
            if ch == "\\":
                out.append(text[k + 1 : k + 2])
                k += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
            out.append(ch)
        elif (ch == "#" and python) or (ch == "/" and not python and text[k + 1 : k + 2] == "/"):
            newline = text.find("\n", k)
            k = n if newline < 0 else newline
            continue
        elif ch == "/" and not python and text[k + 1 : k + 2] == "*":
            close = text.find("*/", k + 2)
            k = n if close < 0 else close + 2
            if out and out[-1].isalnum() and text[k : k + 1].isalnum():
                out.append(" ")  # (`a/* x */b`: two words still)
            elif text[k : k + 1] in (",", ")", "]", ":", ";"):
                while out and out[-1] in " \t":
                    out.pop()  # (`x /* c */,`: no space before the comma)
            continue
        else:
            out.append(ch)
        k += 1
    return "".join(out)


def _before_body(text: str) -> str:
    """A header read without its body's node up to the first `{` outside its brackets: a TS
    overload `f<S = {}>(o: { a: 1 }): { b: 2 }` keeps its type and parameter lists and its
    return type whole (it was cut at `S =`); `type P = { ... }` stops at its `{`."""
    depth = 0
    for k, ch in enumerate(text):
        if ch in "([<":
            depth += 1
        elif ch in ")]" or (ch == ">" and depth > 0 and text[k - 1] != "="):
            depth = max(depth - 1, 0)
        elif ch == "{" and depth == 0 and not text[:k].rstrip().endswith(":"):
            return text[:k].strip()  # (`): { c: 3 }` is a return type)
    return text


def _signature(
    source: bytes, start: int, body: int | None, end: int, python: bool = False, whole: bool = False
) -> str:
    """A definition's header, white space collapsed, comments out; cut to ``_MAX_SIGNATURE``
    (``cut_signature``) unless ``whole`` (then up to ``_MAX_HEADER``)."""
    most = _MAX_HEADER if whole else _MAX_SIGNATURE
    stop = body if body is not None and body > start else min(end, start + 2 * most)
    raw = _decode(source[start:stop])
    if ("#" in raw and python) or ("/" in raw and not python and ("//" in raw or "/*" in raw)):
        raw = _without_comments(raw, python)
    text = _SPACES.sub(" ", raw).strip()
    if body is None and "{" in text:
        text = _before_body(text)
    text = text.rstrip("{:= ").rstrip()
    # (Each substitution only where it can match: a template's substitution costs a call.)
    if "( " in text or "[ " in text:
        text = _OPEN_SPACE.sub(r"\1", text)
    if " )" in text or " ]" in text:
        text = _CLOSE_SPACE.sub(r"\1", text)
    return text[:_MAX_HEADER] if whole else cut_signature(text)


def cut_signature(text: str) -> str:
    """A header as the index stores it: up to ``_MAX_SIGNATURE`` characters, a longer one cut
    inside its parameters (``CUT``) keeping what follows them."""
    if len(text) <= _MAX_SIGNATURE:
        return text
    # Too long: cut inside the parameters, keeping what follows them (the return type, which
    # the resolver reads: rich's `def from_path(cls, path: str, ... 12 more) -> "Syntax"`).
    close = _parameters_end(text)
    tail = text[close:] if close >= 0 else ""
    # (A tail whose brackets do not balance was found by a `)` in a comment: `# see f)`.)
    if 0 < len(tail) <= _MAX_SIGNATURE // 3 and tail.count(")") == tail.count("(") + 1:
        return text[: _MAX_SIGNATURE - len(tail) - 1] + CUT + tail
    return text[: _MAX_SIGNATURE - 1] + CUT


def _parameters_end(text: str) -> int:
    """Where the parameter list of ``text`` closes (its ``)``), or -1: the first parenthesised
    list (a Go method's second: the first is its receiver); brackets inside it are balanced
    and quoted text is skipped."""
    at = text.find("(")
    if at >= 0 and text.startswith("func ("):
        receiver = _group_end(text, at)
        at = text.find("(", receiver) if receiver >= 0 else -1
    return _group_end(text, at) if at >= 0 else -1


def _group_end(text: str, at: int) -> int:
    """Where the bracket opened at ``at`` closes with a ``)``, or -1."""
    depth = 0
    quote = ""
    for k in range(at, len(text)):
        c = text[k]
        if quote:
            if c == quote and (k - len(text[:k].rstrip("\\"))) % 2 == 0:  # (`"\\"` ends)
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return k if c == ")" else -1
    return -1


def _doc(text: str) -> str:
    text = text.strip()
    for quote in ('"""', "'''", '"', "'"):
        if len(text) >= 2 * len(quote) and text.endswith(quote):
            start = text.find(quote)
            text = text[start + len(quote) : -len(quote)]
            break
    return _SPACES.sub(" ", text).strip()[:_DOC_CHARS]


def _bases(text: str) -> tuple[str, ...]:
    for _ in range(4):  # generic arguments, the innermost first
        text, n = re.subn(r"<[^<>]*>|\[[^\[\]]*\]", "", text)
        if not n:
            break
    text = re.sub(r"\w+\s*=\s*[\w.]+", "", text)  # keyword arguments (metaclass=...)
    found = []
    for match in _BASE_WORD.finditer(text):
        word = _SPACES.sub("", match.group(0))
        if word not in _BASE_SKIP and word not in found:
            found.append(word)
    return tuple(found)


def _comment_dot(rev: bytes, start: int, end: int) -> bool:
    """Whether the dot a receiver match found (in the reversed bytes from ``start``) ends a
    comment on a line above the name (`// handle those.` then `handle(x)`)."""
    dot = rev.find(b".", start, end)
    if dot < 0 or b"\n" not in rev[start:dot]:
        return False  # the dot is on the name's line
    stop = rev.find(b"\n", dot)
    line = rev[dot + 1 : stop if stop >= 0 else len(rev)][::-1].strip()
    return b"//" in line or line.startswith((b"#", b"*", b"/*")) or b" #" in line or b"\t#" in line


def _comment_in_chain(rev: bytes, start: int, end: int) -> int | None:
    """Where (in the reversed bytes) a receiver chain matched from ``start`` to ``end`` meets
    a dot that ends a comment on a line above (None: it meets none)."""
    p = rev.find(b".", start, end)
    while p >= 0:
        gap = rev[start:p]
        if b"\n" in gap[len(gap.rstrip(b" \t\r\n")) :] and _comment_dot(rev, start, p + 1):
            return p
        p = rev.find(b".", p + 1, end)
    return None


def _receiver(rev: bytes, at: int, words: dict[bytes, str]) -> str | None:
    """The receiver written before a member name at ``at`` (``a.b`` for ``a.b.name``,
    ``super()``, ``"`` for a string literal, "" for an expression), or None when no dot
    precedes the name (a spread ``...x`` is not a member). ``rev`` is the file's bytes
    reversed, so that each question is one anchored match. ``words``: the receivers found
    so far in the file, by their reversed bytes (most repeat: ``self``)."""
    start = len(rev) - at
    found = _REV_RECEIVER.match(rev, start)
    if found is None:
        return None
    # (A dot right before the name, as almost always, is on the name's line.)
    if rev[start] != _DOT and _comment_dot(rev, start, found.end()):
        return None  # `// ... those.` ending the line above: no receiver
    chain, more = found.groups()
    if chain is not None and b"\n" in chain:
        # (`// logging adds its own.` on the line above `entry.log(msg)`: the comment's dot
        # is no part of the chain, which stops there: logrus's receiver read `own.entry`)
        cut = _comment_in_chain(rev, found.start(1), found.end(1))
        if cut is not None:
            chain, more = rev[found.start(1) : cut].rstrip(b" \t\r\n"), None
    elif more is not None and b"\n" in more and _comment_dot(rev, found.end(1), found.end(2)):
        more = None
    if chain is None:
        if _REV_STRING.match(rev, found.end()):
            return '"'  # `"{}".format(x)`: a method of the language's strings
        return "super()" if _REV_SUPER.match(rev, found.end()) else ""
    if more is not None:
        return ""  # `f().x.name`, `a[0].x.name`: not a plain path
    known = words.get(chain)
    if known is None:
        word = chain[::-1].translate(None, b" \t\r\n?!")
        known = words[chain] = "" if word[:1].isdigit() else word.decode("utf-8", "replace")
    return known


_JAVA_PATH_AHEAD = re.compile(rb"(?:[ \t]*\.[ \t]*[A-Za-z_$][\w$]*)+")


def _java_package_path(receiver: str, name: str, ahead: bytes) -> str:
    """Java: the package path of a fully qualified name that a reference ``name`` after
    ``receiver`` (its own receiver's first name unbound) is part of, with ``ahead`` the
    source following the name: the leading lowercase segments before the first capitalised
    one, when there are two or more (`org.acme` in `org.acme.nodes.Element`; `config.MAX` is
    rather a field's constant), else ""."""
    segments = ([*receiver.split("."), name] if receiver else [name]) + [
        w.strip() for w in ahead.decode("utf-8", "replace").split(".")[1:]
    ]
    if segments[0] in ("this", "super"):
        return ""  # `this.other.MAX`: a field's constant, no package
    package: list[str] = []
    for segment in segments:
        if segment[:1].isupper():
            return ".".join(package) if len(package) >= 2 else ""
        if not segment[:1].islower():
            return ""
        package.append(segment)
    return ""


def _tree_root(caps: dict[str, list[ts.Node]]) -> ts.Node | None:
    """The root of the tree the captures are from (None when there are none)."""
    some = next((ns[0] for ns in caps.values() if ns), None)
    while some is not None and some.parent is not None:
        some = some.parent
    return some


# A dot and the white space after it (`(a.\n b)`).
_DOT_SPACE = re.compile(rb"\.[ \t\r\n]+")


def _spaced_members(
    source: bytes, spans: dict[int, int], caps: dict[str, list[ts.Node]], access: str
) -> set[int]:
    """The names (starts of ``spans``) that end a member access, a node of type ``access``,
    and are written after white space after its dot. Where a grammar's member names are
    plain identifiers, only the tree tells which names are members; a name right after a dot
    is read as one anyway (``_receiver``), so the tree is asked of these few only."""
    out: set[int] = set()
    root: ts.Node | None = None
    for found in _DOT_SPACE.finditer(source):
        at = found.end()
        end = spans.get(at)
        if end is None:
            continue
        if root is None:
            root = _tree_root(caps)
        node = root.descendant_for_byte_range(at, end) if root is not None else None
        while node is not None and node.end_byte == end:
            if node.type == access:
                out.add(at)
                break
            node = node.parent
    return out


def _innermost(
    positions: list[int], starts: list[int], ends: list[int], *, strict: bool = False
) -> list[int]:
    """For sorted positions, the innermost interval (sorted outer first; 0 holds all) holding
    each. ``strict``: the positions are the intervals' own starts (each one's parent).

    The intervals nest (tree-sitter nodes), so the innermost one holding a position is the last
    one in their order that holds it: each interval paints the positions it holds, outer first
    (a slice of the output per interval, found by bisection, instead of a step per position).
    """
    out = [0] * len(positions)
    if not positions:
        return out
    first = bisect.bisect_right if strict else bisect.bisect_left
    last = bisect.bisect_left
    # (The intervals starting after the last position hold none: most positions asked for,
    # imports, definitions, `self.x = ...`, are few or early in the file.)
    for i in range(1, bisect.bisect_right(starts, positions[-1])):
        lo = first(positions, starts[i])
        hi = last(positions, ends[i], lo)
        if hi > lo:
            out[lo:hi] = [i] * (hi - lo)
    return out


_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*")
_WRAPPER = re.compile(r"(?:typing\s*\.\s*)?(Optional|Union)\s*\[(.*)\]", re.S)
_NOTHING = frozenset({"None", "null", "undefined", "void", "NoneType"})
_ANY = frozenset({"any", "unknown", "object", "Any", "Object"})  # may be anything: untyped
_MAX_TYPE = 200


def _top_level(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets."""
    parts: list[str] = []
    depth = 0
    last = 0
    for k, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and depth > 0:
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[last:k])
            last = k + 1
    parts.append(text[last:])
    return parts


@functools.lru_cache(maxsize=4096)
def _unwrapped(text: str) -> str:
    """A written type without its quotes, ``Optional[...]``, ``Union[X, None]`` and ``X |
    None``: the one type left, or "" when it is several (or too long to read)."""
    if len(text) > _MAX_TYPE:
        return ""
    for _ in range(6):
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
            text = text[1:-1].strip()
            continue
        wrapped = _WRAPPER.fullmatch(text)
        if wrapped is not None:
            inner = wrapped.group(2)
            parts = _top_level(inner, ",") if wrapped.group(1) == "Union" else [inner]
            kept = [p.strip() for p in parts if p.strip() not in _NOTHING]
            if len(kept) != 1:
                return ""
            text = kept[0]
            continue
        parts = _top_level(text, "|")
        if len(parts) > 1:
            kept = [p.strip() for p in parts if p.strip() and p.strip() not in _NOTHING]
            if len(kept) != 1:
                return ""
            text = kept[0]
            continue
        break
    return text


def clean_type(text: str) -> str:
    """The one class a written type annotation names, as a dotted name, or "" when it names
    none or several: quotes, ``Optional[X]``, ``Union[X, None]``, ``X | None`` (``null``,
    ``undefined``) and generic arguments (``Set<T>``, ``Foo[int]``) are taken off; an array
    (``Foo[]``), a function type or a union of two classes names none."""
    text = _unwrapped(text.strip().lstrip("*&").strip())  # Go: `*Foo`
    cut = min((k for k in (text.find("<"), text.find("[")) if k >= 0), default=-1)
    if cut >= 0:
        if text[cut:].replace(" ", "") in ("[]", "<>") or text.rstrip().endswith("[]"):
            return ""  # an array of them, not one
        text = text[:cut]
    match = _TYPE_NAME.fullmatch(text.strip())
    if match is None:
        return ""
    written = _SPACES.sub("", match.group(0))
    return "" if written in _NOTHING or written in _ANY else written


# A Python return annotation naming a collection or an iterator of one class: what a `for`
# over the call's result binds (`def get_params(self) -> list[Parameter]`).
_ITERABLE = re.compile(
    r"(?:[A-Za-z_]\w*\s*\.\s*)*(list|List|Sequence|MutableSequence|"
    r"Iterable|Iterator|Generator|Collection|AbstractSet|set|Set|frozenset|FrozenSet|"
    r"tuple|Tuple|deque|Deque)\s*\[(.*)\]",
    re.S,
)
PY_RETURNS = re.compile(r"->\s*(.+?)\s*$", re.S)  # a Python header's return annotation


def written_element(kind: str, signature: str) -> str:
    """The class a Python function's return annotation says a ``for`` over its result binds
    (``list[Foo]``, ``Iterator[Foo]``, ``tuple[Foo, ...]``: ``Foo``), else ""."""
    if kind not in ("function", "method") or "->" not in signature:
        return ""
    found = PY_RETURNS.search(signature.rstrip())
    if found is None:
        return ""
    wrapped = _ITERABLE.fullmatch(_unwrapped(found.group(1).strip()))
    if wrapped is None:
        return ""
    args = [a.strip() for a in _top_level(wrapped.group(2), ",")]
    if wrapped.group(1) in ("tuple", "Tuple") and (len(args) != 2 or args[1] != "..."):
        return ""  # a tuple of fixed size holds values of different types
    return clean_type(args[0]) if args else ""


# Java library containers: what those of their methods that hand out an element return, by
# the type arguments' places (`0` the first: `List<E>.get()` is an E; `Iterator<0>` an Iterator
# of it). A local, a parameter or a field written with one keeps its type arguments
# (`List<DataNode>`), so `nodes.get(0).m()` is DataNode's m; other generics drop theirs.
_JAVA_LIST = {"get": "0", "getFirst": "0", "getLast": "0", "iterator": "Iterator<0>"}
_JAVA_SET = {"iterator": "Iterator<0>"}
_JAVA_SORTED = {"iterator": "Iterator<0>", "first": "0", "last": "0"}
_JAVA_MAP = {"get": "1", "getOrDefault": "1", "values": "Collection<1>", "keySet": "Set<0>"}
_JAVA_CONTAINERS: dict[str, dict[str, str]] = {
    "List": _JAVA_LIST,
    "ArrayList": _JAVA_LIST,
    "LinkedList": _JAVA_LIST,
    "Set": _JAVA_SET,
    "HashSet": _JAVA_SET,
    "LinkedHashSet": _JAVA_SET,
    "TreeSet": _JAVA_SORTED,
    "SortedSet": _JAVA_SORTED,
    "Collection": _JAVA_SET,
    "Iterable": _JAVA_SET,
    "Iterator": {"next": "0"},
    "Optional": {"get": "0", "orElseThrow": "0", "orElse": "0"},
    "Map": _JAVA_MAP,
    "HashMap": _JAVA_MAP,
    "LinkedHashMap": _JAVA_MAP,
    "TreeMap": _JAVA_MAP,
}


def _java_container(text: str) -> str:
    """A Java type written as one of the library's containers with its type arguments
    (``List<DataNode>``, ``java.util.Map<String, Foo>``), without spaces; else ""."""
    head, sep, _ = text.partition("<")
    head = head.strip()
    if not sep or head.rsplit(".", 1)[-1] not in _JAVA_CONTAINERS:
        return ""
    written = _JAVA_TYPE_SPACES.sub(r"\1", " ".join(text.split()))  # (`? extends X` kept)
    if not written.endswith(">") or "[" in written:
        return ""  # (an array of them)
    return written


def java_container_returns(owner: str, member: str) -> str | None:
    """What ``member()`` of a Java library container written with its type arguments
    returns (``List<DataNode>``, ``get``: ``DataNode``; ``iterator``: ``Iterator<DataNode>``),
    by ``_JAVA_CONTAINERS``; None when that is not exactly known (another method, a wildcard
    without an upper bound)."""
    head, _, args = owner.partition("<")
    rule = _JAVA_CONTAINERS.get(head.rsplit(".", 1)[-1], {}).get(member)
    if rule is None or not args.endswith(">"):
        return None
    params = _top_level(args[:-1], ",")
    place = int(rule.partition("<")[2].rstrip(">") or rule)
    if place >= len(params):
        return None
    argument = params[place].strip()
    if argument.startswith("?"):  # `? extends Node`: a Node; `?`, `? super Node`: unknown
        bound = argument[1:].strip()
        if not bound.startswith("extends "):
            return None
        argument = bound[len("extends ") :].strip()
    return f"{rule.partition('<')[0]}<{argument}>" if "<" in rule else argument


def _written_type(
    source: bytes,
    type_at: list[int],
    nodes: list[ts.Node],
    calls: set[int],
    at: int,
    before: bool,
    whole: bool = False,
    java: bool = False,
) -> str:
    """The class named where a local is bound, as a dotted name: the nearest type capture
    after the name (``x = Foo()``, ``x: Foo``; before it in Java ``Foo x`` and in ``with Foo()
    as x``). A call of a lowercase name (``x = make()``) is ``make()``: its return type. A
    chain (``x = make().m()``) is ``().m()`` (what any ``m`` returns), or with ``whole`` the
    whole chain, ``make().m()``, for a caller that reads its head in its scope."""
    k = bisect.bisect_left(type_at, at)
    if before:
        k -= 1
        if k < 0 or at - nodes[k].end_byte > 200:
            return ""
    elif k >= len(nodes) or nodes[k].start_byte - at > 200:
        return ""
    node = nodes[k]
    if node.type == "lookup_type":
        return ""  # TS `x: Foo['k']`: the type of Foo's k, not a Foo
    text = _decode(source[node.start_byte : node.end_byte])
    if node.start_byte not in calls:
        return (java and _java_container(text)) or clean_type(text)
    match = _TYPE_NAME.fullmatch(text.strip())
    if match is None:
        return (whole and _call_chain(text)) or _chain_call(text)
    written = _SPACES.sub("", match.group(0))
    last = written.rsplit(".", 1)[-1]
    if last[:1].isupper():
        return written
    return written + "()"  # `with make() as x`: what make returns (its __enter__ gives self)


def _java_value_type(
    source: bytes, value_at: list[int], nodes: list[ts.Node], calls: set[int], at: int
) -> str:
    """What a Java `var x = ...` holds, read from its value (the nearest capture after the
    name): `new Foo()` (`new ArrayList<Foo>()`) the type, `make(a)` / `nodes.get(0)` /
    `a.b().c()` the call's qualifier with its arguments taken out (``nodes.get()``), as a
    local's written type; "" for anything else."""
    k = bisect.bisect_left(value_at, at)
    if k >= len(nodes) or nodes[k].start_byte - at > 200:
        return ""
    node = nodes[k]
    if node.start_byte not in calls:
        text = _decode(source[node.start_byte : node.end_byte])
        return _java_container(text) or clean_type(text)
    arguments = node.child_by_field_name("arguments")
    if arguments is None:
        return ""
    callee = _decode(source[node.start_byte : arguments.start_byte]).strip()
    if _TYPE_NAME.fullmatch(callee):
        return _SPACES.sub("", callee) + "()"
    return _call_chain(callee)


_CALLBACKS = frozenset({"arrow_function", "function_expression"})
_TS_GRAMMARS = frozenset({"typescript", "tsx"})


def _first_param(fn: ts.Node) -> ts.Node | None:
    """A callback's first parameter when it is a plain name with no written type."""
    single = fn.child_by_field_name("parameter")  # `d => ...`
    if single is not None:
        return single if single.type == "identifier" else None
    params = fn.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_children else None
    if first is None or first.type == "identifier":  # JavaScript's `(d) => ...`
        return first
    if first.type != "required_parameter" or first.child_by_field_name("type") is not None:
        return None
    pattern = first.child_by_field_name("pattern")
    return pattern if pattern is not None and pattern.type == "identifier" else None


def _callback_types(
    calls: list[ts.Node],
    source: bytes,
    starts: list[int],
    ends: list[int],
    lookup: Callable[[str, int], tuple[str, int] | None],
    found_in: list[int],
    local_types: dict[tuple[int, str], str],
    note: Callable[[dict[tuple[int, str], str], tuple[int, str], str], None],
    defs: list[Definition],
    language: str,
) -> None:
    """``f(x, p => p.m())`` with ``f`` imported, a local or a TypeScript function of the file
    (not a global, nor a JavaScript function: nobody wrote their signatures) and ``x`` of a
    written type ``T`` (``new T(...)``, a local typed ``T``), the call's only such
    argument: the callback's first parameter ``p`` is noted ``f=>T``, which the global pass
    reads as ``T`` when ``f`` is declared in TypeScript (a generic ``f<T>(x: T, recipe: (p:
    Draft<T>) => ...)`` hands its argument, or a wrapper of it, to the callback: immer's
    ``produce(new Set(), draft => draft.add(1))``), as a guess otherwise."""
    seen: set[int] = set()
    nodes = sorted(calls, key=lambda n: n.start_byte)
    scopes = _innermost([2 * n.start_byte for n in nodes], starts, ends)
    for call, scope in zip(nodes, scopes, strict=True):
        if call.start_byte in seen:
            continue
        seen.add(call.start_byte)
        callee = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if (
            callee is None
            or args is None
            or callee.type not in ("identifier", "member_expression")
            or callee.end_byte - callee.start_byte > _MAX_CALLEE
        ):
            continue
        written_callee = _SPACES.sub("", _decode(source[callee.start_byte : callee.end_byte]))
        bound = lookup(written_callee.split(".", 1)[0], scope)
        if bound is None:
            continue  # a global (`it`, `describe`): nobody wrote its signature here
        if bound[0] == "def" and (
            language not in _TS_GRAMMARS or defs[bound[1]].kind != "function"
        ):
            continue
        param: ts.Node | None = None
        fn_at = 0
        types: list[str] = []
        for arg in args.named_children:
            if arg.type in _CALLBACKS:
                if param is None:
                    param, fn_at = _first_param(arg), arg.start_byte
                    if param is None:
                        break
                continue
            if arg.type == "new_expression":
                ctor = arg.child_by_field_name("constructor")
                text = _decode(source[ctor.start_byte : ctor.end_byte]) if ctor is not None else ""
                types.append(clean_type(text))
            elif arg.type == "identifier":
                name = _decode(source[arg.start_byte : arg.end_byte])
                known = lookup(name, scope)
                if known is not None and known[0] == "local":
                    types.append(local_types.get((found_in[0], name), ""))
                else:
                    types.append("")
            else:
                types.append("")
        typed = [t for t in types if t]
        if param is None or len(typed) != 1 or any(c in typed[0] for c in ("(", "=>", PROPERTY)):
            continue
        name = _decode(source[param.start_byte : param.end_byte])
        # The callback is a scope of its own (the innermost of those starting there).
        param_scope = bisect.bisect_right(starts, 2 * fn_at) - 1
        note(local_types, (param_scope, name), f"{written_callee}=>{typed[0]}")


# Where an object literal's type comes from, as the walk up from one of its keys meets it.
_LITERAL_DEPTH = 4  # keys of literals nested at most this deep (`{a: {b: {c: ...}}}`)
_CALLEE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){0,3}")
_PASS_THROUGH = frozenset({"parenthesized_expression", "non_null_expression"})


def _argument_place(node: ts.Node, args: ts.Node, places: dict[int, dict[int, int]]) -> int:
    """Which argument ``node`` is (comments skipped), or -1 after a spread argument (its place
    is not known). ``places`` keeps each argument list's places (a call with thousands of
    literal arguments is read once)."""
    known = places.get(args.id)
    if known is None:
        known = {}
        k = 0
        for child in args.named_children:
            if child.type == "comment":
                continue
            if child.type == "spread_element":
                break
            known[child.id] = k
            k += 1
        places[args.id] = known
    return known.get(node.id, -1)


def _literal_context(
    obj: ts.Node, source: bytes, type_params: set[str], places: dict[int, dict[int, int]]
) -> tuple[str, bool]:
    """What types the object literal ``obj``, as a qualifier's base: a written type (``const
    s: T = {...}``, ``{...} as T``, ``{...} satisfies T``, a return under a function's written
    return type), or a call's argument (``f({...})``: ``f(0)``; ``new F(a, {...})``: ``new
    F(1)``; the callee's parameter type, which the resolver reads); "" when none. And whether
    the callee is ``this.m``."""
    node = obj
    parent = node.parent
    while parent is not None and parent.type in _PASS_THROUGH:
        node, parent = parent, parent.parent
    if parent is None:
        return "", False
    kind = parent.type
    written_node: ts.Node | None = None
    async_fn = False
    if kind == "variable_declarator":
        annotation = parent.child_by_field_name("type")
        if annotation is not None and annotation.named_children:
            written_node = annotation.named_children[0]
    elif kind in ("as_expression", "satisfies_expression") and parent.named_child_count == 2:
        written_node = parent.named_children[1]
    elif kind == "return_statement" or (
        kind == "arrow_function" and node.id == _field_id(parent, "body")
    ):
        fn: ts.Node | None = parent
        while fn is not None and fn.type not in _FUNCTIONS and fn.type not in _OUTERMOST:
            fn = fn.parent
        returns = fn.child_by_field_name("return_type") if fn is not None else None
        if fn is not None and fn.type in _FUNCTIONS and returns and returns.named_children:
            written_node = returns.named_children[0]
            async_fn = any(c.type == "async" for c in fn.children)
    elif kind == "arguments":
        call = parent.parent
        place = _argument_place(node, parent, places)
        if call is None or place < 0:
            return "", False
        if call.type == "call_expression":
            callee = call.child_by_field_name("function")
            prefix = ""
        elif call.type == "new_expression":
            callee = call.child_by_field_name("constructor")
            prefix = "new "
        else:
            return "", False
        if callee is None or callee.end_byte - callee.start_byte > 120:
            return "", False
        text = _SPACES.sub("", _decode(source[callee.start_byte : callee.end_byte]))
        if _CALLEE.fullmatch(text) is None:
            return "", False
        if text.startswith("this.") and not _in_class_method(call):
            return "", False  # (`this` of an object literal's method or of a `function`)
        return f"{prefix}{text}({place})", text.startswith("this.")
    if written_node is None:
        return "", False
    text = _decode(source[written_node.start_byte : written_node.end_byte])
    if async_fn and text.startswith("Promise<") and text.endswith(">"):
        text = text[8:-1]  # (an async function's return: what its promise holds)
    kept = [
        w
        for w in union_types(text)
        if w not in _GLOBAL_TYPES and w.split(".", 1)[0] not in type_params
    ]
    return "|".join(kept), False


def _in_class_method(node: ts.Node) -> bool:
    """Whether ``this`` at ``node`` is a class's instance: the nearest function around it that
    is not an arrow function is a class's method (or it is in a field's initialiser)."""
    up = node.parent
    while up is not None:
        if up.type == "method_definition":
            return up.parent is not None and up.parent.type == "class_body"
        if up.type in _THIS_BINDERS:
            return False
        if up.type in ("public_field_definition", "class_body"):
            return True
        up = up.parent
    return False


def _instance_this(node: ts.Node) -> bool:
    """Whether ``this`` at ``node`` is an instance of the class around it: as
    ``_in_class_method``, and neither in a ``static`` method, field or block (there it is the
    class itself)."""
    if not _in_class_method(node):
        return False
    up = node.parent  # (the method, field or block that said so: static or not)
    while up is not None and up.type not in _THIS_HOLDERS:
        up = up.parent
    return up is not None and up.type != "class_static_block" and not _is_static(up)


CLASS_THIS = "this"  # (`_this_per_scope`: `this` is the class's instance, or the class)


LITERAL_THIS = "{}"  # (`_this_per_scope`: `this` is the object literal whose method it is in)


def _inferred(names: Iterable[ts.Node], source: bytes) -> list[tuple[str, tuple[ts.Node, ts.Node]]]:
    """TS: each ``infer X``'s name with the ``extends`` clause that declares it and the true
    branch of that conditional type (``S extends { k: infer X } ? X : never``): X is a type
    variable there, no use of a type X around."""
    out: list[tuple[str, tuple[ts.Node, ts.Node]]] = []
    for name in names:
        inner, up = name, name.parent
        while up is not None:
            clause = up.child_by_field_name("right") if up.type == "conditional_type" else None
            if clause is not None and clause.start_byte == inner.start_byte:
                branch = up.child_by_field_name("consequence")
                if branch is not None:
                    said = _decode(source[name.start_byte : name.end_byte])
                    out.append((said, (clause, branch)))
                break
            # (an `infer` in the checked type or a branch: of a conditional further out)
            inner, up = up, up.parent
    return out


def _type_parameter_scopes(caps: dict[str, list[ts.Node]]) -> dict[tuple[int, int], ts.Node]:
    """TS: the declarations whose type parameters (``class Box<T>``, ``interface I<T>``,
    ``type F<T> = ...``, a signature's ``get<U>(u: U): T;``, a mapped type's ``[K in keyof
    T]``) are seen in them only, and that are no scope already (a function's, an arrow's, a
    method's are): scopes, so that a ``T`` there is the parameter, never a type T of the
    module."""
    have = {(n.start_byte, n.end_byte) for n in caps.get("scope", ())}
    out: dict[tuple[int, int], ts.Node] = {}
    for name in caps.get("typeparam", ()):
        up = name.parent
        owner = up.parent if up is not None else None
        if up is not None and up.type == "type_parameter" and owner is not None:
            owner = owner.parent  # (type_parameter < type_parameters < the declaration)
        if owner is None:
            continue
        span = (owner.start_byte, owner.end_byte)
        if span not in have:
            out.setdefault(span, owner)
    return out


def _this_per_scope(
    nodes: list[ts.Node], parent_scope: list[int], source: bytes
) -> tuple[list[str], list[ts.Node | None]]:
    """TS/JS: for each scope (``nodes`` sorted outer first; 0, the file, not among them), what
    ``this`` is there: ``CLASS_THIS`` in a class's body and methods (the instance; a static
    method's, the class), a type written as a function's (or a method's) ``this: T`` parameter,
    ``LITERAL_THIS`` in an object literal's method (with the literal's node in the second
    list), "" where it is none of them (a nested ``function``, the module). An arrow function
    or a block has the ``this`` of the scope around it."""
    out = [""]
    literal: list[ts.Node | None] = [None]
    for i, node in enumerate(nodes, 1):
        kind = node.type
        up = node.parent
        held: ts.Node | None = None
        if kind == "class_body":
            this_is = CLASS_THIS
        elif kind == "method_definition" and up is not None and up.type == "class_body":
            this_is = _this_parameter(node, source) or CLASS_THIS  # (`m(this: Other)`: Other)
        elif kind in _THIS_BINDERS or kind == "method_definition":
            this_is = _this_parameter(node, source)
            if not this_is and kind == "method_definition" and up is not None:
                this_is, held = LITERAL_THIS, up
        else:
            this_is, held = out[parent_scope[i]], literal[parent_scope[i]]
        out.append(this_is)
        literal.append(held)
    return out, literal


def _own_members(body: ts.Node, index_at: dict[int, int]) -> dict[str, int]:
    """The definitions an object literal or a Java anonymous class's body declares, by name
    (its methods; a literal's keys that are definitions too), none before a literal's spread
    (what it spreads may replace them)."""
    found: dict[str, int] = {}
    for child in body.named_children:
        if child.type == "spread_element":
            found.clear()  # (`{ go() {}, ...other }`: other's go, if it has one, is the go)
            continue
        if child.type not in _OWN_MEMBER_NODES:
            continue
        named = child.child_by_field_name("name") or child.child_by_field_name("key")
        i = index_at.get(named.start_byte, -1) if named is not None else -1
        if i >= 0 and named is not None:
            found.setdefault(_decode(named.text or b""), i)
    return found


_OWN_MEMBER_NODES = frozenset({"method_definition", "pair", "method_declaration"})
# Java: what holds an anonymous class's body (`new T() {...}`, an enum constant's `A {...}`)
_ANONYMOUS_BODIES = frozenset({"object_creation_expression", "enum_constant"})


def _one_type(node: ts.Node) -> bool:
    """Whether a TS type node is what ``clean_type`` reads: a name (generic or not), or a
    union or parentheses of them and ``null`` / ``undefined``; not an indexed access
    (``Foo['k']``, the type of Foo's ``k``), an array, a function type ..."""
    if node.type in ("union_type", "parenthesized_type"):
        return all(_one_type(c) for c in node.named_children)
    return node.type in _TYPE_NODES


_TYPE_NODES = frozenset(
    {"type_identifier", "nested_type_identifier", "generic_type", "literal_type", "predefined_type"}
)


def _this_parameter(fn: ts.Node, source: bytes) -> str:
    """The class a function's first parameter ``this: T`` names, else ""."""
    params = fn.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_child_count else None
    if first is None or first.type not in ("required_parameter", "optional_parameter"):
        return ""
    pattern = first.child_by_field_name("pattern")
    written = first.child_by_field_name("type")
    if pattern is None or pattern.type != "this" or written is None or not written.named_children:
        return ""
    inner = written.named_children[0]
    return clean_type(_decode(source[inner.start_byte : inner.end_byte]))


_THIS_HOLDERS = frozenset(
    {"method_definition", "public_field_definition", "class_static_block", "class_body"}
)


_SUPER_USES = frozenset({"member_expression", "field_access", "method_invocation"})


def _super_of_class(node: ts.Node, java: bool) -> bool:
    """Whether ``super`` at ``node`` is the base of the class whose body holds it: in a TS/JS
    class's method (not an object literal's, whose ``super`` is its prototype, nor a nested
    ``function``'s); in Java not in an anonymous class's body (its ``super``: the type it
    creates)."""
    if not java:
        return _in_class_method(node)
    up = node.parent
    while up is not None and up.type != "class_body":
        up = up.parent
    made = up.parent if up is not None else None
    return made is not None and made.type != "object_creation_expression"


# TS's own types a literal may be written under (`const m: Record<string, X> = {...}`): their
# keys are no property of the repository.
_GLOBAL_TYPES = frozenset(
    {
        "Record",
        "Map",
        "Array",
        "ReadonlyArray",
        "Promise",
        "Object",
        "Generator",
        "AsyncGenerator",
        "Iterator",
        "IterableIterator",
    }
)
# A literal argument's qualifier: the callee's first name (`{new mod.F(1)`: `mod`).
_CALLED = re.compile(r"\{(?:new )?([A-Za-z_$][\w$]*)[^#]*\(\d+\)(?:#|$)")
# A literal argument's qualifier whose callee is one plain name: (new )?name(place)...
_LOCAL_CALLEE = re.compile(r"\{(new )?[A-Za-z_$][\w$]*(\(\d+\).*)", re.S)
_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
    }
)
# ``_infer_returns``: what a `return` belongs to (the innermost of these around it), which of
# them are the named functions and methods whose result it is, the calls it may be.
_RETURN_OWNERS = _FUNCTIONS | {"function_definition", "lambda", "class_definition", "class_body"}
_NAMED_FUNCTIONS = frozenset({"function_definition", "function_declaration", "method_definition"})
_BOUND_FUNCTIONS = frozenset({"arrow_function", "function_expression"})  # (named by a `const`)
_CALL_NODES = frozenset({"call", "call_expression", "new_expression"})
_SELF_CLASS = frozenset({"cls", "self.__class__", "type(self)"})
_NO_RESULT = frozenset({"constructor", "__init__", "__new__"})  # (`new C()` is a C)
_ASYNC = re.compile(r"\basync\b")


def _returnable(written: str) -> bool:
    """Whether a local's or a call's qualifier can stand for what a function returns: a class
    or a call the global pass types, not a callback's (``f=>T``), a property path's (``T#a``),
    an element's (``make()[]``) or a literal's."""
    return bool(written) and not any(c in written for c in "=>#[{")


def _generators(yields: list[ts.Node]) -> set[int]:
    """The start bytes of the functions that are generators (a ``yield`` of their own, not a
    nested function's): calling one gives a generator (a ``@contextmanager``'s: a context
    manager), not what its ``return`` says. Read from the query's ``yield`` captures, each
    walked up to its function (yields are few; a walk down every typed function was not)."""
    out: set[int] = set()
    for node in yields:
        fn = node.parent
        while fn is not None and fn.type not in _RETURN_OWNERS:
            fn = fn.parent
        if fn is not None:
            out.add(fn.start_byte)
    return out


def _is_static(fn: ts.Node) -> bool:
    """Whether ``fn`` is a TS/JS ``static`` method (its ``this``: the class itself)."""
    return any(child.type == "static" for child in fn.children)


_THIS_BINDERS = _FUNCTIONS - {"arrow_function", "method_definition"}
_OUTERMOST = frozenset({"program", "class_body"})


def _field_id(node: ts.Node, field: str) -> int:
    child = node.child_by_field_name(field)
    return child.id if child is not None else -1


def _literal_key(
    key: ts.Node, source: bytes, type_params: set[str], places: dict[int, dict[int, int]]
) -> tuple[str, int, int, str, str, bool] | None:
    """A key of an object literal whose type is known from where the literal stands (TS
    contextual typing): ``const state: ProxyState = { revoke_: null }`` (the written type's
    property), ``f({name: ...})`` (the callee's parameter type's), and keys nested in such a
    literal (``{validator: {defaultMessage: ...}}``: the type of the outer key's property), as
    (name, line, column, kind, qualifier, whether the callee is ``this.m``): the qualifier is
    ``LITERAL`` + the context's base + ``#key`` per enclosing key. None when nothing types the
    literal."""
    path: list[str] = []
    pair = key.parent
    obj = pair.parent if pair is not None else None
    while obj is not None and obj.type == "object":
        outer = obj.parent
        if outer is None or outer.type != "pair" or len(path) >= _LITERAL_DEPTH:
            break
        outer_key = outer.child_by_field_name("key")
        value = outer.child_by_field_name("value")
        if outer_key is None or outer_key.type != "property_identifier" or value is None:
            return None
        if value.id != obj.id:
            return None
        path.append(_decode(source[outer_key.start_byte : outer_key.end_byte]))
        obj = outer.parent
    if obj is None or obj.type != "object":
        return None
    base, this_call = _literal_context(obj, source, type_params, places)
    if not base:
        return None
    qualifier = LITERAL + base + "".join(PROPERTY + p for p in reversed(path))
    name = _decode(source[key.start_byte : key.end_byte])
    return name, key.start_point[0] + 1, key.start_point[1], "attribute", qualifier, this_call


def _picked_types(
    picks: list[ts.Node],
    source: bytes,
    starts: list[int],
    ends: list[int],
    lookup: Callable[[str, int], tuple[str, int] | None],
    found_in: list[int],
    local_types: dict[tuple[int, str], str],
    note: Callable[[dict[tuple[int, str], str], tuple[int, str], str], None],
) -> None:
    """``const {a, b: c} = x`` with ``x`` a local of a written type ``T`` (TS/JS): ``a`` is
    noted ``T#a`` and ``c`` ``T#b``, the types of T's properties (immer's ``const
    {patchPlugin_} = rootScope``, then ``patchPlugin_.generatePatches_(...)``)."""
    nodes = sorted(picks, key=_START)
    scopes = _innermost([2 * n.start_byte for n in nodes], starts, ends)
    for node, scope in zip(nodes, scopes, strict=True):
        key: ts.Node | None = node
        pattern = node.parent
        if pattern is not None and pattern.type == "pair_pattern":
            key = pattern.child_by_field_name("key")
            pattern = pattern.parent
        declarator = pattern.parent if pattern is not None else None
        value = declarator.child_by_field_name("value") if declarator is not None else None
        if key is None or value is None:
            continue
        whole = _decode(source[value.start_byte : value.end_byte])
        bound = lookup(whole, scope)
        if bound is None or bound[0] != "local":
            continue
        known = local_types.get((found_in[0], whole), "")
        if known and "=>" not in known:
            name = _decode(source[node.start_byte : node.end_byte])
            picked = _decode(source[key.start_byte : key.end_byte])
            note(local_types, (scope, name), known + PROPERTY + picked)


_HEAD = re.compile(r"[A-Za-z_$][\w$]*")  # the first name of a chain
_ONE_CALL = re.compile(r"[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*\(\)")  # `x.m()`
_BARE_CALL = re.compile(r"[A-Za-z_$][\w$]*\(\)")  # `m()`
_CHAIN_TAIL = re.compile(r"\)[\s?!]*\.\s*([A-Za-z_$][\w$]*)\s*$")


def _chain_call(callee: str) -> str:
    """``().m()`` for a method called on a call's value (``z.number().nullable()``): what the
    members ``m`` return, when the resolver can tell; "" for other expressions."""
    found = _CHAIN_TAIL.search(callee)
    return f"().{found.group(1)}()" if found is not None else ""


_CHAIN = re.compile(r"[A-Za-z_$][\w$]*(?:\(\))?(?:[?!]?\.[A-Za-z_$][\w$]*(?:\(\))?){1,6}")


def _call_chain(callee: str) -> str:
    """The callee of a chained call with its arguments taken out (``string().required``
    for ``string().required('x')``): ``string().required()``, the qualifier the resolver
    types from its head through each method's written return type; "" when the callee is no
    such chain (an index, a literal, a function expression ...). A call's type arguments
    are left out (``mixed<string>().strip`` is ``mixed().strip()``)."""
    out: list[str] = []
    depth = 0
    skip = 0
    for k, ch in enumerate(callee):
        if k < skip:
            continue
        if ch == "<" and depth == 0:
            skip = _type_arguments_end(callee, k)
            if not skip:
                return ""
            continue
        if ch in "([{":
            if depth == 0:
                if ch != "(":
                    return ""
                out.append("(")
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return ""
            if depth == 0:
                out.append(")")
        elif depth == 0 and not ch.isspace():
            out.append(ch)
    chain = "".join(out).replace("?.", ".").replace("!.", ".")
    if depth != 0 or "()" not in chain or _CHAIN.fullmatch(chain) is None:
        return ""
    return chain + "()"


def _type_arguments_end(text: str, at: int) -> int:
    """Where the type arguments opening at ``at`` (``<``) end, when a call's parentheses follow
    them right away (``f<A, B<C>>(``); 0 otherwise."""
    depth = 0
    for k in range(at, len(text)):
        ch = text[k]
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return k + 1 if text[k + 1 : k + 2] == "(" else 0
    return 0


class _RawDef:
    __slots__ = (
        "bases",
        "body",
        "doc",
        "end",
        "end_line",
        "head",
        "kind",
        "line",
        "name",
        "name_at",
        "receiver",
        "start",
    )

    def __init__(self) -> None:
        self.kind = ""
        self.name = ""
        self.name_at = -1
        self.start = 0
        self.end = 0
        self.line = 0
        self.end_line = 0
        self.body: int | None = None
        self.head: int | None = None  # where the header ends: before comments above the body
        self.bases: tuple[str, ...] = ()
        self.receiver = ""
        self.doc = ""


# (a class field holding an arrow or a function expression is a function: `m = () => {}`)
_PRIORITY = {"variable": 0, "type": 1, "constant": 2, "field": 8}


def _arguments(args: ts.Node) -> int:
    """How many arguments a call's argument list holds (its comments are none)."""
    return sum(1 for a in args.named_children if not a.type.endswith("comment"))


def _sorted(nodes: list[ts.Node]) -> tuple[list[int], list[ts.Node]]:
    """Nodes by position, once each (two patterns may capture the same node)."""
    by_start = dict(zip(map(_START, nodes), nodes, strict=True))
    starts = sorted(by_start)
    return starts, list(map(by_start.__getitem__, starts))


def _within(starts: list[int], nodes: list[ts.Node], after: int, before: int) -> ts.Node | None:
    """The first node starting at or after ``after`` and ending by ``before``."""
    k = bisect.bisect_left(starts, after)
    if k < len(nodes) and nodes[k].end_byte <= before:
        return nodes[k]
    return None


_ALIASED = frozenset({"type_identifier", "generic_type", "nested_type_identifier"})


def _alias_of(node: ts.Node, body: ts.Node, source: bytes) -> tuple[str, ...]:
    """A TS type alias of one named type (`type AnySet = Set<any>`, yup's `type AnySchema<T
    = any> = Schema<T>`): that type, as its one "base" (its members are the alias's); none
    when the type is one of the alias's own type parameters (`type Id<T> = T`)."""
    if body.type not in _ALIASED or body.end_byte - body.start_byte > _MAX_TYPE:
        return ()
    named = _bases(_decode(source[body.start_byte : body.end_byte]))[:1]
    own = node.child_by_field_name("type_parameters")
    if own is not None and named:
        params = {
            _decode(source[n.start_byte : n.end_byte])
            for p in own.named_children
            if (n := p.child_by_field_name("name")) is not None
        }
        if named[0].split(".", 1)[0] in params:
            return ()
    return tuple(ALIAS + b for b in named)


def _decorations(
    decorators: Sequence[ts.Node],
    kept: Sequence[_RawDef],
    refs: Sequence[int],
    ref_unit: list[int],
    calls: set[int],
    attributes: Collection[int],
) -> None:
    """A Python decorator is a use on the definition it decorates: the references in it are
    that definition's (in ``ref_unit``), and the decorator itself, a name or a dotted name
    (`@pass_cli_config`, `@app.command`), is called with the definition (its last name goes
    into ``calls``; `@click.option(...)` is a call already)."""
    index_at = {d.name_at: i for i, d in enumerate(kept)}
    for node in decorators:
        holder = node.parent
        decorated = holder.child_by_field_name("definition") if holder is not None else None
        named = decorated.child_by_field_name("name") if decorated is not None else None
        i = index_at.get(named.start_byte, -1) if named is not None else -1
        if i < 0 or i in attributes:
            continue
        lo = bisect.bisect_left(refs, node.start_byte)
        hi = bisect.bisect_left(refs, node.end_byte, lo)
        ref_unit[lo:hi] = [i] * (hi - lo)
        expression = node.named_children[0] if node.named_child_count else None
        if expression is not None and expression.type == "attribute":
            expression = expression.child_by_field_name("attribute")
        if expression is not None and expression.type == "identifier":
            calls.add(expression.start_byte)


def _go_embedded(body: ts.Node, source: bytes) -> list[str]:
    """The types a Go struct or interface embeds: a struct's fields without a name (`*Base`,
    `pkg.Other`, `Gen[int]`), an interface's lone type elements (`io.Reader`; not a
    constraint's union)."""
    out: list[str] = []
    if body.type == "struct_type":
        for fields in body.named_children:
            for field in fields.named_children if fields.type == "field_declaration_list" else ():
                if field.type != "field_declaration" or field.child_by_field_name("name"):
                    continue
                typ = field.child_by_field_name("type")
                if typ is not None and typ.type == "generic_type":
                    typ = typ.child_by_field_name("type")
                if typ is not None and typ.type in ("type_identifier", "qualified_type"):
                    out.append(_decode(source[typ.start_byte : typ.end_byte]))
    else:
        for elem in body.named_children:
            if elem.type == "type_elem" and elem.named_child_count == 1:
                typ = elem.named_children[0]
                if typ.type in ("type_identifier", "qualified_type"):
                    out.append(_decode(source[typ.start_byte : typ.end_byte]))
    return out


# Declarations that may declare several names (Go `a, b int`, `var a, b = ...`; Java `int a, b;`).
_MANY_NAMES = frozenset({"field_declaration", "var_spec", "const_spec", "constant_declaration"})


def _other_names(node: ts.Node, first: ts.Node) -> list[ts.Node]:
    """The names a declaration declares after its first (``first``)."""
    found = node.children_by_field_name("name")
    if not found:  # Java: each declarator has its name
        found = [
            n
            for each in node.children_by_field_name("declarator")
            if (n := each.child_by_field_name("name")) is not None
        ]
    return [n for n in found if n.start_byte > first.start_byte]


def _definitions(caps: dict[str, list[ts.Node]], source: bytes) -> list[_RawDef]:
    """Definitions from one capture pass: each declaration's name is the first name captured
    in it (its body, bases and receiver likewise), so no second pass over the tree is needed."""
    name_at, names = _sorted(caps.get("name", []))
    body_at, bodies = _sorted(caps.get("body", []))
    base_at, bases = _sorted(caps.get("bases", []))
    recv_at, receivers = _sorted(caps.get("receiver", []))
    doc_at, docs = _sorted(caps.get("doc", []))
    doc_of: dict[int, str] = {}
    for owner in caps.get("doc.owner", ()):
        found = _within(doc_at, docs, owner.start_byte, owner.end_byte)
        if found is not None:
            doc_of[owner.start_byte] = _doc(_decode(source[found.start_byte : found.end_byte]))
    by_name: dict[int, _RawDef] = {}
    for key, nodes in caps.items():
        if not key.startswith("def."):
            continue
        kind = key[4:]
        for node in nodes:
            start, end = node.start_byte, node.end_byte
            name_node = _within(name_at, names, start, end)
            if name_node is None:
                continue
            if kind == "variable" and node.type == "variable_declarator":
                value = node.child_by_field_name("value")
                if value is not None and value.type == "member_expression":
                    value = value.child_by_field_name("object")
                if required(value) is not None:
                    continue  # `const x = require('./m')`: an import
            d = _RawDef()
            d.kind = kind
            d.name = _decode(source[name_node.start_byte : name_node.end_byte])
            d.name_at = name_node.start_byte
            d.start, d.end = start, end
            d.line, d.end_line = node.start_point[0] + 1, node.end_point[0] + 1
            body = _within(body_at, bodies, name_node.end_byte, end)
            d.body = body.start_byte if body is not None else None
            if body is not None:  # `def f(x):  # a comment` is no part of the signature
                before = body.prev_sibling
                while before is not None and "comment" in before.type:
                    d.head = before.start_byte
                    before = before.prev_sibling
            stop = d.body if d.body is not None else end
            k = bisect.bisect_left(base_at, name_node.end_byte)
            written: list[str] = []
            while k < len(bases) and bases[k].end_byte <= stop:
                written.append(_decode(source[bases[k].start_byte : bases[k].end_byte]))
                k += 1
            if written:
                d.bases = _bases(" ".join(written))
            elif body is not None and body.type in ("struct_type", "interface_type"):
                # Go: embedded types (`type Engine struct { RouterGroup; ... }`, `interface {
                # io.Reader; Close() error }`): their methods and fields are the type's own.
                d.bases = _bases(" ".join(_go_embedded(body, source)))
            elif kind == "interface" and node.parent is not None:
                # `declare module "zod/v4/core" { interface $ZodType {...} }` augments that
                # module's $ZodType (TS declaration merging): the module is kept as a base.
                block = node.parent.parent if node.parent.type == "statement_block" else None
                spec = block.child_by_field_name("name") if block is not None else None
                if block is not None and block.type == "module" and spec is not None:
                    where = _decode(source[spec.start_byte : spec.end_byte]).strip("\"'")
                    if where and " " not in where:
                        d.bases = (AUGMENTS + where,)
            elif kind == "type" and body is not None and body.type == "union_type":
                # `type State = ObjectState | ArrayState`: a member of it is one of theirs.
                text = _decode(source[body.start_byte : body.end_byte])
                if len(text) <= _MAX_TYPE:
                    parts = _bases(_LITERALS.sub("", text).replace("|", " "))
                    d.bases = tuple(w for w in parts if w not in _NOTHING)
            elif kind == "type" and body is not None:
                d.bases = _alias_of(node, body, source)
            elif kind == "function" and node.parent and node.parent.type == "decorated_definition":
                # Python: a `@property` getter (what `x.name` holds is what it returns).
                for decorator in node.parent.named_children:
                    if decorator.type == "decorator" and _GETTER_DECORATOR.fullmatch(
                        _decode(source[decorator.start_byte : decorator.end_byte])
                    ):
                        d.bases = (GETTER,)
            receiver = _within(recv_at, receivers, start, name_node.start_byte)
            if receiver is not None:
                text = _decode(source[receiver.start_byte : receiver.end_byte])
                d.receiver = re.sub(r"\[.*", "", text).lstrip("*& ").strip()
            old = by_name.get(d.name_at)
            if old is None or _PRIORITY.get(old.kind, 9) < _PRIORITY.get(kind, 9):
                by_name[d.name_at] = d
            if node.type in _MANY_NAMES:
                # `a, b int` (a Go field), `var a, b = ...`, Java `int a, b;`: one each
                for other in _other_names(node, name_node):
                    twin = copy.copy(d)
                    twin.name = _decode(source[other.start_byte : other.end_byte])
                    twin.name_at = other.start_byte
                    by_name.setdefault(twin.name_at, twin)
    # TS: an object literal's method under a written type (`function f(): Methods<Foo> {
    # return { m() {...} } }`, `const x: Foo = { m() {...} }`) is Foo's `m`: its "bases" are
    # the type names written there (the resolver keeps those that are classes or interfaces).
    ctx_members = caps.get("ctx.member")
    if ctx_members:
        type_at, type_nodes = _sorted(caps.get("ctx.type", []))
        for m in ctx_members:
            method = by_name.get(m.start_byte)
            k = bisect.bisect_right(type_at, m.start_byte) - 1
            if method is None or method.kind != "method" or k < 0:
                continue
            over = type_nodes[k]
            text = _decode(source[over.start_byte : over.end_byte])
            if len(text) <= _MAX_TYPE:
                words = [_SPACES.sub("", w) for w in _TYPE_NAME.findall(text)]
                method.bases = tuple(dict.fromkeys(w for w in words if w not in _ANY))[:4]
    defs = sorted(by_name.values(), key=lambda d: (d.start, -d.end))
    for d in defs:
        d.doc = doc_of.get(d.start, "")
    return defs


def _error_share(comp: Compiled, root: ts.Node, size: int) -> float:
    if not root.has_error or size == 0:
        return 0.0
    covered = 0
    last = -1
    spans = sorted((n.start_byte, n.end_byte) for n in comp.errors.captures(root).get("error", ()))
    for start, end in spans:
        start = max(start, last)
        if end > start:
            covered += end - start
            last = end
    return covered / size


def extract(comp: Compiled, text: str) -> FileFacts | None:
    """The facts of one file, or None when its tree is mostly errors."""
    return extract_checked(comp, text)[0]


def extract_checked(
    comp: Compiled, text: str, whole: bool = False
) -> tuple[FileFacts | None, bool]:
    """``extract``'s answer, and whether the tree has any syntax error (a review compares a
    half-edited file's sides with care). ``whole``: the functions' and classes' signatures
    not cut (a review compares headers of any length: ``cut_signature`` gives the index's)."""
    grammar = comp.grammar
    source = text.encode("utf-8", "surrogatepass")
    tree = comp.parser.parse(source)
    root = tree.root_node
    if _error_share(comp, root, len(source)) > 0.25:
        return None, True
    caps = comp.query.captures(root)
    raw = _definitions(caps, source)
    built = _Builder(grammar, source, raw, caps, text.count("\n") + 1, whole).build()
    return built, root.has_error


def extract_both(comp: Compiled, text: str) -> tuple[FileFacts | None, FileFacts | None, bool]:
    """``extract`` and ``extract_checked(whole=True)`` of one text, from one parse: (the index's
    facts, the facts with whole headers, whether the tree has a syntax error). One build serves
    both unless some header is longer than the index keeps (then the index's is built too)."""
    grammar = comp.grammar
    source = text.encode("utf-8", "surrogatepass")
    root = comp.parser.parse(source).root_node
    if _error_share(comp, root, len(source)) > 0.25:
        return None, None, True
    caps = comp.query.captures(root)
    lines = text.count("\n") + 1
    builder = _Builder(grammar, source, _definitions(caps, source), caps, lines, True)
    whole = builder.build()
    if builder.same_as_cut:
        return whole, whole, root.has_error
    return extract(comp, text), whole, root.has_error


# A review's facts of each text it extracts, by grammar and text (``one_extraction_each``):
# a changed file is read for its declarations and again into the index (and its imports
# again), each time parsed and built from the start (three times in a review at the index's
# own commit, before session 21).
_FACTS: contextvars.ContextVar[
    dict[tuple[str, str], tuple[FileFacts | None, FileFacts | None, bool]] | None
] = contextvars.ContextVar("reviewbot_facts", default=None)


@contextlib.contextmanager
def one_extraction_each() -> Iterator[None]:
    """Within it, ``facts_of`` extracts each text once per grammar (the facts are kept)."""
    token = _FACTS.set({})
    try:
        yield
    finally:
        _FACTS.reset(token)


def facts_of(comp: Compiled, text: str, whole: bool = False) -> tuple[FileFacts | None, bool]:
    """``extract_checked(comp, text, whole)``, kept within ``one_extraction_each``."""
    memo = _FACTS.get()
    if memo is None:
        return extract_checked(comp, text, whole)
    key = (comp.grammar.name, text)
    found = memo.get(key)
    if found is None:
        found = memo[key] = extract_both(comp, text)
    return (found[1] if whole else found[0]), found[2]


class _Builder:
    def __init__(
        self,
        grammar: Grammar,
        source: bytes,
        raw: list[_RawDef],
        caps: dict[str, list[ts.Node]],
        lines: int,
        whole: bool = False,
    ) -> None:
        self.grammar = grammar
        self.source = source
        self.raw = raw
        self.caps = caps
        self.lines = lines
        self.whole = whole
        # A ``whole`` build whose every header is the one the index keeps (so every fact is the
        # index's too: the header is the only thing ``whole`` changes); set by ``build``.
        self.same_as_cut = True

    # -- definitions ------------------------------------------------------------------------------

    def _header(self, d: _RawDef, kind: str, whole: bool) -> str:
        """A function's, class's or type's signature: whole, or cut as the index keeps it."""
        signature = _signature(
            self.source,
            d.start,
            d.head if d.head is not None else d.body,
            d.end,
            self.grammar.name == "python",
            whole,
        )
        if (
            self.grammar.name == "go"
            and kind in ("struct", "interface", "type")
            and not signature.startswith("type ")
        ):
            # `type Command struct`, as a Java class shows its kind (it was `Command`)
            tail = f" {kind}" if kind != "type" else ""
            signature = cut_signature(f"type {signature}{tail}")
        return signature

    def _make_definitions(self) -> list[Definition]:
        out: list[Definition] = []
        stack: list[int] = []
        seen_top: set[str] = set()
        seen_members: set[tuple[int, str]] = set()
        keep: list[_RawDef] = []
        python = self.grammar.name == "python"
        for d in self.raw:
            while stack and (
                (top := self.raw_kept[stack[-1]]).end <= d.start
                or (top.start == d.start and top.end == d.end and top.kind == d.kind)
            ):
                stack.pop()  # (ended; or a name declared beside it: `a, b int`)
            parent = stack[-1] if stack else -1
            if d.kind in ("variable", "constant") and parent == -1 and d.kind == "variable":
                if d.name in seen_top:
                    continue
                seen_top.add(d.name)
            if d.kind == "attribute":  # `self.x = ...` in a method: a field of its class
                owner = parent
                while owner >= 0 and out[owner].kind not in CLASS_KINDS:
                    owner = out[owner].parent
                if owner < 0 or (owner, d.name) in seen_members:
                    continue
                parent = owner
                # Only the name is the field's: the method still encloses the rest.
                d.start, d.end = d.name_at, d.name_at + len(d.name.encode())
                self.attributes.add(len(keep))
            if d.kind in ("field", "attribute"):
                if (parent, d.name) in seen_members:
                    continue
                seen_members.add((parent, d.name))
            self.raw_kept.append(d)
            keep.append(d)
            index = len(keep) - 1
            parent_def = out[parent] if parent >= 0 else None
            kind = "field" if d.kind == "attribute" else d.kind
            container = ""
            if parent_def is not None and parent_def.kind in _CONTAINERS:
                container = parent_def.qualified
                if kind == "function":
                    kind = "method"
            elif kind == "method" and parent_def is not None and parent_def.kind in _VALUES:
                container = parent_def.qualified  # `const api = { get() {...} }`: a member
            if kind == "method" and d.receiver:
                container = d.receiver
            if kind == "variable" and python and d.name.isupper():
                kind = "constant"
            if kind == "field" and self.grammar.name == "java":
                # Its own modifiers (before its name), not the next declaration's.
                head = _decode(self.source[d.start : d.name_at if d.name_at > d.start else d.end])
                if re.search(r"\bstatic\b", head) and re.search(r"\bfinal\b", head):
                    kind = "constant"
            if container:
                qualified = f"{container}.{d.name}"
            elif parent_def is not None:
                qualified = f"{parent_def.qualified}.{d.name}"
            else:
                qualified = d.name
            if index in self.attributes:
                line_start = self.source.rfind(b"\n", 0, d.start) + 1
                line_end = self.source.find(b"\n", d.start)
                first = _decode(self.source[line_start : line_end if line_end >= 0 else None])
                signature = _SPACES.sub(" ", first).strip()[:_MAX_SIGNATURE]
            elif kind in ("variable", "constant", "field"):
                first = _decode(self.source[d.start : d.end]).split("\n", 1)[0]
                signature = _SPACES.sub(" ", first).strip()[:_MAX_SIGNATURE]
            else:
                signature = self._header(d, kind, self.whole)
                if self.whole and self.same_as_cut:
                    # (the index's header too: while every one is the same, so is every fact)
                    self.same_as_cut = signature == self._header(d, kind, False)
            out.append(
                Definition(
                    kind,
                    d.name,
                    qualified,
                    signature,
                    d.line,
                    d.end_line,
                    parent,
                    container,
                    d.doc,
                    d.bases,
                )
            )
            if index not in self.attributes:
                stack.append(index)
        return out

    def _infer_returns(
        self,
        nodes: list[ts.Node],
        starts: list[int],
        ends: list[int],
        lookup: Callable[[str, int], tuple[str, int] | None],
        found_in: list[int],
        local_types: dict[tuple[int, str], str],
        headed: Callable[[str, int], str],
    ) -> None:
        """What a function or method with no written return type returns, read from its
        ``return`` statements (``Definition.returned``): ``return new Foo()``, ``return
        Foo()`` (a capitalised callee: the class, or what that function returns), ``return
        self`` / ``this`` / ``cls(...)`` / ``type(self)(...)`` (``self``: the receiver's class),
        ``return make()`` / ``self.m()`` / a chain (what they return, found by the global pass),
        ``return x`` with ``x`` a local of a known type. A ``return`` that says nothing of a
        class (``return``, ``return None``, ``return a + b``) is passed over; up to
        ``_MAX_ANY_OF`` that say different things are kept, joined by ``ANY_OF`` (the global
        pass types each: they must come to the same classes). Not for async functions (calling one
        gives a promise), a generator (``yield``: a generator) nor for a ``return`` in a
        nested function or callback; a static method's ``return this`` (the class, not an
        instance) and ``return cls()`` outside a classmethod (a local ``cls``) leave it
        untyped."""
        defs = self.defs_out
        kept = self.raw_kept
        python = self.grammar.name == "python"
        named = {d.name_at: i for i, d in enumerate(kept) if defs[i].kind in ("function", "method")}
        ordered = sorted(nodes, key=_START)
        scopes = _innermost([2 * n.start_byte for n in ordered], starts, ends)
        said: dict[int, set[str]] = {}
        owners: dict[int, ts.Node] = {}
        generators = _generators(self.caps.get("yield", []))
        for node, scope in zip(ordered, scopes, strict=True):
            written = self._returned_type(node, scope, lookup, found_in, local_types, headed)
            if not written:
                continue
            fn = node.parent
            while fn is not None and fn.type not in _RETURN_OWNERS:
                fn = fn.parent
            if fn is None:
                continue
            if fn.type in _BOUND_FUNCTIONS and fn.parent is not None:
                # `const make = () => new Foo()`, `let f = function () { return x; }`: the
                # function a declarator binds, named by it
                if fn.parent.type != "variable_declarator":
                    continue
                name = fn.parent.child_by_field_name("name")
            elif fn.type not in _NAMED_FUNCTIONS:
                continue
            else:
                name = fn.child_by_field_name("name")
            i = named.get(name.start_byte, -1) if name is not None else -1
            if i < 0:
                continue
            if written == "this" and node.type == "this" and _is_static(fn):
                written = ""  # a static method's `this`: its class, not an instance of it
            elif written == "cls":
                # `cls(...)`: the receiver's class in a classmethod, else any class
                # (`cls = registry[kind]`)
                written = "self" if self._instantiated("cls", i) >= 0 else ""
            said.setdefault(i, set()).add(written)
            owners[i] = fn
        for i, agreed in said.items():
            d = defs[i]
            head = d.signature.split("(", 1)[0]
            if (
                len(agreed) > _MAX_ANY_OF
                or "" in agreed
                or owners[i].start_byte in generators
                or d.name in _NO_RESULT
                or _ASYNC.search(head)
                or "->" in d.signature
                or (not python and "):" in d.signature)
            ):
                continue
            defs[i] = d._replace(returned=ANY_OF.join(sorted(agreed)))

    def _returned_type(
        self,
        node: ts.Node,
        scope: int,
        lookup: Callable[[str, int], tuple[str, int] | None],
        found_in: list[int],
        local_types: dict[tuple[int, str], str],
        headed: Callable[[str, int], str],
    ) -> str:
        """The qualifier one ``return`` statement's value has (``_infer_returns``), or ""."""
        python = self.grammar.name == "python"
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        kind = node.type
        if kind == "this":
            return "this"
        if kind == "identifier":
            name = _decode(self.source[node.start_byte : node.end_byte])
            if python and name == "self":
                return "self"
            bound = lookup(name, scope)
            if bound is None or bound[0] != "local":
                return ""  # (`return Foo`: the class itself, not an instance)
            held = local_types.get((found_in[0], name), "")
            if python and held.endswith("()") and held[:-2] in _SELF_CLASS:
                # `c = self.__class__(...)`, then `return c`
                return "cls" if held == "cls()" else "self"
            return held if _returnable(held) else ""
        if kind not in _CALL_NODES:
            return ""
        new = kind == "new_expression"
        callee = node.child_by_field_name("constructor" if new else "function")
        if callee is None or callee.end_byte - callee.start_byte > _MAX_CALLEE:
            return ""
        written = _decode(self.source[callee.start_byte : callee.end_byte])
        if python and _SPACES.sub("", written) in _SELF_CLASS:
            # `cls(...)` (``_infer_returns``: when a classmethod's `cls`), `self.__class__(...)`,
            # `type(self)(...)`
            return "cls" if written == "cls" else "self"
        if not written.isidentifier():
            if _TYPE_NAME.fullmatch(_SPACES.sub("", written)) is None:
                chain = "" if new else _call_chain(written)
                if chain.startswith("super().") and python:
                    return chain  # `return super().make()`: the bases' `make`'s
                return headed(chain, scope) if chain and _returnable(chain) else ""
            written = _SPACES.sub("", written)
        if new or written.rsplit(".", 1)[-1][:1].isupper():
            head = written.split(".", 1)[0]
            bound = None if head in self.grammar.self_names else lookup(head, scope)
            if bound is not None and bound[0] == "local":
                return ""  # `def build(Model): return Model()`: a parameter, not the class
            return written
        called = headed(written + "()", scope)
        return called if _returnable(called) else ""

    def _instantiated(self, name: str, unit: int) -> int:
        """The class a call of ``name`` in ``unit`` instantiates when ``name`` is the first
        parameter (`cls`) of a Python classmethod of it, else -1."""
        if unit < 0:
            return -1
        d = self.raw_kept[unit]
        method = self.defs_out[unit]
        if method.kind != "method" or method.parent < 0:
            return -1
        if self.defs_out[method.parent].kind not in CLASS_KINDS:
            return -1
        first = _FIRST_PARAMETER.search(method.signature)
        if first is None or first.group(1) != name:
            return -1
        if _CLASSMETHOD.search(self.source[max(0, d.start - _WINDOW) : d.start]) is None:
            return -1
        return method.parent

    # -- the build --------------------------------------------------------------------------------

    def build(self) -> FileFacts:
        grammar = self.grammar
        source = self.source
        caps = self.caps
        self.raw_kept: list[_RawDef] = []
        self.attributes: set[int] = set()
        defs = self._make_definitions()
        self.defs_out = defs
        kept = self.raw_kept

        # Imports, and the ranges of import statements (their names are not references).
        imports: list[Import] = []
        import_sites: list[tuple[int, ImportSite, int]] = []
        skip_ranges: list[tuple[int, int]] = []
        package = ""
        for stmt in _sorted(caps.get("import", []))[1]:
            skip_ranges.append((stmt.start_byte, stmt.end_byte))
            if stmt.type in ("package_clause", "package_declaration"):
                words = _decode(source[stmt.start_byte : stmt.end_byte]).split()
                package = words[1].rstrip(";") if len(words) > 1 else ""
                continue
            for site in grammar.read_imports(stmt, source):
                imports.append(site.entry)
                import_sites.append((stmt.start_byte, site, len(imports) - 1))
        # CommonJS exports (`module.exports = App`): entries of the module's export list; the
        # names in them stay references.
        for assignment in _sorted(caps.get("cjs.export", []))[1]:
            for site in commonjs_exports(assignment):
                imports.append(site.entry)
                import_sites.append((assignment.start_byte, site, len(imports) - 1))
        # `export default ok ? function a(c) {...} : function b(c) {...}`: a and b the default
        for stmt in _sorted(caps.get("export.default", []))[1]:
            for site in conditional_default_exports(stmt):
                imports.append(site.entry)
                import_sites.append((stmt.start_byte, site, len(imports) - 1))
        skip_ranges.sort()

        # Positions as sets and maps, made by C loops (a Python step per node was a tenth of
        # the file's time: there are as many captures as identifiers).
        skip: set[int] = set(map(_START, caps.get("skip", ())))
        skip.update(d.name_at for d in kept)
        names: dict[bytes, str] = {}
        binds: dict[int, str] = {}
        for n in caps.get("bind", ()):
            raw_name = source[n.start_byte : n.end_byte]
            binds[n.start_byte] = names.get(raw_name) or names.setdefault(
                raw_name, _decode(raw_name)
            )
        calls = set(map(_START, caps.get("call", ())))
        calls.update(map(_START, caps.get("call.member", ())))
        types = set(map(_START, caps.get("type", ())))

        # Scopes, sorted outer before inner; 0 is the file. A definition binds its name just
        # before its own node (so in the scope around it): positions are doubled for that.
        scope_nodes = [(n.start_byte, n.end_byte, False, n) for n in caps.get("scope", ())]
        scope_nodes += [(n.start_byte, n.end_byte, True, n) for n in caps.get("scope.class", ())]
        # (TS `infer X`: its conditional type's `extends` clause and true branch are scopes)
        inferred = _inferred(caps.get("infer", ()), source)
        typed_scopes = {(n.start_byte, n.end_byte): n for _, m in inferred for n in m}
        typed_scopes.update(_type_parameter_scopes(caps))
        scope_nodes += [(a, b, False, n) for (a, b), n in typed_scopes.items()]
        scope_nodes.sort(key=lambda s: (s[0], -s[1]))
        starts = [-1] + [2 * s[0] for s in scope_nodes]
        ends = [2 * len(source) + 2] + [2 * s[1] for s in scope_nodes]
        is_class = [False] + [s[2] for s in scope_nodes]
        parent_scope = [
            -1,
            *_innermost([starts[i] for i in range(1, len(starts))], starts, ends, strict=True),
        ]
        bindings: list[dict[str, tuple[str, int]]] = [{} for _ in starts]
        ecma = grammar.name in ("javascript", "typescript", "tsx")
        # TS/JS: what `this` is in each scope (the class's, a written `this: T`, or unknown).
        this_in, this_literal = (
            _this_per_scope([s[3] for s in scope_nodes], parent_scope, source) if ecma else ([], [])
        )

        members = set(map(_START, caps.get("member", ())))
        spans: dict[int, int] = {}
        for key in ("ref", "member", "type"):
            nodes = caps.get(key, ())
            spans.update(zip(map(_START, nodes), map(_END, nodes), strict=True))
        if "call.member.of" in caps:
            # The member name is the last child of what was captured: the name ending there.
            # (of two names ending at one place, the last one's start, as before)
            starts_at = dict(zip(spans.values(), spans.keys(), strict=True))
            found = set(map(starts_at.get, map(_END, caps["call.member.of"]), repeat(-1)))
            found.discard(-1)  # (no name ends there)
            calls.update(found)
        if grammar.member_access:
            members.update(_spaced_members(source, spans, caps, grammar.member_access))
        members.update(calls)
        # Drop names inside import statements and those that are not references.
        skip.update(binds)
        refs = sorted(spans.keys() - skip)
        if skip_ranges:
            parts: list[list[int]] = []
            done = 0  # refs before this are decided
            for start, end in skip_ranges:
                lo = bisect.bisect_left(refs, start, done)
                hi = bisect.bisect_left(refs, end, lo)
                parts.append(refs[done:lo])
                done = max(done, hi)
            parts.append(refs[done:])
            refs = list(itertools.chain.from_iterable(parts))
        ref_at = list(map(_TWICE, refs))
        ref_scope = _innermost(ref_at, starts, ends)
        # Units: the definitions that enclose code (not a field named by `self.x = ...`).
        units = [i for i in range(len(kept)) if i not in self.attributes]
        def_starts = [-1] + [2 * kept[i].start for i in units]
        def_ends = [2 * len(source) + 2] + [2 * kept[i].end for i in units]
        unit_of = [-1, *units]
        ref_unit = list(map(unit_of.__getitem__, _innermost(ref_at, def_starts, def_ends)))
        if "decorator" in caps:
            _decorations(caps["decorator"], kept, refs, ref_unit, calls, self.attributes)

        # Bindings: definitions, imports, locals. The first binding of a name in a scope wins,
        # except that a definition or an import replaces a plain local.
        python = grammar.name == "python"
        type_defs: dict[tuple[int, str], int] = {}  # type-only definitions by (scope, name)
        by_start = sorted(range(len(kept)), key=lambda i: kept[i].start)
        placed = _innermost([2 * kept[i].start - 1 for i in by_start], starts, ends)
        def_scope = [0] * len(kept)
        for i, scope in zip(by_start, placed, strict=True):
            def_scope[i] = scope
        for i, d in enumerate(defs):
            if (d.kind in _NOT_BARE and not python) or i in self.attributes:
                continue
            if d.kind == "method" and d.container and not python:
                continue
            table = bindings[def_scope[i]]
            if d.kind in _TYPE_ONLY:  # TS: `interface X` and `const X` may share a name
                type_defs.setdefault((def_scope[i], d.name), i)
                if d.name in table and table[d.name][0] == "def":
                    continue
            elif d.name in table and table[d.name][0] == "def":
                if defs[table[d.name][1]].kind in _TYPE_ONLY:
                    table[d.name] = ("def", i)  # in a value position, the value
                continue
            if d.name not in table or table[d.name][0] == "local":
                table[d.name] = ("def", i)
        import_scope = _innermost([2 * at for at, _s, _i in import_sites], starts, ends)
        for (_at, site, i), scope in zip(import_sites, import_scope, strict=True):
            local = site.entry.local
            if not local or (site.entry.export and not site.entry.module):
                continue  # (`export { g as h }` binds no name here)
            table = bindings[scope]
            if local not in table or table[local][0] == "local":
                table[local] = ("import", i)
        # Locals whose type is written: `x = Foo()`, `def f(x: Foo)`, `Foo x = ...`, `x =
        # make()` (its return type, found by the global pass), `with Foo() as x`. Two
        # bindings of one name in one scope with different types: no type.
        type_at, type_nodes = _sorted(caps.get("typed.type", []) + caps.get("typed.call", []))
        pre_at, pre_nodes = _sorted(caps.get("typed.pre", []))
        call_types = {n.start_byte for n in caps.get("typed.call", ())}
        call_types.update(n.start_byte for n in caps.get("typed.pre", ()))
        typed_at = {n.start_byte for n in caps.get("bind.typed", ())}
        # `for x in make()`: what make's result holds (`make()[]`).
        iter_at, iter_nodes = _sorted(caps.get("typed.iter", []))
        iter_bind = {n.start_byte for n in caps.get("bind.iter", ())}
        iter_calls = set(iter_at)
        after_at = {n.start_byte for n in caps.get("bind.after", ())}
        # Java `var x = new Foo()`, `var x = nodes.get(0)`: the value after the name says
        # what x holds (its declared type comes before it), as `Foo x = ...` would.
        value_at, value_nodes = _sorted(
            caps.get("typed.value", []) + caps.get("typed.value.call", [])
        )
        value_calls = {n.start_byte for n in caps.get("typed.value.call", ())}
        value_bind = {n.start_byte for n in caps.get("bind.value", ())}
        local_types: dict[tuple[int, str], str] = {}
        mixed: set[tuple[int, str]] = set()
        java_types = grammar.name == "java"
        before = grammar.type_before_name
        # TS type parameters (`<T extends Foo>(x: T)`): no class of their own, untyped.
        type_params = {
            _decode(source[n.start_byte : n.end_byte]) for n in caps.get("typeparam", ())
        }

        def note(table: dict[tuple[int, str], str], key: tuple[int, str], written: str) -> None:
            if key in mixed or written.split(".", 1)[0] in type_params:
                return
            if table.setdefault(key, written) != written:
                del table[key]
                mixed.add(key)

        bind_at = sorted(binds)
        bind_scope = _innermost([2 * a for a in bind_at], starts, ends)
        bound_names = Counter(zip(bind_scope, map(binds.__getitem__, bind_at), strict=True))
        iter_mixed: list[tuple[int, str]] = []
        for at, scope in zip(bind_at, bind_scope, strict=True):
            table = bindings[scope]
            name = binds[at]
            if name not in table:
                table[name] = ("local", -1)
            if table[name][0] == "import":
                continue
            written = ""
            if at in after_at:
                written = _written_type(source, pre_at, pre_nodes, call_types, at, True, True)
            elif at in typed_at:
                written = _written_type(
                    source, type_at, type_nodes, call_types, at, before, True, java_types
                )
                if written == "this" and not before:
                    k = bisect.bisect_left(type_at, at)
                    if k < len(type_nodes) and not _instance_this(type_nodes[k]):
                        written = ""  # `const self = this` in a nested `function`, a static
            elif at in value_bind:
                written = _java_value_type(source, value_at, value_nodes, value_calls, at)
            elif at in iter_bind:
                if bound_names[(scope, name)] > 1:
                    # `for p in items()` and another binding of p in the scope (`p = xs[0]`,
                    # `for p in p.children`): which one holds at a use is not known.
                    iter_mixed.append((scope, name))
                    continue
                written = _written_type(source, iter_at, iter_nodes, iter_calls, at, False)
                written = written + "[]" if written.endswith("()") else ""
            if written:
                note(local_types, (scope, name), written)
        for loose in iter_mixed:
            local_types.pop(loose, None)
            mixed.add(loose)
        if grammar.name == "go":
            # A package-level `var x = NewT()` / `var x T`: its type, for the package's other
            # files (`x.m()` there), as a function's return type is read.
            for i, d in enumerate(defs):
                if d.kind == "variable" and def_scope[i] == 0 and not d.returned:
                    held = local_types.get((0, d.name), "")
                    if held and "=>" not in held:
                        defs[i] = d._replace(returned=held)
        if inferred:
            # TS `A extends { k: infer X } ? X : B`: the X of the true branch is the one
            # `infer` declares (the `extends` clause's is, as a bind there).
            scope_at = {(starts[k], ends[k]): k for k in range(1, len(starts))}
            for name, (_clause, branch) in inferred:
                at = scope_at[(2 * branch.start_byte, 2 * branch.end_byte)]
                bindings[at].setdefault(name, ("local", -1))

        found_in = [0]

        def lookup(name: str, scope: int) -> tuple[str, int] | None:
            first = True
            while scope >= 0:
                if not (is_class[scope] and grammar.class_scope_hidden and not first):
                    found = bindings[scope].get(name)
                    if found is not None:
                        found_in[0] = scope
                        return found
                first = False
                scope = parent_scope[scope]
            return None

        # A base whose head a local or a parameter binds (`def factory(core): class
        # G(core.Command)`, shadowing the module `core`): what it is, is not written.
        for i, d in enumerate(defs):
            if d.kind not in CLASS_KINDS or not d.bases:
                continue
            marked = tuple(
                LOCAL + b
                if not b.startswith((ALIAS, AUGMENTS))
                and (head := _HEAD.match(b)) is not None
                and (bound := lookup(head.group(0), def_scope[i])) is not None
                and bound[0] == "local"
                else b
                for b in d.bases
            )
            if marked != d.bases:
                defs[i] = d._replace(bases=marked)

        class_of: dict[int, int] = {}

        def headed(called: str, scope: int, unit: int = -1) -> str:
            """A call's qualifier (``other()``, ``x.m()``, a chain ``x.m().n()``) with its
            head read in ``scope``: a local's written type put in its place, a name the file
            defines or imports kept; else (a chain) ``().n()``, what any ``n`` returns; ""
            when the head is a local named like a function of the module."""
            if local_callee(called, scope):
                return ""  # `other()` with `other` a parameter: not the module's
            chain = "()." in called
            head = _HEAD.match(called) if chain or _ONE_CALL.fullmatch(called) else None
            if head is None or head.group(0) in grammar.self_names:
                if ecma and head is not None and head.group(0) == "this":
                    this_is = this_in[scope]  # (`this.make().m()` in a nested `function`)
                    if this_is != CLASS_THIS:
                        known = this_is.split(".", 1)[0] not in type_params and this_is
                        return known + called[4:] if known else ""
                return called
            name_of = head.group(0)
            bound = lookup(name_of, scope)
            known = ""
            if bound is not None and (
                bound[0] == "local" or (bound[0] == "def" and defs[bound[1]].kind in _VALUES)
            ):
                known = local_types.get((found_in[0], name_of), "")
                if (
                    "=>" in known
                    or PROPERTY in known
                    or known.rsplit(".", 1)[-1] == "Callable"
                    or local_callee(known, scope)
                ):
                    known = ""
            if not known and bound is None and java_types and unit >= 0:
                # Java `byName.get(k).m()`, byName a field of the class written with a type
                known = attr_type(enclosing_class(unit), name_of)
            if known:
                return known + called[len(name_of) :]
            if chain and (bound is None or bound[0] == "local"):
                return _chain_call(called[:-2])
            return called

        def inner_function(written: str, scope: int) -> int:
            """The function a call qualifier's head calls (``make()``, ``make().m()``) when
            it is a function declared in a body around ``scope`` (immer's tests'
            ``createPatchedImmer``, in a test function), else -1: the resolver, which knows a
            file's top-level names only, gets it as the reference's target."""
            head = _HEAD.match(written)
            if head is None or written[head.end() : head.end() + 1] != "(" or not ecma:
                return -1
            bound = lookup(head.group(0), scope)
            if bound is None or bound[0] != "def" or found_in[0] == 0:
                return -1
            return bound[1] if defs[bound[1]].kind == "function" else -1

        def local_callee(written: str, scope: int) -> bool:
            """Whether a call type (``other()``, ``other().m()``) names a local (a parameter
            named like a module's function): no function of the module is called."""
            head = _HEAD.match(written)
            if head is None or written[head.end() : head.end() + 1] != "(":
                return False  # (`x.m()` on a local: what the members `m` return, as before)
            bound = lookup(head.group(0), scope)
            return bound is not None and bound[0] == "local"

        def local_class(written: str, scope: int) -> int:
            """The class a local's written type names when the class is declared in a body
            around ``scope`` (Go `type Opts struct` in a function), else -1: the resolver,
            which knows a file's top-level names only, would not find it."""
            if not written.isidentifier():
                return -1
            bound = lookup(written, scope)
            if bound is None or bound[0] != "def" or found_in[0] == 0:
                return -1
            return bound[1] if defs[bound[1]].kind in CLASS_KINDS else -1

        def enclosing_class(unit: int) -> int:
            found = class_of.get(unit)
            if found is not None:
                return found
            at = unit
            while at >= 0:
                if defs[at].kind in CLASS_KINDS:
                    break
                at = defs[at].parent
            class_of[unit] = at
            return at

        def go_receiver(unit: int) -> tuple[str, str]:
            while unit >= 0:
                d = defs[unit]
                if d.kind == "method" and d.container:
                    m = _GO_RECEIVER.match(d.signature)
                    return (m.group(1) if m else "", d.container)
                unit = d.parent
            return "", ""

        if "bind.pick" in caps:
            _picked_types(
                caps["bind.pick"], source, starts, ends, lookup, found_in, local_types, note
            )

        if "cb.args" in caps:
            # The calls around arguments holding a function (captured as their arguments: a
            # pattern asking for a call's arguments waits down the whole `a.m().m()` chain).
            around = (n.parent for n in caps["cb.args"])
            _callback_types(
                [c for c in around if c is not None and c.type == "call_expression"],
                source,
                starts,
                ends,
                lookup,
                found_in,
                local_types,
                note,
                defs,
                grammar.name,
            )

        # `y = x.m()` with x a local of a written type T: what T's m returns (`T.m()`), as
        # `y = T.m()` would say (rich's `child_options = options.update(width=...)`, options
        # a parameter `: ConsoleOptions`).
        for (scope, name), written in list(local_types.items()):
            call = _LOCAL_CALL.fullmatch(written)
            if call is None or call.group(1) in grammar.self_names or call.group(1) == name:
                continue
            bound = lookup(call.group(1), scope)
            if bound is None or bound[0] != "local":
                continue
            held = local_types.get((found_in[0], call.group(1)), "")
            if held and (_PLAIN_TYPE.fullmatch(held) or (java_types and _java_container(held))):
                local_types[(scope, name)] = f"{held}.{call.group(2)}()"

        # `y = make().m()`: the chain from its head, read in y's scope (`headed`), as the
        # receiver `make().m().n()` is (`s = string(); y = s.required().m()`: s's type).
        for spot, written in list(local_types.items()):
            if "()." in written and written[:1] != "(":
                again = headed(written, spot[0])
                if again:
                    local_types[spot] = again
                else:
                    del local_types[spot]

        if "returned" in caps:
            self._infer_returns(
                caps["returned"], starts, ends, lookup, found_in, local_types, headed
            )

        # Attributes whose type is written, per class: `self.x = Foo()`, `self.x: Foo`,
        # `self.x = x` (a typed parameter), a class body's `x: Foo`; TS fields `x: Foo`,
        # `constructor(private x: Foo)`, `this.x = new Foo()`.
        attr_types: dict[tuple[int, str], str] = {}
        class_at = {2 * kept[i].start: i for i in range(len(defs)) if defs[i].kind in CLASS_KINDS}
        for (scope, name), written in local_types.items():
            if is_class[scope] and starts[scope] in class_at:
                note(attr_types, (class_at[starts[scope]], name), written)
        from_at, from_nodes = _sorted(caps.get("typed.from", []))
        for key in ("attr.typed", "attr.from"):
            attr_nodes = sorted(caps.get(key, ()), key=lambda n: n.start_byte)
            sites = [2 * n.start_byte for n in attr_nodes]
            site_scope = _innermost(sites, starts, ends)
            site_unit = _innermost(sites, def_starts, def_ends)
            for node, scope, u in zip(attr_nodes, site_scope, site_unit, strict=True):
                cls = enclosing_class(unit_of[u])
                if cls < 0:
                    continue
                at = node.start_byte
                if key == "attr.typed":
                    written = _written_type(
                        source, type_at, type_nodes, call_types, at, before, java=java_types
                    )
                else:
                    ref = _within(from_at, from_nodes, node.end_byte, node.end_byte + 400)
                    if ref is None:
                        continue
                    local = _decode(source[ref.start_byte : ref.end_byte])
                    bound = lookup(local, scope)
                    written = ""
                    if bound is not None and bound[0] == "local":
                        written = local_types.get((found_in[0], local), "")
                if written:
                    note(attr_types, (cls, _decode(source[at : node.end_byte])), written)

        classes_here: dict[str, int] = {}
        for i, d in enumerate(defs):
            if d.kind in CLASS_KINDS:
                classes_here.setdefault(d.name, i)

        def attr_type(cls: int, name: str, depth: int = 0) -> str:
            """The written type of attribute ``name`` of a class, or of its bases in this
            file (`self.param` set in the base class's `__init__`)."""
            found = attr_types.get((cls, name), "")
            if found or cls < 0 or depth > 4:
                return found
            for base in defs[cls].bases:
                k = classes_here.get(base.rsplit(".", 1)[-1], -1)
                if k >= 0 and k != cls:
                    found = attr_type(k, name, depth + 1)
                    if found:
                        return found
            return ""

        # `Foo().name`, `make().name`, `new Foo().name`: the receiver is a call; each call
        # found so is kept by where the member name after it starts.
        call_nodes: dict[int, ts.Node] = {}
        size = len(source)
        for node in caps.get("recv.obj", ()):
            k = node.end_byte
            while k < size and source[k] in b" \t\r\n":
                k += 1
            if k < size and source[k] == _QUESTION:
                k += 1
            if k >= size or source[k] != _DOT:
                continue
            k += 1
            while k < size and source[k] in b" \t\r\n":
                k += 1
            call_nodes[k] = node

        def call_receiver(at: int) -> str:
            node = call_nodes.get(at)
            if node is None:
                return ""
            if node.type == "parenthesized_expression":
                return branches_receiver(node)
            return node_receiver(node)

        def branches_receiver(node: ts.Node) -> str:
            """``(c ? this.resolve(o) : this).clone()``: each branch's qualifier (a call's,
            ``this``), joined by ``ANY_OF`` when they differ (the global pass types each: they
            must come to the same classes); "" when a branch is something else. ``(x as
            Foo)``: Foo."""
            inner = node.named_children[0] if node.named_child_count == 1 else None
            if inner is not None and inner.type == "as_expression":
                # `(x as Foo).m()`: the type written (TSX has no `<Foo>x`)
                cast = inner.named_children[-1]
                if not _one_type(cast):
                    return ""  # (`as Foo['k']`: Foo's k's type; `as const`: no type written)
                written = clean_type(_decode(cast.text or b""))
                return "" if written.split(".", 1)[0] in type_params else written
            if inner is None or inner.type != "ternary_expression":
                return ""
            parts: list[str] = []
            for field in ("consequence", "alternative"):
                branch = inner.child_by_field_name(field)
                while (
                    branch is not None
                    and branch.type == "parenthesized_expression"
                    and branch.named_child_count == 1
                ):
                    branch = branch.named_children[0]
                if branch is None:
                    return ""
                if branch.type == "this":
                    if not _instance_this(branch):
                        return ""
                    parts.append("this")
                    continue
                said = node_receiver(branch) if branch.type in _CALL_NODES else ""
                if not said or ANY_OF in said:
                    return ""
                parts.append(said)
            return ANY_OF.join(dict.fromkeys(parts))

        def node_receiver(node: ts.Node) -> str:
            new = node.type == "new_expression"
            callee = node.child(1 if new else 0)  # `new Foo(...)`, `foo(...)`
            end = callee.end_byte if callee is not None else 0
            if java and node.type == "method_invocation":
                # Java's `x.m(...)`: the object, the dot and the name are the callee
                args = node.child_by_field_name("arguments")
                end = args.start_byte if args is not None else 0
            # A name written as a callee is short: a chained call's callee spans the whole
            # chain before it (`a.m0().m1()...`), and reading each would be quadratic.
            if callee is None or end - callee.start_byte > _MAX_CALLEE:
                return ""
            written = _decode(source[callee.start_byte : end])
            if not written.isidentifier():
                if _TYPE_NAME.fullmatch(_SPACES.sub("", written)) is None:
                    return "" if new else (_call_chain(written) or _chain_call(written))
                written = _SPACES.sub("", written)
            if not new and (go or not written.rsplit(".", 1)[-1][:1].isupper()):
                written += "()"  # (Go: `c.Bag()` is a call of a method, not a type `Bag`)
            return written

        # `@post_load(...)` over `def post_load(...)`: a decorator runs before the definition
        # under it binds its name, so that name there means what the scope around had.
        own_name: list[tuple[int, int, int]] = []  # decorator start, end; the definition
        if "decorator" in caps:
            index_at = {d.name_at: i for i, d in enumerate(kept)}
            for node in caps["decorator"]:
                holder = node.parent
                decorated = holder.child_by_field_name("definition") if holder else None
                named = decorated.child_by_field_name("name") if decorated else None
                i = index_at.get(named.start_byte, -1) if named is not None else -1
                if (
                    i >= 0
                    and source.find(kept[i].name.encode(), node.start_byte, node.end_byte) >= 0
                ):
                    own_name.append((node.start_byte, node.end_byte, i))

        out: list[Reference] = []
        self_names = grammar.self_names
        # A qualifier headed by one of these is read in the enclosing class (`super.clone()`
        # returning `this`: that class's instance, not the base's).
        classed = self_names | {"super", "super()"}
        root: list[ts.Node] = []

        def super_of_class(at: int) -> bool:
            node = node_at(at)
            if node is None:
                return True
            while node is not None and node.type not in _SUPER_USES:
                node = node.parent
            return node is None or _super_of_class(node, java)

        members_of: dict[int, dict[str, int]] = {}  # (`own_members`, by the body's start)
        every_at: dict[int, int] = {}

        def own_members(body: ts.Node) -> dict[str, int]:
            found = members_of.get(body.start_byte)
            if found is None:
                if not every_at:
                    every_at.update((d.name_at, i) for i, d in enumerate(kept))
                found = members_of[body.start_byte] = _own_members(body, every_at)
            return found

        anonymous_of: dict[int, list[tuple[dict[str, int], str]]] = {}
        # (Java files with no `new T() {...}` and no enum, most, ask the tree nothing)
        anonymous_bodies = grammar.name == "java" and (
            b"enum" in source
            or any(
                n.named_child_count and n.named_children[-1].type == "class_body"
                for n in caps.get("new", ())
            )
        )

        def anonymous(unit: int) -> list[tuple[dict[str, int], str]]:
            """Java: the own methods and the created type of each anonymous class around
            ``unit`` (``new Runnable() { void run() { ... } }``; an enum constant's body, of its
            enum's type), innermost first, up to the nearest named class (none: [])."""
            if not anonymous_bodies:
                return []
            if unit in anonymous_of:
                return anonymous_of[unit]
            found: list[tuple[dict[str, int], str]] = []
            at = unit
            while at >= 0 and defs[at].kind not in CLASS_KINDS:
                d = defs[at]
                if d.kind in ("method", "field"):
                    # (by the tree: a static block's anonymous class has its class's methods
                    # as its own methods' parent)
                    node = node_at(kept[at].name_at)
                    while node is not None and node.type != "class_body":
                        node = node.parent
                    made = node.parent if node is not None else None
                    if node is None or made is None or made.type not in _ANONYMOUS_BODIES:
                        break
                    if made.type == "enum_constant":
                        enum = enclosing_class(at)
                        created = defs[enum].name if enum >= 0 else ""
                    else:
                        written = made.child_by_field_name("type")
                        created = clean_type(_decode(written.text or b"")) if written else ""
                    found.append((own_members(node), created))
                at = d.parent
            anonymous_of[unit] = found
            return found

        def node_at(at: int) -> ts.Node | None:
            if not root:
                some = _tree_root(caps)
                if some is None:
                    return None
                root.append(some)
            return root[0].descendant_for_byte_range(at, at)

        # Java: where each `new C(...)`'s class name starts -> its number of arguments.
        built: dict[int, int] = {}
        for node in caps.get("new", ()) if grammar.name == "java" else ():
            created = node.child_by_field_name("type")
            args = node.child_by_field_name("arguments")
            if created is not None and args is not None:
                if created.type == "generic_type" and created.named_child_count:
                    created = created.named_children[0]
                if created.type == "scoped_type_identifier" and created.named_child_count:
                    created = created.named_children[-1]  # `new org.acme.Element()`: Element
                built[created.start_byte] = _arguments(args)
        go = grammar.name == "go"
        java = grammar.name == "java"
        properties = grammar.name in _PROPERTY_LANGUAGES
        rev = source[::-1]
        receivers: dict[bytes, str] = {}
        # Lines counted as the references come, in order: the newlines since the last one (no
        # table of every line's start, which cost as much as the counting).
        line, line_start, counted = 1, 0, 0
        for at, scope, unit in zip(refs, ref_scope, ref_unit, strict=True):
            raw_name = source[at : spans[at]]
            name = names.get(raw_name) or names.setdefault(raw_name, _decode(raw_name))
            receiver = (
                _receiver(rev, at, receivers) if at in members or source[at - 1] == _DOT else None
            )
            if java and (receiver is None or receiver[:1].islower()) and name[:1].islower():
                # Java: a segment of a fully qualified name's package (`org.acme` of
                # `org.acme.nodes.Element`) is no reference.
                first = receiver.split(".", 1)[0] if receiver else name
                ahead = _JAVA_PATH_AHEAD.match(source, spans[at])
                if (
                    ahead is not None
                    and lookup(first, scope) is None
                    and _java_package_path(receiver or "", name, ahead.group())
                ):
                    continue
            if receiver is None:
                # Most names are locals and parameters, which mean no definition: they are
                # dropped before their line and kind are worked out.
                bound = bindings[scope].get(name)
                if bound is not None:
                    where = scope
                else:
                    bound = lookup(name, scope)
                    where = found_in[0]
                if own_name and bound is not None and bound[0] == "def":
                    for first_at, last_at, i in own_name:
                        if first_at <= at < last_at and bound[1] == i:
                            outer = parent_scope[where]
                            bound = lookup(name, outer) if outer >= 0 else None
                            where = found_in[0]
                            break
                meant_as = name
                if bound is not None and bound[0] == "local":
                    made_by = -1
                    if python and at in calls:
                        made_by = self._instantiated(name, unit)
                    if made_by >= 0:
                        # `cls(...)` in a classmethod: an instance of its class (or of a
                        # subclass it is called on) is made, its `__init__` runs.
                        bound, meant_as = ("def", made_by), defs[made_by].name
                    elif not java or at not in calls:
                        continue  # a local or a parameter: no definition to link
                    else:
                        bound = None  # Java: `builder()` is a method where a local is `builder`
            newlines = source.count(b"\n", counted, at)
            if newlines:
                line += newlines
                line_start = source.rfind(b"\n", counted, at) + 1
            counted = at
            col = at - line_start
            kind = "call" if at in calls else "type" if at in types else "other"
            if receiver is not None:
                if name == "constructor" and ecma:
                    continue  # `x.constructor`: the class object, no call of its constructor
                if kind == "other":
                    kind = "attribute"
                if receiver == '"':  # a string literal's method: never the repository's
                    out.append(_reference((name, line, col, kind, unit, "literal", -1, "", name)))
                    continue
                if receiver == "super()" or (receiver == "super" and (ecma or java)):
                    # (Python `super().m`; TS/JS and Java `super.m`)
                    cls = enclosing_class(unit)
                    if receiver == "super" and cls >= 0 and not super_of_class(at):
                        cls = -1  # an object literal's method, an anonymous Java class
                    out.append(_reference((name, line, col, kind, unit, "super", cls, "", name)))
                    continue
                first = receiver.split(".", 1)[0]
                how, target, qualifier = "member", -1, ""
                if not receiver and call_nodes:
                    chained = call_receiver(at).split(ANY_OF)
                    if go:  # `r.NewRoute().Name()`, r a method's receiver: its type's NewRoute
                        rname, rtype = go_receiver(unit)
                        if rname:
                            chained = [
                                rtype + p[len(rname) :] if p.startswith(rname + ".") else p
                                for p in chained
                            ]
                    heads = [headed(p, scope, unit) for p in chained]
                    called = ANY_OF.join(heads) if all(heads) else ""
                    if called:
                        how, qualifier = "instance", called
                        if any(h.split(".", 1)[0] in classed for h in heads):
                            target = enclosing_class(unit)  # `self.make().name`
                        elif java and all(
                            _BARE_CALL.fullmatch(h) and lookup(h[:-2], scope) is None for h in heads
                        ):
                            target = enclosing_class(unit)  # `make().name`: the class's make
                        elif len(heads) == 1 and (nested := inner_function(called, scope)) >= 0:
                            target = nested  # `one = createPatchedImmer(o); one.produce()`
                this_is = this_in[scope] if ecma and first == "this" else CLASS_THIS
                if this_is == LITERAL_THIS:
                    # `this.m()` in an object literal's method: the literal's own `m` (no
                    # class around it), unless a type is written over the literal (then `this`
                    # is of that type: zod's `return {...}` under `_LazyMethodsOf<ZodType>`)
                    body = this_literal[scope]
                    own = own_members(body).get(name, -1) if body and receiver == first else -1
                    if own >= 0 and not defs[own].bases:
                        how, target = "def", own
                elif java and first == "this" and receiver == first and anonymous(unit):
                    # `this.m()` in a Java anonymous class: its own `m`, else its type's
                    own_of, anonymous_type = anonymous(unit)[0]
                    if name in own_of:
                        how, target, qualifier = "def", own_of[name], OWN
                    elif anonymous_type:
                        how, qualifier = "instance", anonymous_type
                elif this_is != CLASS_THIS:
                    # `this` in a nested `function`, an object literal's method: not the class
                    # around it; its type when the function writes a `this: T` parameter.
                    if this_is and this_is.split(".", 1)[0] not in type_params:
                        how = "instance"
                        qualifier = (
                            this_is
                            if receiver == first
                            else _property_path(this_is, receiver, first)
                        )
                elif receiver and receiver == first and first in self_names:
                    how, target = "self", enclosing_class(unit)
                elif first in self_names and receiver.count(".") == 1:
                    cls = enclosing_class(unit)  # `self.x.name`: x's type, when written
                    known = attr_type(cls, receiver[len(first) + 1 :])
                    if known:
                        how, target, qualifier = "instance", cls, known
                    elif properties and cls >= 0:  # declared in a base class elsewhere
                        how, target = "instance", cls
                        qualifier = _property_path(first, receiver, first)
                elif first in self_names and properties:
                    cls = enclosing_class(unit)  # `this.a.b.name`: a's type's b's type
                    if cls >= 0:
                        how, target = "instance", cls
                        a, _, rest = receiver[len(first) + 1 :].partition(".")
                        known = attr_type(cls, a)
                        if known:  # declared in this file
                            qualifier = known + PROPERTY + rest.replace(".", PROPERTY)
                        else:
                            qualifier = _property_path(first, receiver, first)
                elif receiver:
                    bound = lookup(first, scope)
                    if go and receiver == first:
                        rname, rtype = go_receiver(unit)
                        if rname and rname == first:
                            bound = None
                            how, qualifier = "self", rtype
                    if bound is not None and bound[0] == "import":
                        how, target, qualifier = "module", bound[1], receiver
                    elif (
                        bound is not None
                        and bound[0] == "def"
                        and receiver == first
                        and defs[bound[1]].kind in CLASS_KINDS
                    ):
                        how, target = "class", bound[1]
                    elif (
                        python
                        and bound is not None
                        and bound[0] == "def"
                        and defs[bound[1]].kind in CLASS_KINDS
                    ):
                        # `Model.objects.m()`: the type of the class's attribute (the global
                        # pass reads it, as `x.objects.m()`'s for x of type Model)
                        how, qualifier = "instance", _property_path(first, receiver, first)
                    elif (
                        bound is not None
                        and (bound[0] == "local" or defs[bound[1]].kind in _VALUES)
                        and receiver == first
                    ):
                        known = local_types.get((found_in[0], first), "")
                        if go and "." in known:
                            # `args := m.Called(x)`, m the method's receiver: its type's
                            # Called (or that of a type it embeds), as `m.Called(x).Get()`
                            rname, rtype = go_receiver(unit)
                            if rname and known.split(".", 1)[0] == rname:
                                known = rtype + known[len(rname) :]
                        if known and not local_callee(known, scope):
                            how, qualifier = "instance", known
                            if known.split(".", 1)[0] in classed:  # `x = self.make()`
                                target = enclosing_class(unit)
                            elif (
                                java
                                and _BARE_CALL.fullmatch(called_head := known.split(".", 1)[0])
                                and lookup(called_head[:-2], scope) is None
                            ):
                                target = enclosing_class(unit)  # `var x = make()`: its make
                            elif (declared := local_class(known, scope)) >= 0:
                                target, qualifier = declared, DECLARED
                            elif (nested := inner_function(known, found_in[0])) >= 0:
                                target = nested  # `one = createPatchedImmer(o)`, local
                    elif (
                        properties
                        and bound is not None
                        and (bound[0] == "local" or defs[bound[1]].kind in _VALUES)
                    ):
                        # `x.a.b.m()`, x of a written type: the type its property a's type's
                        # property b is written with (found by the global pass).
                        known = local_types.get((found_in[0], first), "")
                        if known and "=>" not in known and not local_callee(known, scope):
                            how, qualifier = "instance", _property_path(known, receiver, first)
                            if known.split(".", 1)[0] in classed:
                                target = enclosing_class(unit)
                    elif (
                        bound is None
                        and java
                        and receiver == first
                        and attr_type(enclosing_class(unit), first)
                    ):
                        # Java: `field.m()`, a field of the class whose type is declared.
                        cls = enclosing_class(unit)
                        how, target, qualifier = "instance", cls, attr_type(cls, first)
                    elif (
                        bound is None
                        and how == "member"
                        and receiver == first
                        and first[:1].isupper()
                    ):
                        how, qualifier = "free", receiver  # Java/Go: a type of the package
                    elif bound is None and go and how == "member" and receiver == first:
                        # Go `x.m()`, x a variable of the package's other files: its type's
                        # m when x's declaration says its type (else a guess, as before)
                        how, qualifier = "free", receiver
                    elif (
                        bound is None
                        and java
                        and how == "member"
                        and _java_package_path(receiver, name, b"")
                    ):
                        # `org.acme.nodes.Element`, `new org.acme.Element()`,
                        # `org.acme.Element.parse()`: the class (its member) the path names
                        made = NEW + str(built[at]) if at in built else ""
                        how, qualifier = "free", made + QUALIFIED + receiver
                out.append(_reference((name, line, col, kind, unit, how, target, qualifier, name)))
                continue
            # (Java: `new C(a, b)` says how many arguments C's constructor takes)
            made = NEW + str(built[at]) if at in built else ""
            if bound is None:
                # `go()` in an anonymous class declaring go (or in one around it)
                own = next((o[name] for o, _ in anonymous(unit) if name in o), -1) if java else -1
                if own >= 0:
                    out.append(_reference((name, line, col, kind, unit, "def", own, OWN, name)))
                    continue
                target = enclosing_class(unit) if grammar.members_visible else -1
                out.append(_reference((name, line, col, kind, unit, "free", target, made, name)))
            elif bound[0] == "def":
                target = bound[1]
                if kind == "type":
                    target = type_defs.get((where, name), target)
                out.append(_reference((name, line, col, kind, unit, "def", target, made, meant_as)))
            elif bound[0] == "import":
                entry = imports[bound[1]]
                if entry.name in ("", "*"):
                    continue  # a module used as a value: no definition
                meant = name if entry.name == "default" else entry.name
                out.append(
                    _reference((name, line, col, kind, unit, "import", bound[1], made, meant))
                )

        for node in caps.get("new", ()) if java else ():
            # `this(...)` / `super(...)`: a call of the class's (the base's) constructor.
            keyword = node.child_by_field_name("constructor")
            args = node.child_by_field_name("arguments")
            if keyword is None or args is None:
                continue
            at = keyword.start_byte
            u = unit_of[_innermost([2 * at], def_starts, def_ends)[0]]
            cls = enclosing_class(u)
            if cls < 0:
                continue
            if keyword.type == "this":
                how, meant = "self", defs[cls].name
            else:
                extends = _JAVA_EXTENDS.search(defs[cls].signature)
                if extends is None:
                    continue  # (Object's)
                how, meant = "super", extends.group(1).rsplit(".", 1)[-1]
            row = source.count(b"\n", 0, at)
            col = at - (source.rfind(b"\n", 0, at) + 1)
            name = keyword.type
            qualifier = NEW + str(_arguments(args))
            out.append(_reference((name, row + 1, col, "call", u, how, cls, qualifier, meant)))

        if "lit.key" in caps:
            keys = sorted(caps["lit.key"], key=_START)
            key_at = [2 * n.start_byte for n in keys]
            units_at = _innermost(key_at, def_starts, def_ends)
            scopes_at = _innermost(key_at, starts, ends)
            places: dict[int, dict[int, int]] = {}
            for node, u, scope in zip(keys, units_at, scopes_at, strict=True):
                lit = _literal_key(node, source, type_params, places)
                if lit is not None:
                    name, row, col, kind, written, this_call = lit
                    callee = _CALLED.match(written)
                    cls = enclosing_class(unit_of[u]) if this_call else -1
                    if callee is not None and not this_call:
                        # An argument of a call: only of a callee the resolver can find (a
                        # definition or an import, not a local's method or a global's).
                        bound = lookup(callee.group(1), scope)
                        if bound is None or bound[0] == "local":
                            continue
                        inner = _LOCAL_CALLEE.match(written)
                        if bound[0] == "def" and found_in[0] != 0 and inner is not None:
                            # A function of an inner scope (`const foo = (x: S) => ...` in a
                            # test's callback): the definition itself, not its name.
                            written = LITERAL + (inner.group(1) or "") + inner.group(2)
                            cls = bound[1]
                    out.append(
                        _reference(
                            (name, row, col, kind, unit_of[u], "instance", cls, written, name)
                        )
                    )

        if "pick.key" in caps:
            # TS/JS `const {produce, produceWithPatches} = createPatchedImmer()`, `const
            # {produce} = immer`, `= new Immer()`: each key picked is a read of the property
            # of the value's type (immer's `Immer.produce`), as `x.produce` is.
            keys = sorted(caps["pick.key"], key=_START)
            key_at = [2 * n.start_byte for n in keys]
            units_at = _innermost(key_at, def_starts, def_ends)
            scopes_at = _innermost(key_at, starts, ends)
            for node, u, scope in zip(keys, units_at, scopes_at, strict=True):
                pattern = node.parent
                if pattern is not None and pattern.type == "pair_pattern":
                    pattern = pattern.parent
                declarator = pattern.parent if pattern is not None else None
                value = declarator.child_by_field_name("value") if declarator else None
                if value is None:
                    continue
                written = ""
                cls = -1
                if value.type == "identifier":
                    local = _decode(source[value.start_byte : value.end_byte])
                    bound = lookup(local, scope)
                    if bound is not None and (
                        bound[0] == "local" or defs[bound[1]].kind in _VALUES
                    ):
                        written = local_types.get((found_in[0], local), "")
                        if "=>" in written or local_callee(written, scope):
                            written = ""
                else:
                    said = node_receiver(value)
                    written = headed(said, scope, unit_of[u]) if said else ""
                if not written or written.split(".", 1)[0] in type_params:
                    continue
                if written.split(".", 1)[0] in classed:
                    cls = enclosing_class(unit_of[u])  # `const {a} = this.make()`
                elif (nested := inner_function(written, scope)) >= 0:
                    cls = nested  # `const {produce} = createPatchedImmer(o)`, a local function
                name = _decode(source[node.start_byte : node.end_byte])
                row, col = node.start_point[0] + 1, node.start_point[1]
                out.append(
                    _reference(
                        (name, row, col, "attribute", unit_of[u], "instance", cls, written, name)
                    )
                )

        for _at, site, i in import_sites:
            if site.at < 0:
                continue
            entry = site.entry
            row = source.count(b"\n", 0, site.at)
            col = site.at - (source.rfind(b"\n", 0, site.at) + 1)
            out.append(
                _reference((entry.name, row + 1, col, "import", -1, "import", i, "", entry.name))
            )
        if java:
            out = _with_arguments(out, caps)
        out.sort(key=_LINE_COLUMN)
        return FileFacts(
            grammar.name,
            "tree-sitter",
            package,
            self.lines,
            tuple(defs),
            tuple(imports),
            tuple(out),
        )
