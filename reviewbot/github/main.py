"""`reviewbot github`: the GitHub Action door.

Reviews base...head of the pull request (``pull_request.head.sha`` from the event, never
GITHUB_SHA) with local git, fetching what a shallow checkout lacks, and falls back to the API's
patches and contents where git cannot. Never checks out or runs the PR's code; the configuration
is read from the base commit. Posts the summary and inline comments (publish.py), always writes
the job summary, at most 10 warning annotations and the outputs, and never fails the PR because
of its own trouble (only --fail-on / the `fail-on` input does).
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from reviewbot.analysis.review import review_files
from reviewbot.config import Config, load_config, parse_config, settings_table
from reviewbot.diff.changes import Range, collect, from_patch, resolve_range
from reviewbot.diff.git import Git, GitError
from reviewbot.errors import EXIT_FAIL, EXIT_OK, ConfigError, ReviewbotError
from reviewbot.github.client import Api, ApiError
from reviewbot.github.event import ActionContext, read_context
from reviewbot.github.publish import publish, summary_body
from reviewbot.model import ChangedFile, Report, Severity
from reviewbot.render.report_json import report_json
from reviewbot.review import enrich, fails, options

__all__ = ["FORK_HELP", "annotation", "main", "run_action"]

FORK_HELP = (
    "reviewbot could not write to the pull request (the token is read-only, as it is for pull "
    "requests from forks, or the workflow lacks `permissions: pull-requests: write`). The review "
    "is in this job's summary and annotations. To comment on fork PRs too, run reviewbot from "
    "a `workflow_run` workflow triggered by this one (see the README: 'Fork pull requests')."
)
MAX_STEP_SUMMARY = 1024 * 1024


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(path: str, line: int, end_line: int, title: str, message: str) -> str:
    """A `::warning` workflow command with its properties and data escaped."""
    props = (
        f"file={_escape_property(path)},line={line},endLine={max(line, end_line)},"
        f"title={_escape_property(title)}"
    )
    return f"::warning {props}::{_escape_data(message)}"


def _config_from_base(git: Git, base: str, explicit: str | None, workspace: Path) -> Config:
    """The configuration as the base branch has it (a PR cannot change its own review)."""
    if explicit:
        blob = git.show(base, explicit)
        if blob is None:
            return load_config(str(workspace / explicit), workspace)
        name = Path(explicit).name
    else:
        name = ""
        blob = None
        for candidate in (".reviewbot.toml", "pyproject.toml"):
            blob = git.show(base, candidate)
            if blob is not None:
                name = candidate
                break
        if blob is None:
            return Config()
    where = f"{name} (base commit)"
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not UTF-8: {exc}") from None
    table = settings_table(text, name, where)
    if not table and name == "pyproject.toml":
        return Config()  # a pyproject.toml without reviewbot settings: the defaults
    return parse_config(table, where)


def _have(git: Git, sha: str) -> bool:
    try:
        git.run("cat-file", "-e", f"{sha}^{{commit}}", what="look up a commit")
    except GitError:
        return False
    return True


def _ensure_commits(git: Git, ctx: ActionContext, log: Callable[[str], None]) -> bool:
    """Fetch the base and head commits and enough history for their merge base."""
    missing = [s for s in (ctx.base_sha, ctx.head_sha) if not _have(git, s)]
    if missing:
        try:
            git.run(
                "fetch",
                "--no-tags",
                "--quiet",
                "--depth=1",
                "origin",
                *missing,
                what="fetch the pull request's commits",
            )
        except GitError as exc:
            log(f"reviewbot: {exc}")
            return False
    for depth in ("--deepen=50", "--deepen=500", "--unshallow"):
        try:
            git.merge_base(ctx.base_sha, ctx.head_sha)
            return True
        except GitError:
            pass
        try:
            git.run(
                "fetch",
                "--no-tags",
                "--quiet",
                depth,
                "origin",
                ctx.base_sha,
                ctx.head_sha,
                what="deepen the history",
            )
        except GitError as exc:
            log(f"reviewbot: {exc}")
            return False
    try:
        git.merge_base(ctx.base_sha, ctx.head_sha)
        return True
    except GitError:
        return False


def _from_api(api: Api, ctx: ActionContext, config: Config) -> list[ChangedFile]:
    """The change from the API: each file's patch, and both sides' contents."""
    files: list[ChangedFile] = []
    for item in api.files():
        path = item.filename
        status = item.status
        patch = item.patch
        old_path = getattr(item, "previous_filename", None) or path
        if patch is None:
            from reviewbot.model import Status

            files.append(
                ChangedFile(
                    path,
                    None,
                    Status.SKIPPED,
                    reason="no patch from the API (binary or very large)",
                )
            )
            continue
        header = (
            f"--- {'/dev/null' if status == 'added' else 'a/' + old_path}\n"
            f"+++ {'/dev/null' if status == 'removed' else 'b/' + path}\n"
        )
        parsed = from_patch(
            header + patch + ("" if patch.endswith("\n") else "\n"),
            None,
            max_bytes=config.max_file_bytes,
            exclude=config.exclude,
        )
        if not parsed:
            continue
        cf = parsed[0]
        old = api.contents(old_path, ctx.base_sha) if status != "added" else None
        new = api.contents(path, ctx.head_sha) if status != "removed" else None
        from reviewbot.diff.changes import _Policy

        policy = _Policy(config.max_file_bytes, config.exclude, set())
        files.append(policy.build(path, cf.old_path, cf.status, cf.hunks, old, new, False))
    return files


def run_action(
    env: Mapping[str, str],
    out: TextIO,
    *,
    api_factory: Callable[[ActionContext], Api] | None = None,
) -> int:
    ctx = read_context(env)

    def log(text: str) -> None:
        out.write(text + "\n")

    git = Git.find(ctx.workspace)
    base_for_config = ctx.base_sha
    config = Config()
    if git is not None and _have(git, base_for_config):
        config = _config_from_base(git, base_for_config, ctx.inputs.config, ctx.workspace)
    elif git is not None and ctx.inputs.config:
        config = load_config(str(ctx.workspace / ctx.inputs.config), ctx.workspace)
    for warning in config.warnings:
        log(f"reviewbot: warning: {warning}")
    api = (api_factory or _default_api)(ctx)
    files: list[ChangedFile]
    rng: Range | None = None
    if git is not None and _ensure_commits(git, ctx, log):
        found = resolve_range(git, f"{ctx.base_sha}...{ctx.head_sha}", staged=False)
        files = collect(git, found, max_bytes=config.max_file_bytes, exclude=config.exclude)
        base_label, head_label = found.base, found.head
        rng = found
    else:
        log("reviewbot: local git cannot provide the change; reading it from the API")
        files = _from_api(api, ctx, config)
        base_label, head_label = ctx.base_sha[:12], ctx.head_sha[:12]
    report = review_files(files, options(config), base=base_label, head=head_label)
    if rng is not None and git is not None:
        report = enrich(report, files, git, rng, config)
    link_base = f"{ctx.server_url}/{ctx.repository}"
    notes: list[str] = []
    outcome = None
    try:
        outcome = publish(
            api,
            report,
            files,
            head_sha=ctx.head_sha,
            link_base=link_base,
            max_comments=ctx.inputs.max_comments,
        )
    except ApiError as exc:
        notes.append(f"Posting to the pull request failed: {exc}")
        log(f"reviewbot: could not post to the pull request: {exc}")
    if outcome is not None and outcome.read_only:
        notes.append(FORK_HELP)
        log(f"reviewbot: {outcome.read_only}")
        log(f"reviewbot: {FORK_HELP}")
    if outcome is not None:
        log(
            f"reviewbot: {outcome.created} inline comment(s) created, {outcome.edited} edited, "
            f"{outcome.deleted} deleted; summary {outcome.summary}"
        )
    if ctx.inputs.check_run and outcome is not None and not outcome.read_only:
        _check_run(api, ctx, report, link_base)
    _job_outputs(ctx, report, notes, link_base, out)
    fail_on = ctx.inputs.fail_on or config.fail_on
    return EXIT_FAIL if fail_on and fails(report, fail_on) else EXIT_OK


def _check_run(api: Api, ctx: ActionContext, report: Report, link_base: str) -> None:
    notes = [
        {
            "path": f.path,
            "start_line": f.line,
            "end_line": max(f.line, f.end_line),
            "annotation_level": "failure" if f.severity == Severity.ERROR else "warning",
            "title": f"{f.code} {f.title}"[:255],
            "message": f.message[:64000],
        }
        for f in report.findings
    ]
    summary = summary_body(report, link_base=link_base, head_sha=ctx.head_sha, limit=65535)
    conclusion = "neutral" if report.findings else "success"
    with contextlib.suppress(ApiError):  # the comment and the job summary carry the review
        title = f"{len(report.findings)} finding(s)"
        api.create_check_run(ctx.head_sha, title, summary, notes, conclusion)


def _job_outputs(
    ctx: ActionContext, report: Report, notes: Sequence[str], link_base: str, out: TextIO
) -> None:
    body = summary_body(
        report,
        link_base=link_base,
        head_sha=ctx.head_sha,
        notes=notes,
        limit=MAX_STEP_SUMMARY - 1024,
    )
    if ctx.step_summary is not None:
        with ctx.step_summary.open("a", encoding="utf-8") as fh:
            fh.write(body.split("\n", 1)[1] if body.startswith("<!--") else body)
    ranked = sorted(report.findings, key=lambda f: (-f.severity.rank, f.path, f.line))
    for f in ranked[: ctx.inputs.max_annotations]:
        out.write(annotation(f.path, f.line, f.end_line, f"{f.code} {f.title}", f.message) + "\n")
    report_dir = Path(os.environ.get("RUNNER_TEMP") or ctx.workspace)
    report_path = report_dir / "reviewbot-report.json"
    try:
        report_path.write_text(report_json(report), encoding="utf-8")
    except OSError:
        report_path = Path("")
    if ctx.output is not None:
        with ctx.output.open("a", encoding="utf-8") as fh:
            fh.write(f"report={report_path}\nfindings={len(report.findings)}\n")


def _default_api(ctx: ActionContext) -> Api:
    return Api(ctx.token, ctx.api_url, ctx.repository, ctx.number)


def main(
    argv: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    stdout: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    environ = dict(os.environ if env is None else env)
    token = environ.get("REVIEWBOT_TOKEN") or environ.get("GITHUB_TOKEN") or ""
    try:
        return run_action(environ, out)
    except ReviewbotError as exc:
        out.write(f"::warning title=reviewbot::{_escape_data(_redact(str(exc), token))}\n")
        out.write(f"reviewbot: {_redact(str(exc), token)} (the pull request is not failed)\n")
        return EXIT_OK
    except Exception as exc:  # never fail a contributor's PR because of ourselves
        detail = _redact("".join(traceback.format_exception(exc)), token)
        out.write(
            f"::warning title=reviewbot::internal error: {_escape_data(_redact(str(exc), token))}\n"
        )
        out.write(f"reviewbot: internal error; the pull request is not failed.\n{detail}")
        return EXIT_OK


def _redact(text: str, token: str) -> str:
    return text.replace(token, "***") if token else text
