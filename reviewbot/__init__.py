"""reviewbot: a diff-aware, language-agnostic structural code-review engine."""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]
