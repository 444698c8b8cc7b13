"""The checkout's build step (``buckshot regen``): the generators of every file derived from
the spec (the conformance cases, the schemas' lists, the architecture picture) and the list
of targets that writes them. It rewrites a source checkout, so the wheel leaves it out."""
