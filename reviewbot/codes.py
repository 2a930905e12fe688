"""The finding catalogue: every code, what it means, how it is named in SARIF, its default
level and the hint an inline comment carries. One place for every door and renderer."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CODES", "Code", "describe"]


class Code(NamedTuple):
    code: str
    name: str  # SARIF rule name
    summary: str  # one line: what it means
    level: str  # SARIF default level: warning | note
    hint: str  # what to do about it (inline comments)


CODES: dict[str, Code] = {
    c.code: c
    for c in (
        Code(
            "RB101",
            "ComplexitySpike",
            "complexity spike: a changed unit became markedly more tangled",
            "warning",
            "Consider moving the new logic into a function of its own.",
        ),
        Code(
            "RB102",
            "DenseNewUnit",
            "dense new unit: a new unit is unusually complex for this file",
            "warning",
            "A reviewer should read this unit first.",
        ),
        Code(
            "RB103",
            "DeeperNesting",
            "deeper nesting: a changed unit gained two or more nesting levels",
            "note",
            "Early returns or a helper would flatten it.",
        ),
        Code(
            "RB104",
            "RepetitiveGrowth",
            "repetitive growth: a unit grew long with little new structure (info)",
            "note",
            "Repetitive code: maybe a table or a loop.",
        ),
        Code(
            "RB105",
            "DeletedButReferenced",
            "deleted but referenced: the change deletes or renames a declaration still used "
            "elsewhere",
            "warning",
            "Update or remove the remaining references.",
        ),
        Code(
            "RB106",
            "StaleCallers",
            "stale callers: a declaration's parameters changed, callers outside the change "
            "still call it the old way (or methods overriding it still take the old ones)",
            "warning",
            "Update the listed calls (and overrides) to the new parameter list.",
        ),
    )
}


def describe() -> dict[str, str]:
    """code -> one-line summary (the report's `tool.codes`)."""
    return {code: c.summary for code, c in CODES.items()}
