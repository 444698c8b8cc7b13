"""The designer's workbench: rulesets compared and swept by simulation, on a Dask cluster
(``buckshot compare`` and ``buckshot sweep``).
"""
