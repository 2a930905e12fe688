"""Parameter lists and call sites, per language: whether a call still fits a declaration after
its signature changed (RB106).

A declaration's header (the index's ``signature``: the text up to the body) gives its
parameters; a call site's text, from the called name on, gives its arguments. Both are read
with a small bracket- and string-aware splitter, never evaluated. Anything the splitter cannot
judge (``*args`` or ``...spread`` at the call, a header without a parameter list) answers
``None``: unknown, never a finding.

* Python: positional-only (``/``), keyword-only (after ``*`` or ``*args``), defaults,
  ``*args``/``**kwargs``; a method's ``self``/``cls`` is not an argument of ``obj.m(...)``.
* TypeScript/JavaScript: ``?`` and ``= default`` make a parameter optional, ``...rest`` takes
  any number; a TypeScript ``this:`` parameter is no argument.
* Go and Java: every parameter is required, a variadic last one (``...T``, ``T...``) takes
  zero or more; a Go call spreading a slice into it (``f(a, rest...)``) passes exactly the
  others before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from reviewbot.index.extract import CUT
from reviewbot.model import CALLS_UNAFFECTED, RETURN_ONLY, SHIFTS, TYPES_ONLY

__all__ = [
    "Call",
    "Param",
    "call_at",
    "class_change",
    "fits",
    "header_change",
    "heritage_change",
    "modifier_change",
    "parameters",
    "plain_header",
    "reordered",
    "same_header",
]

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_KEYWORD = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")
_PY_SELF = ("self", "cls")
_QUALIFIER = re.compile(r"(?<![\w$.])(?:[A-Za-z_$][\w$]*\.)+(?=[A-Za-z_$])")
_SPACE = re.compile(r"\s+")


# A JS arrow's one parameter without parentheses (`x =>`, `async x =>`): `(x) =>` spelt short.
_BARE_ARROW = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*=>")


# A JS function written as a constant's arrow (`export const f = async <T>(x: T): R =>`):
# `export async function f<T>(x: T): R` spelt otherwise; and its arrow, at the end or before
# the body's `{` (a header's first line).
_ARROW_HEAD = re.compile(
    r"^(\s*(?:export\s+)?(?:default\s+)?)(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*"
    r"(async\s+)?(?=[<(])"
)
_ARROW_TAIL = re.compile(r"\s*=>\s*(\{?)\s*$")
# A string literal in double quotes that holds no quote nor escape: the same as in single ones
# (a formatter's choice: prettier's `"md:hidden"` -> `'md:hidden'` in a default).
_DOUBLE_QUOTED = re.compile(r'"([^"\'\\\n]*)"')


def plain_header(text: str) -> str:
    """A header as a caller sees it: without white space, the modules that qualify names,
    the parentheses a JS arrow's one parameter may go without, the quotes of a string, a JS
    constant's arrow for a function (`const f = (x) =>` is `function f(x)`) or Go's grouping
    of parameters of one type (`a, b int` is `a int, b int`)."""
    if _GO_FUNC.match(text):
        text = _go_ungrouped(text)
    text = _DOUBLE_QUOTED.sub(r"'\1'", text)
    # (before a bare arrow's parameter is read: `): T =>` returns a T, it takes no `T`)
    text = _BARE_ARROW.sub(r"(\1)=>", _arrow_function(text))
    return _SPACE.sub("", _QUALIFIER.sub("", _arrow_function(text)))


def _arrow_function(text: str) -> str:
    arrow = _ARROW_HEAD.match(text)
    if arrow is None:
        return text
    head = f"{arrow.group(1)}{arrow.group(3) or ''}function {arrow.group(2)}"
    return _ARROW_TAIL.sub(r"\1", head + text[arrow.end() :])


_GO_FUNC = re.compile(r"\s*func\b")
_GO_TYPED = re.compile(r"([A-Za-z_]\w*)\s+(\S.*)", re.DOTALL)


def _go_ungrouped(header: str) -> str:
    """A Go header with each parameter (and named result) of a group written with its type:
    `func f(a, b int) (x, y string)` -> `func f(a int, b int) (x string, y string)`."""
    out: list[str] = []
    k = 0
    while True:
        start = header.find("(", k)
        end = _balanced(header, start) if start >= 0 else None
        if start < 0 or end is None:
            out.append(header[k:])
            return "".join(out)
        pieces = _split(header[start + 1 : end], angles=False)
        carried = ""
        for n in range(len(pieces) - 1, -1, -1):
            typed = _GO_TYPED.fullmatch(pieces[n])
            if typed is not None:
                carried = typed.group(2)
            elif carried and _WORD.fullmatch(pieces[n]):
                pieces[n] = f"{pieces[n]} {carried}"
        out.append(header[k : start + 1] + ", ".join(pieces) + ")")
        k = end + 1


def same_header(old: str, new: str) -> bool:
    """Two spellings of one header: the same but for white space, the modules that
    qualify names (`typing.Any` and `Any`, `t.Optional[X]` and `Optional[X]`) and a JS
    arrow's parentheses (`x =>` and `(x) =>`). A caller cannot tell them apart."""
    return plain_header(old) == plain_header(new)


_ASYNC = re.compile(r"\basync\b")
_LISTED = 3  # names listed per kind of change
# Words before a header's name that say what a caller, a subclass or an importer may do.
_MODIFIERS = frozenset(
    "public private protected internal static final abstract sealed open virtual override "
    "readonly default export synchronized suspend inline const".split()
)


_GO_RECEIVER = re.compile(r"\s*func\s*\(\s*(?:[A-Za-z_]\w*\s+)?(\*?)\s*([^)]*?)\s*\)")


def _go_receiver_change(old: str, new: str) -> str:
    """What a Go method's header change did to its receiver when it went from a value to a
    pointer or back (`func (s S) M()` -> `func (s *S) M()`): the method set of S changes,
    which no parameter list shows; "" otherwise."""
    was, now = _GO_RECEIVER.match(old), _GO_RECEIVER.match(new)
    if was is None or now is None or _SPACE.sub("", was.group(2)) != _SPACE.sub("", now.group(2)):
        return ""
    base = _SPACE.sub("", now.group(2))
    if not was.group(1) and now.group(1):
        return f"receiver now a pointer (*{base}): no longer in the method set of {base} values"
    if was.group(1) and not now.group(1):
        return f"receiver now a value ({base}): works on a copy"
    return ""


def header_change(old: tuple[str, str], new: tuple[str, str], language: str, method: bool) -> str:
    """What a re-signed header changed (``_header_change``); a Go method's receiver made a
    pointer or a value says so (it was "types or defaults only": an interface a value of
    the type satisfied may no longer be, `S{}.M()` no longer compiles)."""
    said = _header_change(old, new, language, method)
    if language != "go" or not method:
        return said
    receiver = _go_receiver_change(old[1], new[1])
    if not receiver:
        return said
    rest = [_GO_RECEIVER.sub("func ()", h[1], count=1) for h in (old, new)]
    if said == TYPES_ONLY and same_header(*rest):
        return receiver  # (nothing else changed)
    return f"{said}; {receiver}" if said else receiver


def _header_change(old: tuple[str, str], new: tuple[str, str], language: str, method: bool) -> str:
    """What a re-signed header changed, in a few words for a reviewer: ``added x (required);
    removed y; now required: z; reordered`` (``parameters renamed (calls unaffected)`` where
    calls pass by position and only names changed), or ``types or defaults only`` when the
    parameters are the same ones (names, kinds, whether required) and nothing before the list
    changed (a caller's arguments still fit); ``now async`` / ``no longer async``; "" when a
    list cannot be read, or only another word before it changed (a modifier, the name).
    ``old`` and ``new`` are (name, header) of a function, method or constructor."""
    olds = parameters(old[1], old[0], language, method)
    news = parameters(new[1], new[0], language, method)
    if olds is None or news is None:
        return ""
    if [p._replace(type="") for p in olds] == [p._replace(type="") for p in news]:
        was_async, now_async = (
            _ASYNC.search(h[1].split("(", 1)[0]) is not None for h in (old, new)
        )
        if was_async != now_async:  # (a caller must now await it, or no longer can)
            return "now async" if now_async else "no longer async"
        before = (_SPACE.sub("", h[1].split("(", 1)[0]) for h in (old, new))
        if _family(language) == "js":  # (`<V = X>` -> `<V extends Y = X>`, `(p: T) =>` -> `p =>`)
            before = (_js_before(*h) for h in (old, new))
        if len(set(before)) == 1:
            return TYPES_ONLY
        # (a Python decorator is no annotation: `@cache` changes no call)
        modifiers = modifier_change(old[1], new[1], annotations=_family(language) != "python")
        typed = _typed(old, new, olds, news, language)
        if typed and modifiers:  # (`f(Field f)` made `public f(AccessibleObject f)`)
            return f"{typed}; {modifiers}"
        if not typed and not modifiers and _family(language) == "java" and method:
            # (the words left before the name: its return type; a call passes what it did)
            return RETURN_ONLY
        return modifiers
    if (
        _family(language) in ("java", "go", "js")
        and [(p.kind, p.required) for p in olds] == [(p.kind, p.required) for p in news]
        and all(_WORD.fullmatch(p.name) for p in (*olds, *news))  # (`{a, b}` keys do matter)
        and all(  # (a name kept elsewhere is a reorder: `(a, b)` -> `(b, a)`)
            n.name == o.name or n.name not in {q.name for q in olds}
            for o, n in zip(olds, news, strict=True)
        )
    ):
        # Calls there pass by position: the same shape under other names binds alike (jsoup
        # ccd90e9c renamed `a, b`: "added endTagNameState (required), …; removed a, b"),
        # unless the types changed too (commons-lang 7e5906fb0: `setAccessible(boolean,
        # Field)` made `public setAccessible(boolean, AccessibleObject)`).
        typed = _typed(old, new, olds, news, language)
        if not typed:
            modifiers = modifier_change(old[1], new[1])
            return f"{CALLS_UNAFFECTED}; {modifiers}" if modifiers else CALLS_UNAFFECTED
        told = [typed, "parameters renamed", modifier_change(old[1], new[1])]
        return "; ".join(t for t in told if t)
    was = {p.name: p for p in olds}
    now = {p.name: p for p in news}
    parts: list[str] = []

    def listed(label: str, names: list[str]) -> None:
        if names:
            more = f" and {len(names) - _LISTED} more" if len(names) > _LISTED else ""
            parts.append(f"{label}{', '.join(names[:_LISTED])}{more}")

    # A parameter renamed in place (the same position, kind and need; neither name on the
    # other side): `renamed prefix -> name`, not one added and one removed (tqdm e4d9742).
    renamed = {
        o.name: n.name
        for o, n in zip(olds, news, strict=False)
        if o.name != n.name
        and o.name not in now
        and n.name not in was
        and (o.kind, o.required) == (n.kind, n.required)
        and o.kind not in ("varargs", "varkw")
        and _WORD.fullmatch(o.name) is not None  # (a TS `{a}`'s keys are what a call passes)
        and _WORD.fullmatch(n.name) is not None
    }
    listed("renamed ", [f"{a} → {b}" for a, b in renamed.items()])
    gone = {b for b in renamed.values()}
    # An optional parameter added before one that calls pass by position moves their
    # arguments (`f(a, c)` made `f(a, b=1, c=None)`: `f(1, 2)` now binds 2 to b); one added
    # after them (or keyword-only) breaks no call.
    passed = ("posonly", "positional", "varargs")
    last = max(
        (k for k, p in enumerate(news) if (p.name in was or p.name in gone) and p.kind in passed),
        default=-1,
    )
    listed(
        "added ",
        [
            p.name
            + (
                " (required)"
                if p.required
                else f" ({SHIFTS})"
                if p.kind in passed and k < last
                else ""
            )
            for k, p in enumerate(news)
            if p.name not in was and p.name not in gone
        ],
    )
    listed("removed ", [p.name for p in olds if p.name not in now and p.name not in renamed])
    kept = [p for p in news if p.name in was]
    listed("now required: ", [p.name for p in kept if p.required and not was[p.name].required])
    listed("now optional: ", [p.name for p in kept if not p.required and was[p.name].required])
    listed(
        "now keyword-only: ",
        [p.name for p in kept if p.kind == "kwonly" and was[p.name].kind != "kwonly"],
    )
    # (the order of those passed by position on both sides: `refresh` made keyword-only is
    # no reorder)
    both = {n for n in now if n in was and "kwonly" not in (now[n].kind, was[n].kind)}
    # (a keyword-only one renamed is passed by its name: packaging c411a96f's
    # `*, prereleases, configured` -> `*, pre_region, configured` is no reorder)
    positional = {a: b for a, b in renamed.items() if now[b].kind != "kwonly"}
    both |= set(positional)
    order = [renamed.get(p.name, p.name) for p in olds if p.name in both]
    if order != [p.name for p in news if p.name in both or p.name in positional.values()]:
        parts.append("reordered")
    return "; ".join(parts)


def _typed(
    old: tuple[str, str],
    new: tuple[str, str],
    olds: tuple[Param, ...],
    news: tuple[Param, ...],
    language: str,
) -> str:
    """``parameter types changed (Field → AccessibleObject)`` when the types written for a
    parameter list of one shape differ (a Java type read: which ones; otherwise the list's
    text without its names, when that differs); "" when they do not."""
    changed = [(o.type, n.type) for o, n in zip(olds, news, strict=False) if o.type != n.type]
    if changed and all(a and b for a, b in changed) and _family(language) == "java":
        shown = ", ".join(f"{a} → {b}" for a, b in changed[:_LISTED])
        more = f" and {len(changed) - _LISTED} more" if len(changed) > _LISTED else ""
        return f"parameter types changed ({shown}{more})"
    if not changed and all(p.type for p in (*olds, *news)):
        return ""
    texts = [_param_text(h[1], h[0], go=_family(language) == "go") for h in (old, new)]
    if None in texts:
        return ""
    names = [{p.name for p in ps} for ps in (olds, news)]
    bare = [
        [
            " ".join(w for w in _WORD.findall(piece) if w not in names[k] and w != "final")
            for piece in _split(t or "", angles=True)
        ]
        for k, t in enumerate(texts)
    ]
    return "parameter types changed" if bare[0] != bare[1] else ""


_ANNOTATION = re.compile(r"@[\w.]+")
# an annotation's arguments (`@TargetApi(24)`: its `(` is no parameter list)
_ANNOTATION_ARGS = re.compile(r"(@[\w.]+)\s*\((?:[^()]|\([^()]*\))*\)")
_HERITAGE = re.compile(r"\b(extends|implements)\s+(.+?)(?=\s+(?:extends|implements)\b|\s*\{|$)")


def class_change(old: str, new: str, language: str = "") -> str:
    """What a class's header changed: its modifiers and annotations, and what it extends and
    implements (`now public`; `now extends Reflection (was Java8)`; Python's bases, `bases now
    RuntimeError (were Exception)`); "" when none of those."""
    if language == "python":
        was, now = (_python_bases(h) for h in (old, new))
        return f"bases now {now or 'none'} (were {was or 'none'})" if was != now else ""
    told = (modifier_change(old, new), heritage_change(old, new))
    return "; ".join(t for t in told if t)


def _python_bases(header: str) -> str:
    """`class A(Base, metaclass=M):` -> `Base, metaclass=M` (spaces normalised)."""
    head = header.split(":", 1)[0] if header.rstrip().endswith(":") else header
    if "(" not in head:
        return ""
    inner = head.split("(", 1)[1].rsplit(")", 1)[0]
    return ", ".join(p.strip() for p in inner.split(",") if p.strip())


def _plain_head(header: str) -> str:
    """A header without annotations' arguments and type arguments (`class A<T extends B>`:
    no `extends` of the class's)."""
    text = _ANNOTATION_ARGS.sub(r"\1", header)
    while True:
        plain = _ANGLES.sub("", text)
        if plain == text:
            return plain
        text = plain


_ANGLES = re.compile(r"<[^<>]*>")


def heritage_change(old: str, new: str) -> str:
    """What a class or interface header's `extends` and `implements` changed: `now extends
    Reflection (was Java8)`, `now implements Closeable`, `no longer extends Base`; "" when
    neither did (or the header has neither)."""
    was, now = (
        {m.group(1): " ".join(m.group(2).split()) for m in _HERITAGE.finditer(_plain_head(h))}
        for h in (old, new)
    )
    parts = []
    for word in ("extends", "implements"):
        a, b = was.get(word), now.get(word)
        if a == b:
            continue
        if b is None:
            parts.append(f"no longer {word} {a}")
        elif a is None:
            parts.append(f"now {word} {b}")
        else:
            parts.append(f"now {word} {b} (was {a})")
    return "; ".join(parts)


def modifier_change(old: str, new: str, annotations: bool = True) -> str:
    """What the modifiers and annotations before a header's name (or parameter list) changed:
    `now final; no longer abstract` (javapoet b1e1a08's `public abstract class` made `public
    final`), `now @Deprecated`; "" when none did."""
    heads = [_ANNOTATION_ARGS.sub(r"\1", h).split("(", 1)[0] for h in (old, new)]
    was, now = (
        {w for w in _WORD.findall(h) if w in _MODIFIERS}
        | (set(_ANNOTATION.findall(h)) if annotations else set())
        for h in heads
    )
    parts = []
    if now - was:
        parts.append("now " + ", ".join(sorted(now - was)))
    if was - now:
        parts.append("no longer " + ", ".join(sorted(was - now)))
    return "; ".join(parts)


class Param(NamedTuple):
    name: str
    kind: str  # positional | posonly | kwonly | varargs | varkw
    required: bool
    type: str = ""  # Java: the type written, its generics and annotations out ("" unknown)


class Call(NamedTuple):
    positional: int  # (Go: those before a slice spread into the variadic parameter)
    keywords: tuple[str, ...]
    spread: bool  # *args / **kw / ...x at the call: its count is unknown (Go: `rest...` last)
    # Java: what each positional argument is when it is a literal (string, char, number,
    # boolean, null), else "" (overloads of one arity told apart: `put(1)` is no `put(String)`'s)
    literals: tuple[str, ...] = ()


def _family(language: str) -> str:
    if language in ("typescript", "javascript", "tsx", "jsx"):
        return "js"
    return language


def _code_chars(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of ``text`` from ``start``, string literals (and their quotes and
    escapes) left out."""
    quote = ""
    k = start
    while k < len(text):
        ch = text[k]
        if quote:
            if ch == "\\":
                k += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        else:
            yield k, ch
        k += 1


def _split(text: str, angles: bool) -> list[str]:
    """Top-level comma-separated pieces of ``text`` (brackets, strings and, for typed
    languages, ``<...>`` generics nest)."""
    pieces: list[str] = []
    depth = 0
    angle = 0
    start = 0
    for k, ch in _code_chars(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif angles and ch == "<":
            angle += 1
        elif angles and ch == ">" and angle and text[k - 1] != "=":
            angle -= 1
        elif ch == "," and depth == 0 and angle == 0:
            pieces.append(text[start:k])
            start = k + 1
    pieces.append(text[start:])
    out = [p.strip() for p in pieces]
    if out and not out[-1]:
        out.pop()  # a trailing comma
    return out


def _balanced(text: str, start: int) -> int | None:
    """The index of the bracket closing the one at ``start``, or None."""
    depth = 0
    for k, ch in _code_chars(text, start):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return k
    return None


def _js_before(name: str, header: str) -> str:
    """A JS/TS header's words before its parameters, without what changes no call: its type
    parameters (formik 96280d38's `renderFormik<V = Values>` now `<V extends FormikValues =
    Values>`) and an arrow's lone parameter written bare (`= (props: P) =>` now `= props =>`)."""
    head = re.sub(r"(?:[A-Za-z_$][\w$]*)\s*=>\s*$", "", header.split("(", 1)[0])
    found = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", head)
    if found is not None:
        head = head[: found.end()] + head[_skip_generics(head, found.end()) :]
    return _SPACE.sub("", head)


def _skip_generics(text: str, k: int, go: bool = False) -> int:
    """Past a ``<...>`` type argument list at ``k`` (TypeScript, Java), if there is one; with
    ``go``, past a Go ``[T any]`` type parameter list (or ``[int]`` type arguments) followed
    by a parameter or argument list."""
    while k < len(text) and text[k].isspace():
        k += 1
    if go:
        if k < len(text) and text[k] == "[":
            end = _balanced(text, k)
            if end is not None and text[end + 1 :].lstrip().startswith("("):
                return end + 1
        return k
    if k < len(text) and text[k] == "<":
        depth = 0
        while k < len(text):
            if text[k] == "<":
                depth += 1
            elif text[k] == ">":
                depth -= 1
                if depth == 0:
                    return k + 1
            elif text[k] in "();{}":
                return k
            k += 1
    return k


# A call wrapping the function literal a name is bound to (the index's call-wrapped functions:
# `React.useCallback(`, `useEventCallback(`, `memo(`), up to the literal.
_WRAPPER_CALL = re.compile(
    r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*(?:<[^()]*>)?\s*\(\s*(?:async\s+)?"
    r"(?=\(|function\b|[A-Za-z_$][\w$]*\s*=>)"
)
_FUNCTION_KEYWORD = re.compile(r"function\b\s*\*?\s*(?:[A-Za-z_$][\w$]*)?\s*")


def _param_text(signature: str, name: str, go: bool = False) -> str | None:
    """The text between a header's parameter parentheses (after the declared name and its
    type parameters: Java's and TypeScript's `<T>`, Go's `[T any]`)."""
    found = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", signature)
    if found is None:
        return None
    k = _skip_generics(signature, found.end(), go)
    rest = signature[k:]
    arrow = re.match(r"\s*(?::[^=]*)?=\s*(?:async\s+)?", rest)  # `g = (x) =>` / `g = x =>`
    if arrow and not rest.lstrip().startswith("("):
        rest = rest[arrow.end() :]
        wrapped = _WRAPPER_CALL.match(rest)  # `f = useCallback((a) => {`, `M = memo(function (p)`
        if wrapped:
            rest = rest[wrapped.end() :]
        k = len(signature) - len(rest)
        bare = re.match(r"([A-Za-z_$][\w$]*)\s*=>", rest)
        if bare:
            return bare.group(1)
        keyword = _FUNCTION_KEYWORD.match(rest)  # `f = function (a)`, `exports.f = function g(a)`
        if keyword:
            k += keyword.end()
        k = _skip_generics(signature, k)
    while k < len(signature) and signature[k].isspace():
        k += 1
    if k >= len(signature) or signature[k] != "(":
        return None
    end = _balanced(signature, k)
    return signature[k + 1 : end] if end is not None else None


def parameters(signature: str, name: str, language: str, method: bool) -> tuple[Param, ...] | None:
    """The parameters a header declares (None: no parameter list found)."""
    family = _family(language)
    inner = _param_text(signature, name, go=family == "go")
    if inner is None or CUT in inner:
        return None  # (a stored signature cut short: not every parameter is there)
    pieces = _split(inner, angles=family in ("js", "java", "go"))
    if family == "python":
        return _python(pieces, method)
    if family == "js":
        return _js(pieces)
    if family in ("go", "java"):
        out = []
        for piece in pieces:
            piece = re.sub(r"@[\w.]+(\([^)]*\))?\s*", "", piece).strip()
            variadic = "..." in piece
            words = _WORD.findall(piece.replace("...", " "))
            # Go: `name type` (or a type alone); Java: `Type name`.
            name = (words[0] if family == "go" else words[-1]) if words else piece
            written = ""
            if family == "java" and len(words) >= 2:
                head = piece.rsplit(name, 1)[0]  # (`int[] a` is no int, `List<T>` no List)
                if "<" not in head and "[" not in piece:
                    written = " ".join(re.sub(r"\bfinal\b", " ", head).split())
            elif family == "go" and variadic:  # (`arguments ...interface{}`: shown as written)
                written = " ".join(piece.split("...", 1)[1].split())
            out.append(Param(name, "varargs" if variadic else "positional", not variadic, written))
        return tuple(out)
    return None


def _python(pieces: list[str], method: bool) -> tuple[Param, ...]:
    out: list[Param] = []
    keyword_only = False
    for k, piece in enumerate(pieces):
        if piece == "/":
            out = [p._replace(kind="posonly") for p in out]
            continue
        if piece == "*":
            keyword_only = True
            continue
        if piece.startswith("**"):
            out.append(Param(piece[2:].split(":")[0].strip(), "varkw", False))
            continue
        if piece.startswith("*"):
            out.append(Param(piece[1:].split(":")[0].strip(), "varargs", False))
            keyword_only = True
            continue
        head = piece.split("=", 1)[0]
        name = head.split(":", 1)[0].strip()
        if k == 0 and method and name in _PY_SELF:
            continue
        required = "=" not in _strip_annotation(piece)
        out.append(Param(name, "kwonly" if keyword_only else "positional", required))
    return tuple(out)


def _strip_annotation(piece: str) -> str:
    """``a: Dict[str, int] = 3`` -> ``a = 3``: an annotation's text holds no default."""
    name, colon, rest = piece.partition(":")
    if not colon:
        return piece
    depth = 0
    for k, ch in enumerate(rest):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            return name + rest[k:]
    return name


def _js(pieces: list[str]) -> tuple[Param, ...]:
    out: list[Param] = []
    for piece in pieces:
        if piece.startswith("..."):
            out.append(Param(piece[3:].split(":")[0].strip(), "varargs", False))
            continue
        piece = re.sub(r"^(public|private|protected|readonly|override)\s+", "", piece)
        head = re.split(r"[?:=]", piece, maxsplit=1)[0].strip()
        if head == "this":
            continue
        rest = piece[len(head) :].lstrip()
        optional = rest.startswith("?") or _top_level_default(piece)
        out.append(Param(head, "positional", not optional))
    return tuple(out)


def _top_level_default(piece: str) -> bool:
    depth = 0
    for k, ch in enumerate(piece):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and k and piece[k - 1] == "="):
            depth -= 1
        elif ch == "=" and depth == 0 and piece[k + 1 : k + 2] not in ("=", ">"):
            return True
    return False


_TYPE_ARGUMENTS = re.compile(r"[\w$.]\s*<[^<>()]*,[^<>()]*>")


def call_end(text: str, offset: int, language: str) -> int | None:
    """Where the argument list of the call whose callee name ends at ``offset`` closes (the
    offset of its `)`; None: no argument list follows)."""
    family = _family(language)
    k = _skip_generics(text, offset, go=family == "go") if family != "python" else offset
    while k < len(text) and text[k] in " \t":
        k += 1
    if family == "js" and text[k : k + 2] == "?.":
        k += 2
    if k >= len(text) or text[k] != "(":
        return None
    return _balanced(text, k)


def call_at(text: str, offset: int, language: str) -> Call | None:
    """The arguments of the call whose callee name ends at ``offset`` in ``text`` (None: no
    argument list follows, e.g. a reference that is not a call)."""
    family = _family(language)
    k = _skip_generics(text, offset, go=family == "go") if family != "python" else offset
    while k < len(text) and text[k] in " \t":
        k += 1
    if family == "js" and text[k : k + 2] == "?.":  # f?.(x)
        k += 2
    if k >= len(text) or text[k] != "(":
        return None
    end = _balanced(text, k)
    if end is None:
        return None
    inner = text[k + 1 : end]
    pieces = _split(inner, angles=False)
    positional = 0
    keywords: list[str] = []
    literals: list[str] = []
    # Java/TS type arguments with a comma (`new HashMap<String, Integer>()`) split no argument
    # here (nor could `a < b, c > d` be told from them): such a call is not judged.
    spread = family in ("java", "js") and _TYPE_ARGUMENTS.search(inner) is not None
    for piece in pieces:
        if family == "python":
            if piece.startswith("*"):
                spread = True
                continue
            kw = _KEYWORD.match(piece)
            if kw:
                keywords.append(kw.group(1))
                continue
        elif (family == "js" and piece.startswith("...")) or (
            family == "go" and piece.endswith("...")
        ):
            spread = True
            continue
        positional += 1
        if family == "java":
            literals.append(_literal(piece))
    return Call(positional, tuple(keywords), spread, tuple(literals))


_NUMBER = re.compile(r"-?(?:0[xXbB][\da-fA-F_]+|\d[\d_]*\.?[\d_]*(?:[eE][-+]?\d+)?)[lLfFdD]?")


def _literal(argument: str) -> str:
    """What a Java argument is when it is a literal ("" when it is not one)."""
    if argument.startswith('"'):
        return "string"
    if argument.startswith("'"):
        return "char"
    if argument in ("true", "false", "null"):
        return "null" if argument == "null" else "boolean"
    return "number" if _NUMBER.fullmatch(argument) else ""


_NUMBERS = {"int", "long", "short", "byte", "float", "double", "char"}
_BOXES = {"Integer", "Long", "Short", "Byte", "Float", "Double", "Number", "Character"}
_TEXT = {"String", "CharSequence"}
# Parameter types a literal can never be passed as (written names; anything else, a type
# variable or a class of the repository, is taken to accept it).
_NOT_FOR = {
    "string": _NUMBERS | _BOXES | {"boolean", "Boolean"},
    "char": _TEXT | {"boolean", "Boolean"},
    "number": _TEXT | {"boolean", "Boolean"},
    "boolean": _NUMBERS | _BOXES | _TEXT,
    "null": _NUMBERS | {"boolean"},
}


def _takes_literals(call: Call, fixed: list[Param]) -> bool:
    """Whether no literal argument of a Java call goes to a parameter that cannot take it."""
    for literal, param in zip(call.literals, fixed, strict=False):
        written = param.type.split(".")[-1].strip()
        if literal and written and written in _NOT_FOR[literal]:
            return False
    return True


def fits(call: Call, params: tuple[Param, ...], language: str) -> bool | None:
    """Whether the call binds to the parameters (None: cannot tell, e.g. a spread)."""
    family = _family(language)
    if call.spread and family != "go":
        return None
    if family == "python":
        return _fits_python(call, params)
    fixed = [p for p in params if p.kind != "varargs"]
    variadic = len(fixed) < len(params)
    if call.spread:  # Go's `f(a, rest...)`: the slice is the variadic parameter, no more
        return variadic and call.positional == len(fixed)
    if family == "js":
        required = sum(1 for p in fixed if p.required)
        return call.positional >= required and (variadic or call.positional <= len(fixed))
    arity = call.positional >= len(fixed) if variadic else call.positional == len(fixed)
    return arity and (family != "java" or _takes_literals(call, fixed))


def _fits_python(call: Call, params: tuple[Param, ...]) -> bool:
    positional = [p for p in params if p.kind in ("posonly", "positional")]
    if call.positional > len(positional) and not any(p.kind == "varargs" for p in params):
        return False
    bound = {p.name for p in positional[: call.positional]}
    named = {p.name for p in params if p.kind in ("positional", "kwonly")}
    varkw = any(p.kind == "varkw" for p in params)
    for kw in call.keywords:
        if kw in bound:
            return False  # given twice
        if kw not in named and not varkw:
            return False
        bound.add(kw)
    return all(p.name in bound for p in params if p.required)


def reordered(old: tuple[Param, ...], new: tuple[Param, ...], call: Call) -> bool:
    """Whether this call's positional arguments now land in other parameters: the same
    parameters changed places, or one removed (or inserted) before others shifted every later
    argument (rq's `heartbeat(self, timestamp, ttl, pipeline=None)` without `ttl`:
    `heartbeat(now(), ttl)` now passes the TTL as `pipeline`). A parameter renamed in place
    (neither name on the other side) takes what it took."""
    names = [{p.name for p in params} for params in (old, new)]
    for k in range(call.positional):
        was, now = _slot(old, k), _slot(new, k)
        if was is None or now is None or was == now:
            continue
        if was in names[1] or now in names[0]:
            return True
    return False


def _slot(params: tuple[Param, ...], k: int) -> str | None:
    """The parameter a call's ``k``-th positional argument binds to (a variadic one past the
    others; None: none takes it)."""
    positional = [p for p in params if p.kind in ("posonly", "positional")]
    if k < len(positional):
        return positional[k].name
    rest = [p for p in params if p.kind == "varargs"]
    return rest[0].name if rest else None
