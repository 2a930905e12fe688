"""``python -m reviewbot``: the same entry as the console script (an index query does not
load the main CLI's modules)."""

from __future__ import annotations

from reviewbot.doors.launch import cli

raise SystemExit(cli())
