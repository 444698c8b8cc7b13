"""The designer's workbench: rulesets compared and swept by simulation, on a Dask cluster.

``buckshot compare`` and ``buckshot sweep`` (issue 15): ruleset overrides (:mod:`.overrides`,
:mod:`.grid`), balance figures from simulated games (:mod:`.balance`), their significance
(:mod:`.stats`), the games run as Dask tasks (:mod:`.cluster`), and the report as a table,
JSON and a self-contained HTML page with plots (:mod:`.report`, :mod:`.plots`, :mod:`.page`).
"""
