#!/usr/bin/env bash
# The figures the docs quote (cases, units, models, episodes, tests, sizes), counted from this
# checkout, printed as a Markdown block with the date, machine, commit and command that made it.
# Paste its output over the "Figures" block of docs/README.md.
#   scripts/counts.sh           everything (builds the test targets to list the tests)
#   scripts/counts.sh --quick   no test count (nothing is compiled beyond the harness binary)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[ "${1:-}" = "--quick" ] && quick=true

if [ -x target/release/harness ]; then
  bin=target/release/harness
else
  cargo build --quiet --locked -p harness
  bin=target/debug/harness
fi

cases=$(ls cases/E*.toml | wc -l)
# `harness cases` prints one line per variant (a unit), each naming its workspace.
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
echo "cases:   $cases (cases/E*.toml)"
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
