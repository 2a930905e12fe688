"""Ground truth from real parsers, and the declaration metrics that compare the engine to it.

Declarations (functions, methods, classes, types) come from Python's ``ast`` for Python and from
tree-sitter for Go, Java and TypeScript. Rows are 0-based and count ``\\n`` only, like the engine
(``reviewbot.engine.signal.split_lines``); callers should pass text read with universal newlines.

Public API:

* :func:`declarations` ``(path, text, language=None) -> list[Decl]``, ``Decl = (start, end, kind)``
  where ``start`` is the declaration's header row (the ``def``/``class``/``func`` line, past any
  decorators or annotations), ``end`` its last row, ``kind`` the parser's node type.
* :func:`extract` the same plus, per declaration, every row that may stand for its start
  (decorators, annotations, an ``export`` wrapper, the node's own first row), and the rows that
  hold only comments.
* :func:`top_hits` and :func:`enclosing_accuracy`: the two metrics of ``bench/declarations.py``,
  shared with ``tests/engine/test_declarations.py``.

Used by the benchmark and the tests; this is the only copy of this code.
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

__all__ = [
    "FUNCTION_KINDS",
    "LANGUAGE_BY_SUFFIX",
    "Decl",
    "EnclosingResult",
    "GroundTruth",
    "TopResult",
    "declarations",
    "enclosing_accuracy",
    "extract",
    "language_of",
    "simple_comment_line",
    "top_hits",
]

LANGUAGE_BY_SUFFIX = {
    ".py": "python",
    ".go": "go",
    ".java": "java",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}

# Node types (ast class names for Python) that are declarations.
PYTHON_KINDS = frozenset({"FunctionDef", "AsyncFunctionDef", "ClassDef"})
GO_KINDS = frozenset({"function_declaration", "method_declaration", "type_spec", "type_alias"})
JAVA_KINDS = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
        "method_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
    }
)
TS_KINDS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "method_definition",
        "method_signature",
        "abstract_method_signature",
        # Overload signatures (`export function f(a: string): T;`, `declare function g(): void`).
        "function_signature",
        # Namespaces (`namespace X {`, `declare module "m" {`) declare a named scope.
        "internal_module",
        "module",
    }
)
# Declarations that own a function or method body (metric 2 samples lines inside these).
FUNCTION_KINDS = frozenset(
    {
        "FunctionDef",
        "AsyncFunctionDef",
        "function_declaration",
        "method_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
        "generator_function_declaration",
        "method_definition",
        "arrow_binding",
        "function_binding",
        "default_function",
    }
)
_TS_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
_COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment", "html_comment"})
_DECORATOR_TYPES = frozenset(
    {"decorator", "annotation", "marker_annotation", "comment", "line_comment", "block_comment"}
)


class Decl(NamedTuple):
    """A declaration: header row, last row (0-based, inclusive) and the parser's node type."""

    start: int
    end: int
    kind: str


@dataclass
class GroundTruth:
    language: str
    decls: list[Decl]
    # anchors[i]: every row that stands for decls[i]'s start (header, decorators, export ...).
    anchors: list[frozenset[int]]
    # Rows whose only non-blank content is comments (tree-sitter comment nodes; Python: tokenize,
    # or simple_comment_line when tokenize fails). `/*package*/ class X {` is not such a row.
    comment_rows: frozenset[int]
    parse_errors: bool = False
    _hit_rows: frozenset[int] | None = field(default=None, repr=False)

    def hit_rows(self, tolerance: int = 1) -> frozenset[int]:
        """Rows within ``tolerance`` of any declaration anchor."""
        if self._hit_rows is None or tolerance != 1:
            rows = {
                a + d
                for anchors in self.anchors
                for a in anchors
                for d in range(-tolerance, tolerance + 1)
            }
            if tolerance != 1:
                return frozenset(rows)
            self._hit_rows = frozenset(rows)
        return self._hit_rows


def language_of(path: str) -> str | None:
    lowered = path.lower()
    if lowered.endswith((".d.ts", ".d.mts", ".d.cts")):
        return "typescript"
    for suffix, name in LANGUAGE_BY_SUFFIX.items():
        if lowered.endswith(suffix):
            return name
    return None


def declarations(path: str, text: str, language: str | None = None) -> list[Decl]:
    """Declarations of ``text`` (the file ``path``), sorted by start row."""
    return extract(path, text, language).decls


def extract(path: str, text: str, language: str | None = None) -> GroundTruth:
    lang = language or language_of(path)
    if lang is None:
        raise ValueError(f"no parser for {path!r}")
    if lang == "python":
        return _python(text)
    return _tree_sitter(text, lang)


# -- Python (ast + tokenize) ---------------------------------------------------------------------


def _python(text: str) -> GroundTruth:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes is not our business
        tree = ast.parse(text)
    found: list[tuple[Decl, frozenset[int]]] = []
    for node in ast.walk(tree):
        kind = type(node).__name__
        if kind not in PYTHON_KINDS:
            continue
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        head = node.lineno - 1
        end = (node.end_lineno or node.lineno) - 1
        anchors = {head} | {d.lineno - 1 for d in node.decorator_list}
        found.append((Decl(head, end, kind), frozenset(anchors)))
    found.sort(key=lambda pair: (pair[0].start, -pair[0].end))
    return GroundTruth(
        "python", [d for d, _ in found], [a for _, a in found], _python_comment_rows(text)
    )


def _python_comment_rows(text: str) -> frozenset[int]:
    lines = text.split("\n")
    rows: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                if not lines[row - 1][:col].strip():
                    rows.add(row - 1)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return frozenset(i for i, line in enumerate(lines) if simple_comment_line(line, "python"))
    return frozenset(rows)


def simple_comment_line(line: str, language: str) -> bool:
    """The fallback check: a stripped line that starts like a comment."""
    s = line.strip()
    if language == "python":
        return s.startswith("#")
    return s.startswith(("//", "/*", "*"))


# -- tree-sitter (Go, Java, TypeScript) -----------------------------------------------------------


@cache
def _parser(language: str) -> Any:
    import importlib

    import tree_sitter

    grammars = {
        "go": ("tree_sitter_go", "language"),
        "java": ("tree_sitter_java", "language"),
        "typescript": ("tree_sitter_typescript", "language_typescript"),
        "tsx": ("tree_sitter_typescript", "language_tsx"),
    }
    if language not in grammars:
        raise ValueError(f"no tree-sitter grammar for {language!r}")
    module, function = grammars[language]
    lang = getattr(importlib.import_module(module), function)()
    return tree_sitter.Parser(tree_sitter.Language(lang))


def _kinds(language: str) -> frozenset[str]:
    return {"go": GO_KINDS, "java": JAVA_KINDS}.get(language, TS_KINDS)


def _header_row(node: Any) -> int:
    """The row of the first child that is not a decorator, an annotation or a comment."""
    for child in node.children:
        if child.type in _DECORATOR_TYPES:
            continue
        if child.type == "modifiers":  # Java: annotations live inside the modifiers
            for m in child.children:
                if m.type not in _DECORATOR_TYPES:
                    return int(m.start_point.row)
            continue
        return int(child.start_point.row)
    return int(node.start_point.row)


def _ts_declaration(node: Any, kinds: frozenset[str]) -> str | None:
    """The kind when a TypeScript node is a declaration, else None."""
    t: str = node.type
    if t in kinds:
        return t
    if t in ("variable_declarator", "public_field_definition"):
        value = node.child_by_field_name("value")
        if value is not None and value.type in _TS_FUNCTION_VALUES:
            return "arrow_binding" if value.type == "arrow_function" else "function_binding"
    if t in ("function_expression", "arrow_function", "function"):
        parent = node.parent
        if parent is not None and parent.type == "export_statement":  # export default function
            return "default_function"
    return None


def _tree_sitter(text: str, language: str) -> GroundTruth:
    source = text.encode("utf-8", "surrogatepass")
    tree = _parser(language).parse(source)
    kinds = _kinds(language)
    is_ts = language in ("typescript", "tsx")
    found: list[tuple[Decl, frozenset[int]]] = []
    comments: list[Any] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        t = node.type
        if t in _COMMENT_TYPES:
            comments.append(node)
            continue
        kind = _ts_declaration(node, kinds) if is_ts else (t if t in kinds else None)
        if kind is not None:
            head = _header_row(node)
            if kind in ("arrow_binding", "function_binding"):
                head = int(node.start_point.row)
            anchors = {head, int(node.start_point.row)}
            name = node.child_by_field_name("name")
            if name is not None:
                anchors.add(int(name.start_point.row))
            # Wrappers that start the declaration: export, `declare`, `const` (TS), a Go `type`.
            parent = node.parent
            hops = 0
            while (
                parent is not None
                and hops < 3
                and parent.type
                in (
                    "export_statement",
                    "ambient_declaration",
                    "lexical_declaration",
                    "variable_declaration",
                    "type_declaration",
                )
            ):
                anchors.add(int(parent.start_point.row))
                parent = parent.parent
                hops += 1
            # TypeScript member decorators are siblings before the member.
            prev = node.prev_named_sibling
            while prev is not None and prev.type in ("decorator",):
                anchors.add(int(prev.start_point.row))
                prev = prev.prev_named_sibling
            found.append((Decl(head, int(node.end_point.row), kind), frozenset(anchors)))
        stack.extend(reversed(node.children))
    found.sort(key=lambda pair: (pair[0].start, -pair[0].end))
    return GroundTruth(
        language,
        [d for d, _ in found],
        [a for _, a in found],
        _comment_rows(source, comments),
        bool(tree.root_node.has_error),
    )


def _comment_rows(source: bytes, comments: Iterable[Any]) -> frozenset[int]:
    lines = source.split(b"\n")
    spans: dict[int, list[tuple[int, int]]] = {}
    for node in comments:
        (sr, sc), (er, ec) = node.start_point, node.end_point
        for row in range(sr, er + 1):
            if row >= len(lines):
                break
            a = sc if row == sr else 0
            b = ec if row == er else len(lines[row])
            spans.setdefault(row, []).append((a, b))
    rows: set[int] = set()
    for row, cuts in spans.items():
        line = bytearray(lines[row])
        for a, b in cuts:
            line[a:b] = b" " * (min(b, len(line)) - a)
        if not line.strip():
            rows.add(row)
    return frozenset(rows)


# -- metrics -------------------------------------------------------------------------------------


@dataclass
class TopResult:
    """Metric 1 for one file and profile."""

    k: int  # min(10, number of declarations)
    hits: int
    positions: list[tuple[int, str, bool]]  # (line, label, hit) for the top K
    blank: int  # top positions on blank lines
    comment: int  # top positions on comment-only lines

    @property
    def rate(self) -> float:
        return self.hits / self.k if self.k else 1.0


@dataclass
class EnclosingResult:
    """Metric 2 for one file: unit_at(line) against the innermost parsed declaration."""

    checked: int
    correct: int
    misses: list[tuple[int, int, int | None]]  # (line, expected start, unit start or None)

    @property
    def accuracy(self) -> float:
        return self.correct / self.checked if self.checked else 1.0


def top_hits(
    index: Any, gt: GroundTruth, *, limit: int = 10, min_coefficient: float = 0.3
) -> TopResult:
    """Top K = min(limit, declarations) positions; a hit is within 1 row of a declaration anchor.

    Fewer than K positions count as misses. Positions on blank or comment-only rows are counted
    (comment-only per the parser's comment nodes; for Python per ``tokenize``, with the simple
    prefix check only when tokenizing fails).
    """
    k = min(limit, len(gt.decls))
    positions = index.important_positions(min_coefficient, limit)[:k]
    hit_rows = gt.hit_rows()
    lines: Sequence[str] = index.lines
    out: list[tuple[int, str, bool]] = []
    blank = comment = 0
    for p in positions:
        hit = p.line in hit_rows
        out.append((p.line, p.label, hit))
        text = lines[p.line] if 0 <= p.line < len(lines) else ""
        if not text.strip():
            blank += 1
        elif p.line in gt.comment_rows:
            comment += 1
    return TopResult(k, sum(h for _, _, h in out), out, blank, comment)


def body_lines(gt: GroundTruth) -> dict[int, int]:
    """Each row strictly inside a function or method -> index of its innermost declaration."""
    inside: set[int] = set()
    for d in gt.decls:
        if d.kind in FUNCTION_KINDS:
            inside.update(range(d.start + 1, d.end + 1))
    owner: dict[int, int] = {}
    # decls are sorted by start: a later one that covers a row is at least as deep.
    for i, d in enumerate(gt.decls):
        for row in range(d.start, d.end + 1):
            if row in inside:
                owner[row] = i
    return owner


def enclosing_accuracy(
    index: Any, gt: GroundTruth, *, sample: int = 200, tolerance: int = 1
) -> EnclosingResult:
    """Does ``index.unit_at(row)`` start within ``tolerance`` of the innermost declaration?

    Rows are those strictly inside a function or method body (after its header row, up to its
    last row); at most ``sample`` of them, evenly spaced, so the choice is deterministic.
    """
    owner = body_lines(gt)
    rows = sorted(owner)
    if len(rows) > sample:
        rows = [rows[(i * len(rows)) // sample] for i in range(sample)]
    correct = 0
    misses: list[tuple[int, int, int | None]] = []
    for row in rows:
        i = owner[row]
        unit = index.unit_at(row)
        ok = unit is not None and any(abs(unit.start - a) <= tolerance for a in gt.anchors[i])
        if ok:
            correct += 1
        else:
            misses.append((row, gt.decls[i].start, None if unit is None else unit.start))
    return EnclosingResult(len(rows), correct, misses)
