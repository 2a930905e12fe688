"""Impact without an index: where else the units a change adds, removes or re-signs are
named, by a whole-word `git grep` over the head side (bounded in time and count, run by the
caller), each match placed in its enclosing unit. The fallback of a full review in a repository
with no index (``repo_impact`` resolves references with one); its entries say ``source:
"grep"`` and their references ``kind: "text"``, ``confidence: null``: a name, not a resolved
reference. A deleted name still matched is a finding (RB105).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from reviewbot.analysis.findings import fingerprint, suppressed
from reviewbot.analysis.signatures import class_change, header_change, same_header
from reviewbot.engine import FileIndex, LineIndex
from reviewbot.model import (
    LABEL_SEP,
    ChangedFile,
    FileSummary,
    Finding,
    Impact,
    ImpactRef,
    MetricsChange,
    Severity,
    UnitRef,
    innermost,
)

__all__ = ["MAX_NAMES", "MAX_REFERENCES", "Reference", "Search", "bound_by_import", "impact_of"]

MAX_NAMES = 30
MAX_REFERENCES = 20  # shown per name
_NAME = re.compile(r"^(?:[^\W\d]|\$)[\w$]*$")


@dataclass(frozen=True)
class Reference:
    path: str
    line: int
    text: str


# (names, paths not to search) -> (references per name, whether the search was cut short)
Search = Callable[[Sequence[str], Sequence[str]], tuple[dict[str, list[Reference]], bool]]
# (path) -> the head side's index of that file, or None
Indexer = Callable[[str], FileIndex | None]
CodeView = Callable[[str], LineIndex | None]  # a file's lines as code (None: not looked at)


# What ``_as_code`` says of a line matching a name.
_USE, _NO_USE, _DECLARES = "use", "no use", "declares"


def _as_code(r: Reference, name: str, defined_in: str, member: bool, view: LineIndex | None) -> str:
    """Whether a line matching ``name`` uses it as code: not in a comment or a string (the
    file's own scan knows its docstrings and block comments), not a namesake's declaration,
    and, for a top-level declaration, not only as another object's member (`self.x`, `o.x`)
    unless the object is named like its module (`utils.x`). Unknown (no view): a use."""
    if view is None or not 0 < r.line <= len(view.code):
        return _USE
    code = view.code[r.line - 1]
    found = list(re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", code))
    if not found:
        return _NO_USE  # only in a comment or a string
    unit = view.unit_at(r.line - 1)
    if unit is not None and unit.start == r.line - 1 and unit.name == name:
        return _DECLARES  # another declaration of the name
    if all(_key(code, m) for m in found):
        return _NO_USE  # a key of its own (`isVisible: false,` in another object's data)
    if member:
        return _USE
    parts = defined_in.split("/")
    modules = {parts[-1].split(".", 1)[0], *parts[-2:-1]}  # `utils.x`; Go's `pkg.X`: its folder
    for m in found:
        before = code[: m.start()].rstrip()
        if not before.endswith("."):
            return _USE
        receiver = re.search(r"([\w$]+)\s*\??\.$", before)
        if receiver is not None and receiver.group(1) in modules:
            return _USE
    return _NO_USE


def _key(code: str, m: re.Match[str]) -> bool:
    """Whether the name ``m`` found in ``code`` is a key written before its `:` (an object's,
    a field's: `isVisible: false,`, `{ isVisible: x }`), not a value (`a ? isVisible : b`)."""
    before = code[: m.start()].rstrip()
    return (not before or before.endswith(("{", ","))) and re.match(
        r"\s*:(?!:)", code[m.end() :]
    ) is not None


def _name(label: str) -> str | None:
    last = innermost(label)
    candidate = last[:-2] if last.endswith("()") else last.split(" ", 1)[-1]
    # (`func E.Value`, a Go method, is named `Value`; `A::b` is `b`)
    candidate = candidate.split("::")[-1].split(" for ")[0].rsplit(".", 1)[-1]
    if candidate.startswith("__") and candidate.endswith("__"):
        return None  # dunder methods are called by the language, not by name
    return candidate if _NAME.match(candidate) and len(candidate) >= 3 else None


def _local(label: str) -> bool:
    """A unit declared in a function (a test method's `class Example`, a nested `def`): its
    name means it in that function only."""
    return any(
        part.endswith(")") or part.startswith(_FUNCTION_LABELS)
        for part in label.split(LABEL_SEP)[:-1]
    )


_FUNCTION_LABELS = ("def ", "async def ", "function ", "func ", "fn ", "fun ", "sub ")


def _member(label: str) -> bool:
    """A class's member: nested in its label, or named through its receiver (`func E.Value`)."""
    return LABEL_SEP in label or "." in innermost(label).split("(", 1)[0]


class _Wanted(NamedTuple):
    name: str
    unit: str
    path: str
    change: str
    old_lines: tuple[int, int] | None = None  # a removed unit's old lines (1-based, in path)
    new_name: str | None = None  # a renamed unit's
    detail: str = ""  # a re-signed unit's: what its header changed (``header_change``)
    own_lines: tuple[int, int] | None = None  # a class's new lines: its uses of itself


# Units whose header lists bases, not parameters.
_CLASS_LABELS = ("class ", "interface ", "struct ", "enum ", "trait ", "type ")


def deleted_anchor(cf: ChangedFile, start: int, end: int) -> int:
    """The new-side line where the old lines ``start``-``end`` (deleted) were: the line now in
    their place, inside the diff's hunk with its context, so an inline comment can sit there
    (the file's last line at most)."""
    removed = cf.line_map.removed_between(start, end)
    first = removed[0] if removed else start
    line_map = cf.line_map
    for k in range(first - 1, 0, -1):
        mapped = line_map.old_to_new(k)
        if mapped is not None:
            point = mapped + 1
            break
    else:
        point = 1
    text = cf.new_text or ""
    size = text.count("\n") + (0 if text.endswith("\n") else 1)
    point = max(1, min(point, size))
    # A blank line is a poor place for a comment (and for `reviewbot: ignore`): the nearest
    # line with code in the same hunk, the one above first.
    lines = text.split("\n")
    if not lines[point - 1].strip():
        for near in (point - 1, point + 1, point - 2, point + 2, point - 3, point + 3):
            if 1 <= near <= size and lines[near - 1].strip() and in_hunk(cf, near):
                return near
    return point


def in_hunk(cf: ChangedFile, line: int) -> bool:
    """Whether a new-side line is inside one of the diff's hunks (an inline comment can sit
    there)."""
    return any(h.new_len and h.new_start <= line < h.new_start + h.new_len for h in cf.hunks)


class _ChangedLines(dict[str, set[int]]):
    """The added lines of each file of the change (no file: none), each file's set made when
    it is first asked for (a match seldom falls in a large new file: its million lines are
    then never put in a set)."""

    def __init__(self, files: Sequence[ChangedFile]) -> None:
        super().__init__()
        self.files = {cf.path: cf for cf in files}

    def __missing__(self, path: str) -> set[int]:
        cf = self.files.get(path)
        lines: set[int] = set().union(*(h.added for h in cf.hunks)) if cf is not None else set()
        self[path] = lines
        return lines


# Languages whose code can call each other's declarations by name (one runtime); a match in
# a language of another family is a namesake, not a use (a TypeScript `rate()` is not used by
# a Python parameter named `rate`). A language not listed is its own family.
_FAMILIES = {
    "javascript": "js",
    "typescript": "js",
    "java": "jvm",
    "kotlin": "jvm",
    "scala": "jvm",
    "clojure": "jvm",
    "lisp": "lisp",
    "scheme": "lisp",
    "elisp": "lisp",
}


# Style sheets name no code's declarations: `@apply` of Tailwind is not a call of `apply()`.
_STYLESHEETS = (".css", ".scss", ".sass", ".less", ".styl")


def _family(language: str | None) -> str | None:
    if language is None or language == "generic":
        return None  # unknown: any match may be a use
    return _FAMILIES.get(language, language)


def impact_of(
    summaries: Sequence[FileSummary],
    files: Sequence[ChangedFile],
    search: Search,
    indexer: Indexer,
    language_of: Callable[[str], str | None] = lambda path: None,
    code_view: CodeView = lambda path: None,
) -> tuple[list[Impact], list[Finding]]:
    """The impact section and the RB105 findings of a reviewed change. ``language_of`` names a
    path's language: matches in code of another language family are left out."""
    wanted: dict[str, _Wanted] = {}
    languages = {fs.path: fs.language for fs in summaries}
    changed_lines = _ChangedLines(files)
    by_path = {cf.path: cf for cf in files}
    by_old = {cf.old_path or cf.path: cf for cf in files}  # (a unit's `old_path`: before)
    # What the change renamed: a header that names the new one where it named the old one
    # follows the rename (a subclass's `extends PathWrapper` now `extends AbstractPathWrapper`).
    renamed = {
        old_name: name
        for fs in summaries
        for u in fs.units
        if u.old_label is not None
        and (name := _name(u.label)) is not None
        and (old_name := _name(u.old_label)) is not None
        and old_name != name
    }
    follow = re.compile(r"(?<![\w$])(" + "|".join(map(re.escape, renamed)) + r")(?![\w$])")
    for fs in summaries:
        for u in fs.units:
            name = _name(u.label)
            if name is None:
                continue
            detail = ""
            old_name = _name(u.old_label) if u.old_label is not None else None
            if old_name is not None and old_name != name:  # renamed: the old name is gone
                gone = _Wanted(
                    old_name,
                    u.old_label or u.label,
                    u.old_path or fs.path,
                    "renamed",
                    (u.old.start, u.old.end) if u.old is not None else None,
                    name,
                )
                wanted.setdefault(old_name, gone)
                continue  # one entry: what still names the old name
            elif u.kind in ("modified", "renamed", "moved"):
                cf = by_path.get(fs.path)
                was = by_old.get(u.old_path) if u.old_path is not None else cf
                old = _header(was.old_text, u.old.start) if was and u.old else None
                new = _header(cf.new_text, u.new.start) if cf and u.new else None
                if old is not None and new is not None and same_header(old, new):
                    continue  # the body changed, not the signature: callers are unaffected
                if (
                    old is not None
                    and new is not None
                    and renamed
                    and same_header(follow.sub(lambda m: renamed[m.group(1)], old), new)
                ):
                    continue  # it follows a rename of the same change
                if (
                    old is not None
                    and new is not None
                    and fs.language == "python"
                    and _same_through_imports(
                        old, new, was.old_text if was else None, _new_text(cf)
                    )
                ):
                    continue  # a base named through an import alias the change made
                change = "signature"
                if old is not None and new is not None and fs.language is not None:
                    member = _member(u.label)
                    if not innermost(u.label).startswith(_CLASS_LABELS):  # (`class A > def m`)
                        detail = header_change((name, old), (name, new), fs.language, member)
                    else:  # (`now public`, `now extends Reflection (was Java8)`)
                        detail = class_change(old, new, fs.language)
            else:
                change = u.kind
            if (
                change == "removed"
                and fs.language == "python"
                and LABEL_SEP not in u.label
                and bound_by_import(name, _new_text(by_path.get(fs.path)))
            ):
                continue  # its module now imports the name (a fallback `def` dropped): bound
            lines = (u.old.start, u.old.end) if change == "removed" and u.old else None
            classy = innermost(u.label).startswith(_CLASS_LABELS)
            own = (u.new.start, u.new.end) if u.new and classy else None
            wanted.setdefault(
                name, _Wanted(name, u.label, fs.path, change, lines, None, detail, own)
            )
    names = sorted(wanted)[:MAX_NAMES]
    if not names:
        return [], []
    found, cut = search(names, _unsearched(names, wanted, files, changed_lines))
    defined_now: set[str | None] | None = None  # the names the new side declares, when asked
    sections: list[Impact] = []
    findings: list[Finding] = []
    for name in names:
        info = wanted[name]
        family = _family(languages.get(info.path))
        member = _member(info.unit)
        judged = [
            (r, _as_code(r, name, info.path, member, code_view(r.path)))
            for r in found.get(name, [])
        ]
        # Another declaration of the name: without an index, which one a line means is not
        # known (v3's `util.assertNever` beside v4's): listed, but no RB105.
        namesake = any(said == _DECLARES for _r, said in judged)
        refs = [
            r
            for r, said in judged
            if said == _USE
            and not (r.path == info.path and r.line in changed_lines[r.path])
            # (never a class referencing itself: `Sub.class.getName()` inside Sub)
            and not (
                r.path == info.path
                and info.own_lines is not None
                and info.own_lines[0] <= r.line <= info.own_lines[1]
            )
            # (a function's own class or function: no other file names it)
            and not (r.path != info.path and _local(info.unit))
            and (family is None or _family(language_of(r.path)) in (None, family))
            and not (family is not None and r.path.lower().endswith(_STYLESHEETS))
        ]
        uncertain = 0
        if member and len(refs) > MAX_REFERENCES:
            # A member's common name (retrofit's `get`: 491 matches): which are its uses is
            # not known without the index; counted, not listed.
            uncertain, refs = len(refs), []
        shown = []
        for r in refs[:MAX_REFERENCES]:
            index = indexer(r.path)
            unit = index.unit_at(r.line - 1) if index is not None else None
            touched = r.line in changed_lines[r.path]
            label = unit.label if unit is not None else None
            shown.append(ImpactRef(r.path, r.line, label, "text", None, touched))
        sections.append(
            Impact(
                info.name,
                info.unit,
                info.path,
                info.change,
                tuple(shown),
                len(refs),
                cut or len(refs) > MAX_REFERENCES,
                uncertain,
                "grep",
                in_change_total=sum(r.line in changed_lines[r.path] for r in refs),
                incomplete=cut,
                detail=info.detail,
            )
        )
        is_gone = info.change in ("removed", "renamed")
        if is_gone and refs and defined_now is None:
            defined_now = {
                _name(u.label) for fs in summaries for u in fs.units if u.new is not None
            }
        if is_gone and refs and defined_now and name in defined_now:
            pass  # still declared on the new side (moved or redefined): not gone
        elif is_gone and refs and not member and not namesake:
            # (A member's name, `send`, matches every namesake: without an index its removal is
            # listed in the impact but is no finding.)
            where = ", ".join(f"{r.path}:{r.line}" for r in refs[:5])
            more = f" and {len(refs) - 5} more" if len(refs) > 5 else ""
            # Where the deleted lines were (as with the index), so the Action can post it on
            # the diff; a deleted file has no such line: then the first reference.
            gone_from = by_path.get(info.path) or by_old.get(info.path)
            if gone_from is not None and gone_from.new_text is not None and info.old_lines:
                at_path = gone_from.path
                at = deleted_anchor(gone_from, *info.old_lines)
                in_diff = in_hunk(gone_from, at)
                # Silenced as with the index: a comment on the line now where they were.
                if suppressed("RB105", gone_from.new_text.split("\n")[at - 1]):
                    continue
            else:  # (its file is deleted) on the first reference, silenced there
                at_path, at = refs[0].path, refs[0].line
                in_diff = at in changed_lines[at_path]
                if suppressed("RB105", refs[0].text):
                    continue
            findings.append(
                Finding(
                    "RB105",
                    Severity.WARNING,
                    at_path,
                    at,
                    at,
                    f"{name} is renamed to {info.new_name} but still referenced"
                    if info.new_name
                    else f"{name} is deleted but still referenced",
                    f"This change {_what(info)} ({info.path}), but {name} is still "
                    f"referenced in {len(refs)} place(s): {where}{more}.",
                    MetricsChange(None, None),
                    UnitRef(info.unit, at, at),
                    fingerprint("RB105", info.path, info.unit, name),
                    in_diff,
                    len(refs),
                )
            )
    return sections, findings


# A Python import statement at a line's start (module level, not under an `if` or a `try`): what
# `from m import ...` imports (parenthesized over lines, or to the line's end), or `import ...`.
_TOP_IMPORT = re.compile(
    r"(?m)^(?:from[ \t]+[\w.]+[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))"
)


def bound_by_import(name: str, text: str | None) -> bool:
    """Python: whether a module-level import of ``text`` binds ``name`` whatever runs (written
    at the line's start: `from operator import length_hint`, `import a as name`). A module
    function or class deleted while such an import now binds its name is not gone: tqdm
    687f5e4 replaced `try: from operator import length_hint` / `except ImportError: def
    length_hint` by the import alone. (One indented under an `if` or `try` may not run.)"""
    return text is not None and name in text and name in _python_imports(text)


def _python_imports(text: str) -> dict[str, str]:
    """What each name a Python module's top-level imports bind stands for (`m.name`, or the
    module `m`)."""
    out = {}
    for m in _TOP_IMPORT.finditer(text):
        names, modules = m.group(1), m.group(2)
        body = re.sub(r"#[^\n]*", "", names if names is not None else modules)
        module = m.group(0).split()[1] if names is not None else ""
        for part in body.strip("() \t\n\\").split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                out[words[2]] = f"{module}.{words[0]}" if module else words[0]
            elif len(words) == 1 and names is not None:
                out[words[0]] = f"{module}.{words[0]}"
            elif len(words) == 1:
                out[words[0].split(".")[0]] = words[0].split(".")[0]
    return out


def _same_through_imports(old: str, new: str, was: str | None, now: str | None) -> bool:
    """Python: whether two headers are the same once each name a top-level import binds is
    read as what it imports (`class BlackRunner(_CliRunner)` after `from click.testing import
    CliRunner as _CliRunner`, black 9e969ddc)."""
    if was is None or now is None:
        return False
    before, after = _python_imports(was), _python_imports(now)
    if before == after:
        return False

    def origin(header: str, imports: dict[str, str]) -> str:
        return re.sub(r"[^\W\d]\w*", lambda m: imports.get(m[0], m[0]), header)

    return same_header(origin(old, before), origin(new, after))


def _what(info: _Wanted) -> str:
    if info.new_name:
        return f"renames {info.unit} to {info.new_name}"
    return f"deletes {info.unit}"


def _new_text(cf: ChangedFile | None) -> str | None:
    return cf.new_text if cf is not None else None


def _unsearched(
    names: Sequence[str],
    wanted: dict[str, _Wanted],
    files: Sequence[ChangedFile],
    changed_lines: _ChangedLines,
) -> list[str]:
    """Files whose matches would all be dropped, so the search can pass them by: a file is
    one when every name searched is declared in it and every line of its new side is changed
    (a wholly added file that declares all the names: a match of a name in the file that
    declares it is dropped on a changed line). Any other file of the change is searched, so a
    new file that uses another file's new names is still listed. For one large new file this
    spares the search a read of every line of it for nothing."""
    declared = {wanted[name].path for name in names}
    if len(declared) != 1:
        return []
    (path,) = declared
    cf = next((cf for cf in files if cf.path == path), None)
    if cf is None or cf.old_text is not None or cf.new_text is None:
        return []
    text = cf.new_text
    count = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    if len(cf.hunks) == 1:  # as a file added whole has: its added lines rise one by one
        added = cf.hunks[0].added
        whole = len(added) == count and (not added or (added[0] == 1 and added[-1] == count))
    else:
        whole = changed_lines[path].issuperset(range(1, count + 1))
    return [path] if whole else []


_HEADER_LINES = 12  # a header wrapped over more lines is compared by its first 12


def _header(text: str | None, number: int) -> str | None:
    """The header starting on line ``number``: that line and those its open parentheses
    run on to (`put(final int n,` then `final int base) {`), so that a parameter list joined
    onto one line is the same header."""
    if text is None:
        return None
    lines = text.split("\n")
    if not 0 < number <= len(lines):
        return None
    out = lines[number - 1]
    depth = out.count("(") - out.count(")")
    k = number
    while depth > 0 and k < len(lines) and k < number - 1 + _HEADER_LINES:
        out += "\n" + lines[k]
        depth += lines[k].count("(") - lines[k].count(")")
        k += 1
    return out
