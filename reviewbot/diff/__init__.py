"""Changes as our own frozen records: git (subprocess, no shell) and unified diffs (unidiff)."""
