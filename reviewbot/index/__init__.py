"""The repository index: definitions, imports and resolved references of every file, in SQLite
under the git directory, updated per git blob. ``build`` writes it, ``query`` reads it; the
layer sits between analysis (which may use it) and repo (which it reads files through)."""
