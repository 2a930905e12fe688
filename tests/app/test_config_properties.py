"""Property: any table TOML can hold (random and known keys, nested tables, values of every TOML
type: nan and inf, huge integers, dates, lists, strings) is either a Config within range or a
ConfigError that starts with the key it is about; never another exception."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewbot.analysis.findings import Thresholds
from reviewbot.app.config import Config, parse_config, settings_table
from reviewbot.errors import ConfigError
from tests.helpers import examples

# Every integer TOML can write (Python refuses to read longer ones: int("9" * 4301) raises).
TOML_INT_DIGITS = 4300
_THRESHOLDS = list(Thresholds._fields)
_LANGUAGE_KEYS = [
    "base",
    "extensions",
    "filenames",
    "keywords",
    "line_comments",
    "block_comments",
    "indent_weight",
    "decorator_weight",
    "string_delimiters",
    "backslash_char_literals",
]
_TOP_KEYS = [
    "ignore",
    "profile",
    "exclude",
    "max_file_bytes",
    "languages",
    "thresholds",
    "fail_on",
    "max_findings",
    "budget",
    "max_inline_comments",
]

_huge = st.integers(1, TOML_INT_DIGITS).map(lambda n: int("9" * n))
_ints = st.one_of(
    st.integers(),
    st.integers(-10, 10),
    st.sampled_from([0, 1, 2**31, 2**31 + 1, 10**7, 10**7 + 1, 10**9, 10**9 + 1, 2**63, 2**64]),
    _huge,
    _huge.map(lambda n: -n),
)
_floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.5, 2.5, 1e9, 1e9 + 1, 1e308]),
)
_strings = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["review", "fast", "none", "never", "false", "error", "Warning ", "", ".py", "*", "x"]
    ),
)
_dates = st.one_of(
    st.datetimes(),
    st.datetimes(timezones=st.just(dt.UTC)),
    st.dates(),
    st.times(),
)
scalars = st.one_of(st.booleans(), _ints, _floats, _strings, _dates)
_key = st.one_of(st.sampled_from(_TOP_KEYS + _THRESHOLDS + _LANGUAGE_KEYS), st.text(max_size=8))


def values(depth: int = 2) -> st.SearchStrategy[Any]:
    """Any TOML value: scalars, arrays and tables, nested ``depth`` levels at most."""
    if depth == 0:
        return scalars
    inner = values(depth - 1)
    return st.one_of(
        scalars,
        st.lists(inner, max_size=4),
        st.dictionaries(_key, inner, max_size=4),
    )


_weight = st.one_of(st.floats(0, 100), st.integers(0, 100))
_language_table = st.fixed_dictionaries(
    {"extensions": st.lists(st.sampled_from([".z", "z", ".Z"]), min_size=1)},
    optional={
        "base": st.sampled_from(["python", "generic", "go", "cobol"]),  # cobol: none we know
        "filenames": st.lists(st.just("Zfile")),
        "keywords": st.dictionaries(st.text(max_size=6), _weight, max_size=3),
        "line_comments": st.lists(st.sampled_from(["#", "//"])),
        "block_comments": st.lists(st.just(["/*", "*/"])),
        "indent_weight": _weight,
        "decorator_weight": _weight,
        "string_delimiters": st.just("\"'"),
        "backslash_char_literals": st.booleans(),
    },
)
_whole = {name for name in Thresholds._fields if isinstance(getattr(Thresholds(), name), int)}
_good_tables = st.fixed_dictionaries(
    {},
    optional={
        "profile": st.sampled_from(["review", "wavescope"]),
        "exclude": st.lists(st.sampled_from(["*.py", "**/x/**"])),
        "max_file_bytes": st.integers(1, 2**31),
        "thresholds": st.fixed_dictionaries(
            {},
            optional={
                name: st.integers(0, 50) if name in _whole else _weight for name in _THRESHOLDS
            },
        ),
        "fail_on": st.sampled_from(["never", "none", "Warning ", "error"]),
        "max_findings": st.integers(0, 10**7),
        "budget": st.integers(0, 10**7),
        "max_inline_comments": st.integers(0, 10**7),
        "languages": st.dictionaries(st.text(max_size=6), _language_table, max_size=2),
    },
)
_wrong = st.one_of(
    scalars, st.lists(values(1), max_size=3), st.dictionaries(_key, values(1), max_size=3)
)


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """A right table with one or two of its values made wrong (anywhere: a top-level key, a
    threshold, a language's key or keyword), and keys of its own. One wrong value at a time:
    the keys are checked in turn, and the first wrong one stops the checks after it."""
    table: dict[str, Any] = draw(_good_tables)
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(["top", "threshold", "language", "keyword"]))
        wrong = draw(st.one_of(_ints, _floats, _wrong))
        if where == "top":
            table[draw(st.sampled_from(_TOP_KEYS))] = wrong
            continue
        if where == "threshold":
            thresholds = table.setdefault("thresholds", {})
            if isinstance(thresholds, dict):
                thresholds[draw(st.sampled_from(_THRESHOLDS) | _key)] = wrong
            continue
        languages = table.setdefault("languages", {})
        if not isinstance(languages, dict):
            continue
        name = draw(st.sampled_from(sorted(languages)) if languages else st.text(max_size=6))
        language = languages.setdefault(name, {"extensions": [".z"]})
        if not isinstance(language, dict):
            continue
        if where == "language":
            language[draw(st.sampled_from(_LANGUAGE_KEYS) | _key)] = wrong
        elif isinstance(keywords := language.setdefault("keywords", {}), dict):
            keywords[draw(st.text(max_size=6))] = wrong
    extra = draw(st.dictionaries(st.text(max_size=8), values(2), max_size=2))
    return {k: v for k, v in extra.items() if k not in _TOP_KEYS} | table


def key_paths(table: object, prefix: str = "") -> set[str]:
    """Every key of a table as a dotted path (`thresholds.spike_ratio`)."""
    if not isinstance(table, dict):
        return set()
    found = set()
    for key, value in table.items():
        path = f"{prefix}{key}"
        found |= {path} | key_paths(value, path + ".")
    return found


def check_config(config: Config) -> None:
    t = config.thresholds
    for name in Thresholds._fields:
        value = getattr(t, name)
        assert isinstance(value, type(getattr(Thresholds(), name))), (name, value)
        assert math.isfinite(value) and 0 <= value <= 1e9, (name, value)
    assert 0 < config.max_file_bytes <= 2**31
    for count in (config.max_findings, config.budget, config.max_inline_comments):
        assert isinstance(count, int) and 0 <= count <= 10**7
    for language in map(config.registry.get, config.registry.names()):
        weights = [language.indent_weight, language.decorator_weight, *language.keywords.values()]
        assert all(isinstance(w, float) and math.isfinite(w) and w >= 0 for w in weights)


@settings(max_examples=examples(400))
@given(table=tables())
def test_any_table_is_a_config_or_names_its_key(table: dict[str, Any]) -> None:
    try:
        config = parse_config(table)
    except ConfigError as exc:
        message = str(exc)
        assert any(message.startswith(path + ":") for path in key_paths(table)), message
        return
    check_config(config)


@settings(max_examples=examples(150))
@given(st.one_of(st.text(max_size=60), st.integers(0, 6000).map(lambda n: "x = " + "9" * n)))
def test_any_text_is_settings_or_a_config_error(text: str) -> None:
    """The TOML text itself: whatever it holds, a table or a ConfigError."""
    try:
        table = settings_table(text, ".reviewbot.toml", "where.toml")
    except ConfigError as exc:
        assert str(exc).startswith("where.toml: ")
        return
    assert isinstance(table, dict)
