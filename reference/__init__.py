"""The deterministic reference engine that plays the game by the spec of ``buckshot.spec``.

``game`` runs games (prompts, decisions, snapshots) by one step loop that reads the
transition tables of ``tables`` (the spec's charts, their guards and actions bound to the
engine's functions); ``effects`` implements the registry's
guards, actions and selectors; ``options`` lists and parses decision options; ``events``,
``state``, ``chance`` and ``errors`` hold the log, the state, the chance port and the error
codes; ``setup`` starts a game from a given position; ``observe`` is the observer hook (every
transition, prompt and event). ``simulate``,
``agents``, ``terminal``, ``narrate``, ``wording`` (words for people), ``play`` (the
``play`` command), ``examples`` and ``adapter`` (the conformance adapter) use it.
"""
