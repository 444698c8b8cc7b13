"""Commands that join several rooms of the project (the top layer of the import contracts
in ``pyproject.toml``): ``verify`` runs the proofs, the bounded model check, vacuity and the
engine's walks."""
