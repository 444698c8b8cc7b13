#!/usr/bin/env bash
# The main job: set up if needed, then the full verification run (Z3 proofs of the spec's
# invariants for every player count, vacuity, bounded model checking of the invariants as a
# cross-check of the proofs (--bmc-all), the reference engine run in lockstep with the
# model), the traceability matrix, and the diagrams. Arguments go to `buckshot verify`
# (e.g. --players 2-4 --depth 8).
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
status=0
buckshot verify --bmc-all "$@" || status=$?
buckshot spec traceability || status=$?
buckshot diagrams || status=$?
exit "$status"
