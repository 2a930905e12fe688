"""The console scripts' entry points: Ctrl-C is quiet from the very first instruction.

Python prints a traceback when SIGINT arrives while modules are still loading (the engine's
imports are a good part of a hook run). These entry points install a quiet handler first,
import the door, and then give SIGINT back to Python, so that the door's guard turns it into
one line and exit code 130 while the work runs (and its clean-ups still run).
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType

__all__ = ["cli", "hook"]


def _quiet(signum: int, frame: FrameType | None) -> None:
    os.write(2, b"reviewbot: interrupted\n")
    os._exit(130)  # only modules were loading: nothing to clean up


# A command runs once and exits: the cyclic collector's young collections, at Python's default
# of one every 700 allocations, cost a 1M-line review about 1.5 s of CPU (10%) and find next to
# nothing to free (its peak memory is the same). Rarer collections, not none: a long run of an
# unusual input still gets its cycles freed.
_GC_THRESHOLDS = (200_000, 100, 1000)


# What a stream that cannot encode them gets for the marks whose meaning text carries: the
# arrow of every before → after (`1→9` in the text's tables) and the ellipsis of a cut.
_ASCII = {"→": "->", "…": "..."}
_FALLBACK = "reviewbot-ascii"


def _ascii(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    cut = error.object[error.start : error.end]
    return "".join(_ASCII.get(c, "?") for c in cut), error.end


def _tolerant_streams() -> None:
    """A character the output stream cannot encode (a sparkline or an arrow on a Windows pipe,
    which gets the ANSI code page) raised, and the hook lost its findings to an internal error.
    It is written as `?` now, but an arrow as `->` and an ellipsis as `...` (`1?9` in a
    table said nothing)."""
    codecs.register_error(_FALLBACK, _ascii)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream.encoding or "").lower().replace("-", "") != "utf8":
            reconfigure(errors=_FALLBACK)


def _run(main: Callable[[], int]) -> int:
    """SIGINT back to Python, then the door: its guard turns an interrupt into one line; one
    that lands before the guard runs (while the arguments are parsed) is quiet here."""
    _tolerant_streams()
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        return main()
    except KeyboardInterrupt:
        os.write(2, b"reviewbot: interrupted\n")
        return 130


def hook() -> int:
    signal.signal(signal.SIGINT, _quiet)
    gc.set_threshold(*_GC_THRESHOLDS)
    # Lazy: the handler above must be in place before the door's modules load.
    from reviewbot.doors.hook import main

    return _run(main)


_INDEX_COMMANDS = frozenset({"index", "defs", "refs", "callers", "callees", "search", "map"})


def cli() -> int:
    signal.signal(signal.SIGINT, _quiet)
    if len(sys.argv) < 2 or sys.argv[1] != "mcp":  # the server runs for hours: Python's default
        gc.set_threshold(*_GC_THRESHOLDS)
    if len(sys.argv) > 1 and sys.argv[1] in _INDEX_COMMANDS:
        # Lazy: the index queries answer in well under 150 ms only without the main CLI's
        # imports (numpy, scipy, jinja2: about 0.35 s); same parsers, same guard.
        from reviewbot.doors.index_cli import main as index_main

        if sys.argv[1] != "index":
            return _run(index_main)
        # The command ends when its output is out: what the build made is left to the exit
        # (freeing it, then Python's own clean-up, cost a cold build 0.3-0.4 s of CPU after
        # its last line; its pools, files and database are closed by then).
        # Lazy: the builder (the engine, numpy, the parsers) only for this command.
        from reviewbot.index.build import leave_to_exit

        leave_to_exit()
        code = _run(index_main)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    # Lazy: the handler above must be in place before the door's modules load.
    from reviewbot.doors.cli import main

    return _run(main)
