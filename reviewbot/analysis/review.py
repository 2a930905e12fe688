"""Reviewing a change: units of both sides, local before/after measures, findings, context."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property
from typing import NamedTuple

from reviewbot.analysis.exports import EXPORT_LANGUAGES, still_exported
from reviewbot.analysis.findings import (
    Thresholds,
    UnitDelta,
    deeper,
    dense_new,
    measures_of,
    repetitive,
    spike,
    suppressed,
)
from reviewbot.analysis.measure import UnitMeter, branch_count
from reviewbot.analysis.units import UnitPair, head_line, pair_units, qualified_name
from reviewbot.engine import LineIndex, Profile
from reviewbot.engine.languages import LanguageRegistry
from reviewbot.engine.structure import CONTAINERS, Unit
from reviewbot.model import (
    ChangedFile,
    FileSummary,
    Finding,
    LineMap,
    MetricsChange,
    Status,
    UnitChange,
    UnitMetrics,
    UnitRef,
    innermost,
)

__all__ = [
    "NOT_CODE",
    "FileReview",
    "MeasuredFile",
    "ReviewOptions",
    "UnitCase",
    "judge_file",
    "measure_file",
    "not_code",
    "review_file",
    "skipped_summary",
]


class ReviewOptions(NamedTuple):
    profile: Profile
    registry: LanguageRegistry
    thresholds: Thresholds = Thresholds()
    # Measure with the engine's plain-Python kernels (``LineIndex``: no numpy to import, the
    # same numbers); else each side is a numpy ``FileIndex``, as the context and bundles need.
    pure: bool = False


_PROFILE_UNITS = 400  # units measured for a file's own profile


def _ref(u: Unit) -> UnitRef:
    return UnitRef(u.label, u.start + 1, u.end + 1)


def _metrics_of(
    index: LineIndex | None, units: list[Unit | None]
) -> tuple[UnitMeter | None, list[UnitMetrics | None]]:
    """One side's meter of the units, and its numbers of each unit (None where the side or
    the unit is absent). Lines are lines of code: docstrings, comments and blank lines do not
    make a unit longer."""
    if index is None:
        return None, [None] * len(units)
    present = [u for u in units if u is not None]
    meter = UnitMeter(index, present)
    # A function's decision points and nesting are its own lines' (a nested function's are
    # its own row's, as RB101 and RB102 count them); a class-like unit's are all its lines'.
    structure = index.structure
    measured = iter(
        m if structure.container_like(u) else meter.own_metrics(u, m)
        for u, m in zip(present, meter.metrics(present), strict=True)
    )
    return meter, [None if u is None else next(measured) for u in units]


# Prose, data, configuration and keys: listed as changed files, never analysed as structure
# (no language table covers them; the generic one would make units of paragraphs).
_NOT_CODE_SUFFIXES = frozenset(
    ".md .markdown .rst .txt .adoc .asciidoc .org .in .cfg .ini .toml .yaml .yml .json .jsonc "
    ".json5 .xml .csv .tsv .pem .crt .cer .der .key .pub .asc .sig .gpg .lock .svg .properties "
    ".env .editorconfig .gitignore .gitattributes .dockerignore .npmignore .po .pot .map "
    ".mdx .ipynb".split()
)
_NOT_CODE_NAMES = frozenset(
    "license licence copying notice authors contributors changelog changes history news "
    "readme contributing code_of_conduct security maintainers owners codeowners "
    "manifest.in requirements.txt".split()
)
# Build scripts: how the code is built, not the code (a Gradle script is Groovy or Kotlin,
# and `libs.foo.get()` in it is no call of the repository's `get()`).
_BUILD_NAMES = frozenset(
    "makefile gnumakefile cmakelists.txt meson.build meson_options.txt build build.bazel "
    "workspace workspace.bazel module.bazel".split()
)
_BUILD_SUFFIXES = (".gradle", ".gradle.kts", ".cmake", ".mk")
NOT_CODE = "not code (prose, data or configuration)"


def not_code(path: str, language: str) -> bool:
    """Whether a file is prose, data or configuration that no language table covers, or a
    build script."""
    name = path.rsplit("/", 1)[-1].lower()
    if name in _BUILD_NAMES or name.endswith(_BUILD_SUFFIXES):
        return True
    if language != "generic":
        return False
    dot = name.rfind(".")
    suffix = name[dot:] if dot >= 0 else ""  # (`.gitattributes` is its own suffix)
    stem = name.split(".", 1)[0]
    # (`LICENSE-APACHE`, `LICENSE_MIT`: a prose name in capitals and a qualifier)
    written = path.rsplit("/", 1)[-1].split(".", 1)[0]
    head = re.split(r"[-_]", stem, maxsplit=1)[0] if written.isupper() else stem
    return (
        suffix in _NOT_CODE_SUFFIXES
        or name in _NOT_CODE_NAMES
        or stem in _NOT_CODE_NAMES
        or (head in _NOT_CODE_NAMES and head != stem)
    )


def _touched(pair: UnitPair, old: LineIndex | None, new: LineIndex | None, lm: LineMap) -> bool:
    """Whether the change touches the unit on either side (its decorators with it)."""
    return (
        pair.new is not None
        and new is not None
        and lm.touches_new(head_line(new, pair.new) + 1, pair.new.end + 1)
    ) or (
        pair.old is not None
        and old is not None
        and lm.touches_old(head_line(old, pair.old) + 1, pair.old.end + 1)
    )


def _direct(index: LineIndex | None, unit: Unit | None, lines: list[int]) -> bool:
    """Whether any of the (1-based) changed lines belongs to the unit itself rather than to a
    unit nested in it (a member's decorators are the member's)."""
    if index is None or unit is None:
        return False
    decorators: set[int] | None = None  # (the members' decorator lines: read when needed)
    for n in lines:
        if not index.code[n - 1]:
            continue  # a blank or comment line between members is no change of the container
        owner = index.unit_at(n - 1)
        if owner is None or owner.start != unit.start:
            continue
        if decorators is None:
            units = index.structure.units
            members = [u for u in units if u.parent >= 0 and units[u.parent].start == unit.start]
            decorators = {k for u in members for k in range(head_line(index, u), u.start)}
        if n - 1 not in decorators:
            return True
    return False


def _direct_change(
    pair: UnitPair, old: LineIndex | None, new: LineIndex | None, line_map: LineMap
) -> bool:
    """Whether a changed line (added on the new side, removed on the old) is the unit's own,
    not only one of the units nested in it."""
    return (
        pair.new is not None
        and _direct(new, pair.new, line_map.added_between(pair.new.start + 1, pair.new.end + 1))
    ) or (
        pair.old is not None
        and _direct(old, pair.old, line_map.removed_between(pair.old.start + 1, pair.old.end + 1))
    )


SMALL_EDIT = 2  # a unit's own changed lines that make a small edit (``UnitChange.edit``)
SMALL_EDIT_CHARS = 60  # and at most this long, each


def _small_edit(
    pair: UnitPair, old: LineIndex | None, new: LineIndex | None, line_map: LineMap
) -> str:
    """``UnitChange.edit``: a modified unit's changed lines when they are at most
    ``SMALL_EDIT`` short ones (blank lines aside), "" otherwise."""
    if pair.old is None or pair.new is None or old is None or new is None:
        return ""
    added = line_map.added_between(pair.new.start + 1, pair.new.end + 1)
    removed = line_map.removed_between(pair.old.start + 1, pair.old.end + 1)
    if len(added) + len(removed) > 2 * SMALL_EDIT:  # (a quick no before reading lines)
        return ""
    lines = [("-", old.lines[n - 1].strip()) for n in removed]
    lines += [("+", new.lines[n - 1].strip()) for n in added]
    lines = [(mark, text) for mark, text in lines if text]
    if not lines or len(lines) > SMALL_EDIT or any(len(t) > SMALL_EDIT_CHARS for _, t in lines):
        return ""
    return "\n".join(mark + text for mark, text in lines)


def _moved_within(
    pair: UnitPair, old: LineIndex | None, new: LineIndex | None, line_map: LineMap
) -> bool:
    """Whether a unit paired by its name moved within its file, its lines the same: every
    line of it removed from one place and added at another (cli f9f0d037 moved FullName, Path
    and Walk near Lineage; commons-lang c0159a852 "Sort members")."""
    if pair.old is None or pair.new is None or old is None or new is None:
        return False
    a, b = pair.old, pair.new
    if a.end - a.start != b.end - b.start:
        return False
    if len(line_map.removed_between(a.start + 1, a.end + 1)) != a.end - a.start + 1:
        return False
    if len(line_map.added_between(b.start + 1, b.end + 1)) != b.end - b.start + 1:
        return False
    # Not where it was: between the unchanged lines around its old place, it was rewritten
    # in place (tqdm 687f5e4 took `_text_width` out of a `try: ... else:`, dedented).
    above, below = a.start, a.end + 2  # (1-based: the lines right around it)
    while above > 0 and line_map.old_to_new(above) is None:
        above -= 1
    while below <= len(old.lines) and line_map.old_to_new(below) is None:
        below += 1
    low = line_map.old_to_new(above) if above > 0 else 0
    high = line_map.old_to_new(below) if below <= len(old.lines) else None
    if (low or 0) < b.start + 1 and (high is None or b.end + 1 < high):
        return False
    return all(
        old.lines[a.start + k].strip() == new.lines[b.start + k].strip()
        for k in range(a.end - a.start + 1)
    )


def _container(pair: UnitPair, old: LineIndex | None, new: LineIndex | None) -> bool:
    """Whether the unit's members carry its findings (``Structure.container_like``)."""
    unit, side = (pair.new, new) if pair.new is not None else (pair.old, old)
    assert unit is not None
    return unit.kind in CONTAINERS if side is None else side.structure.container_like(unit)


def _p90(values: list[float]) -> float:
    """The 90th percentile by nearest rank (plain Python: numpy's would cost an import)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-9 * len(ordered) // 10) - 1))]


class FileReview(NamedTuple):
    """One reviewed file: what it shows, its findings and both sides' engine indexes (kept for
    the hunk context and the bundles)."""

    summary: FileSummary
    findings: list[Finding]
    old: LineIndex | None  # a FileIndex unless measured with the pure kernels
    new: LineIndex | None


def skipped_summary(
    cf: ChangedFile, reason: str | None = None, status: Status | None = None
) -> FileSummary:
    """A file listed without analysis, with the reason."""
    return FileSummary(
        cf.path,
        cf.old_path,
        status or cf.status,
        reason if reason is not None else cf.reason,
        None,
        cf.added,
        cf.removed,
        (),
        cf.warnings if reason is None else (),
        cf.hunks,
    )


class UnitCase(NamedTuple):
    """A unit of the new side that the change touches, with what the finding rules read."""

    delta: UnitDelta
    added: bool  # a new unit (RB102 applies)
    container: bool  # class-like: its rise is the sum of its members' (no RB101/RB102)
    header: str  # the header line as written, for ``reviewbot: ignore``
    # Whether a changed line is the unit's own, not only its nested units' (a function whose
    # only change is inside a closure: the closure carries the finding, not both).
    direct: bool = True


class MeasuredFile:
    """A changed file measured: everything a review computes before the thresholds apply.

    The summary (units paired through the line map, with their measures on both sides), both
    sides' engine indexes, and the touched units of the new side as the rules read them. The
    same ``MeasuredFile`` judged under different thresholds gives each one's findings, so a
    sweep over thresholds measures a file once (``judge_file``).

    A plain class (no dataclass: the hook's path does without the dataclasses module).
    """

    def __init__(
        self,
        summary: FileSummary,
        old: LineIndex | None,  # a FileIndex unless measured with the pure kernels
        new: LineIndex | None,
        cases: tuple[UnitCase, ...],
    ) -> None:
        self.summary = summary
        self.old = old
        self.new = new
        self.cases = cases

    @cached_property
    def profile_p90(self) -> float:
        """The file's own profile for RB102: the 90th percentile of its units' decision points
        (the old side's, else the new side's; the first units only)."""
        base = self.old or self.new
        if base is None:
            return 0.0
        units = base.structure.units[:_PROFILE_UNITS]
        return _p90([float(branch_count(base, u)) for u in units])


def _index_type(pure: bool) -> type[LineIndex]:
    if pure:
        return LineIndex
    # Lazy: the numeric index imports numpy (~90 ms), which the pure kernels do without.
    from reviewbot.engine.index import FileIndex

    return FileIndex


def _renamed_from(old: LineIndex | None, pair: UnitPair, label: str) -> str | None:
    """The old qualified name of a unit paired by its body under another name, else None."""
    if not pair.by_body or old is None or pair.old is None:
        return None
    was = qualified_name(old, pair.old)
    return was if was != label else None


def _kept_export(pair: UnitPair, old: LineIndex, new_text: str | None) -> bool:
    """A top-level JS/TS declaration deleted whose name the file still exports, an alias of
    the same thing (``exports.still_exported``): no unit removed."""
    unit = pair.old
    if pair.new is not None or unit is None or unit.parent >= 0:
        return False
    lines = "\n".join(old.lines[unit.start : unit.end + 1])
    return still_exported(unit.name, lines, new_text)


def measure_file(
    cf: ChangedFile, profile: Profile, registry: LanguageRegistry, *, pure: bool = False
) -> MeasuredFile:
    """Units of both sides paired through the line map and measured locally: the part of a
    review that does not depend on the thresholds. ``pure``: as in ``ReviewOptions``."""
    language = registry.detect(cf.path)
    make = _index_type(pure)
    old = make(cf.old_text, language, profile) if cf.old_text is not None else None
    new = make(cf.new_text, language, profile) if cf.new_text is not None else None
    line_map = cf.line_map
    changes: list[UnitChange] = []
    cases: list[UnitCase] = []
    pairs = pair_units(old, new, line_map)
    if old is not None and language.name in EXPORT_LANGUAGES:
        pairs = [p for p in pairs if not _kept_export(p, old, cf.new_text)]
    touched = [pair for pair in pairs if _touched(pair, old, new, line_map)]
    # Each side's touched units measured together (the heat of all of them at once).
    old_meter, old_metrics = _metrics_of(old, [pair.old for pair in touched])
    new_meter, new_metrics = _metrics_of(new, [pair.new for pair in touched])
    for pair, m_old, m_new in zip(touched, old_metrics, new_metrics, strict=True):
        side, unit = (new, pair.new) if pair.new is not None else (old, pair.old)
        meter = new_meter if pair.new is not None else old_meter
        assert side is not None and unit is not None and (m_new or m_old) is not None
        assert meter is not None
        kind = "added" if pair.old is None else "removed" if pair.new is None else "modified"
        label = qualified_name(side, unit)
        was = _renamed_from(old, pair, label)
        kind = "renamed" if was is not None else kind
        moved_here = kind == "modified" and _moved_within(pair, old, new, line_map)
        kind = "moved" if moved_here else kind
        metrics = MetricsChange(m_old, m_new)
        direct = _direct_change(pair, old, new, line_map)
        container = _container(pair, old, new)
        # Worth a row: a new or removed unit, or numbers that moved; for a class-like unit
        # only when the change is in its own lines (not only in a member's).
        noteworthy = (
            kind not in ("modified", "renamed")
            or (metrics.moved and (not container or direct))
            or (was is not None and innermost(was) != innermost(label))
        )
        new_ref = _ref(pair.new) if pair.new else None
        changes.append(
            UnitChange(
                cf.path,
                kind,
                label,
                _ref(pair.old) if pair.old else None,
                new_ref,
                metrics,
                meter.nesting_profile(unit),
                noteworthy,
                label if moved_here else was,
                (cf.old_path or cf.path) if moved_here else None,
                _small_edit(pair, old, new, line_map) if kind == "modified" and direct else "",
                container,
            )
        )
        if pair.new is None or new is None:
            continue
        changed = line_map.added_between(pair.new.start + 1, pair.new.end + 1)
        span = (changed[0], changed[-1]) if changed else (pair.new.start + 1, pair.new.start + 1)
        delta = UnitDelta(
            cf.path,
            label,
            " ".join(new.code[pair.new.start].split()),
            new_ref or _ref(pair.new),
            span,
            metrics,
            f"renamed from {was}" if was is not None else None,
            (
                _own_decisions(old_meter, pair.old, m_old),
                _own_decisions(new_meter, pair.new, m_new),
            ),
        )
        cases.append(
            UnitCase(
                delta,
                pair.old is None,
                container,
                new.lines[pair.new.start],
                direct,
            )
        )
    summary = FileSummary(
        cf.path,
        cf.old_path,
        cf.status,
        cf.reason,
        language.name,
        cf.added,
        cf.removed,
        tuple(changes),
        cf.warnings,
        cf.hunks,
    )
    return MeasuredFile(summary, old, new, tuple(cases))


def _own_decisions(
    meter: UnitMeter | None, unit: Unit | None, metrics: UnitMetrics | None
) -> int | None:
    """A unit's decision points with those of the units nested in it left out."""
    if meter is None or unit is None or metrics is None:
        return None
    units, starts = meter.index.structure.units, meter.starts  # in order of their first line
    inside = units[bisect_right(starts, unit.start) : bisect_right(starts, unit.end)]
    own = meter.own_branches(unit, inside)
    return metrics.decisions if own is None else own


def judge_file(measured: MeasuredFile, thresholds: Thresholds) -> FileReview:
    """The findings of a measured file under ``thresholds``."""
    t = thresholds
    new = measured.new
    findings: list[Finding] = []
    for case in measured.cases:
        assert new is not None  # a case is a unit of the new side
        # The measures the rules read, taken once from the metrics as they are now (a moved
        # unit's were replaced by its old self's after it was measured: ``link_moves``).
        delta = case.delta._replace(measures=measures_of(case.delta.metrics))
        # A new file has no profile of its own to compare with: the configured bar applies.
        dense = None
        if case.added:  # a new unit, compared with the file's own profile when it has one
            dense = dense_new(delta, t, measured.profile_p90 if measured.old is not None else None)
        # A class-like unit's rise is the sum of its members': the member carries the finding
        # (a class "nests deeper" when one of its methods does). RB101 already says how much
        # deeper a unit nests: RB103 on the same unit would say it twice.
        members_only = case.container or not case.direct  # its members carry the finding
        spiked = None if members_only else spike(delta, t)
        rules = (
            spiked,
            None if members_only else dense,
            None if members_only or spiked is not None else deeper(delta, t),
            None if members_only else repetitive(delta, t),
        )
        for found in rules:
            if found is None:
                continue
            flagged = new.lines[found.line - 1] if 0 < found.line <= new.line_count else ""
            if suppressed(found.code, case.header, flagged):
                continue
            findings.append(found)
    return FileReview(measured.summary, findings, measured.old, measured.new)


def review_file(
    cf: ChangedFile, opts: ReviewOptions, measured: MeasuredFile | None = None
) -> FileReview:
    """Units of both sides paired through the line map, measured locally, and the findings.

    ``measured``: this file already measured under the same profile and registry
    (``measure_file``), so that only the thresholds' work is done again."""
    if measured is None:
        measured = measure_file(cf, opts.profile, opts.registry, pure=opts.pure)
    return judge_file(measured, opts.thresholds)
