"""Configuration: ``[tool.reviewbot]`` in pyproject.toml or ``.reviewbot.toml``, validated once.

Read at the door, never at import. Unknown keys produce warnings naming them; invalid values
raise :class:`ConfigError` naming the key and what is allowed. Command-line flags override.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from reviewbot.analysis.findings import Thresholds
from reviewbot.codes import CODES
from reviewbot.engine.languages import (
    LanguageError,
    LanguageRegistry,
    default_registry,
    language_from_mapping,
)
from reviewbot.engine.profiles import DEFAULT_PROFILE, PROFILES
from reviewbot.errors import ConfigError
from reviewbot.model import FailLevel
from reviewbot.repo.files import excluded

__all__ = ["DEFAULT_MAX_FILE_BYTES", "Config", "find_config_file", "load_config"]

DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024
DEFAULT_EXCLUDE = (
    "**/node_modules/**",
    "**/.git/**",
    "**/.venv/**",
    "venv/**",
    "**/__pycache__/**",
)  # minified and generated files are recognised and skipped with their own reason


class Config(NamedTuple):
    profile: str = DEFAULT_PROFILE
    thresholds: Thresholds = Thresholds()
    fail_on: FailLevel = FailLevel.NEVER
    max_findings: int = 50
    budget: int = 6000
    max_inline_comments: int = 10
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    registry: LanguageRegistry = default_registry()
    source: str | None = None  # the file the configuration came from
    warnings: tuple[str, ...] = ()
    # findings left out: (code, path glob) pairs, the glob "" for every path (`ignore =
    # ["RB101", "RB105:legacy/**"]`): what a comment cannot silence (a deleted file's RB105)
    ignore: tuple[tuple[str, str], ...] = ()

    def ignores(self, code: str, path: str) -> bool:
        """Whether the configuration leaves a finding of ``code`` on ``path`` out."""
        return any(c == code and (not glob or excluded(path, (glob,))) for c, glob in self.ignore)

    def with_overrides(self, **changes: Any) -> Config:
        return self._replace(**{k: v for k, v in changes.items() if v is not None})


_KEYS = {
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
}
_RESERVED: set[str] = set()


def find_config_file(start: Path) -> Path | None:
    """The nearest ``.reviewbot.toml``, or ``pyproject.toml`` with ``[tool.reviewbot]``,
    from ``start`` up to the repository root (the folder holding ``.git``)."""
    here = start.resolve()
    if here.is_file():
        here = here.parent
    for folder in (here, *here.parents):
        dotfile = folder / ".reviewbot.toml"
        if dotfile.is_file():
            return dotfile
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                text = pyproject.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            data = _toml_or_empty(text) if "reviewbot" in text else {}
            if isinstance(data.get("tool"), dict) and "reviewbot" in data["tool"]:
                return pyproject
            if not data and _SECTION.search(text):
                return pyproject  # settings that do not parse: said, not skipped (fail-open)
        if (folder / ".git").exists():
            return None
    return None


_SECTION = re.compile(r"(?m)^\s*\[\s*tool\s*\.\s*reviewbot\b")


def _toml_or_empty(text: str) -> dict[str, Any]:
    # Lazy: tomllib costs ~5 ms to import, and most repositories have no reviewbot settings.
    import tomllib

    try:
        return tomllib.loads(text)
    except ValueError:  # not TOML (TOMLDecodeError), or a number past Python's limits
        return {}


def _table(path: Path) -> Mapping[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    return settings_table(text, path.name, str(path))


def settings_table(text: str, filename: str, where: str) -> dict[str, Any]:
    """reviewbot's settings in a TOML text: `[tool.reviewbot]` of a pyproject.toml (empty when
    absent); of any other file, its `[tool.reviewbot]` if it has one, else the whole file."""
    # Lazy: tomllib costs ~5 ms to import, and is needed only when a configuration exists.
    import tomllib

    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer longer than Python reads
        reason = str(exc).split(";")[0]  # not the advice to call sys.set_int_max_str_digits()
        raise ConfigError(f"{where}: invalid TOML: {reason}") from None
    tool = data.get("tool")
    if filename == "pyproject.toml":
        table = tool.get("reviewbot", {}) if isinstance(tool, dict) else {}
    elif isinstance(tool, dict):
        table = tool.get("reviewbot", data)
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [tool.reviewbot] must be a table")
    return table


def parse_config(table: Mapping[str, Any], source: str | None = None) -> Config:
    where = f"{source}: " if source else ""
    warnings = [
        f"{where}unknown configuration key {key!r} (ignored)"
        for key in sorted(set(table) - _KEYS - _RESERVED)
    ]
    config = Config(source=source)

    profile = table.get("profile", config.profile)
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ConfigError(
            f"{where}profile: expected one of {', '.join(sorted(PROFILES))}, got {profile!r}"
        )
    exclude = table.get("exclude", list(config.exclude))
    if not isinstance(exclude, list) or not all(isinstance(g, str) and g for g in exclude):
        raise ConfigError(f"{where}exclude: expected a list of glob strings")
    max_bytes = table.get("max_file_bytes", config.max_file_bytes)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or not 0 < max_bytes <= 2**31:
        raise ConfigError(f"{where}max_file_bytes: expected a positive integer, got {max_bytes!r}")

    ignore = _ignore(table.get("ignore", []), where)
    thresholds = _thresholds(table.get("thresholds", {}), where, warnings)
    fail_on = FailLevel.parse(table.get("fail_on", "never"), f"{where}fail_on")
    counts = {}
    for key, default in (("max_findings", 50), ("budget", 6000), ("max_inline_comments", 10)):
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**7:
            raise ConfigError(f"{where}{key}: expected a whole number 0-10000000, got {value!r}")
        counts[key] = value

    registry = config.registry
    languages = table.get("languages", {})
    if not isinstance(languages, dict):
        raise ConfigError(f"{where}languages: expected a table of language tables")
    extra = []
    for name, data in languages.items():
        if not isinstance(data, dict):
            raise ConfigError(f"{where}languages.{name}: expected a table")
        try:
            extra.append(language_from_mapping(str(name), data, registry))
        except LanguageError as exc:
            raise ConfigError(f"{where}{exc}") from None
    if extra:
        registry = registry.with_languages(extra)
    return Config(
        profile=str(profile),
        thresholds=thresholds,
        fail_on=fail_on,
        max_findings=counts["max_findings"],
        budget=counts["budget"],
        max_inline_comments=counts["max_inline_comments"],
        exclude=tuple(exclude),
        max_file_bytes=max_bytes,
        registry=registry,
        source=source,
        warnings=tuple(warnings),
        ignore=ignore,
    )


def _ignore(raw: object, where: str) -> tuple[tuple[str, str], ...]:
    """``ignore = ["RB101", "RB105:legacy/**"]``: codes, each for every path or for a glob."""
    known = ", ".join(CODES)
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ConfigError(f'{where}ignore: expected a list of codes ("RB105" or "RB105:glob")')
    out = []
    for item in raw:
        code, _, glob = item.partition(":")
        code = code.strip().upper()
        if code not in CODES:
            raise ConfigError(f"{where}ignore: unknown code {code!r}; known: {known}")
        if _ and not glob.strip():
            raise ConfigError(f"{where}ignore: {item!r} names no path glob after ':'")
        out.append((code, glob.strip()))
    return tuple(out)


def _thresholds(raw: object, where: str, warnings: list[str]) -> Thresholds:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}thresholds: expected a table")
    defaults = Thresholds()
    known = set(Thresholds._fields)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            warnings.append(
                f"{where}unknown threshold 'thresholds.{key}' (ignored); known: "
                f"{', '.join(sorted(known))}"
            )
            continue
        whole = isinstance(getattr(defaults, key), int)
        ok = (
            not isinstance(value, bool)
            and isinstance(value, (int, float))
            and (isinstance(value, int) or math.isfinite(value))  # no int is too big to compare
            and 0 <= value <= 1e9
            and (not whole or float(value).is_integer())
        )
        if not ok:
            kind = "a whole number" if whole else "a finite number"
            raise ConfigError(f"{where}thresholds.{key}: expected {kind} >= 0, got {value!r}")
        values[key] = int(value) if whole else float(value)
    return Thresholds()._replace(**values)


def load_config(explicit: str | None, start: Path) -> Config:
    """The configuration named by ``--config``, or the one found from ``start``, or defaults."""
    path = Path(explicit) if explicit else find_config_file(start)
    if path is None:
        return Config()
    return parse_config(_table(path), str(path))
