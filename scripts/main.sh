#!/usr/bin/env bash
# The main job: set up if needed, then the full verification run (Z3 proofs of the spec's
# invariants for every player count, vacuity, bounded model checking of the invariants as a
# cross-check of the proofs (--bmc-all), the reference engine run in lockstep with the
# model), the traceability matrix, and the diagrams. Arguments go to `buckshot verify`
# (e.g. --players 2-4 --depth 8). A step that fails does not stop the others (the exit
# status is the last failure's); Ctrl-C stops the job at once, with exit status 130.
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
# Ctrl-C reaches the step running and this shell alike: the step stops (exit 130), then so
# does the job, instead of going on to the next step
trap 'exit 130' INT
status=0
step() {
    local code=0
    "$@" || code=$?
    if [ "$code" = 130 ]; then
        exit 130
    fi
    if [ "$code" != 0 ]; then
        status=$code
    fi
}
step buckshot verify --bmc-all "$@"
step buckshot spec traceability
step buckshot diagrams
exit "$status"
