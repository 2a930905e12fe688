"""Plain git hook scripts (pre-commit, pre-push), shipped as reviewbot.githooks."""
