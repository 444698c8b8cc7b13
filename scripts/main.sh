#!/usr/bin/env bash
# The main job: set up if needed, then print the traceability matrix of the spec.
# (The full verification run replaces this once `buckshot verify` exists.)
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
buckshot spec trace "$@"
