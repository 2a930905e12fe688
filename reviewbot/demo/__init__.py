"""A small example change shipped with the package, for `reviewbot review --demo`."""
