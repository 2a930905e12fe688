"""The doors: the only modules that read argv, the environment or the network, and that
decide exit codes (cli, hook, install, mcp, github)."""
