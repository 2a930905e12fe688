"""Rendering: pure functions from result records to text (no git, config or network)."""
