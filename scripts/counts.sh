#!/usr/bin/env bash
# The figures the docs quote (cases, units, models, episodes, tests, sizes), counted from this
# checkout, printed as a Markdown block with the date, machine, commit and command that made it.
# Paste its output over the "Figures" block of docs/README.md; a test (house::counts) fails when
# the block's cases, units, offline and pinned lines differ from what this prints.
#   scripts/counts.sh           everything (builds the test targets to list the tests)
#   scripts/counts.sh --quick   no test count (nothing is compiled beyond the harness binary)
# CHARTER_HARNESS_BIN=PATH counts with that harness binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[ "${1:-}" = "--quick" ] && quick=true

if [ -n "${CHARTER_HARNESS_BIN:-}" ]; then
  bin=$CHARTER_HARNESS_BIN
elif [ -x target/release/harness ]; then
  bin=target/release/harness
else
  cargo build --quiet --locked -p harness
  bin=target/debug/harness
fi

# `harness cases` prints a line per case (its id first: the checkers' registry) and one per
# variant (a unit), each naming its workspace.
cases=$("$bin" cases | grep -c '^E[0-9]')
units=$("$bin" cases | grep -c 'workspace:')
models() { grep -c '^\[\[models\]\]' "$1"; }
trials() { sed -n 's/^trials *= *\([0-9]*\).*/\1/p' "$1" | head -1; }
offline_models=$(models manifests/offline.toml)
pinned_models=$(models manifests/pinned.toml)
offline_trials=$(trials manifests/offline.toml)
pinned_trials=$(trials manifests/pinned.toml)
offline_trials=${offline_trials:-3}
pinned_trials=${pinned_trials:-3}

echo "<!-- counts: made by scripts/counts.sh -->"
echo '```'
echo "made:    $(date -u +%Y-%m-%d) on $(uname -sm), $(nproc) cores, commit $(git rev-parse --short HEAD), by scripts/counts.sh${1:+ $1}"
echo "cases:   $cases (the checkers' registry, as \`harness cases\` lists them)"
echo "units:   $units (case variants, as \`harness cases\` lists them)"
echo "offline: $offline_models models × $units units × $offline_trials trials = $((offline_models * units * offline_trials)) episodes (manifests/offline.toml)"
echo "pinned:  $pinned_models models × $units units × $pinned_trials trials = $((pinned_models * units * pinned_trials)) episodes (manifests/pinned.toml)"
if ! $quick; then
  list=$(cargo test --workspace --locked --quiet -- --list 2>/dev/null)
  ignored=$(cargo test --workspace --locked --quiet -- --list --ignored 2>/dev/null | grep -c ': test$' || true)
  echo "tests:   $(grep -c ': test$' <<<"$list") in the workspace (cargo test --workspace -- --list), $ignored of them ignored"
fi
src() { find "$@" -name '*.rs' -print0 | xargs -0 cat | wc -l; }
echo "source:  harness/src $(src harness/src) lines, checkers/src $(src checkers/src) lines, tests $(src harness/tests checkers/tests) lines"
echo "docs:    README.md $(wc -l <README.md) lines; docs/ $(ls docs/*.md | wc -l) pages, $(cat docs/*.md | wc -l) lines"
if [ "$bin" = target/release/harness ]; then
  echo "binary:  $(stat -c %s "$bin") bytes (target/release/harness)"
fi
echo '```'
