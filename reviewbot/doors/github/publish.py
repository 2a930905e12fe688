"""Posting a review to a pull request, idempotently and within GitHub's limits.

* One summary comment, found again by a hidden marker and edited in place (never duplicated;
  not written at all when its text is unchanged).
* One review (`event: COMMENT`) with at most N inline comments on the top hotspots, anchored on
  lines of the PR diff (RIGHT side, one hunk), each with a hidden fingerprint. On a re-run:
  posted comments are not posted again, changed ones are edited, ours whose finding is gone are
  deleted unless someone replied. A 422 on the review falls back to one comment at a time, and
  the rejected ones are listed in the summary.
* An inline comment someone deleted is not posted again while its finding stays: the summary
  carries the fingerprints posted so far in a hidden marker.
* Without write permission (fork PRs), nothing fails: the caller writes the job summary and
  annotations instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from reviewbot.doors.github.client import Api, Forbidden, ReviewComment, Unprocessable
from reviewbot.model import Finding, Hunk, Report, Severity
from reviewbot.render.markdown import MAX_BODY, SUMMARY_MARKER, inline_body, summary_body

__all__ = ["Outcome", "anchor", "publish"]

_FP = re.compile(r"<!-- reviewbot:fp=([0-9a-f]+);v=([0-9a-f]+) -->")
_POSTED = re.compile(r"<!-- reviewbot:posted=([0-9a-f,]*) -->")


@dataclass
class Outcome:
    created: int = 0
    edited: int = 0
    deleted: int = 0
    dismissed: int = 0  # findings whose comment someone deleted: not posted again
    posted: set[str] = field(default_factory=set)  # fingerprints with a comment, or dismissed
    summary: str = "unchanged"  # created | edited | unchanged | not written
    rejected: list[Finding] = field(default_factory=list)
    read_only: str | None = None  # why writing was not allowed


def anchor(f: Finding, hunks: Sequence[Hunk]) -> tuple[int, int] | None:
    """(start_line, line) on the RIGHT side of one hunk, or None when not in the diff."""
    for h in hunks:
        if h.new_len == 0:
            continue
        lo, hi = h.new_start, h.new_start + h.new_len - 1
        if lo <= f.end_line <= hi:
            return max(lo, f.line), f.end_line
        if lo <= f.line <= hi:
            return f.line, min(hi, f.end_line)
    return None


def _rank(f: Finding) -> tuple[int, float, str, int]:
    delta = max(
        (abs(m.delta or 0.0) for m in f.metrics.measures() if m.name == "branches"), default=0.0
    )
    return (-f.severity.rank, -delta, f.path, f.line)


def publish(
    api: Api,
    report: Report,
    *,
    head_sha: str,
    blob_base: str,
    max_comments: int,
    notes: Sequence[str] = (),
) -> Outcome:
    out = Outcome()
    hunks = {fs.path: fs.hunks for fs in report.files}
    try:
        existing = next(
            (c for c in api.issue_comments() if SUMMARY_MARKER in c.body and api.wrote(c)), None
        )
        found = _POSTED.search(existing.body) if existing is not None else None
        before = set(found.group(1).split(",")) - {""} if found else set()
        _inline(api, report, hunks, head_sha, max_comments, out, before)
    except Forbidden as exc:
        out.read_only = str(exc)
        return out
    all_notes = list(notes)
    if out.rejected:
        all_notes.append(
            f"{len(out.rejected)} finding(s) could not be placed on the diff and are listed "
            "here instead: " + "; ".join(f"{f.path}:{f.line} {f.code}" for f in out.rejected)
        )
    posted = ",".join(sorted(out.posted))
    marker = f"\n<!-- reviewbot:posted={posted} -->\n" if posted else ""
    body = summary_body(report, blob_base=blob_base, notes=all_notes, limit=MAX_BODY - len(marker))
    body = body.rstrip("\n") + "\n" + marker if marker else body
    try:
        if existing is None:
            api.create_issue_comment(body, SUMMARY_MARKER)
            out.summary = "created"
        elif existing.body.strip() != body.strip():
            api.edit_issue_comment(existing, body)
            out.summary = "edited"
    except Forbidden as exc:
        out.read_only = str(exc)
        out.summary = "not written"
    return out


def _inline(
    api: Api,
    report: Report,
    hunks: dict[str, tuple[Hunk, ...]],
    head_sha: str,
    max_comments: int,
    out: Outcome,
    posted_before: set[str],
) -> None:
    existing = api.review_comments()
    replied = {c.in_reply_to for c in existing if c.in_reply_to}
    ours: dict[str, ReviewComment] = {}
    # GitHub marks a comment outdated (no `line`) when a push changed the lines it sits on: it
    # is collapsed, so its finding, if still there, is posted again where it is now.
    outdated: list[ReviewComment] = []
    for c in existing:
        m = _FP.search(c.body)
        if m and c.in_reply_to is None and api.wrote(c):
            if c.line is None:
                outdated.append(c)
            else:
                ours.setdefault(m.group(1), c)
    current = {f.fingerprint for f in report.findings}
    wanted: list[tuple[Finding, tuple[int, int]]] = []
    for f in sorted(report.findings, key=_rank):
        if len(wanted) >= max_comments:
            break
        if f.severity == Severity.INFO or not f.in_diff:
            continue
        place = anchor(f, hunks.get(f.path, ()))
        if place is None:
            out.rejected.append(f)
            continue
        wanted.append((f, place))
    new: list[tuple[Finding, dict[str, object]]] = []
    reposting = {m.group(1) for c in outdated if (m := _FP.search(c.body))}
    current_posted = posted_before & current
    for f, (start, line) in wanted:
        body = inline_body(f)
        have = ours.get(f.fingerprint)
        if have is not None:
            if have.body.strip() != body.strip():
                api.edit_review_comment(have, body)
                out.edited += 1
            out.posted.add(f.fingerprint)
            continue
        if f.fingerprint in current_posted and f.fingerprint not in reposting:
            out.dismissed += 1  # posted by an earlier run, deleted by someone since
            out.posted.add(f.fingerprint)
            continue
        comment: dict[str, object] = {"path": f.path, "line": line, "side": "RIGHT", "body": body}
        if start < line:
            comment["start_line"] = start
            comment["start_side"] = "RIGHT"
        new.append((f, comment))
    for fp, c in ours.items():
        if fp not in current and c.id not in replied:
            api.delete_review_comment(c)
            out.deleted += 1
    for c in outdated:  # collapsed by GitHub: its finding is gone or posted again
        if c.id not in replied:
            api.delete_review_comment(c)
            out.deleted += 1
    if not new:
        return
    markers = [f"reviewbot:fp={f.fingerprint};" for f, _ in new]
    try:
        summary = (
            f"reviewbot: {len(new)} hotspot(s) in this change; the summary comment has "
            "the whole structural review."
        )
        api.create_review(head_sha, summary, [dict(c) for _, c in new], markers)
        out.created += len(new)
        out.posted |= {f.fingerprint for f, _ in new}
    except Unprocessable:
        for f, comment in new:  # one by one: keep the ones GitHub accepts
            single = {k: v for k, v in comment.items() if k not in ("side", "start_side")}
            try:
                api.create_review_comment(head_sha, single, f"reviewbot:fp={f.fingerprint};")
                out.created += 1
                out.posted.add(f.fingerprint)
            except Unprocessable:
                out.rejected.append(f)
