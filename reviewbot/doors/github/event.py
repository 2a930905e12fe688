"""The GitHub Actions context: environment variables and the event payload, as one record."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reviewbot.errors import ConfigError, InputError
from reviewbot.model import FailLevel

__all__ = ["SUPPORTED_EVENTS", "ActionContext", "Inputs", "raw_token", "read_context"]

SUPPORTED_EVENTS = ("pull_request", "pull_request_target")


@dataclass(frozen=True)
class Inputs:
    """The action's inputs (mapped to REVIEWBOT_* variables by action.yml)."""

    max_comments: int | None = None  # None: the configuration's max_inline_comments
    fail_on: FailLevel | None = None  # None: the configuration's fail_on
    config: str | None = None
    check_run: bool = False
    max_annotations: int = 10


@dataclass(frozen=True)
class ActionContext:
    event_name: str
    repository: str  # owner/name of the base repository
    number: int
    base_sha: str
    head_sha: str
    head_repository: str
    api_url: str
    server_url: str
    token: str | None
    workspace: Path
    step_summary: Path | None
    output: Path | None
    inputs: Inputs
    runner_temp: Path | None = None

    @property
    def is_fork(self) -> bool:
        return self.head_repository.lower() != self.repository.lower()

    @property
    def owner_repo(self) -> tuple[str, str]:
        owner, _, name = self.repository.partition("/")
        return owner, name


def _int(env: Mapping[str, str], key: str, default: int) -> int:
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{key}: expected a whole number, got {raw!r}") from None
    if value < 0:
        raise ConfigError(f"{key}: expected a number >= 0, got {value}")
    return value


def _inputs(env: Mapping[str, str]) -> Inputs:
    raw_fail = env.get("REVIEWBOT_FAIL_ON", "").strip()
    fail_on = FailLevel.parse(raw_fail, "fail-on") if raw_fail else None
    raw_max = env.get("REVIEWBOT_MAX_COMMENTS", "").strip()
    check = env.get("REVIEWBOT_CHECK_RUN", "false").strip().lower()
    if check not in ("true", "false", ""):
        raise ConfigError(f"check-run: expected true or false, got {check!r}")
    return Inputs(
        max_comments=_int(env, "REVIEWBOT_MAX_COMMENTS", 10) if raw_max else None,
        fail_on=fail_on,
        config=env.get("REVIEWBOT_CONFIG", "").strip() or None,
        check_run=check == "true",
        max_annotations=min(10, _int(env, "REVIEWBOT_MAX_ANNOTATIONS", 10)),
    )


def raw_token(env: Mapping[str, str]) -> str:
    return env.get("REVIEWBOT_TOKEN") or env.get("GITHUB_TOKEN") or ""


def _token(env: Mapping[str, str]) -> str | None:
    """The token, stripped of the whitespace a pasted secret often carries; one with
    whitespace inside is refused (never shown)."""
    token = raw_token(env).strip()
    if any(ch.isspace() for ch in token):
        raise ConfigError("the token holds whitespace or a line break: check the secret")
    return token or None


_OBJECT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def read_context(env: Mapping[str, str]) -> ActionContext:
    """The context of this run, or an error that names what is missing or wrong."""
    # REVIEWBOT_EVENT_*: a workflow_run job reviews a saved pull_request event (GitHub refuses
    # a workflow that sets GITHUB_* variables itself).
    event_name = env.get("REVIEWBOT_EVENT_NAME") or env.get("GITHUB_EVENT_NAME", "")
    if event_name not in SUPPORTED_EVENTS:
        raise InputError(
            f"GITHUB_EVENT_NAME is {event_name!r}: reviewbot github runs on "
            f"{' or '.join(SUPPORTED_EVENTS)} events"
        )
    path = env.get("REVIEWBOT_EVENT_PATH") or env.get("GITHUB_EVENT_PATH")
    if not path:
        raise InputError("GITHUB_EVENT_PATH is not set: is this a GitHub Actions run?")
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8"))
        pr = event["pull_request"]
        number = int(pr["number"])
        base_sha, head_sha = str(pr["base"]["sha"]), str(pr["head"]["sha"])
        base_repo = str(pr["base"]["repo"]["full_name"])
        head_repo_obj = pr["head"].get("repo") or {}
        head_repo = str(head_repo_obj.get("full_name") or "(deleted fork)")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a pull_request event payload ({exc})") from None
    # The shas go to `git fetch` and the API: only object ids (a value such as
    # `--upload-pack=...` would be read by git as an option).
    for key, sha in (("base", base_sha), ("head", head_sha)):
        if not _OBJECT_ID.fullmatch(sha):
            raise InputError(
                f"{path}: pull_request.{key}.sha is not a commit id (40 or 64 hex digits)"
            )
    if number < 1:
        raise InputError(f"{path}: pull_request.number must be a positive whole number")
    repository = env.get("GITHUB_REPOSITORY") or base_repo
    summary = env.get("GITHUB_STEP_SUMMARY")
    output = env.get("GITHUB_OUTPUT")
    return ActionContext(
        event_name=event_name,
        repository=repository,
        number=number,
        base_sha=base_sha,
        head_sha=head_sha,
        head_repository=head_repo,
        api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        server_url=env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/"),
        token=_token(env),
        workspace=Path(env.get("GITHUB_WORKSPACE") or "."),
        step_summary=Path(summary) if summary else None,
        output=Path(output) if output else None,
        inputs=_inputs(env),
        runner_temp=Path(env["RUNNER_TEMP"]) if env.get("RUNNER_TEMP") else None,
    )
