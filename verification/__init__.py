"""Z3 verification of the spec's invariants, and of the engine against the spec.

Not built yet: the verification arrives with its own issue. The package exists so that
the distribution's layout, and the traceability matrix's "verification" column, are in
place.
"""
