"""A stateful fake of the GitHub REST API on 127.0.0.1, for the real PyGithub client.

It serves the 22 operations of tests/data/github/rest-api-subset.json, validates every request
and every response against that OpenAPI description (openapi-core), rewrites every URL to its
own address, paginates with Link headers, and enforces what GitHub enforces (see
../shared/github/README.md): inline comments only on lines of a hunk on the given side, reviews
all-or-nothing (422), `event` COMMENT with a body, 65,536-character bodies, 50 annotations per
check-run request, 403 for writes without permission. Faults (5xx, rate limits, a POST that
lands and then fails) are injected on demand.
"""

from __future__ import annotations

import base64
import copy
import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

DATA = Path(__file__).resolve().parents[2] / "data" / "github"
SPEC = json.loads((DATA / "rest-api-subset.json").read_text(encoding="utf-8"))
EXAMPLES = SPEC["components"]["examples"]
MAX_BODY = 65536
logging.getLogger("werkzeug").setLevel(logging.ERROR)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def explain(exc: BaseException) -> str:
    """The schema errors behind an openapi-core validation failure."""
    found: list[str] = []
    current: BaseException | None = exc
    while current is not None:
        for error in getattr(current, "schema_errors", None) or []:
            found.append(f"{list(error.absolute_path)}: {error.message[:200]}")
        current = current.__cause__
    return "; ".join(found) or str(exc)[:300]


def example(name: str) -> Any:
    return copy.deepcopy(EXAMPLES[name]["value"])


@dataclass
class Fault:
    """Answer ``status`` to the next ``times`` requests matching ``method`` and ``path``."""

    method: str
    path: str  # a regular expression on the path
    status: int
    times: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    after: bool = False  # do the work first, then fail (a POST that landed)


@dataclass
class PullFile:
    filename: str
    status: str  # added | removed | modified | renamed
    patch: str | None
    previous_filename: str | None = None

    def right_hunks(self) -> list[set[int]]:
        """Per hunk: the new-side lines a comment may sit on (added and context lines)."""
        hunks: list[set[int]] = []
        if self.patch is None:
            return hunks
        new = 0
        for line in self.patch.split("\n"):
            m = _HUNK.match(line)
            if m:
                new = int(m.group(3))
                hunks.append(set())
                continue
            if not hunks or line.startswith("\\"):
                continue
            if line.startswith("-"):
                continue
            hunks[-1].add(new)
            new += 1
        return hunks


@dataclass
class State:
    owner: str = "Codertocat"
    repo: str = "Hello-World"
    number: int = 2
    head_sha: str = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
    base_sha: str = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
    files: list[PullFile] = field(default_factory=list)
    contents: dict[tuple[str, str], bytes] = field(default_factory=dict)  # (ref, path) -> bytes
    issue_comments: list[dict[str, Any]] = field(default_factory=list)
    review_comments: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    check_runs: list[dict[str, Any]] = field(default_factory=list)
    can_write: bool = True
    faults: list[Fault] = field(default_factory=list)
    log: list[tuple[str, str, int]] = field(default_factory=list)  # method, path, status
    errors: list[str] = field(default_factory=list)  # OpenAPI validation failures
    next_id: int = 1000
    bot: str = "github-actions[bot]"
    # GET /user: a workflow's token is refused it (None); a person's token gets its login.
    user_login: str | None = None

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    @property
    def writes(self) -> list[tuple[str, str, int]]:
        return [entry for entry in self.log if entry[0] in ("POST", "PATCH", "DELETE")]


class FakeGitHub:
    def __init__(self, state: State | None = None) -> None:
        self.state = state or State()
        self._server = make_server("127.0.0.1", 0, self._wsgi, threaded=True)
        self.base = f"http://127.0.0.1:{self._server.server_port}"
        spec = copy.deepcopy(SPEC)
        spec["servers"] = [{"url": self.base}]
        self.openapi = OpenAPI.from_dict(spec)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._lock = threading.Lock()

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)

    # -- plumbing -------------------------------------------------------------------------------

    def _wsgi(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        with self._lock:
            response = self._handle(request)
        return response(environ, start_response)

    def _handle(self, request: Request) -> Response:
        s = self.state
        checked = request
        nested = re.match(r"(/repos/[^/]+/[^/]+/contents/)(.+)", request.path)
        if nested and "/" in nested.group(2):
            # GitHub takes `contents/a/b.py`; the description's {path} is one segment.
            environ = dict(request.environ)
            environ["PATH_INFO"] = nested.group(1) + nested.group(2).replace("/", "%2F")
            checked = Request(environ)
        try:
            self.openapi.validate_request(WerkzeugOpenAPIRequest(checked))
        except Exception as exc:
            s.errors.append(f"request {request.method} {request.path}: {explain(exc)}")
            return self._json({"message": f"Invalid request: {exc}"}, 422, request)
        fault = next(
            (f for f in s.faults if f.method == request.method and re.search(f.path, request.path)),
            None,
        )
        if fault is not None and not fault.after:
            return self._fault(fault, request)
        response = self._route(request)
        if fault is not None and fault.after and response.status_code < 300:
            return self._fault(fault, request)
        try:
            self.openapi.validate_response(
                WerkzeugOpenAPIRequest(checked), WerkzeugOpenAPIResponse(response)
            )
        except Exception as exc:
            s.errors.append(f"response {request.method} {request.path}: {explain(exc)}")
        s.log.append((request.method, request.path, response.status_code))
        return response

    def _fault(self, fault: Fault, request: Request) -> Response:
        fault.times -= 1
        if fault.times <= 0:
            self.state.faults.remove(fault)
        self.state.log.append((request.method, request.path, fault.status))
        body = {
            "message": "Server Error" if fault.status >= 500 else "API rate limit exceeded",
            "documentation_url": "https://docs.github.com/rest",
        }
        return Response(
            json.dumps(body),
            status=fault.status,
            headers=fault.headers,
            content_type="application/json",
        )

    def _json(
        self, data: Any, status: int, request: Request, headers: dict[str, str] | None = None
    ) -> Response:
        text = json.dumps(data).replace("https://api.github.com", self.base)
        return Response(
            text if status != 204 else "",
            status=status,
            headers=headers or {},
            content_type="application/json; charset=utf-8",
        )

    def _error(self, request: Request, status: int, message: str) -> Response:
        if status == 422:
            return self._json(
                {
                    "message": message,
                    "errors": [message],
                    "documentation_url": "https://docs.github.com/rest",
                },
                422,
                request,
            )
        return self._json(
            {"message": message, "documentation_url": "https://docs.github.com/rest"},
            status,
            request,
        )

    def _page(self, request: Request, items: list[Any]) -> Response:
        per_page = int(request.args.get("per_page", 30))
        page = int(request.args.get("page", 1))
        chunk = items[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(items) // per_page))
        links = []
        url = f"{self.base}{request.path}?per_page={per_page}"
        if page < last:
            links.append(f'<{url}&page={page + 1}>; rel="next"')
            links.append(f'<{url}&page={last}>; rel="last"')
        headers = {"Link": ", ".join(links)} if links else {}
        return self._json(chunk, 200, request, headers)

    # -- routes ---------------------------------------------------------------------------------

    def _route(self, request: Request) -> Response:
        s = self.state
        prefix = f"/repos/{s.owner}/{s.repo}"
        path, method = request.path, request.method
        if path == "/rate_limit":
            return self._json(example("rate-limit-overview"), 200, request)
        if path == "/user" and method == "GET":
            if s.user_login is None:
                return self._error(request, 403, "Resource not accessible by integration")
            me = example("private-user-response-with-public-profile-information")
            me.update(login=s.user_login, type="User", user_view_type="public")
            return self._json(me, 200, request)
        if not path.startswith(prefix):
            return self._error(request, 404, "Not Found")
        rest = path[len(prefix) :]
        body = request.get_json(silent=True) if request.data else None
        write = method in ("POST", "PATCH", "DELETE")
        if write and not s.can_write:
            return self._error(request, 403, "Resource not accessible by integration")
        if rest == "" and method == "GET":
            repo = example("full-repository-default-response")
            repo.update(name=s.repo, full_name=f"{s.owner}/{s.repo}")
            return self._json(repo, 200, request)
        m = re.fullmatch(r"/pulls/(\d+)", rest)
        if m and method == "GET":
            return self._pull(request, int(m.group(1)))
        m = re.fullmatch(r"/pulls/(\d+)/files", rest)
        if m and method == "GET":
            return self._page(request, [self._file(f) for f in s.files])
        m = re.fullmatch(r"/issues/(\d+)/comments", rest)
        if m and method == "GET":
            return self._page(request, s.issue_comments)
        if m and method == "POST":
            return self._create_issue_comment(request, body or {})
        m = re.fullmatch(r"/issues/comments/(\d+)", rest)
        if m:
            return self._one_comment(request, s.issue_comments, int(m.group(1)), body or {})
        m = re.fullmatch(r"/pulls/(\d+)/comments", rest)
        if m and method == "GET":
            return self._page(request, s.review_comments)
        if m and method == "POST":
            return self._create_review_comment(request, body or {}, review_id=None)
        m = re.fullmatch(r"/pulls/comments/(\d+)", rest)
        if m:
            return self._one_comment(request, s.review_comments, int(m.group(1)), body or {})
        m = re.fullmatch(r"/pulls/(\d+)/reviews", rest)
        if m and method == "GET":
            return self._page(request, s.reviews)
        if m and method == "POST":
            return self._create_review(request, body or {})
        m = re.fullmatch(r"/check-runs", rest)
        if m and method == "POST":
            return self._create_check_run(request, body or {})
        m = re.fullmatch(r"/check-runs/(\d+)", rest)
        if m and method == "PATCH":
            return self._update_check_run(request, int(m.group(1)), body or {})
        m = re.fullmatch(r"/contents/(.+)", rest)
        if m and method == "GET":
            return self._contents(request, m.group(1), request.args.get("ref", s.head_sha))
        return self._error(request, 404, "Not Found")

    def _user(self) -> dict[str, Any]:
        user = example("issue-comment")["user"]
        # A workflow's or an app's token writes as a bot; a person's token as that person.
        user.update(login=self.state.bot, type="User" if self.state.user_login else "Bot")
        return dict(user)

    def _pull(self, request: Request, number: int) -> Response:
        s = self.state
        if number != s.number:
            return self._error(request, 404, "Not Found")
        text = json.dumps(example("pull-request"))
        text = text.replace("octocat/Hello-World", f"{s.owner}/{s.repo}")
        text = re.sub(r"/(pulls|issues)/1347\b", rf"/\1/{s.number}", text)
        pr = json.loads(text)
        for team in pr.get("requested_teams") or []:  # GitHub's example lacks a required field
            team.setdefault("type", "organization")
        pr["number"] = s.number
        pr["head"]["sha"] = s.head_sha
        pr["base"]["sha"] = s.base_sha
        pr["changed_files"] = len(s.files)
        pr["url"] = f"{self.base}/repos/{s.owner}/{s.repo}/pulls/{s.number}"
        pr["base"]["repo"]["full_name"] = f"{s.owner}/{s.repo}"
        return self._json(pr, 200, request)

    def _file(self, f: PullFile) -> dict[str, Any]:
        item = example("diff-entry-items")[0]
        item.update(filename=f.filename, status=f.status)
        if f.patch is None:
            item.pop("patch", None)
        else:
            item["patch"] = f.patch
        if f.previous_filename:
            item["previous_filename"] = f.previous_filename
        return dict(item)

    def _check_body(self, request: Request, text: Any) -> Response | None:
        if not isinstance(text, str) or not text:
            return self._error(request, 422, "Body cannot be blank")
        if len(text) > MAX_BODY:
            return self._error(request, 422, "Body is too long (maximum is 65536 characters)")
        return None

    def _create_issue_comment(self, request: Request, body: dict[str, Any]) -> Response:
        s = self.state
        bad = self._check_body(request, body.get("body"))
        if bad:
            return bad
        comment = example("issue-comment")
        cid = s.new_id()
        comment.update(
            id=cid,
            body=body["body"],
            user=self._user(),
            url=f"{self.base}/repos/{s.owner}/{s.repo}/issues/comments/{cid}",
            issue_url=f"{self.base}/repos/{s.owner}/{s.repo}/issues/{s.number}",
        )
        s.issue_comments.append(comment)
        return self._json(comment, 201, request)

    def _one_comment(
        self, request: Request, comments: list[dict[str, Any]], cid: int, body: dict[str, Any]
    ) -> Response:
        """GET, PATCH (edit the body) or DELETE one comment of ``comments``."""
        found = next((c for c in comments if c["id"] == cid), None)
        if found is None:
            return self._error(request, 404, "Not Found")
        if request.method == "GET":
            return self._json(found, 200, request)
        if request.method == "DELETE":
            comments.remove(found)
            return self._json(None, 204, request)
        bad = self._check_body(request, body.get("body"))
        if bad:
            return bad
        found["body"] = body["body"]
        return self._json(found, 200, request)

    def _anchor_ok(self, comment: dict[str, Any]) -> bool:
        """`line` (and `start_line`) on one hunk of the diff, on the given side."""
        f = next((x for x in self.state.files if x.filename == comment.get("path")), None)
        if f is None or "position" in comment:
            return False
        if comment.get("side", "RIGHT") != "RIGHT" or comment.get("start_side", "RIGHT") != "RIGHT":
            return False  # the fake only models RIGHT; reviewbot only comments there
        line = comment.get("line")
        start = comment.get("start_line")
        for hunk in f.right_hunks():
            if line in hunk:
                return start is None or (start < line and start in hunk)
        return False

    def _review_comment_record(
        self, comment: dict[str, Any], review_id: int | None, commit: str
    ) -> dict[str, Any]:
        s = self.state
        record = example("pull-request-review-comment-2")
        cid = s.new_id()
        record.update(
            id=cid,
            body=comment["body"],
            path=comment["path"],
            line=comment.get("line"),
            side="RIGHT",
            start_line=comment.get("start_line"),
            commit_id=commit,
            original_commit_id=commit,
            user=self._user(),
            pull_request_review_id=review_id,
            in_reply_to_id=comment.get("in_reply_to"),
            url=f"{self.base}/repos/{s.owner}/{s.repo}/pulls/comments/{cid}",
            pull_request_url=f"{self.base}/repos/{s.owner}/{s.repo}/pulls/{s.number}",
        )
        if record["in_reply_to_id"] is None:
            record.pop("in_reply_to_id")
        if comment.get("start_line"):
            record["start_side"] = "RIGHT"
        else:
            record.pop("start_side", None)  # absent, not null, for one-line comments
        return dict(record)

    def _create_review_comment(
        self, request: Request, body: dict[str, Any], review_id: int | None
    ) -> Response:
        bad = self._check_body(request, body.get("body"))
        if bad:
            return bad
        if "in_reply_to" not in body and not self._anchor_ok(body):
            return self._error(request, 422, "Line could not be resolved")
        record = self._review_comment_record(
            body, review_id, body.get("commit_id", self.state.head_sha)
        )
        self.state.review_comments.append(record)
        return self._json(record, 201, request)

    def add_issue_comment(self, text: str, user: str = "octocat") -> None:
        """A person comments on the pull request."""
        comment = example("issue-comment")
        cid = self.state.new_id()
        comment.update(id=cid, body=text)
        comment["user"] = {**comment["user"], "login": user, "type": "User"}
        self.state.issue_comments.append(comment)

    def add_review_comment(self, path: str, line: int, text: str, user: str = "octocat") -> None:
        """A person comments on a line of the diff."""
        s = self.state
        record = self._review_comment_record(
            {"body": text, "path": path, "line": line}, None, s.head_sha
        )
        record["user"] = {**record["user"], "login": user, "type": "User"}
        s.review_comments.append(record)

    def outdate(self, cid: int) -> None:
        """GitHub's answer after a push changed the lines a comment sat on: no line any more
        (shown as outdated, collapsed)."""
        record = next(c for c in self.state.review_comments if c["id"] == cid)
        for key in ("line", "position", "start_line"):
            record.pop(key, None)

    def add_reply(self, to: int, text: str, user: str = "octocat") -> None:
        """A person answers one of the bot's inline comments."""
        parent = next(c for c in self.state.review_comments if c["id"] == to)
        record = self._review_comment_record(
            {"body": text, "path": parent["path"], "line": parent["line"], "in_reply_to": to},
            None,
            parent["commit_id"],
        )
        record["user"] = {**record["user"], "login": user, "type": "User"}
        self.state.review_comments.append(record)

    def _create_review(self, request: Request, body: dict[str, Any]) -> Response:
        s = self.state
        if body.get("event") in ("APPROVE", "REQUEST_CHANGES"):
            return self._error(
                request, 422, "GitHub Actions is not permitted to approve pull requests."
            )
        if body.get("event") == "COMMENT" and not body.get("body"):
            return self._error(request, 422, "Body is required for COMMENT reviews")
        comments = body.get("comments") or []
        for c in comments:  # all or nothing, and the error does not say which
            if (
                not isinstance(c.get("body"), str)
                or len(c["body"]) > MAX_BODY
                or not self._anchor_ok(c)
            ):
                return self._error(request, 422, "Unprocessable Entity")
        if body.get("body") and len(body["body"]) > MAX_BODY:
            return self._error(request, 422, "Body is too long")
        review = example("pull-request-review")
        rid = s.new_id()
        review.update(
            id=rid,
            body=body.get("body", ""),
            state="COMMENTED",
            user=self._user(),
            commit_id=body.get("commit_id", s.head_sha),
        )
        s.reviews.append(review)
        for c in comments:
            s.review_comments.append(
                self._review_comment_record(c, rid, body.get("commit_id", s.head_sha))
            )
        return self._json(review, 200, request)

    def _create_check_run(self, request: Request, body: dict[str, Any]) -> Response:
        s = self.state
        output = body.get("output") or {}
        if len(output.get("annotations") or []) > 50:
            return self._error(request, 422, "Only 50 annotations are allowed per request")
        if len(output.get("summary") or "") > 65535:
            return self._error(request, 422, "Summary is too long")
        run = example("check-run")
        rid = s.new_id()
        run.update(
            id=rid,
            name=body.get("name"),
            head_sha=body.get("head_sha"),
            status=body.get("status", "queued"),
            conclusion=body.get("conclusion"),
            url=f"{self.base}/repos/{s.owner}/{s.repo}/check-runs/{rid}",
        )
        run["output"].update(
            title=output.get("title"),
            summary=output.get("summary"),
            annotations_count=len(output.get("annotations") or []),
        )
        s.check_runs.append(run)
        return self._json(run, 201, request)

    def _update_check_run(self, request: Request, rid: int, body: dict[str, Any]) -> Response:
        run = next((r for r in self.state.check_runs if r["id"] == rid), None)
        if run is None:
            return self._error(request, 404, "Not Found")
        output = body.get("output") or {}
        if len(output.get("annotations") or []) > 50:
            return self._error(request, 422, "Only 50 annotations are allowed per request")
        run["output"]["annotations_count"] += len(output.get("annotations") or [])
        return self._json(run, 200, request)

    def _contents(self, request: Request, path: str, ref: str) -> Response:
        data = self.state.contents.get((ref, path))
        if data is None:
            return self._error(request, 404, "Not Found")
        item = example("content-file-response-if-content-is-a-file")
        item.update(
            path=path,
            name=path.rsplit("/", 1)[-1],
            size=len(data),
            content=base64.b64encode(data).decode(),
            encoding="base64",
        )
        return self._json(item, 200, request)
