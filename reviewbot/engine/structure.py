"""Structural units for the `review` profile: declarations and the regions they own.

Language-agnostic and tolerant of broken code: it reads the masked, comment-free code that the
signal pass produced (so strings and comments never create structure), the indentation of each
line, and the language's keyword table.

* A *block* is a line followed by deeper-indented lines, plus one closing line at the opener's
  indentation (``}``, ``)``, ``end`` ...). A closing line that opens again (``} else {``,
  ``) -> int:``) and an Allman-style ``{`` line continue the same block.
* A *unit* is a declaration: a line whose first word after modifiers and annotations is a
  declaration word of the language (``class``, ``def``, ``func``, ``interface`` ...) followed by a
  name; a function bound to a name (``const f = (...) => {``); or a member of a container (a
  method in a class body or an object literal, with or without a keyword).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from reviewbot.engine.languages import Language
from reviewbot.engine.signal import JS_WHITESPACE

__all__ = ["DECLARATION_MIN_WEIGHT", "Structure", "Unit", "build_structure"]

DECLARATION_MIN_WEIGHT = 0.7
_LABEL_SPLIT = re.compile(r"[\s()\[\]{},;:'\".=!<>+\-*/&|^~%@#`]+")
_WORD = re.compile(r"(?:[^\W\d]|\$)[\w$!?\-]*")
_PATH = re.compile(r"(?:[^\W\d]|\$)[\w$!?\-]*(?:::(?:[^\W\d]|\$)[\w$]*)*")
_IDENT_BEFORE_PAREN = re.compile(r"(\[[^\]]*\]|(?:[^\W\d]|\$)[\w$]*)\s*(?:<[^()]*>)?\s*\(")
_ANNOTATIONS = re.compile(r"^(?:@[\w.$]+(?:\([^()]*\))?\s*)+")
_LABEL_LINE = re.compile(r"^[^\W\d]\w*:$")
# Patterns used by a few languages only are strings, compiled (and cached by `re`) on first use:
# compiling costs every process, and the hook's is short.
_BINDING = (
    r"^(?:(?:export|default|const|let|var|static|public|private|protected|readonly|async|"
    r"declare|override)\s+)*((?:[^\W\d]|\$)[\w$]*)\s*(?:[:!?].*?)?(?<![=!<>])=(?![=>])\s*(?:async\s+)?(.*)$"
)
# `export default COND && function httpAdapter(config) {`, `export default COND && (async (c)
# => {` (axios' adapters), `export default (config) => {`: the function exported (when COND
# holds), by its own name or `default`.
_DEFAULT_FUNCTION = (
    r"^export\s+default\s+(?:[^=;{}()]*?(?:&&|\|\||\?\?)\s*)?\(?\s*(?:async\s+)?"
    r"(?:function\b\s*\*?\s*((?:[^\W\d]|\$)[\w$]*)?\s*\(|(?:\([^()]*\)|(?:[^\W\d]|\$)[\w$]*)\s*=>)"
)
_TYPE_PARAMETERS = r"<\s*(?:[^\W\d]|\$)[\w$]*\s*(?:[,>=]|extends\b)"  # `<T,>(`; not `<div on…`
# Keywords that only modify a declaration that follows them.
MODIFIERS = frozenset(
    "export default public private protected internal static final abstract async sealed open "
    "override virtual pub unsafe extern inline data companion suspend const readonly declare "
    "partial strictfp synchronized native transient volatile operator infix tailrec external "
    "expect actual lazy implicit mutating nonmutating convenience required fileprivate dynamic "
    "weak unowned let var val crate".split()
)
# Declaration words beyond each language's heavy keywords (types and namespaces).
EXTRA_DECLARATIONS: dict[str, frozenset[str]] = {
    "go": frozenset({"type"}),
    "typescript": frozenset({"type", "namespace", "module"}),
    "javascript": frozenset(),
    "rust": frozenset({"mod", "type", "union"}),
    "java": frozenset({"record", "@interface"}),
    "php": frozenset({"namespace"}),
    "kotlin": frozenset({"typealias"}),
    "swift": frozenset({"typealias"}),
    "scala": frozenset({"type"}),
}
_NOT_DECLARATIONS = frozenset({"import", "export", "require", "use", "package", "include"})
# Declarations whose body holds members (methods without a keyword are units inside them).
CONTAINERS = frozenset(
    "class interface enum trait struct impl object protocol extension module namespace actor "
    "record union mod".split()
)
# Words that start control flow or a statement, never a declaration.
CONTROL = frozenset(
    "if else elif elsif for foreach while do switch case try catch except finally with "
    "match select loop unless until begin rescue ensure when guard defer go return yield throw "
    "raise await new assert del print super this self sizeof typeof delete".split()
)
# (`end` and its compounds: Ruby, Lua, PHP's `endif;`, Verilog's `endmodule`, Fortran's `enddo`)
_CONTINUES = re.compile(
    r"[})\]>{]|(?:end(?:if|for|foreach|while|switch|do|function|module|class|case|macro|block"
    r"|task|generate|package|interface|program|select|subroutine|procedure|type|struct|sub"
    r"|enum)?|where)\b"
)
_GOES_ON = re.compile(r"\{|where\b")
_HEAD = 400  # a declaration shows in a line's first characters (minified lines are long)
_CALLABLE_WORDS = frozenset({"function", "func", "fn", "fun", "def"})


def _start(unit: Unit) -> int:
    return unit.start


class Unit(NamedTuple):
    """A declaration and the lines it owns (0-based, inclusive)."""

    start: int
    end: int
    kind: str  # the declaration word, "method" for keyword-less members, "function" for bindings
    name: str
    depth: int  # number of enclosing units
    parent: int  # index of the enclosing unit in Structure.units, or -1

    @property
    def label(self) -> str:
        if self.kind == "method":
            return f"{self.name}()"
        if self.kind == CALLBACK:
            return self.name
        return f"{self.kind} {self.name}".rstrip()


class Structure(NamedTuple):
    units: tuple[Unit, ...]
    headers: frozenset[int]
    owner: tuple[int, ...]  # per line: index of the innermost unit holding it, or -1

    def container_like(self, unit: Unit) -> bool:
        """Whether the unit's members carry its findings: a class-like unit, or a callback
        holding units of its own (`describe("x", () => {` around `it(...)` callbacks)."""
        if unit.kind in CONTAINERS:
            return True
        if unit.kind != CALLBACK:
            return False
        k = bisect.bisect_right(self.units, unit.start, key=_start)
        return k < len(self.units) and self.units[k].start <= unit.end

    def enclosing(self, line: int) -> Unit | None:
        """The innermost unit whose region holds ``line``."""
        if not 0 <= line < len(self.owner):
            return None
        idx = self.owner[line]
        return self.units[idx] if idx >= 0 else None


def _indent_columns(raw: str) -> int:
    trimmed = raw.lstrip(JS_WHITESPACE)
    indent = len(raw) - len(trimmed)
    return indent + 3 * raw.count("\t", 0, indent)


def _continues(code: str) -> bool:
    """A line at the opener's indentation that still belongs to its block: a closer (`}`,
    Ruby's `end`: the word, not `endpoint = 2`), an Allman `{`, or a Rust/C#/Swift `where`
    clause between a header and its body."""
    return _CONTINUES.match(code) is not None


def _goes_on(code: str) -> bool:
    """A line at a header's indentation that carries the header on to its body: an Allman
    `{`, or a `where` clause (`fn f<T>(x: T) -> T` / `where` / `T: Copy,` / `{`)."""
    return _GOES_ON.match(code) is not None


def _blocks(lines: list[int], indents: list[int], code: Sequence[str]) -> dict[int, int]:
    """Map each block-opening line to the last line of its block."""
    ends: dict[int, int] = {}
    stack: list[int] = []  # opener line numbers
    count = len(lines)
    for pos, j in enumerate(lines):
        c = indents[j]
        nxt = lines[pos + 1] if pos + 1 < count else -1
        text = code[j]
        if not text:
            # A docstring or comment opener: content for the line before it (it makes that
            # line open a block), never a dedent or an opener itself.
            continue
        opens = nxt >= 0 and indents[nxt] > c  # a deeper docstring opener counts too
        continued = False
        while stack and c <= indents[stack[-1]]:
            top = stack[-1]
            if c == indents[top] and _continues(text):
                ends[top] = j
                if opens or (nxt >= 0 and indents[nxt] == c and _goes_on(code[nxt])):
                    # `) -> int:`, `} else {`, Allman `{`, `) -> T` then `where`: the same
                    # block goes on
                    continued = True
                    break
                stack.pop()
                break
            ends[top] = max(top, _last_inside(lines, pos, indents, indents[top]))
            stack.pop()
        if continued:
            continue
        if opens:
            stack.append(j)
        elif (
            nxt >= 0
            and indents[nxt] == c
            and text
            and _continues(code[nxt])
            and not _continues(text)
            and (text.endswith(("{", "(", "[")) or _goes_on(code[nxt]))
        ):
            # `f() {` then `}`; `void f()` then an Allman `{`; `fn f<T>()` then `where`: a
            # block at one indentation.
            stack.append(j)
    last = lines[-1] if lines else 0
    for top in stack:
        ends[top] = last
    return ends


def _last_inside(lines: list[int], pos: int, indents: list[int], level: int) -> int:
    """The last structural line before ``pos`` that is deeper than ``level``."""
    k = pos - 1
    while k >= 0 and indents[lines[k]] <= level:
        k -= 1
    return lines[k] if k >= 0 else lines[0]


def _skip_balanced(text: str, opening: str, closing: str, unbalanced: str) -> str:
    """What follows the bracketed group ``text`` starts with, or ``unbalanced``."""
    depth = 0
    for k, ch in enumerate(text):
        depth += ch == opening
        depth -= ch == closing
        if depth == 0:
            return text[k + 1 :].lstrip()
    return unbalanced


def _skip_generics(text: str) -> str:
    return _skip_balanced(text, "<", ">", text) if text.startswith("<") else text


@lru_cache(maxsize=256)
def _word_pattern(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w$-])" + re.escape(word) + r"(?![\w$-])")


def _after_word(code: str, word: str) -> str:
    m = _word_pattern(word).search(code)
    return code[m.end() :].lstrip() if m else ""


# A Go receiver's type: `s *Store`, `Store`, `s *Store[K, V]` -> Store.
_GO_RECEIVER = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?$")


# What follows a Kotlin extension's receiver type: `?.name`, `.name` (the function's name).
_EXTENSION = re.compile(r"\??\s*\.\s*((?:[^\W\d]|\$)[\w$]*)")


def _skip_parens(rest: str) -> str:
    return _skip_balanced(rest, "(", ")", "")


def _declared_name(code: str, word: str, lisp: bool) -> str | None:
    """The name a declaration word introduces, or None when it introduces none."""
    rest = _after_word(code, word)
    if rest.startswith("*"):  # generators: `function* name`
        rest = rest[1:].lstrip()
    if rest.startswith("(") and not lisp:
        if word not in ("func",):
            return None  # `function (`, `fn(`: anonymous
        after = _skip_parens(rest)  # a Go receiver: `func (s *Store) Get(`
        m = _WORD.match(after)
        if not m or not after[m.end() :].lstrip().startswith(("(", "[")):
            return None  # `func(x int) {`: a function literal
        # A method is named by its receiver's type, as `Store.Get` (two types' `Get`s differ).
        receiver = _GO_RECEIVER.search(rest[1 : len(rest) - len(after)].rstrip(") \t"))
        return f"{receiver.group(1)}.{m.group(0)}" if receiver else m.group(0)
    rest = _skip_generics(rest)
    m = _PATH.match(rest)
    if not m:
        return None
    name = m.group(0)
    after = rest[m.end() :].lstrip()
    if word == "def" and after.startswith("."):  # Ruby's `def self.parse(` / `def Foo.parse(`
        method = _WORD.match(after[1:].lstrip())
        if method is not None:
            return method.group(0) if name == "self" else f"{name}.{method.group(0)}"
    if word == "fun":  # a Kotlin extension, `fun <T> Call<T>.await(`: `Call.await`, as Go's
        extension = _EXTENSION.match(_skip_generics(after))
        if extension is not None:
            return f"{name.rstrip('?')}.{extension.group(1)}"
    if after.startswith((":", "=", ",", ")")) and word not in CONTAINERS | {"type"}:
        return None  # `function: "x"`, `type = 3`: a name that happens to be a keyword
    if after.startswith(("=", ",", ")", "]")) and word != "type":
        return None
    if word == "type" and after.startswith((",", ")", "}")):
        return None  # `type Foo,` in an import list
    target = re.match(r"for\s+([^\W\d][\w:]*)", _skip_generics(after))  # impl Trait for T
    return f"{name} for {target.group(1)}" if target else name


def _binding(code: str, opens: bool) -> str | None:
    """`const f = (...) => {`, `f = function (...) {`, `const f = <T>(`: a named function;
    and what JavaScript assigns to a member or binds a callback's call to."""
    m = re.match(_BINDING, code)
    if not m:
        return _member_function(code)
    rhs = m.group(2)
    if rhs.startswith(("function", "function*")):
        return m.group(1)
    guarded = re.match(_GUARD[:-1] + r"(?:async\s+)?(?:function\b|\([^()]*\)\s*=>)", rhs)
    if guarded is not None and guarded.group().strip() and opens:
        return m.group(1)  # `const f = ok && function f(y) {`, `= ok && (async (c) => {`
    arrow_like = (
        rhs.startswith("(")
        or re.match(_TYPE_PARAMETERS, rhs)  # `<T,>(x: T) => {`; not JSX's `<div onClick={`
        or re.match(r"(?:[^\W\d]|\$)[\w$]*\s*=>", rhs)
    )
    if arrow_like and ("=>" in rhs or (opens and code.rstrip().endswith(("(", "<", "{")))):
        return m.group(1)
    return _bound_callback(m, code, opens)


# (after `=`, a guard: `module.exports = ok && function handler(req) {`)
_GUARD = r"(?:[^=;{}()]*?(?:&&|\|\||\?\?)\s*\(?\s*)?"
_MEMBER_FUNCTION = re.compile(
    r"^((?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)+)\s*=\s*" + _GUARD + r"(?:async\s+)?"
    r"(?:function\b\s*\*?\s*((?:[^\W\d]|\$)[\w$]*)?\s*\(|(?:\([^()]*\)|(?:[^\W\d]|\$)[\w$]*)\s*=>)"
)
_CALLED = re.compile(r"(?:[^\W\d]|\$)[\w$.]*\s*(?:<[^()]*>)?\s*\(")
# What a block comment before a call is blanked to (zod's `= /*@__PURE__*/ core.$constructor(`).
_BLANKED_COMMENT = re.compile(r"^[;\s]+")


# `module.exports = class Application extends Emitter {`, `exports.Foo = class {`: a class
# assigned to a member (named by itself, else by the member), whose body holds methods.
_MEMBER_CLASS = re.compile(
    r"^(?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)+\s*=\s*class\b"
    r"(?:\s+(?!extends\b)((?:[^\W\d]|\$)[\w$]*))?"
)


def _member_class(code: str) -> str | None:
    m = _MEMBER_CLASS.match(code)
    if m is None:
        return None
    return m.group(1) or code.split("=", 1)[0].rstrip().rsplit(".", 1)[-1]


def _member_function(code: str) -> str | None:
    """A function JavaScript assigns to a member: `res.send = function send(body) {`,
    `X.prototype.run = function () {`, `module.exports = (a) => {` (named by the function, else
    by the member): a usual home of JavaScript logic, measured as a unit."""
    m = _MEMBER_FUNCTION.match(code)
    return None if m is None else m.group(2) or m.group(1).rsplit(".", 1)[-1]


def _bound_callback(binding: re.Match[str], code: str, opens: bool) -> str | None:
    """A function passed to a call whose result is bound to a name (named by the binding):
    `const M = memo((props) => {`, `export const $ZodURL = $constructor("…", (inst) => {`,
    `export const $ZodType: T = /*@__PURE__*/ core.$constructor("…", (inst) => {`."""
    rhs = _BLANKED_COMMENT.sub("", binding.group(2))  # (a bundler's mark before the call)
    if not opens or not code.rstrip().endswith("{") or not _CALLED.match(rhs):
        return None
    inner = rhs.split("(", 1)[1]
    return binding.group(1) if ("=>" in inner or re.search(r"\bfunction\b", inner)) else None


CALLBACK = "callback"  # the kind of a function literal passed to a call, named by the call
_CALLBACK_LANGUAGES = frozenset({"javascript", "typescript"})
_OPENS_ARROW = re.compile(r"=>\s*\{$")
_OPENS_FUNCTION = re.compile(r"\bfunction\b\s*\*?\s*[\w$]*\s*\([^()]*\)\s*(?::[^{]*)?\{$")
_CALLEE = re.compile(
    r"(?:[^\W\d]|\$)[\w$]*(?:\s*!?\??\.\s*(?:[^\W\d]|\$)[\w$]*)*(?=\s*(?:<[^()]*>)?\s*$)"
)
_QUOTES = "\"'`"
# Characters of the call's first string argument kept in the name: its whole words up to this
# many, a longer text its start and its end (the outputs cut a label for their room, keeping a
# callback's last words: a 40-character cut here left them a middle fragment to show, jotai's
# `it('should throw error when writing to non-s…')`).
_CALLBACK_TEXT = 200


def _literal_start(code: str) -> int:
    """Where the function literal that opens at the end of ``code`` starts (its `function`
    keyword, or its arrow's parameters), or -1."""
    found = _OPENS_FUNCTION.search(code)
    if found is not None:
        return found.start()
    arrow = _OPENS_ARROW.search(code)
    if arrow is None:
        return -1
    head = code[: arrow.start()].rstrip()
    if head.endswith(")"):  # `(a, b) =>`, `(a: T): R =>` is not followed here: types vary
        depth = 0
        for i in range(len(head) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(head[i], 0)
            if depth == 0:
                start = i
                break
        else:
            return -1
    else:
        word = re.search(r"(?:[^\W\d]|\$)[\w$]*$", head)
        if word is None:
            return -1
        start = word.start()
    before = code[:start].rstrip()
    return before.rfind("async") if before.endswith("async") else start


def _callback(code: str, raw: str) -> str | None:
    """The call a function literal opening at the end of the line is passed to, as the
    literal's name: `describe("parses input")` for `describe("parses input", () => {`,
    `app.get("/")` for `app.get("/", function (req, res) {`, `app.use(…)` without a leading
    string. JavaScript's logic lives in such callbacks (routes, tests, hooks). ``code`` is the
    line with its strings blanked, ``raw`` the line as written from the same column."""
    start = _literal_start(code)
    if start <= 0:
        return None
    stack: list[int] = []
    quote = ""
    for i, ch in enumerate(code[:start]):
        if quote:
            if ch == quote and code[i - 1] != "\\":
                quote = ""
        elif ch in _QUOTES:
            quote = ch
        elif ch in "([{":
            stack.append(i if ch == "(" else -1)
        elif ch in ")]}" and stack:
            stack.pop()
    if quote or not stack or stack[-1] < 0:
        return None  # not directly an argument of a call (an array, an object, a string)
    paren = stack[-1]
    callee = _CALLEE.search(code[:paren])
    if callee is None or callee.group(0).split(".", 1)[0].strip() in CONTROL:
        return None
    name = re.sub(r"\s+", "", callee.group(0))
    args = code[paren + 1 : start]
    first = args.strip().rstrip(",").strip()
    at = paren + 1 + args.find(first[:1]) if first else -1
    end = at + len(first) - 1
    if (
        len(first) >= 2
        and first[0] in _QUOTES
        and first[-1] == first[0]
        and raw[at : at + 1] == first[0]  # the line as written has the string here
        and raw[end : end + 1] == first[0]
    ):
        # (` > ` joins a unit's label to its containers': `it("a > b")` keeps a look-alike.)
        text = " ".join(raw[at + 1 : end].split()).replace(" > ", " › ")
        if first[0] not in text:  # (in the source's quotes: `describe('with "back"')`)
            if len(text) > _CALLBACK_TEXT:
                half = _CALLBACK_TEXT // 2
                text = f"{text[:half]}…{text[len(text) - (_CALLBACK_TEXT - half - 1) :]}"
            cut = text
            return f"{name}({first[0]}{cut}{first[0]})"
    return f"{name}(…)"


def _declaration(
    code: str, language: Language, in_container: bool, opens: bool, raw: str = ""
) -> tuple[str, str] | None:
    """(kind, name) when the code line declares something, else None (``raw``: the line as
    written, from the column where ``code`` starts)."""
    stripped = _ANNOTATIONS.sub("", code[:_HEAD])
    if not stripped or stripped.startswith(
        ("}", ")", "]", ">", ".", "&&", "||", "+", "?", "|", "#[", "#![")
    ):
        return None  # (`#[cfg(all(` over lines: a Rust attribute, no member named `cfg`)
    tokens = [t for t in _LABEL_SPLIT.split(stripped) if t]
    if not tokens:
        return None
    heavy = language.keywords
    extra = EXTRA_DECLARATIONS.get(language.name, frozenset())
    lisp = language.backslash_char_literals
    i = 0
    while (
        i < len(tokens)
        and tokens[i] in MODIFIERS
        and heavy.get(tokens[i], 0.0) < DECLARATION_MIN_WEIGHT
        and tokens[i] not in extra
    ):
        i += 1
    first = tokens[i] if i < len(tokens) else ""
    if first in CONTROL:
        return None
    if (
        first
        and (first in extra or heavy.get(first, 0.0) >= DECLARATION_MIN_WEIGHT)
        and first not in _NOT_DECLARATIONS
    ):
        name = _declared_name(stripped, first, lisp)
        if name is not None:
            return first, name
        if first in _CALLABLE_WORDS and "default" in tokens[:i]:
            return first, "default"  # `export default function (...) {`
        if first in _CALLABLE_WORDS or first in extra:
            return None
    if opens and language.name in _CALLBACK_LANGUAGES:
        exported = re.match(_DEFAULT_FUNCTION, stripped)
        if exported is not None:
            return "function", exported.group(1) or "default"
    if "function" in heavy:
        member_class = _member_class(stripped) if opens else None
        if member_class is not None:
            return "class", member_class
        bound = _binding(stripped, opens)
        if bound is not None:
            # (a class's `m = (a) => {`: a method, as the index has it; a namespace's
            # `const f = ...` is a function)
            field = in_container and not re.match(r"(?:export\s+)?(?:const|let|var)\b", stripped)
            return ("method" if field else "function"), bound
    if opens and language.name in _CALLBACK_LANGUAGES:
        shift = len(code[:_HEAD]) - len(stripped)  # what `_ANNOTATIONS` took from the head
        called = _callback(stripped, raw[shift:])
        if called is not None:
            return CALLBACK, called
    # (Python and Ruby members are `def`s: `@pytest.mark.parametrize("p", range(9))` in a
    # class body is no method `range`.)
    if (
        in_container
        and language.name not in _KEYWORD_MEMBERS
        and "(" in stripped
        and not _LABEL_LINE.match(stripped)
    ):
        keyed = _KEYED_FUNCTION.match(stripped) if opens else None
        if keyed is not None and stripped.rstrip().endswith("{"):
            return "method", keyed.group(1)  # `b: function () {`, `b: async (x) => {`
        typed = _FUNCTION_TYPED.match(stripped) if language.name == "typescript" else None
        if typed is not None:
            return "method", typed.group(1)  # `push: (obj: T) => void;`, a method's signature
        # (`remove<X extends T[number] = T[number]>(index: number)`: its type parameters' `=`
        # is no assignment.)
        head = _without_type_parameters(stripped).split("(", 1)[0]
        if any(ch in head for ch in "=:.") or (i < len(tokens) and tokens[i] in CONTROL):
            return None  # an assignment, an object key with a call value, a method call
        if opens or stripped.rstrip().endswith((";", ")", "}", "{")):
            accessor = _ACCESSOR.match(stripped) if language.name in _CALLBACK_LANGUAGES else None
            if accessor is not None:  # `get status () {` and `set status (code) {` differ
                return accessor.group(1), accessor.group(2)
            generic = _generic_name(stripped)
            if generic is not None:
                return "method", generic
            m = _IDENT_BEFORE_PAREN.search(stripped)
            if m and m.group(1) not in CONTROL and m.group(1) not in _TYPE_WORDS:
                return "method", m.group(1)
    return None


# A JavaScript or TypeScript accessor: `get status () {`, `static set #x(v) {` (kind `get`/`set`).
_ACCESSOR = re.compile(
    r"(?:(?:public|private|protected|static|readonly|override|abstract|declare)\s+)*"
    r"(get|set)\s+(#?(?:[^\W\d]|\$)[\w$]*)\s*\("
)
# An object literal's key whose value is a function literal opening on the line.
_KEYED_FUNCTION = re.compile(
    r"((?:[^\W\d]|\$)[\w$]*)\s*:\s*(?:async\s+)?"
    r"(?:function\b|\([^()]*\)\s*=>|(?:[^\W\d]|\$)[\w$]*\s*=>)"
)
_KEYWORD_MEMBERS = frozenset({"python", "ruby"})  # languages whose members all have a keyword
# Words of a type-parameter list, never a member's name: `map<U extends (a: T) => R>(`.
_TYPE_WORDS = frozenset({"extends", "keyof", "infer", "implements", "typeof"})
_GENERIC_HEAD = re.compile(
    r"(?:(?:public|private|protected|static|async|readonly|abstract|override|declare)\s+)*"
    r"\*?\s*((?:[^\W\d]|\$)[\w$]*)\s*<"
)


# A TypeScript member whose type is a function's, written on its line: `push: (obj: T) => void;`,
# `readonly handle?: <X>(x: X) => () => void;` (an interface's method signature in effect).
_FUNCTION_TYPED = re.compile(
    r"(?:(?:public|private|protected|static|readonly|abstract|override|declare)\s+)*"
    r"((?:[^\W\d]|\$)[\w$]*)\??\s*:\s*(?:<[^()]*>\s*)?\((?:[^()]|\([^()]*\))*\)\s*=>"
)


def _type_parameters(line: str) -> tuple[str, int] | None:
    """The name of a member declared with type parameters, `name<...>`, and where its list
    closes (the index of its `>`), or None."""
    m = _GENERIC_HEAD.match(line)
    if m is None or m.group(1) in _TYPE_WORDS:
        return None
    depth, i = 0, m.end() - 1
    while i < len(line):
        ch = line[i]
        if ch == "<":
            depth += 1
        elif ch == ">" and line[i - 1] != "=":  # `=>` of a function type is no closing bracket
            depth -= 1
            if depth == 0:
                return m.group(1), i
        i += 1
    return None


def _without_type_parameters(line: str) -> str:
    """The line without a member's type-parameter list (`remove<X = T[number]>(i)`: `remove(i)`)."""
    found = _type_parameters(line)
    if found is None:
        return line
    name, close = found
    return line[: line.index(name) + len(name)] + line[close + 1 :]


def _generic_name(line: str) -> str | None:
    """The member a line declares with type parameters before its parameter list, `name<...>(`,
    when that list holds parentheses of its own (a function-typed constraint), which the
    one-pattern search cannot skip."""
    found = _type_parameters(line)
    if found is None or not line[found[1] + 1 :].lstrip().startswith("("):
        return None
    return found[0]


_ANONYMOUS_CLASS = r"\bnew\s+[\w.$<>?, \[\]]+\("  # a string: as _BINDING


def _opens_container(code: str) -> bool:
    """A block that holds members: an object literal (`= {`, `({`, `return {`, `: {`) or an
    anonymous class (`new Base(args) {`; not `try (Res r = new Res(a)) {`, whose body holds
    statements: commons-io's `assertEquals(...)` calls in one were methods)."""
    text = code.rstrip()
    if not text.endswith("{"):
        return False
    head = text[:-1].rstrip()
    if head.endswith(("=", "(", ",", ":", "return")) or not head:
        return True
    return "new" in text and any(
        _skip_parens(text[m.end() - 1 :]) == "{" for m in re.finditer(_ANONYMOUS_CLASS, text)
    )


@lru_cache(maxsize=64)
def _candidate_test(language: Language) -> Callable[[str], bool]:
    """A fast test that a line outside a container could declare something at all."""
    words = {w for w, weight in language.keywords.items() if weight >= DECLARATION_MIN_WEIGHT}
    words |= EXTRA_DECLARATIONS.get(language.name, frozenset())
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w$-])(?:{alternatives})(?![\w$-])") if words else None
    bindings = "function" in language.keywords

    def test(text: str) -> bool:
        text = text[:_HEAD]
        if pattern is not None and pattern.search(text) is not None:
            return True
        return bindings and "=" in text

    return test


_WRAPPED_LOOKAHEAD = 4  # lines after a wrapped call's head where its function literal may open
# A line that is a function literal opening its body: `(inst, def): void => {`, `x => {`,
# `async function (a) {`.
_LITERAL_LINE = re.compile(
    r"(?:async\s+)?(?:function\b[^{]*|\([^{}]*\)(?:\s*:[^{}=]+)?\s*=>|(?:[^\W\d]|\$)[\w$]*\s*=>)"
    r"\s*\{$"
)


def _wrapped_binding(
    text: str, code: Sequence[str], first: int, last: int
) -> tuple[str, str] | None:
    """A call bound to a name, wrapped over lines, whose function argument opens on a line of
    its own (zod's `export const $ZodUnion: T = /*@__PURE__*/ core.$constructor(`, then
    `"$ZodUnion",` and `(inst, def) => {`): a function named by the binding, as when it
    all stands on one line (`_bound_callback`)."""
    m = re.match(_BINDING, _ANNOTATIONS.sub("", text[:_HEAD]))
    if m is None or _CALLED.fullmatch(_BLANKED_COMMENT.sub("", m.group(2)).rstrip()) is None:
        return None
    for k in range(first, last + 1):
        if k < len(code) and _LITERAL_LINE.match(code[k].strip()):
            return "function", m.group(1)
    return None


# An arrow function's (or a function expression's) first line: `(fn, opts = {}) =>`,
# `async (x) =>`, `x =>`, `<T,>(x: T) =>`, `function (a) {`.
_ARROW_START = re.compile(
    r"(?:async\s+)?(?:function\b|(?:<[^()]*>\s*)?\([^()]*\)(?:\s*:[^=]+)?\s*=>|"
    r"(?:[^\W\d]|\$)[\w$]*\s*=>)"
)


# A fallback before a function on the lines below a binding: `buildingBlockFunctions[2] ||`,
# alone on its line (prettier's layout of `= a || (() => {`) or before the function's start.
_FALLBACK = re.compile(r"[^=;{}()]*?(?:&&|\|\||\?\?)\s*")


def _arrow_below(text: str, code: Sequence[str], first: int, last: int) -> tuple[str, str] | None:
    """A binding whose value, a function, starts on the next line (zustand's `const
    devtoolsImpl: DevtoolsImpl =` then `(fn, devtoolsOptions = {}) =>` and `(set, get, api)
    => {`, the whole middleware), also behind a fallback (jotai's `const readAtomState =`
    then `buildingBlockFunctions[3] ||` and `((atom) => {`): a function named by the
    binding."""
    m = re.match(_BINDING, _ANNOTATIONS.sub("", text[:_HEAD]))
    if m is None or m.group(2).strip():
        return None
    below = [k for k in range(first, min(last, first + 3) + 1) if k < len(code) and code[k]]
    if not below:
        return None
    value = code[below[0]].strip()
    fallback = _FALLBACK.match(value)
    if fallback is not None:
        value = value[fallback.end() :]
        if not value and len(below) > 1:  # the fallback alone on its line
            value = code[below[1]].strip()
        value = value.removeprefix("(").lstrip()  # `((atom) => {`
    if _ARROW_START.match(value) is None:
        return None
    return "function", m.group(1)


def build_structure(
    lines: Sequence[str],
    code: Sequence[str],
    language: Language,
    anchor: Sequence[bool] | None = None,
    indent: Sequence[int] | None = None,
) -> Structure:
    """Units of a file from its lines, per-line code and anchors (``signal.scan_text``)."""
    n = len(lines)
    indents = [0] * n
    structural: list[int] = []
    brace_language = not language.python_docstrings
    maybe = _candidate_test(language)
    callbacks = language.name in _CALLBACK_LANGUAGES
    for i in range(n):
        is_anchor = bool(anchor[i]) if anchor is not None else bool(code[i])
        if not is_anchor:
            continue
        if brace_language and _LABEL_LINE.match(code[i]):
            continue  # a goto label (`retry:`) or `default:`: never a dedent
        indents[i] = indent[i] if indent is not None else _indent_columns(lines[i])
        structural.append(i)
    ends = _blocks(structural, indents, code)
    units: list[Unit] = []
    open_units: list[int] = []  # indices into units
    scopes: list[tuple[int, bool]] = []  # (end line, holds members) of every open block
    for j in structural:
        while open_units and units[open_units[-1]].end < j:
            open_units.pop()
        while scopes and scopes[-1][0] < j:
            scopes.pop()
        text = code[j]
        opens = j in ends
        in_container = bool(scopes) and scopes[-1][1]
        found = (
            _declaration(text, language, in_container, opens, lines[j].lstrip(JS_WHITESPACE))
            if text and (in_container or maybe(text))
            else None
        )
        end = ends.get(j, j)
        if found is None and opens and callbacks and text.rstrip().endswith("("):
            found = _wrapped_binding(text, code, j + 1, min(end, j + _WRAPPED_LOOKAHEAD))
        elif found is None and opens and callbacks and text.rstrip().endswith("="):
            found = _arrow_below(text, code, j + 1, end)
        if found is not None:
            kind, name = found
            parent = open_units[-1] if open_units else -1
            if parent >= 0:
                end = min(end, units[parent].end)
            units.append(Unit(j, end, kind, name, len(open_units), parent))
            open_units.append(len(units) - 1)
        if opens:
            holds = (found is not None and found[0] in CONTAINERS) or (
                found is None and _opens_container(text)
            )
            scopes.append((end, holds))
    if language.name == "typescript":
        units = _overloads_joined(units, code)
    owner = [-1] * n
    for idx, unit in enumerate(units):  # in start order: inner units paint over outer ones
        owner[unit.start : unit.end + 1] = [idx] * (unit.end + 1 - unit.start)
    return Structure(tuple(units), frozenset(u.start for u in units), tuple(owner))


def _overloads_joined(units: list[Unit], code: Sequence[str]) -> list[Unit]:
    """TypeScript overload signatures (`function f(a: string): A`, no body, right above
    another declaration of the same name at the same depth) are the unit of the declaration
    they overload, which starts at the first signature (valtio f05bc4b: `intersectionImpl`
    was three units, two of them "added", one "renamed")."""
    drop: set[int] = set()
    for k in range(len(units) - 1):
        u = units[k]
        if u.kind not in ("function", "method") or not u.name:
            continue
        v = next((j for j in range(k + 1, len(units)) if units[j].depth <= u.depth), None)
        if v is None:
            continue
        w = units[v]
        if (w.name, w.kind, w.depth, w.parent) != (u.name, u.kind, u.depth, u.parent):
            continue
        if v != k + 1 or any(code[i].rstrip().endswith("{") for i in range(u.start, u.end + 1)):
            continue  # (it has a body, or units of its own: no signature)
        drop.add(k)
    if not drop:
        return units
    kept = [k for k in range(len(units)) if k not in drop]
    at = {old: new for new, old in enumerate(kept)}
    out: list[Unit] = []
    for k in kept:
        u = units[k]
        start = u.start
        j = k - 1
        while j in drop:
            start = units[j].start
            j -= 1
        out.append(u._replace(start=start, parent=at.get(u.parent, -1) if u.parent >= 0 else -1))
    return out
