#!/bin/sh
# Rerun one corpus of bench/impact_quality.py (this checkout's script, method and corpora)
# against the reviewbot/ of another commit of this repository, e.g. main's HEAD:
#
#     bench/impact_quality_at.sh main yup /tmp/yup_at_main.md
#     bench/impact_quality_at.sh 45aaab5 yup /tmp/yup_at_45aaab5.md    # session 10's run
#
# COMMIT's reviewbot/ is exported (git archive) into a temporary folder that Python imports
# before this checkout's own; the index is built from scratch by that code (no index is
# reused). The same sample, seed, budget and flags as the pre-registered runs: --sample 40
# --seconds 1200 --misses. OUT (default /tmp/impact_quality_CORPUS_COMMIT.md) starts as a copy
# of bench/results/impact_quality.md, so the committed results file is not touched; the run
# replaces the corpus's own section in the copy. stderr lists every missed and extra reference.
# Run it from the checkout's root, with its .venv (jedi installed).
set -eu
if [ $# -lt 1 ]; then
    echo "usage: bench/impact_quality_at.sh COMMIT [CORPUS] [OUT]" >&2
    exit 2
fi
commit=$(git rev-parse --short=7 --verify -q "$1^{commit}" 2>/dev/null) || {
    echo "impact_quality_at.sh: no such commit: $1" >&2
    exit 2
}
corpus=${2:-yup}
out=${3:-/tmp/impact_quality_${corpus}_${commit}.md}
tree=$(mktemp -d /tmp/reviewbot-at-XXXXXX)
trap 'rm -rf "$tree"' EXIT
git archive "$commit" reviewbot | tar -x -C "$tree"
[ -e "$out" ] || cp bench/results/impact_quality.md "$out"
IMPACT_QUALITY_REVIEWBOT_AT="commit $commit" PYTHONPATH="$tree" \
    .venv/bin/python bench/impact_quality.py --only "$corpus" --sample 40 --seconds 1200 \
    --misses --out "$out"
