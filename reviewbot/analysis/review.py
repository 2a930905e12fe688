"""Reviewing a change: units of both sides, local before/after measures, findings, context."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewbot.analysis.findings import (
    Thresholds,
    UnitDelta,
    deeper,
    dense_new,
    repetitive,
    spike,
    suppressed,
)
from reviewbot.analysis.measure import UnitMeasure, branch_count, measure_unit
from reviewbot.analysis.units import pair_units, qualified_name
from reviewbot.engine import FileIndex, Profile
from reviewbot.engine.languages import LanguageRegistry
from reviewbot.engine.structure import CONTAINERS, Unit
from reviewbot.model import (
    ChangedFile,
    FileSummary,
    Finding,
    Metrics,
    Report,
    Status,
    UnitChange,
    UnitRef,
)
from reviewbot.render.style import sparkline

__all__ = ["ReviewOptions", "review_files"]


@dataclass(frozen=True)
class ReviewOptions:
    profile: Profile
    registry: LanguageRegistry
    thresholds: Thresholds = field(default_factory=Thresholds)
    max_findings: int = 50
    budget: int = 6000  # tokens for the hunk context (about 4 characters a token)
    radius: int = 60
    bundles: bool = True  # group the hunks into review bundles (imports scipy when large)


_PROFILE_UNITS = 400  # units measured for a file's own profile


def _ref(u: Unit) -> UnitRef:
    return UnitRef(u.label, u.start + 1, u.end + 1)


def _metric(name: str, old: UnitMeasure | None, new: UnitMeasure | None) -> Metrics:
    def get(m: UnitMeasure | None) -> float | None:
        return None if m is None else float(getattr(m, name))

    return Metrics(name, get(old), get(new))


_MEASURES = ("lines", "branches", "nesting", "irregularity")


def _p90(values: list[float]) -> float:
    """The 90th percentile by nearest rank (plain Python: numpy's would cost an import)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-9 * len(ordered) // 10) - 1))]


def _review_file(
    cf: ChangedFile, opts: ReviewOptions
) -> tuple[FileSummary, list[Finding], FileIndex | None, FileIndex | None]:
    language = opts.registry.detect(cf.path)
    old = FileIndex(cf.old_text, language, opts.profile) if cf.old_text is not None else None
    new = FileIndex(cf.new_text, language, opts.profile) if cf.new_text is not None else None
    line_map = cf.line_map
    added = sum(len(h.added) for h in cf.hunks)
    removed = sum(len(h.removed) for h in cf.hunks)
    changes: list[UnitChange] = []
    findings: list[Finding] = []
    t = opts.thresholds
    # The file's own profile (how many decision points its units have), for RB102 only.
    p90_cache: list[float] = []

    def file_p90() -> float:
        if not p90_cache:
            base = old or new
            units = base.structure.units[:_PROFILE_UNITS] if base is not None else ()
            p90_cache.append(_p90([float(branch_count(base, u)) for u in units]) if base else 0.0)
        return p90_cache[0]

    for pair in pair_units(old, new, line_map):
        touched_new = pair.new is not None and line_map.touches_new(
            pair.new.start + 1, pair.new.end + 1
        )
        touched_old = pair.old is not None and line_map.touches_old(
            pair.old.start + 1, pair.old.end + 1
        )
        if not (touched_new or touched_old):
            continue
        m_old = measure_unit(old, pair.old) if old is not None and pair.old is not None else None
        m_new = measure_unit(new, pair.new) if new is not None and pair.new is not None else None
        side, unit = (new, pair.new) if pair.new is not None else (old, pair.old)
        shown = m_new if m_new is not None else m_old
        assert side is not None and unit is not None and shown is not None
        kind = "added" if pair.old is None else "removed" if pair.new is None else "modified"
        label = qualified_name(side, unit)
        metric = {n: _metric(n, m_old, m_new) for n in _MEASURES}
        changes.append(
            UnitChange(
                cf.path,
                kind,
                label,
                _ref(pair.old) if pair.old else None,
                _ref(pair.new) if pair.new else None,
                tuple(metric[n] for n in ("branches", "nesting", "irregularity", "lines")),
                sparkline(list(shown.per_line), width=24),
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
            _ref(pair.new),
            span,
            *(metric[n] for n in ("lines", "branches", "nesting", "irregularity")),
        )
        # A new file has no profile of its own to compare with: the configured bar applies.
        dense = None
        if pair.old is None:  # a new unit, compared with the file's own profile when it has one
            dense = dense_new(delta, t, file_p90() if old is not None else 0.0)
        # A class-like unit's rise is the sum of its members': the member carries the finding.
        container = pair.new.kind in CONTAINERS
        rules = (
            None if container else spike(delta, t),
            None if container else dense,
            deeper(delta, t),
            repetitive(delta, t),
        )
        for found in rules:
            if found is None:
                continue
            header = new.lines[pair.new.start]
            flagged = new.lines[found.line - 1] if 0 < found.line <= new.line_count else ""
            if suppressed(found.code, header, flagged):
                continue
            findings.append(found)
    summary = FileSummary(
        cf.path,
        cf.old_path,
        cf.status,
        cf.reason,
        language.name,
        added,
        removed,
        tuple(changes),
        cf.warnings,
    )
    return summary, findings, old, new


def review_files(
    files: Sequence[ChangedFile],
    opts: ReviewOptions,
    *,
    base: str,
    head: str,
    deadline: float | None = None,
) -> Report:
    """The report of a change. Past ``deadline`` (time.monotonic) the remaining files are
    listed as not reviewed instead of analysed, so a door can bound its time."""
    started = time.perf_counter()
    summaries: list[FileSummary] = []
    findings: list[Finding] = []
    indexes: dict[str, FileIndex] = {}
    sides: dict[str, tuple[FileIndex | None, FileIndex | None]] = {}
    not_reviewed = 0
    for cf in files:
        if deadline is not None and time.monotonic() > deadline:
            not_reviewed += 1
            summaries.append(
                FileSummary(
                    cf.path,
                    cf.old_path,
                    Status.SKIPPED,
                    "not reviewed: time budget reached",
                    None,
                    sum(len(h.added) for h in cf.hunks),
                    sum(len(h.removed) for h in cf.hunks),
                    (),
                    (),
                )
            )
            continue
        if cf.status in (Status.SKIPPED, Status.BINARY) or (
            cf.old_text is None and cf.new_text is None
        ):
            added = sum(len(h.added) for h in cf.hunks)
            removed = sum(len(h.removed) for h in cf.hunks)
            summaries.append(
                FileSummary(
                    cf.path,
                    cf.old_path,
                    cf.status,
                    cf.reason,
                    None,
                    added,
                    removed,
                    (),
                    cf.warnings,
                )
            )
            continue
        summary, found, old, new = _review_file(cf, opts)
        summaries.append(summary)
        findings.extend(found)
        sides[cf.path] = (old, new)
        if new is not None:
            indexes[cf.path] = new
    findings.sort(key=lambda f: (-f.severity.rank, f.path, f.line, f.code))
    kept = findings[: opts.max_findings]
    kept.sort(key=lambda f: (f.path, f.line, f.code))
    contexts: list[Any] = []
    if opts.budget > 0:
        from reviewbot.analysis.context import hunk_contexts  # not on the hook's path

        contexts = hunk_contexts(files, indexes, kept, opts.budget, opts.radius)
    bundles: list[dict[str, Any]] = []
    if opts.bundles:
        from reviewbot.analysis.bundles import bundle_change

        analysed = [cf for cf in files if cf.path in sides]
        bundles = bundle_change(analysed, sides, findings)
    stats = {
        "files": len(files),
        "files_analysed": sum(1 for s in summaries if s.language is not None),
        "files_skipped": sum(1 for s in summaries if s.language is None),
        "lines_added": sum(s.added for s in summaries),
        "lines_removed": sum(s.removed for s in summaries),
        "units_changed": sum(len(s.units) for s in summaries),
        "findings": {
            sev: sum(1 for f in kept if f.severity.value == sev)
            for sev in ("error", "warning", "info")
        },
        "findings_total": len(findings),
        "files_not_reviewed": not_reviewed,
        "seconds": round(time.perf_counter() - started, 3),
    }
    return Report(
        base,
        head,
        tuple(summaries),
        tuple(kept),
        tuple(contexts),
        tuple(bundles),
        stats,
        opts.profile.name,
        len(findings) - len(kept),
    )
