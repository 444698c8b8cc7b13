"""Commands that join several rooms of the project (the top layer of the import contracts
in ``pyproject.toml``): ``verify`` runs the proofs with the faults room's deliberate bugs."""
