#!/usr/bin/env bash
# Mutation analysis of the engine's rule code with the conformance suite alone as the test
# command (cosmic-ray). Not run in CI: each mutant costs a whole suite run (seconds), and
# the rule modules have hundreds of mutants.
#
#   bash scripts/mutation.sh [MODULE.py ...]     # default: the rule modules of reference/
#
# The work happens in a copy of the checkout (cosmic-ray edits the module it mutates in
# place), imported through PYTHONPATH. For each module it writes, under
# artifacts/mutation/: the cosmic-ray session, the full report, and the survivors (each a
# diff); then one line per module and the total: mutants, killed, survived, the score.
# Then `python benchmarks/mutation.py --recheck` classes the survivors: each needs a case or a
# judgement with its reason in benchmarks/mutation_judged.toml (see benchmarks/MUTATION.md).

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="$ROOT/.venv/bin/python"
OUT="$ROOT/artifacts/mutation"
[ -x "$PYTHON" ] || { echo "run 'bash scripts/test.sh' once first: it creates .venv" >&2; exit 2; }
"$PYTHON" -c 'import cosmic_ray' 2>/dev/null || {
    echo "cosmic-ray is missing from .venv: install the package's dev extras" >&2; exit 2; }

if [ "$#" -eq 0 ]; then
    set -- reference/setup.py reference/options.py reference/events.py reference/state.py \
        reference/effects.py reference/game.py
fi
for module in "$@"; do
    [ -f "$ROOT/$module" ] || { echo "no module $module in $ROOT" >&2; exit 2; }
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/buckshot-mutation.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM
(cd "$ROOT" && tar --exclude=./.venv --exclude=./.git --exclude=./artifacts --exclude=./build \
    --exclude='*.egg-info' --exclude='__pycache__' -cf - .) | (cd "$WORK" && tar -xf -)
mkdir -p "$OUT"

total=0
total_killed=0
for module in "$@"; do
    name="$(basename "$module" .py)"
    config="$WORK/mutation-$name.toml"
    session="$OUT/$name.sqlite"
    cat >"$config" <<EOF
[cosmic-ray]
module-path = "$module"
timeout = 120.0
excluded-modules = []
test-command = "$PYTHON -m buckshot conformance run --adapter reference --no-tables --quiet --exit-first --timeout 30"

[cosmic-ray.distributor]
name = "local"
EOF
    rm -f "$session"
    echo "[mutation] $module: listing mutants" >&2
    (cd "$WORK" && PYTHONPATH="$WORK" "$PYTHON" -m cosmic_ray.cli init "$config" "$session")
    echo "[mutation] $module: running the suite once per mutant" >&2
    (cd "$WORK" && PYTHONPATH="$WORK" "$PYTHON" -m cosmic_ray.cli exec "$config" "$session")
    "$ROOT/.venv/bin/cr-report" --show-diff "$session" >"$OUT/$name.report.txt.tmp"
    mv "$OUT/$name.report.txt.tmp" "$OUT/$name.report.txt"
    "$ROOT/.venv/bin/cr-report" --show-diff --surviving-only "$session" >"$OUT/$name.survivors.txt"
    counts="$("$PYTHON" - "$session" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT test_outcome, COUNT(*) FROM work_results GROUP BY test_outcome").fetchall()
outcomes = {str(k).split(".")[-1].lower(): v for k, v in rows}
print(sum(outcomes.values()), outcomes.get("killed", 0))
EOF
)"
    read -r mutants killed <<<"$counts"
    total=$((total + mutants))
    total_killed=$((total_killed + killed))
    echo "$module: $mutants mutants, $killed killed, $((mutants - killed)) survived"
done
echo "total: $total mutants, $total_killed killed, $((total - total_killed)) survived"
