"""The deterministic reference engine that plays the game by the spec of ``buckshot.spec``.

Not built yet: the engine arrives with its own issue. The package exists so that the
distribution's layout, and the traceability matrix's "engine" column, are in place.
"""
