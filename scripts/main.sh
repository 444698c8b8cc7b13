#!/usr/bin/env bash
# The main job: set up if needed, print the spec's traceability matrix, write the diagrams.
# (The full verification run joins this once `buckshot verify` exists.)
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
buckshot spec trace
buckshot diagrams "$@"
