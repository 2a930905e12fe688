"""Errors a user can cause, and the exit codes the doors map them to (one place)."""

from __future__ import annotations

__all__ = [
    "EXIT_FAIL",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "ConfigError",
    "InputError",
    "ReviewbotError",
    "UsageError",
]

EXIT_OK = 0
EXIT_FAIL = 1  # --fail-on was met
EXIT_USAGE = 2  # bad arguments, configuration or input
EXIT_INTERNAL = 3  # a bug of ours: reported in one line, details with --debug


class ReviewbotError(Exception):
    """An error with a message meant for the user. ``exit_code`` says how the door exits."""

    exit_code = EXIT_USAGE


class UsageError(ReviewbotError):
    """Bad command-line arguments."""


class ConfigError(ReviewbotError):
    """Invalid configuration: the message names the key and what is allowed."""


class InputError(ReviewbotError):
    """A path that does not exist, a file that cannot be analysed, a bad revision."""
