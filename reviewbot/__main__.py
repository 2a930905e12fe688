"""``python -m reviewbot``."""

from __future__ import annotations

from reviewbot.doors.cli import main

raise SystemExit(main())
