"""The structure signal: one score per line (docs/engine.md sections 1 and 2).

Whitespace follows JavaScript's definition (``String.prototype.trim``, regex ``\\s``) so that
the numbers match WaveScope's exactly; Python's ``str.strip()`` also strips ``\\x1c``-``\\x1f``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from reviewbot.engine.languages import BlockComment, Language

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "JS_WHITESPACE",
    "Scan",
    "TextScan",
    "decorations",
    "js_strip",
    "keyword_hits",
    "line_signal",
    "mask_strings",
    "scan_lines",
    "scan_text",
    "split_lines",
]

JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_WS_CLASS = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
# Section 2.6: token separators (not `.`, `-`, `?`, `!`).
TOKEN_SEPARATORS = "[" + _WS_CLASS + "()\\[\\]{},;:'\"=<>+*/&|^~%@#\\\\`]+"
_SEPARATOR_SET = frozenset(JS_WHITESPACE + "()[]{},;:'\"=<>+*/&|^~%@#\\`")


def js_strip(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def split_lines(text: str) -> list[str]:
    """Section 1: split on ``\\n`` only; a final newline does not start a line."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


@lru_cache(maxsize=64)
def _string_pattern(delimiters: str, backslash_chars: bool) -> re.Pattern[str]:
    # Group 1 opens a string, group 2 is its body (an escape blanks the backslash and the next
    # character), group 3 closes it or is empty when the string runs to the end of the line.
    klass = "".join(re.escape(d) for d in delimiters)
    pattern = f"([{klass}])((?:(?!\\1)[^\\\\]|\\\\.?)*)(\\1?)"
    # Group 4: a character literal outside strings (`\\a` in the Lisps), or never.
    pattern += "|(\\\\.?)" if backslash_chars else "|((?!))"
    return re.compile(pattern, re.DOTALL)


def _blank_string(match: re.Match[str]) -> str:
    opener, body, close, literal = match.group(1, 2, 3, 4)
    if literal is not None:
        return " " * len(literal)
    return opener + " " * len(body) + close


def mask_strings(line: str, language: Language) -> str:
    """Section 2.2: blank string contents (delimiters stay) so comments and tokens ignore them."""
    delims = language.string_delimiters
    if not any(d in line for d in delims) and not (
        language.backslash_char_literals and "\\" in line
    ):
        return line
    pattern = _string_pattern(delims, language.backslash_char_literals)
    return pattern.sub(_blank_string, line)


def _comment_index(masked: str, language: Language) -> int:
    """The earliest line-comment prefix in masked text, or -1 (``#[`` is not a comment)."""
    best = -1
    for prefix in language.line_comments:
        start = 0
        while True:
            idx = masked.find(prefix, start)
            if idx < 0:
                break
            if prefix == "#" and masked.startswith("#[", idx):
                start = idx + 1
                continue
            if best < 0 or idx < best:
                best = idx
            break
    return best


_CLOJURE_FOLLOW = frozenset(" \t)]}") | frozenset(JS_WHITESPACE)


def _block_open_index(masked: str, block: BlockComment) -> int:
    if block.inert:
        return -1
    if block.at_line_start:
        return 0 if masked.startswith(block.start) else -1
    if not block.paren_depth:
        return masked.find(block.start)
    start = 0
    while True:
        idx = masked.find(block.start, start)
        if idx < 0:
            return -1
        end = idx + len(block.start)
        if end == len(masked) or masked[end] in _CLOJURE_FOLLOW:
            return idx
        start = idx + 1


def _find_close(text: str, masked: str, block: BlockComment, depth: int) -> tuple[int, int]:
    """Scan for the end of a block comment. Returns (index after the closer or -1, depth)."""
    if block.paren_depth:
        for i, ch in enumerate(masked):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return i + 1, 0
        return -1, depth
    if not block.nested:
        idx = text.find(block.end)
        return (idx + len(block.end), 0) if idx >= 0 else (-1, depth)
    i = 0
    while i < len(text):
        if text.startswith(block.end, i):
            depth -= 1
            i += len(block.end)
            if depth == 0:
                return i, 0
            continue
        if text.startswith(block.start, i):
            depth += 1
            i += len(block.start)
            continue
        i += 1
    return -1, depth


@lru_cache(maxsize=64)
def _keyword_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    sep = TOKEN_SEPARATORS[:-1]  # the character class without the trailing `+`
    # No lookbehind here, so the regex engine can skip ahead by first character; the caller
    # checks that a match starts a token (a keyword never holds a separator, so a rejected
    # match cannot hide a real one).
    return re.compile(f"(?:{alternatives})(?={sep}|$)")


def code_of(text: str, language: Language) -> str:
    """Code text as it is tokenised: strings masked, trailing comment cut (steps 2-3)."""
    code = mask_strings(text, language)
    cut = _comment_index(code, language)
    return js_strip(code[:cut]) if cut >= 0 else code


@lru_cache(maxsize=64)
def _special_chars(language: Language) -> re.Pattern[str]:
    """Characters that can start a string, a comment or a character literal."""
    chars = set(language.string_delimiters)
    chars.update(p[0] for p in language.line_comments)
    chars.update(b.start[0] for b in language.block_comments if not b.inert)
    if language.backslash_char_literals:
        chars.add("\\")
    if language.python_docstrings:
        chars.update("\"'")
    return re.compile("[" + "".join(re.escape(c) for c in sorted(chars)) + "]")


def keyword_hits(joined: str, language: Language) -> tuple[list[int], list[float]]:
    """Where keyword tokens start in ``joined`` (code lines joined by ``\\n``), in order, and
    their weights. A token never spans lines."""
    pattern = _keyword_pattern(tuple(sorted(language.keywords)))
    at: list[int] = []
    add: list[float] = []
    if pattern is None:
        return at, add
    weights = language.keywords
    seps = _SEPARATOR_SET
    for m in pattern.finditer(joined):
        p = m.start()
        if p == 0 or joined[p - 1] in seps:  # the token starts here
            at.append(p)
            add.append(weights[m.group()])
    return at, add


def _score_all(
    code: list[str], indent: NDArray[np.int64], language: Language
) -> NDArray[np.float64]:
    """Steps 6-9 for every line at once, in WaveScope's operation order (bit-exact).

    One regex pass over all the code finds keyword tokens; ``np.bincount`` sums their weights
    per line in token order, exactly as a scalar loop would (``pure.line_scores`` is that loop).
    """
    # Lazy: numpy costs ~90 ms to import; the hook scores lines with pure.line_scores instead.
    import numpy as np

    n = len(code)
    out = np.zeros(n, dtype=np.float64)
    lengths = np.array(list(map(len, code)), dtype=np.int64)
    has_code = lengths > 0
    if not has_code.any():
        return out
    joined = "\n".join(code)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1] + 1, out=starts[1:])
    kw = np.zeros(n, dtype=np.float64)
    at, add = keyword_hits(joined, language)
    if at:
        line = np.searchsorted(starts, np.array(at, dtype=np.int64), side="right") - 1
        # bincount adds the weights bin by bin in input order: the same sums, bit for bit,
        # as a scalar loop over each line's tokens.
        kw = np.bincount(line, weights=np.array(add, dtype=np.float64), minlength=n).astype(
            np.float64
        )
    if language.decorator_weight > 0 and ("@" in joined or "#[" in joined):
        decorated = np.zeros(n, dtype=bool)
        for p in decorations(joined, language):
            decorated[np.searchsorted(starts, p, side="right") - 1] = True
        kw = np.where(decorated, kw + language.decorator_weight, kw)
    depth = np.minimum(indent / 4.0, 8.0)
    # Multiply by the reciprocal, as WaveScope does (a division rounds differently).
    score = np.minimum((kw + 0.05) * (1.0 / (1.0 + depth * language.indent_weight)), 2.0)
    out[has_code] = score[has_code]
    return out


def decorations(joined: str, language: Language) -> list[int]:
    """Step 8 over joined lines: where a line starts with `@` (or `#[`), or has `\\s@[A-Za-z_]`."""
    hash_brackets = language.hash_bracket_attributes
    found = []
    seps = JS_WHITESPACE
    start = joined.find("@")
    while start >= 0:
        before = joined[start - 1] if start else "\n"
        if before == "\n" or (
            before in seps and start + 1 < len(joined) and _ident_start(joined[start + 1])
        ):
            found.append(start)
        start = joined.find("@", start + 1)
    if hash_brackets:
        start = joined.find("#[")
        while start >= 0:
            if start == 0 or joined[start - 1] == "\n":
                found.append(start)
            start = joined.find("#[", start + 1)
    return found


def _ident_start(ch: str) -> bool:
    return ch == "_" or ("A" <= ch <= "Z") or ("a" <= ch <= "z")


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def line_signal(
    lines: Sequence[str], language: Language, *, docstrings_in_strings: bool = False
) -> NDArray[np.float64]:
    """Section 2: the per-line score. Block comments and docstrings carry state across lines.

    ``docstrings_in_strings``: as in :func:`scan_lines`.
    """
    return scan_lines(lines, language, docstrings_in_strings=docstrings_in_strings).signal


class TextScan(NamedTuple):
    """What the signal pass learns about each line's text (everything but the score)."""

    code: list[str]  # masked, without comments; "" when the line has no code
    # Lines that begin outside any block comment or docstring and hold code or open one: the
    # lines whose indentation says something about structure.
    anchor: list[bool]
    indent: list[int]  # leading whitespace in columns, a tab counting 4


class Scan(NamedTuple):
    """What the signal pass learns about each line, as arrays, with the score."""

    signal: NDArray[np.float64]
    code: list[str]  # masked, without comments; "" when the line has no code
    anchor: NDArray[np.bool_]  # as in TextScan
    indent: NDArray[np.int64]


def _template_lines(lines: Sequence[str], code: list[str], anchor: list[bool]) -> None:
    """Lines inside a multi-line backtick string say nothing about structure, even at column 0
    (languages whose backticks are no multi-line strings of a known shape: an odd count opens
    or closes one). Strings are masked per line (section 2.2), so the signal is unchanged; only
    the anchors for structure are."""
    inside = False
    for i, raw in enumerate(lines):
        if inside:
            anchor[i] = False
            if (raw.count("`") - raw.count("\\`")) % 2 == 1:
                inside = False
        elif code[i].count("`") % 2 == 1 and raw.count("`") % 2 == 1:
            inside = True


# Languages whose backtick strings span lines, lexed whole (`_lexed_template_lines`): a JS/TS
# template (escapes, `${...}` holding code, regular expression literals around it) and a Go raw
# string (no escapes).
_TEMPLATE_LANGUAGES = frozenset({"javascript", "typescript", "go"})
_JS_CODE_STOP = re.compile(r"[`'\"/{}]")
_GO_CODE_STOP = re.compile(r"[`'\"/]")
_JS_TEMPLATE_STOP = re.compile(r"`|\\|\$\{")
_GO_TEMPLATE_STOP = re.compile(r"`")
_QUOTED = {q: re.compile(f"(?:[^\\\\{q}]|\\\\.)*{q}") for q in "'\""}
# A regular expression literal's body and closing slash, on its line (`[...]` holds a `/`).
_REGEX_LITERAL = re.compile(r"(?:[^\\/\[]|\\.|\[(?:[^\\\]]|\\.)*\])+/")
_REGEX_AFTER = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
_WORD_END = re.compile(r"[\w$]+$")


def _regex_may_start(before: str) -> bool:
    """Whether a `/` after this text (the line before it, stripped) starts a regular expression
    literal rather than a division: after an operator, a bracket that opens, a keyword such as
    `return`, or at the line's start (the literal must close on its line)."""
    if not before:
        return True
    last = before[-1]
    if last in ")]}\"'`":
        return False
    if last.isalnum() or last in "_$":
        word = _WORD_END.search(before)
        return word is not None and word.group() in _REGEX_AFTER
    return not before.endswith(("++", "--"))


def _lexed_template_lines(lines: Sequence[str], anchor: list[bool], language: Language) -> None:
    """As ``_template_lines``, from a lexer over the raw lines: quoted strings, comments and (JS,
    TS) regular expression literals open no backtick string. axios' `/^[-_a-zA-Z0-9^`|~]+$/`
    and urfave/cli's `` `...` + "```" + `...` `` hid every unit below them."""
    go = language.name == "go"
    code_stop = _GO_CODE_STOP if go else _JS_CODE_STOP
    template_stop = _GO_TEMPLATE_STOP if go else _JS_TEMPLATE_STOP
    # -1: inside a backtick string's text; n >= 0: inside its `${`, n braces deep.
    stack: list[int] = []
    in_block = False
    for i, raw in enumerate(lines):
        if stack and stack[-1] < 0:
            anchor[i] = False
        elif not stack and not in_block and "`" not in raw and "/*" not in raw:
            continue
        j, n = 0, len(raw)
        while j < n:
            if in_block:
                close = raw.find("*/", j)
                if close < 0:
                    break
                in_block, j = False, close + 2
                continue
            if stack and stack[-1] < 0:
                found = template_stop.search(raw, j)
                if found is None:
                    break
                token, j = found.group(), found.end()
                if token == "`":
                    stack.pop()
                elif token == "\\":
                    j += 1  # an escaped character
                else:
                    stack.append(0)  # `${`
                continue
            found = code_stop.search(raw, j)
            if found is None:
                break
            k = found.start()
            char, j = raw[k], k + 1
            if char == "`":
                stack.append(-1)
            elif char in "'\"":
                quoted = _QUOTED[char].match(raw, j)
                j = quoted.end() if quoted is not None else n
            elif char == "/":
                if raw.startswith("//", k):
                    break
                if raw.startswith("/*", k):
                    in_block, j = True, k + 2
                elif not go and _regex_may_start(raw[:k].rstrip()):
                    literal = _REGEX_LITERAL.match(raw, j)
                    if literal is not None:
                        j = literal.end()
            elif stack:  # a brace inside `${...}`
                if char == "{":
                    stack[-1] += 1
                elif stack[-1] == 0:
                    stack.pop()  # back in the string's text
                else:
                    stack[-1] -= 1


def scan_lines(
    lines: Sequence[str], language: Language, *, docstrings_in_strings: bool = False
) -> Scan:
    """The per-line score and each line's code, anchor and indentation (``scan_text``), as
    numpy arrays."""
    # Lazy: numpy costs ~90 ms to import; the hook's path uses scan_text and pure.line_scores.
    import numpy as np

    code, anchor, indent = scan_text(lines, language, docstrings_in_strings=docstrings_in_strings)
    indents = np.array(indent, dtype=np.int64)
    return Scan(_score_all(code, indents, language), code, np.array(anchor, dtype=bool), indents)


def scan_text(
    lines: Sequence[str], language: Language, *, docstrings_in_strings: bool = False
) -> TextScan:
    """Each line's code: masked, without comments, "" when none; its anchor and indentation.

    A line with no character that could start a string or a comment takes a fast path; the
    others go through the state machine of block comments and docstrings.

    ``docstrings_in_strings`` (the wavescope profile): a Python docstring delimiter is searched
    in the unmasked code part of a line, as WaveScope does, so a triple quote inside a string
    literal opens a docstring. Off (the default, the review profile): it is searched in the
    string-masked code, so only a real triple-quoted string opens one.
    """
    blocks = language.block_comments
    n = len(lines)
    code: list[str] = [""] * n
    indent = [0] * n  # expanded columns (a tab counts 4); lists are cheaper to fill than arrays
    anchor = [False] * n
    special = _special_chars(language).search
    in_block: BlockComment | None = None
    depth_count = 0
    doc_delim = ""
    ws = JS_WHITESPACE

    def put(i: int, text: str) -> None:
        code[i] = code_of(text, language)

    for i, raw in enumerate(lines):
        trimmed = raw.lstrip(ws)
        if not trimmed:
            continue
        stripped = trimmed.rstrip(ws)
        width = len(raw) - len(trimmed)
        if width:
            indent[i] = width + 3 * raw.count("\t", 0, width)
        if in_block is None and not doc_delim:
            anchor[i] = True
            if special(stripped) is None:
                code[i] = stripped
                continue

        if in_block is not None:
            masked = mask_strings(stripped, language)
            end, depth_count = _find_close(stripped, masked, in_block, depth_count)
            if end >= 0:
                in_block = None
                after = js_strip(stripped[end:])
                if after:
                    put(i, after)
            continue
        if doc_delim:
            idx = stripped.find(doc_delim)
            if idx >= 0:
                after = js_strip(stripped[idx + 3 :])
                doc_delim = ""
                if after:
                    put(i, after)
            continue

        masked = mask_strings(stripped, language)
        comment = _comment_index(masked, language)
        opened = False
        for block in blocks:
            bo = _block_open_index(masked, block)
            if bo < 0 or (0 <= comment < bo):
                continue
            opened = True
            before = js_strip(stripped[:bo])
            start = bo + len(block.start)
            rest = stripped[start:]
            end, depth_count = _find_close(rest, masked[start:], block, 1)
            if end >= 0:
                real = _join(before, js_strip(rest[end:]))
            else:
                in_block = block
                real = before
            if real:
                put(i, real)
            break
        if comment == 0 and not opened:
            anchor[i] = False  # a comment-only line says nothing about structure
        if opened or comment == 0:
            if opened and not code[i] and in_block is None:
                anchor[i] = False  # a one-line block comment
            continue
        if language.python_docstrings:
            # docstrings_in_strings (wavescope): WaveScope looks for the delimiter in the
            # unmasked code part (before a trailing comment), so a triple quote inside a string
            # literal, as in `('"""', "'''")`, opens a docstring too (CPython's Lib/ast.py has
            # one). Off (review): it looks in the masked code, where such a literal is blanked.
            text = stripped if docstrings_in_strings else masked
            head = text if comment < 0 else text[:comment]
            dq = head.find('"""')
            sq = head.find("'''")
            idx = dq if sq < 0 or (0 <= dq < sq) else sq
            if idx >= 0:
                delim = stripped[idx : idx + 3]
                before = js_strip(stripped[:idx])
                after = stripped[idx + 3 :]
                close = after.find(delim)
                if close >= 0:
                    real = _join(before, js_strip(after[close + 3 :]))
                else:
                    doc_delim = delim
                    real = before
                if real:
                    put(i, real)
                continue
        code[i] = js_strip(masked[:comment]) if comment >= 0 else masked
    if "`" in language.string_delimiters and any("`" in c for c in code):
        if language.name in _TEMPLATE_LANGUAGES:
            _lexed_template_lines(lines, anchor, language)
        else:
            _template_lines(lines, code, anchor)
    return TextScan(code, anchor, indent)
