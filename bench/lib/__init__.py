"""What the benchmark scripts of ``bench/`` share (the scripts import it as ``lib``).

* ``common``: paths, git with a fixed identity, where reviewbot stands, prose and results files;
* ``procs``: running tools and measuring them (wall time, max RSS, medians);
* ``corpora``: real source text (the interpreter's standard library, Go's, the JDK's) and
  packages fetched from registries (PyPI, npm, Debian) into ``bench/.corpus``;
* ``releases``: pinned consecutive releases of real packages, one git repository per package;
* ``groundtruth``: declarations from real parsers (``ast``, tree-sitter) and the metrics on them;
* ``lizard``: lizard's functions of a text and their old <-> new matching;
* ``pairs``: one release pair reviewed by reviewbot and analysed by lizard, side by side;
* ``scoring``: percentages, correlations, the adjusted Rand index, precision and recall.

It calls reviewbot through its public functions only.
"""
