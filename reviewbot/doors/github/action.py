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
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO, cast

from reviewbot.app.config import Config, load_config, parse_config, settings_table
from reviewbot.app.pipeline import ApiChange, ChangeSource, GitChange, review
from reviewbot.doors.github.client import Api
from reviewbot.doors.github.event import ActionContext, raw_token, read_context
from reviewbot.doors.github.publish import publish
from reviewbot.doors.guard import ACTION, EXIT_FAIL, EXIT_OK, guard
from reviewbot.errors import ConfigError, GitHubError, InputError, ReviewbotError
from reviewbot.model import Report, Severity
from reviewbot.render.markdown import MAX_BODY, md_escape, summary_body
from reviewbot.render.report_json import report_json
from reviewbot.repo.changes import ApiFile
from reviewbot.repo.git import Git, GitError

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
                "--end-of-options",  # the shas are checked, and never options anyway
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
                "--end-of-options",
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


def _api_change(api: Api, ctx: ActionContext) -> ApiChange:
    """The change from the API: each file's patch, and both sides' contents."""
    items = tuple(
        ApiFile(
            item.filename,
            item.status,
            item.patch,
            getattr(item, "previous_filename", None) or None,
        )
        for item in api.files()
    )

    def contents(path: str, side: str) -> bytes | None:
        return api.contents(path, ctx.base_sha if side == "old" else ctx.head_sha)

    return ApiChange(items, contents, ctx.base_sha[:12], ctx.head_sha[:12])


def _blob_base(ctx: ActionContext) -> str:
    """Where the head commit's files are on GitHub (links in the summary point there)."""
    return f"{ctx.server_url}/{ctx.repository}/blob/{ctx.head_sha}"


def _base_attributes(
    git: Git, ctx: ActionContext, log: Callable[[str], None]
) -> tuple[Path, dict[str, str]]:
    """When the pull request changes a ``.gitattributes``, a work tree holding only the base
    commit's attribute files, for git to read attributes from (as the configuration is read
    from the base): a PR that marks its own files generated or binary would otherwise exempt
    them from review. Nothing (an empty mapping) when it changes none."""
    try:
        changed = git.run(
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            f"{ctx.base_sha}...{ctx.head_sha}",
            "--",
            ":(glob)**/.gitattributes",
            what="list the attribute files the pull request changes",
        )
        if not changed.strip(b"\0"):
            return git.cwd, {}
        listed = git.run(
            "ls-tree", "-r", "-z", "--name-only", ctx.base_sha, what="list the base's files"
        )
    except GitError as exc:
        log(f"reviewbot: {exc}")
        return git.cwd, {}
    root = Path(tempfile.mkdtemp(prefix="reviewbot-attributes-", dir=ctx.runner_temp))
    for raw in listed.split(b"\0"):
        name = raw.decode("utf-8", "surrogateescape")
        if name == ".gitattributes" or name.endswith("/.gitattributes"):
            blob = git.show(ctx.base_sha, name)
            if blob is not None:
                target = root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(blob)
    log("reviewbot: the pull request changes .gitattributes: attributes are read from the base")
    # git reads an attributes file missing from the work tree from the index (the checkout's:
    # the PR's), so an index of its own, empty.
    return root, {
        "GIT_DIR": str(git.git_dir().resolve()),
        "GIT_WORK_TREE": str(root),
        "GIT_INDEX_FILE": str(root.parent / f"{root.name}.index"),
    }


def _find_git(ctx: ActionContext, environ: Mapping[str, str]) -> Git | None:
    try:
        return Git(ctx.workspace, environ=environ)
    except InputError:
        return None


def run_action(
    env: Mapping[str, str],
    out: TextIO,
    *,
    api_factory: Callable[[ActionContext], Api] | None = None,
) -> int:
    ctx = read_context(env)

    def log(text: str) -> None:
        out.write(text + "\n")

    # git must never ask for credentials on a runner.
    environ = {**env, "GIT_TERMINAL_PROMPT": "0"}
    git = _find_git(ctx, environ)
    config = Config()
    if git is not None and _have(git, ctx.base_sha):
        config = _config_from_base(git, ctx.base_sha, ctx.inputs.config, ctx.workspace)
    elif git is not None and ctx.inputs.config:
        config = load_config(str(ctx.workspace / ctx.inputs.config), ctx.workspace)
    for warning in config.warnings:
        log(f"reviewbot: warning: {warning}")
    api = (api_factory or _default_api)(ctx)
    source: ChangeSource
    if git is not None and _ensure_commits(git, ctx, log):
        spec = (f"{ctx.base_sha}...{ctx.head_sha}",)
        where, attrs = _base_attributes(git, ctx, log)
        source = GitChange(where, spec, environ={**environ, **attrs})
    else:
        log("reviewbot: local git cannot provide the change; reading it from the API")
        source = _api_change(api, ctx)
    report = review(source, config)
    blob_base = _blob_base(ctx)
    notes: list[str] = []
    outcome = None
    max_comments = (
        ctx.inputs.max_comments
        if ctx.inputs.max_comments is not None
        else config.max_inline_comments
    )
    try:
        # A run for an older push that finishes after the run for the newer one must not
        # put the old review back: the pull request's head says which run is current.
        now = api.head_sha()
        if now is not None and now != ctx.head_sha:
            notes.append(
                f"Not posted: the pull request's head is now {now[:12]}, not {ctx.head_sha[:12]}; "
                "the run for it posts the review."
            )
            log(f"reviewbot: {notes[-1]}")
        else:
            outcome = publish(
                api,
                report,
                head_sha=ctx.head_sha,
                blob_base=blob_base,
                max_comments=max_comments,
            )
    except GitHubError as exc:
        notes.append(f"Posting to the pull request failed: {exc}")
        log(f"reviewbot: could not post to the pull request: {exc}")
    if outcome is not None and outcome.read_only:
        notes.append(FORK_HELP)
        log(f"reviewbot: {outcome.read_only}")
        log(f"reviewbot: {FORK_HELP}")
    if outcome is not None:
        log(
            f"reviewbot: {outcome.created} inline comment(s) created, {outcome.edited} edited, "
            f"{outcome.deleted} deleted"
            + (
                f", {outcome.dismissed} deleted by someone and not posted again"
                if outcome.dismissed
                else ""
            )
            + f"; summary {outcome.summary}"
        )
    fail_on = ctx.inputs.fail_on if ctx.inputs.fail_on is not None else config.fail_on
    failing = fail_on.met_by(report.findings)
    if ctx.inputs.check_run and outcome is not None and not outcome.read_only:
        _check_run(api, ctx, report, blob_base, failing)
    _job_outputs(ctx, report, notes, blob_base, out)
    return EXIT_FAIL if failing else EXIT_OK


_MAX_ANNOTATIONS = 50  # what GitHub takes in one request of a check run


def _check_run(api: Api, ctx: ActionContext, report: Report, blob_base: str, failing: bool) -> None:
    notes = [
        {
            "path": f.path,
            "start_line": f.line,
            "end_line": max(f.line, f.end_line),
            "annotation_level": "failure" if f.severity == Severity.ERROR else "warning",
            "title": f"{f.code} {f.title}"[:255],
            "message": f.message[:64000],
        }
        for f in report.findings[:_MAX_ANNOTATIONS]
    ]
    summary = summary_body(report, blob_base=blob_base, limit=MAX_BODY - 1)
    # The job fails by `fail-on`: the check says so too (it said "neutral" beside a red job).
    conclusion = "failure" if failing else "neutral" if report.findings else "success"
    with contextlib.suppress(GitHubError):  # the comment and the job summary carry the review
        title = f"{len(report.findings)} finding(s)"
        api.create_check_run(ctx.head_sha, title, summary, notes, conclusion)


def _job_outputs(
    ctx: ActionContext,
    report: Report,
    notes: Sequence[str],
    blob_base: str,
    out: TextIO,
) -> None:
    body = summary_body(report, blob_base=blob_base, notes=notes, limit=MAX_STEP_SUMMARY - 1024)
    if ctx.step_summary is not None:
        with ctx.step_summary.open("a", encoding="utf-8") as fh:
            fh.write(body.split("\n", 1)[1] if body.startswith("<!--") else body)
    ranked = sorted(report.findings, key=lambda f: (-f.severity.rank, f.path, f.line))
    for f in ranked[: ctx.inputs.max_annotations]:
        out.write(annotation(f.path, f.line, f.end_line, f"{f.code} {f.title}", f.message) + "\n")
    report_dir = ctx.runner_temp or ctx.workspace
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
    token = raw_token(environ)

    def clean(text: str) -> str:
        return redact(text, token)

    def work() -> int:
        try:
            # Every line the run prints passes the redaction too (git's messages may hold a
            # remote's URL, and a token can sit in one).
            return run_action(environ, cast(TextIO, _Redacting(out, clean)))
        except BaseException as exc:
            # Whatever stopped the review, the job summary and the outputs are written.
            _write_failure(
                environ,
                clean(
                    f"{type(exc).__name__}: {exc}"
                    if not isinstance(exc, ReviewbotError)
                    else str(exc)
                ),
            )
            raise

    def say(line: str) -> None:
        # A workflow warning too, so that the trouble shows on the run's page.
        out.write(f"::warning title=reviewbot::{_escape_data(line)}\n{line}\n")

    return guard(ACTION, work, say=say, clean=clean)


class _Redacting(io.TextIOBase):
    """A text stream that writes what it is given without the token."""

    def __init__(self, out: TextIO, clean: Callable[[str], str]) -> None:
        super().__init__()
        self.out, self.clean = out, clean

    def write(self, text: str) -> int:
        self.out.write(self.clean(text))
        return len(text)

    def flush(self) -> None:
        self.out.flush()


def _write_failure(env: Mapping[str, str], reason: str) -> None:
    line = reason.splitlines()[0] if reason else "unknown error"
    summary, output = env.get("GITHUB_STEP_SUMMARY"), env.get("GITHUB_OUTPUT")
    with contextlib.suppress(OSError):
        if summary:
            with Path(summary).open("a", encoding="utf-8") as fh:
                fh.write(
                    "## reviewbot\n\nreviewbot could not review this pull request: "
                    f"{md_escape(line)}\n\nThe pull request is not failed because of it.\n"
                )
        if output:
            with Path(output).open("a", encoding="utf-8") as fh:
                fh.write("report=\nfindings=0\n")


def redact(text: str, token: str) -> str:
    """The text without the token in any form it could be printed in: raw, stripped, as a
    repr or JSON string escape, or any line of it."""
    if not token.strip():
        return text
    forms = {token, token.strip(), repr(token)[1:-1], json.dumps(token)[1:-1]}
    forms |= {part for part in token.split() if len(part) >= 6}
    for form in sorted((f for f in forms if f), key=len, reverse=True):
        text = text.replace(form, "***")
    return text
