"""The GitHub REST API through PyGithub, with our own retries.

PyGithub's built-in retry is off: it does not retry PATCH and may repeat a POST that landed
(a duplicate comment). Here 5xx and rate limits are retried with ``Retry-After`` or the rate
limit's reset time, and a create is retried only after checking that it did not land.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from github import Auth, Github, GithubException
from github.IssueComment import IssueComment
from github.PullRequest import PullRequest
from github.PullRequestComment import PullRequestComment
from requests.exceptions import RequestException

from reviewbot.errors import GitHubError

__all__ = ["Api", "Comment", "Forbidden", "ReviewComment", "Unprocessable"]

T = TypeVar("T")


def _rate_limited(exc: GithubException) -> bool:
    """GitHub's secondary rate limit answers 403 (or 429) saying so, often without the headers
    of the primary one: a wait, not a read-only token."""
    return exc.status in (403, 429) and "rate limit" in _message(exc).lower()


class Forbidden(GitHubError):
    """403 without a rate limit: the token may not do this (fork PRs get read-only tokens)."""


class Unprocessable(GitHubError):
    """422: GitHub refused the content (for reviews: a comment outside the diff)."""


@dataclass(frozen=True)
class Comment:
    id: int
    body: str
    obj: Any = field(compare=False, repr=False, default=None)  # PyGithub's IssueComment
    author: str = ""  # the login that wrote it
    bot: bool = False  # written by a bot account (the Action's token posts as one)


@dataclass(frozen=True)
class ReviewComment:
    id: int
    body: str
    path: str
    line: int | None
    in_reply_to: int | None
    obj: Any = field(compare=False, repr=False, default=None)  # PyGithub's PullRequestComment
    author: str = ""
    bot: bool = False


def _message(exc: GithubException) -> str:
    data = exc.data
    if isinstance(data, dict) and data.get("message"):
        return str(data["message"])
    return str(data)[:200]


class Api:
    def __init__(
        self,
        token: str | None,
        base_url: str,
        repository: str,
        number: int,
        *,
        sleep: Callable[[float], None] = time.sleep,
        max_retries: int = 4,
        max_wait: float = 60.0,
        throttle: bool = True,
    ) -> None:
        self.gh = Github(
            auth=Auth.Token(token) if token else None,
            base_url=base_url,
            per_page=100,
            retry=None,
            timeout=30,
            seconds_between_requests=0.25 if throttle else None,
            seconds_between_writes=1.0 if throttle else None,
            user_agent="reviewbot",
            lazy=True,  # objects are fetched when read, not when referenced
        )
        self.repository = repository
        self.number = number
        self.sleep = sleep
        self.max_retries = max_retries
        self.max_wait = max_wait
        self.waits: list[float] = []
        self._pr: PullRequest | None = None
        self._me: str | None = None

    def wrote(self, c: Comment | ReviewComment) -> bool:
        """Whether this token wrote ``c``: a marker in it is no proof (anyone can quote one),
        so its author must be a bot account (a workflow's or an app's token posts as one) or
        the token's own user. Nobody else's comment is ever edited or deleted."""
        return c.bot or (bool(c.author) and c.author == self.me())

    def me(self) -> str | None:
        """The token's own login when GitHub tells it (a person's token); None for a workflow's
        or an app's token, to which GitHub refuses ``/user`` (their comments are a bot's)."""
        if self._me is None:

            def fetch() -> str:
                raw: dict[str, Any] = self.gh.requester.requestJsonAndCheck("GET", "/user")[1]
                return str(raw.get("login") or "")

            try:
                self._me = self.call(fetch)
            except GitHubError:
                self._me = ""
        return self._me or None

    # -- retries ------------------------------------------------------------------------------

    def _wait_for(self, exc: GithubException, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None when the error is final."""
        status = exc.status
        headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
        limited = status == 429 or (
            status == 403
            and ("retry-after" in headers or headers.get("x-ratelimit-remaining") == "0")
        )
        if not (limited or status >= 500 or _rate_limited(exc)):
            return None
        if "retry-after" in headers:
            try:
                return min(self.max_wait, max(0.0, float(headers["retry-after"])))
            except ValueError:
                pass
        if headers.get("x-ratelimit-remaining") == "0" and "x-ratelimit-reset" in headers:
            try:
                return min(
                    self.max_wait, max(0.0, float(headers["x-ratelimit-reset"]) - time.time())
                )
            except ValueError:
                pass
        if _rate_limited(exc):  # a secondary limit without headers: at least a minute
            return min(self.max_wait, 60.0)
        return min(self.max_wait, 2.0**attempt)

    def call(self, fn: Callable[[], T], *, landed: Callable[[], T | None] | None = None) -> T:
        """Run ``fn`` with retries. For a create, ``landed`` finds the result of an attempt that
        failed after GitHub had already done it, so it is never done twice."""
        attempt = 0
        while True:
            try:
                return fn()
            except RequestException as exc:
                # No answer at all (refused, timed out, DNS): say which, never a traceback.
                raise GitHubError(
                    0, f"cannot reach the GitHub API ({type(exc).__name__})"
                ) from None
            except GithubException as exc:
                wait = self._wait_for(exc, attempt)
                if wait is None or attempt >= self.max_retries:
                    if exc.status == 403 and not _rate_limited(exc):
                        raise Forbidden(exc.status, _message(exc)) from None
                    if exc.status == 422:
                        raise Unprocessable(exc.status, _message(exc)) from None
                    raise GitHubError(exc.status, _message(exc)) from None
                self.waits.append(wait)
                self.sleep(wait)
                attempt += 1
                if landed is not None:
                    found = landed()
                    if found is not None:
                        return found

    # -- the pull request -----------------------------------------------------------------------

    @property
    def pr(self) -> PullRequest:
        if self._pr is None:
            repo = self.gh.get_repo(self.repository)
            self._pr = self.call(lambda: repo.get_pull(self.number))
        return self._pr

    def head_sha(self) -> str | None:
        """The pull request's head commit now (None when GitHub does not say)."""
        try:
            raw: dict[str, Any] = getattr(self.pr, "_rawData", None) or {}
            sha = (raw.get("head") or {}).get("sha") or self.call(lambda: self.pr.head.sha)
        except GitHubError:
            return None
        return str(sha) if sha else None

    def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        url = f"/repos/{self.repository}/{path}"
        _, data = self.gh.requester.requestJsonAndCheck("POST", url, input=payload)
        return dict(data)

    def files(self) -> list[Any]:
        return self.call(lambda: list(self.pr.get_files()))

    def issue_comments(self) -> list[Comment]:
        def fetch() -> list[Comment]:
            return [_comment(c) for c in self.pr.get_issue_comments()]

        return self.call(fetch)

    def create_issue_comment(self, body: str, marker: str) -> Comment:
        def landed() -> Comment | None:
            return next(
                (c for c in self.issue_comments() if marker in c.body and self.wrote(c)), None
            )

        def create() -> Comment:
            made: IssueComment = self.pr.create_issue_comment(body)
            return Comment(made.id, made.body or "", made)

        return self.call(create, landed=landed)

    def edit_issue_comment(self, comment: Comment, body: str) -> None:
        self.call(lambda: comment.obj.edit(body))

    def review_comments(self) -> list[ReviewComment]:
        def fetch() -> list[ReviewComment]:
            return [_review_comment(c) for c in self.pr.get_review_comments()]

        return self.call(fetch)

    def create_review(
        self, commit: str, body: str, comments: list[dict[str, Any]], markers: Iterable[str]
    ) -> None:
        """One review with `event: COMMENT` (a workflow token may not approve)."""
        wanted = list(markers)

        def landed() -> bool | None:
            bodies = [c.body for c in self.review_comments() if self.wrote(c)]
            return True if wanted and all(any(m in b for b in bodies) for m in wanted) else None

        def create() -> bool:
            self._post(
                f"pulls/{self.number}/reviews",
                {"commit_id": commit, "body": body, "event": "COMMENT", "comments": comments},
            )
            return True

        self.call(create, landed=landed)

    def create_review_comment(self, commit: str, comment: dict[str, Any], marker: str) -> None:
        def landed() -> bool | None:
            mine = (c for c in self.review_comments() if self.wrote(c))
            return True if any(marker in c.body for c in mine) else None

        def create() -> bool:
            payload = {"commit_id": commit, "side": "RIGHT", **comment}
            if "start_line" in comment:
                payload["start_side"] = "RIGHT"
            self._post(f"pulls/{self.number}/comments", payload)
            return True

        self.call(create, landed=landed)

    def edit_review_comment(self, comment: ReviewComment, body: str) -> None:
        self.call(lambda: comment.obj.edit(body))

    def delete_review_comment(self, comment: ReviewComment) -> None:
        try:
            self.call(comment.obj.delete)
        except GitHubError as exc:
            if exc.status != 404:  # already gone: what we wanted
                raise

    def create_check_run(
        self,
        head_sha: str,
        title: str,
        summary: str,
        annotations: list[dict[str, Any]],
        conclusion: str,
    ) -> None:
        repo = self.gh.get_repo(self.repository)
        first, rest = annotations[:50], annotations[50:]
        output: dict[str, Any] = {"title": title, "summary": summary[:65535], "annotations": first}
        run = self.call(
            lambda: repo.create_check_run(
                name="reviewbot",
                head_sha=head_sha,
                status="completed",
                conclusion=conclusion,
                output=output,
            )
        )
        while rest:  # at most 50 annotations a request; later updates append
            chunk, rest = rest[:50], rest[50:]
            more: dict[str, Any] = {
                "title": title,
                "summary": summary[:65535],
                "annotations": chunk,
            }
            self.call(lambda m=more: run.edit(output=m))  # type: ignore[misc]

    def contents(self, path: str, ref: str) -> bytes | None:
        repo = self.gh.get_repo(self.repository)
        try:
            item = self.call(lambda: repo.get_contents(path, ref=ref))
        except GitHubError as exc:
            if exc.status == 404:
                return None
            raise
        if isinstance(item, list):
            return None
        return item.decoded_content


def _review_comment(c: PullRequestComment) -> ReviewComment:
    # The listing's own data: reading `raw_data` or an absent attribute would make PyGithub
    # fetch the comment again (one request per comment).
    raw: dict[str, Any] = getattr(c, "_rawData", None) or {}
    return ReviewComment(
        int(raw.get("id", 0)),
        raw.get("body") or "",
        raw.get("path", ""),
        raw.get("line"),
        raw.get("in_reply_to_id"),
        c,
        *_author(raw),
    )


def _comment(c: IssueComment) -> Comment:
    raw: dict[str, Any] = getattr(c, "_rawData", None) or {}
    return Comment(int(raw.get("id", c.id)), raw.get("body") or c.body or "", c, *_author(raw))


def _author(raw: dict[str, Any]) -> tuple[str, bool]:
    user = raw.get("user") or {}
    return str(user.get("login") or ""), user.get("type") == "Bot"
