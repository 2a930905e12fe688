"""The doors' one guard: how each door turns an error into an exit code and a message.

Every door runs its work through :func:`guard` with its own :class:`DoorPolicy`: the CLI exits
2 on a user's error and 3 on a bug of ours (one line; the traceback only with ``--debug``); the
hook and the Action never fail the user's work because of their own trouble (exit 0, one line,
the details in a log file for the hook); nobody prints a bare traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import ReviewbotError

__all__ = [
    "ACTION",
    "CLI",
    "EXIT_FAIL",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "HOOK",
    "DoorPolicy",
    "guard",
]

EXIT_OK = 0
EXIT_FAIL = 1  # --fail-on was met
EXIT_USAGE = 2  # bad arguments, configuration or input
EXIT_INTERNAL = 3  # a bug of ours: reported in one line, details with --debug
EXIT_INTERRUPTED = 130


class DoorPolicy(NamedTuple):
    prog: str
    user_error: int  # exit code for a ReviewbotError
    internal_error: int  # exit code for anything else
    note: str = ""  # appended to every error line: what did not happen to the user's work
    prefix: str = "error: "
    debug_hint: bool = True  # an internal error says how to see the details (--debug)


CLI = DoorPolicy("reviewbot", EXIT_USAGE, EXIT_INTERNAL)
HOOK = DoorPolicy("reviewbot", EXIT_OK, EXIT_OK, " (the commit is not blocked)", "")
ACTION = DoorPolicy(
    "reviewbot", EXIT_OK, EXIT_OK, " (the pull request is not failed)", "", debug_hint=False
)


def guard(
    policy: DoorPolicy,
    work: Callable[[], int],
    *,
    say: Callable[[str], object],
    debug: bool = False,
    log_file: Callable[[], Path | None] | None = None,
    clean: Callable[[str], str] = lambda text: text,
) -> int:
    """Run ``work`` and map what escapes it to one line (``say``) and an exit code.

    ``clean`` filters every text shown (the Action redacts its token with it); ``log_file``
    names where the traceback of an internal error is kept (the hook's, under the git
    directory)."""
    try:
        return work()
    except ReviewbotError as exc:
        say(clean(f"{policy.prog}: {policy.prefix}{exc}{policy.note}"))
        return policy.user_error
    except KeyboardInterrupt:
        say(f"{policy.prog}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`reviewbot ... | head`): not an error of ours.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return EXIT_OK
    except Exception as exc:  # the one catch-all: a bug of ours, never a bare traceback
        # Lazy: traceback (with textwrap, ~2 ms) is needed only when something went wrong.
        import traceback

        detail = clean("".join(traceback.format_exception(exc)))
        where = _write_log(log_file() if log_file is not None else None, detail)
        line = clean(f"{policy.prog}: internal error: {type(exc).__name__}: {exc}")
        say(line + (f"; details in {where}" if where is not None else "") + policy.note)
        if debug:
            say(detail.rstrip("\n"))
        elif where is None and policy.debug_hint:
            say(f"{policy.prog}: this is a bug; run again with --debug for the details")
        return policy.internal_error


def _write_log(path: Path | None, detail: str) -> Path | None:
    if path is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{detail}\n")
    except OSError:
        return None
    return path
