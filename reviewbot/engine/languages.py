"""Language tables: keyword weights and comment syntax, as data (docs/engine.md section 2).

A language is a frozen record; the registry maps names to records. Users add or override
languages from configuration with :func:`language_from_mapping`, without code.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = [
    "BUILTIN_LANGUAGES",
    "BlockComment",
    "Language",
    "LanguageError",
    "LanguageRegistry",
    "default_registry",
    "file_name",
    "language_from_mapping",
]


class LanguageError(ValueError):
    """A language table (usually from configuration) is invalid."""


class BlockComment(NamedTuple):
    """A block comment's delimiters and how it behaves."""

    start: str
    end: str
    nested: bool = False  # `#| |#` in Scheme and Common Lisp nest
    at_line_start: bool = False  # Ruby `=begin` counts only at the start of a line
    paren_depth: bool = False  # Clojure `(comment ...)` closes by parenthesis depth
    inert: bool = False  # Emacs Lisp: `#|` opens nothing (no block comments at all)


class Language:
    """One language's table. ``keywords`` maps a token to its structural weight.

    Compared and hashed by identity (tables are built once and cached by the engine). Read-only
    after construction. A plain class, not a dataclass: the hook's path does without the
    dataclasses module (~20 ms of its start with the classes it would build).
    """

    __slots__ = (
        "backslash_char_literals",
        "block_comments",
        "decorator_weight",
        "extensions",
        "extra",
        "filenames",
        "hash_bracket_attributes",
        "indent_weight",
        "keywords",
        "line_comments",
        "name",
        "python_docstrings",
        "python_labels",
        "string_delimiters",
    )

    name: str
    extensions: tuple[str, ...]
    keywords: Mapping[str, float]
    line_comments: tuple[str, ...]
    block_comments: tuple[BlockComment, ...]
    indent_weight: float
    decorator_weight: float
    filenames: tuple[str, ...]
    string_delimiters: str
    backslash_char_literals: bool
    python_docstrings: bool
    hash_bracket_attributes: bool  # `#[...]` starts a decorator-like attribute
    # Labels: does the language mark declarations python-style (`def f`, `class A`)?
    python_labels: bool
    extra: Mapping[str, object]

    def __init__(
        self,
        name: str,
        extensions: tuple[str, ...],
        keywords: Mapping[str, float],
        line_comments: tuple[str, ...],
        block_comments: tuple[BlockComment, ...] = (),
        indent_weight: float = 0.15,
        decorator_weight: float = 0.0,
        filenames: tuple[str, ...] = (),
        string_delimiters: str = "\"'`",
        backslash_char_literals: bool = False,
        python_docstrings: bool = False,
        hash_bracket_attributes: bool = False,
        python_labels: bool = False,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        values = {
            "name": name,
            "extensions": extensions,
            "keywords": keywords,
            "line_comments": line_comments,
            "block_comments": block_comments,
            "indent_weight": indent_weight,
            "decorator_weight": decorator_weight,
            "filenames": filenames,
            "string_delimiters": string_delimiters,
            "backslash_char_literals": backslash_char_literals,
            "python_docstrings": python_docstrings,
            "hash_bracket_attributes": hash_bracket_attributes,
            "python_labels": python_labels,
            "extra": MappingProxyType({}) if extra is None else extra,
        }
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Language is read-only: cannot set {key!r}")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"Language is read-only: cannot delete {key!r}")

    def __repr__(self) -> str:
        return f"Language({self.name!r})"

    def weight(self, token: str) -> float:
        return self.keywords.get(token, 0.0)


def _w(*groups: tuple[float, str]) -> dict[str, float]:
    table: dict[str, float] = {}
    for weight, words in groups:
        for word in words.split():
            table[word] = weight
    return table


C_LIKE = _w(
    (1.0, "class"),
    (0.6, "export import"),
    (0.4, "abstract"),
    (0.3, "public private protected static async const if for while switch try catch"),
    (0.2, "let var else do case default finally return throw"),
)
JS_LIKE = {**C_LIKE, **_w((0.9, "function"))}
TS_LIKE = {**JS_LIKE, **_w((0.9, "interface"), (0.5, "type"), (0.8, "enum"))}

_SLASH = (BlockComment("/*", "*/"),)
_HASH_BLOCK = (BlockComment("#|", "|#", nested=True),)


def _lang(
    name: str,
    extensions: str,
    keywords: Mapping[str, float],
    line_comments: tuple[str, ...],
    block_comments: tuple[BlockComment, ...],
    indent_weight: float,
    decorator_weight: float,
    **kwargs: object,
) -> Language:
    return Language(
        name=name,
        extensions=tuple(extensions.split()),
        keywords=MappingProxyType(dict(keywords)),
        line_comments=line_comments,
        block_comments=block_comments,
        indent_weight=indent_weight,
        decorator_weight=decorator_weight,
        **kwargs,  # type: ignore[arg-type]
    )


BUILTIN_LANGUAGES: tuple[Language, ...] = (
    _lang(
        "python",
        ".py .pyi .pyx",
        _w(
            (1.0, "class"),
            (0.9, "def"),
            (0.6, "import"),
            (0.5, "from"),
            (0.4, "with"),
            (0.3, "if try except for while match"),
            (0.2, "return yield raise elif else finally case"),
        ),
        ("#",),
        (),
        0.15,
        0.5,
        python_docstrings=True,
        python_labels=True,
    ),
    _lang(
        "typescript",
        ".ts .tsx .mts .cts",
        {**TS_LIKE, **_w((0.3, "get set"))},
        ("//",),
        _SLASH,
        0.15,
        0.5,
    ),
    _lang(
        "javascript",
        ".js .jsx .mjs .cjs",
        {**JS_LIKE, **_w((0.3, "get set"))},
        ("//",),
        _SLASH,
        0.15,
        0.5,
    ),
    _lang(
        "go",
        ".go",
        {**C_LIKE, **_w((0.9, "func struct"), (0.3, "package"), (0.2, "go defer select"))},
        ("//",),
        _SLASH,
        0.10,
        0.0,
    ),
    _lang(
        "rust",
        ".rs",
        {
            **C_LIKE,
            **_w(
                (0.9, "fn impl trait struct"),
                (0.8, "enum"),
                (0.7, "macro_rules"),
                (0.6, "mod"),
                (0.5, "use type"),
                (0.4, "pub"),
                (0.3, "match unsafe extern"),
                (0.2, "where"),
                (0.1, "mut"),
            ),
        },
        ("//",),
        _SLASH,
        0.15,
        0.4,
        string_delimiters='"',
        hash_bracket_attributes=True,
    ),
    _lang(
        "java",
        ".java",
        {
            **TS_LIKE,
            **_w(
                (0.6, "package"),
                (0.5, "extends implements"),
                (0.2, "throws synchronized"),
                (0.1, "volatile transient native strictfp"),
            ),
        },
        ("//",),
        _SLASH,
        0.15,
        0.5,
    ),
    _lang(
        "ruby",
        ".rb .rake .gemspec",
        _w(
            (1.0, "class"),
            (0.9, "def module"),
            (0.6, "require"),
            (0.5, "attr_accessor attr_reader attr_writer"),
            (0.4, "include extend"),
            (0.3, "private protected public if unless while until for begin rescue"),
            (0.2, "else elsif do ensure case when return yield raise"),
        ),
        ("#",),
        (BlockComment("=begin", "=end", at_line_start=True),),
        0.12,
        0.0,
        filenames=("Rakefile", "Gemfile"),
    ),
    _lang(
        "php",
        ".php",
        {
            **TS_LIKE,
            **_w(
                (0.6, "namespace"),
                (0.8, "trait"),
                (0.5, "use extends implements require_once require"),
                (0.4, "include include_once"),
                (0.1, "echo"),
            ),
        },
        ("//", "#"),
        _SLASH,
        0.15,
        0.4,
        hash_bracket_attributes=True,
    ),
    _lang(
        "swift",
        ".swift",
        {
            **C_LIKE,
            **_w(
                (0.9, "func protocol struct actor"),
                (0.7, "extension"),
                (0.5, "associatedtype"),
                (0.4, "typealias"),
                (0.3, "guard mutating nonmutating override"),
                (0.2, "defer convenience required throws rethrows"),
                (0.1, "weak unowned"),
            ),
        },
        ("//",),
        _SLASH,
        0.15,
        0.4,
    ),
    _lang(
        "kotlin",
        ".kt .kts",
        {
            **C_LIKE,
            **_w(
                (0.9, "fun"),
                (0.7, "object"),
                (0.5, "sealed"),
                (0.4, "companion data open annotation"),
                (0.3, "override suspend operator expect actual"),
                (0.2, "val infix inline tailrec external"),
            ),
        },
        ("//",),
        _SLASH,
        0.15,
        0.5,
    ),
    _lang(
        "scala",
        ".scala .sc",
        {
            **C_LIKE,
            **_w(
                (0.9, "def trait"),
                (0.7, "object"),
                (0.5, "sealed extension"),
                (0.4, "implicit case"),
                (0.3, "given using opaque match override"),
                (0.2, "val"),
                (0.1, "lazy"),
            ),
        },
        ("//",),
        _SLASH,
        0.15,
        0.5,
    ),
    _lang(
        "clojure",
        ".clj .cljs .cljc .edn",
        _w(
            (0.9, "defn defn- defmacro defmulti defprotocol defrecord deftype definterface"),
            (0.8, "defmethod extend-type extend-protocol"),
            (0.7, "def defonce"),
            (0.6, "letfn reify ns require"),
            (0.5, "use import"),
            (0.4, "fn"),
            (0.3, "if when loop for doseq try catch"),
            (0.2, "let finally"),
        ),
        (";",),
        (BlockComment("(comment", ")", paren_depth=True),),
        0.12,
        0.0,
        string_delimiters='"',
        backslash_char_literals=True,
    ),
    _lang(
        "scheme",
        ".scm .ss .sld .sls .sps .rkt",
        _w(
            (
                0.9,
                "define define-syntax define-syntax-rule define-record-type define-struct "
                "struct define-class define-generic define-macro define-public define-inline",
            ),
            (0.8, "define-method"),
            (0.7, "define-values define-constant"),
            (
                0.6,
                "define-module define-library syntax-rules syntax-case lang module library "
                "use-modules require provide import export",
            ),
            (0.5, "include load case-lambda define-record-printer"),
            (0.4, "lambda let-syntax letrec-syntax"),
            (
                0.3,
                "letrec let-values receive if cond case when unless do guard dynamic-wind "
                "with-exception-handler call-with-current-continuation call-with-values",
            ),
            (0.2, "let begin set! delay"),
        ),
        (";",),
        _HASH_BLOCK,
        0.12,
        0.0,
        string_delimiters='"',
        backslash_char_literals=True,
    ),
    _lang(
        "lisp",
        ".lisp .lsp .cl .asd",
        _w(
            (1.0, "defclass"),
            (0.9, "defun defmacro defstruct defgeneric define-condition"),
            (0.8, "defmethod"),
            (0.7, "deftype defvar defparameter defconstant defsystem define-compiler-macro"),
            (
                0.6,
                "defsetf defpackage in-package define-modify-macro define-symbol-macro "
                "define-method-combination define-setf-expander flet labels macrolet",
            ),
            (0.5, "require use-package export import"),
            (0.4, "eval-when lambda"),
            (
                0.3,
                "declaim if when unless cond case ecase typecase etypecase loop do dolist "
                "dotimes handler-case handler-bind restart-case unwind-protect with-open-file",
            ),
            (0.2, "let ignore-errors with-slots with-accessors block return return-from"),
            (0.1, "progn"),
        ),
        (";",),
        _HASH_BLOCK,
        0.12,
        0.0,
        string_delimiters='"',
        backslash_char_literals=True,
    ),
    _lang(
        "elisp",
        ".el",
        _w(
            (
                0.9,
                "defun defmacro cl-defun cl-defmacro cl-defstruct cl-defgeneric "
                "define-minor-mode define-derived-mode define-generic-mode "
                "define-globalized-minor-mode",
            ),
            (0.8, "defsubst defcustom defgroup cl-defmethod"),
            (0.7, "defvar defvar-local defconst defface cl-deftype define-advice use-package"),
            (0.6, "require provide"),
            (0.5, "defalias autoload with-eval-after-load"),
            (0.4, "lambda"),
            (
                0.3,
                "define-key if when unless cond pcase while dolist dotimes condition-case "
                "unwind-protect add-hook",
            ),
            (0.2, "let save-excursion save-restriction interactive"),
        ),
        (";",),
        (BlockComment("#|", "|#", inert=True),),
        0.12,
        0.0,
        string_delimiters='"',
        backslash_char_literals=True,
    ),
    _lang("generic", "", {}, ("#",), _SLASH, 0.10, 0.3),
)


class LanguageRegistry:
    """Languages by name, with detection by file name. Later entries override earlier ones."""

    def __init__(self, languages: Iterable[Language]) -> None:
        self._by_name: dict[str, Language] = {}
        for language in languages:
            self._by_name[language.name] = language
        if "generic" not in self._by_name:
            raise LanguageError("a language registry needs a 'generic' language")

    def names(self) -> list[str]:
        return list(self._by_name)

    def get(self, name: str) -> Language:
        try:
            return self._by_name[name]
        except KeyError:
            valid = ", ".join(sorted(self._by_name))
            raise LanguageError(f"unknown language {name!r}; valid languages: {valid}") from None

    def with_languages(self, extra: Iterable[Language]) -> LanguageRegistry:
        """A new registry where ``extra`` adds to or replaces languages of the same name.

        A replaced language keeps its place in detection order; a new one is tried first,
        so that a user's table for ``.foo`` wins over a built-in's claim on it.
        """
        extra = list(extra)
        merged = [lang for lang in extra if lang.name not in self._by_name]
        replaced = {lang.name: lang for lang in extra}
        merged += [replaced.get(lang.name, lang) for lang in self._by_name.values()]
        return LanguageRegistry(merged)

    def detect(self, path: str) -> Language:
        """Exact file names first, then the lower-cased extension, in table order. Folders are
        split off as this system does: a backslash is part of a POSIX (and git) file name."""
        base = file_name(path)
        for language in self._by_name.values():
            if base in language.filenames:
                return language
        lowered = base.lower()
        for language in self._by_name.values():
            for ext in language.extensions:
                if lowered.endswith(ext) and len(lowered) > len(ext):
                    return language
        return self._by_name["generic"]


def file_name(path: str, separators: str = os.sep + (os.altsep or "")) -> str:
    """The last part of ``path``, split at this system's folder separators: on POSIX only
    `/`, so a backslash is part of a file name (git stores such names); on Windows `\\`
    and `/`."""
    cut = max(path.rfind(sep) for sep in separators)
    return path[cut + 1 :]


_DEFAULT = LanguageRegistry(BUILTIN_LANGUAGES)


def default_registry() -> LanguageRegistry:
    return _DEFAULT


_ALLOWED_KEYS = {
    "extensions",
    "filenames",
    "keywords",
    "line_comments",
    "block_comments",
    "indent_weight",
    "decorator_weight",
    "string_delimiters",
    "backslash_char_literals",
    "base",
}


def _finite_at_least_zero(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        return False
    return math.isfinite(number) and number >= 0


def language_from_mapping(
    name: str, data: Mapping[str, object], registry: LanguageRegistry | None = None
) -> Language:
    """Build a language from a configuration table (``[tool.reviewbot.languages.NAME]``).

    ``base`` names a built-in language to start from; every other key overrides it.
    Errors name the key and what is allowed.
    """
    where = f"languages.{name}"
    unknown = sorted(set(data) - _ALLOWED_KEYS)
    if unknown:
        raise LanguageError(
            f"{where}: unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_ALLOWED_KEYS))}"
        )
    registry = registry or _DEFAULT
    base_name = data.get("base", "generic")
    if not isinstance(base_name, str):
        raise LanguageError(f"{where}.base: expected a language name, got {base_name!r}")
    try:
        base = registry.get(base_name)
    except LanguageError as exc:
        raise LanguageError(f"{where}.base: {exc}") from None

    def strings(key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        value = data.get(key)
        if value is None:
            return default
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise LanguageError(f"{where}.{key}: expected a list of non-empty strings")
        return tuple(value)

    def number(key: str, default: float) -> float:
        value = data.get(key)
        if value is None:
            return default
        if not _finite_at_least_zero(value):
            raise LanguageError(f"{where}.{key}: expected a finite number >= 0, got {value!r}")
        return float(value)  # type: ignore[arg-type]

    keywords = dict(base.keywords)
    raw_keywords = data.get("keywords")
    if raw_keywords is not None:
        if not isinstance(raw_keywords, Mapping):
            raise LanguageError(f"{where}.keywords: expected a table of word = weight")
        for word, weight in raw_keywords.items():
            if not _finite_at_least_zero(weight):
                raise LanguageError(
                    f"{where}.keywords.{word}: expected a finite weight >= 0, got {weight!r}"
                )
            keywords[str(word)] = float(weight)

    blocks = base.block_comments
    raw_blocks = data.get("block_comments")
    if raw_blocks is not None:
        if not isinstance(raw_blocks, list) or not all(
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(s, str) and s for s in pair)
            for pair in raw_blocks
        ):
            raise LanguageError(f"{where}.block_comments: expected a list of [open, close] pairs")
        blocks = tuple(BlockComment(str(a), str(b)) for a, b in raw_blocks)

    extensions = tuple(e if e.startswith(".") else "." + e for e in strings("extensions", ()))
    filenames = strings("filenames", ())
    if not extensions and not filenames:
        raise LanguageError(f"{where}: needs 'extensions' or 'filenames' to be detected")
    delimiters = data.get("string_delimiters", base.string_delimiters)
    if not isinstance(delimiters, str):
        raise LanguageError(f'{where}.string_delimiters: expected a string such as "\\"\'"')
    backslash = data.get("backslash_char_literals", base.backslash_char_literals)
    if not isinstance(backslash, bool):
        raise LanguageError(f"{where}.backslash_char_literals: expected true or false")
    return Language(
        name=name,
        extensions=tuple(e.lower() for e in extensions),
        filenames=filenames,
        keywords=MappingProxyType(keywords),
        line_comments=strings("line_comments", base.line_comments),
        block_comments=blocks,
        indent_weight=number("indent_weight", base.indent_weight),
        decorator_weight=number("decorator_weight", base.decorator_weight),
        string_delimiters=delimiters,
        backslash_char_literals=backslash,
        python_docstrings=base.python_docstrings,
        hash_bracket_attributes=base.hash_bracket_attributes,
        python_labels=base.python_labels,
    )
