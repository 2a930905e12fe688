"""The structure signal: one score per line (docs/engine.md sections 1 and 2).

Whitespace follows JavaScript's definition (``String.prototype.trim``, regex ``\\s``) so that
the numbers match WaveScope's exactly; Python's ``str.strip()`` also strips ``\\x1c``-``\\x1f``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from reviewbot.engine.languages import BlockComment, Language

__all__ = [
    "JS_WHITESPACE",
    "LineSplit",
    "js_strip",
    "line_signal",
    "mask_strings",
    "scan_lines",
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
_INLINE_DECORATOR = re.compile("(?:^|[" + _WS_CLASS + "])@[A-Za-z_]")

LineSplit = list[str]


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
    return re.compile(f"(?:(?<={sep})|^)(?:{alternatives})(?={sep}|$)")


class _Scorer:
    """Scores code text of one language (section 2, steps 3 and 6-9)."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.keywords = dict(language.keywords)
        self.pattern = _keyword_pattern(tuple(sorted(self.keywords)))

    def score(self, text: str, depth: float) -> tuple[float, str]:
        """The score of code text, and that text masked and without its trailing comment."""
        lang = self.language
        code = mask_strings(text, lang)
        cut = _comment_index(code, lang)
        if cut >= 0:
            code = js_strip(code[:cut])
        kw = 0.0
        if self.pattern is not None:
            weights = self.keywords
            for word in self.pattern.findall(code):
                kw += weights[word]
        if lang.decorator_weight > 0 and (
            code.startswith("@")
            or (lang.hash_bracket_attributes and code.startswith("#["))
            or ("@" in code and _INLINE_DECORATOR.search(code) is not None)
        ):
            kw += lang.decorator_weight
        # Multiply by the reciprocal, as WaveScope does (a division rounds differently).
        return min((kw + 0.05) * (1.0 / (1.0 + depth * lang.indent_weight)), 2.0), code


def _depth(raw: str, indent: int) -> float:
    expanded = indent + 3 * raw.count("\t", 0, indent)
    return min(expanded / 4.0, 8.0)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def line_signal(lines: Sequence[str], language: Language) -> NDArray[np.float64]:
    """Section 2: the per-line score. Block comments and docstrings carry state across lines."""
    return scan_lines(lines, language)[0]


def scan_lines(lines: Sequence[str], language: Language) -> tuple[NDArray[np.float64], list[str]]:
    """The per-line score and each line's code: masked, without comments, "" when none."""
    scorer = _Scorer(language)
    blocks = language.block_comments
    out = np.zeros(len(lines), dtype=np.float64)
    code_of = [""] * len(lines)

    def put(i: int, text: str, depth: float) -> None:
        out[i], code_of[i] = scorer.score(text, depth)

    in_block: BlockComment | None = None
    depth_count = 0
    doc_delim = ""
    ws = JS_WHITESPACE
    for i, raw in enumerate(lines):
        trimmed = raw.lstrip(ws)
        if not trimmed:
            continue
        stripped = trimmed.rstrip(ws)
        indent = len(raw) - len(trimmed)
        depth = _depth(raw, indent) if indent else 0.0

        if in_block is not None:
            masked = mask_strings(stripped, language)
            end, depth_count = _find_close(stripped, masked, in_block, depth_count)
            if end >= 0:
                in_block = None
                after = js_strip(stripped[end:])
                if after:
                    put(i, after, depth)
            continue
        if doc_delim:
            idx = stripped.find(doc_delim)
            if idx >= 0:
                after = js_strip(stripped[idx + 3 :])
                doc_delim = ""
                if after:
                    put(i, after, depth)
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
                put(i, real, depth)
            break
        if opened:
            continue
        if comment == 0:
            continue
        if language.python_docstrings:
            code = masked if comment < 0 else masked[:comment]
            dq = code.find('"""')
            sq = code.find("'''")
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
                    put(i, real, depth)
                continue
        put(i, stripped, depth)
    return out, code_of
