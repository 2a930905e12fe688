"""The one error tree: errors a user (or the world outside) can cause, with a message meant
for the user. Which exit code or reply each becomes is decided by the doors' guard
(``reviewbot.doors.guard``), never here."""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "GitHubError",
    "InputError",
    "ReviewbotError",
    "UsageError",
]


class ReviewbotError(Exception):
    """An error with a message meant for the user."""


class UsageError(ReviewbotError):
    """Bad command-line arguments."""


class ConfigError(ReviewbotError):
    """Invalid configuration: the message names the key and what is allowed."""


class InputError(ReviewbotError):
    """A path that does not exist, a file that cannot be analysed, a bad revision, git
    refusing or missing."""


class GitHubError(ReviewbotError):
    """The GitHub API refused or failed; ``status`` is the HTTP status (0 without one)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"GitHub API error {status}: {message}")
        self.status = status
