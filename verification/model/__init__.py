"""The formal model: state, layout codes, step semantics over a backend (plain or Z3)."""
