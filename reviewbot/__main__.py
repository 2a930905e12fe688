"""``python -m reviewbot``."""

from __future__ import annotations

from reviewbot.cli import main

raise SystemExit(main())
