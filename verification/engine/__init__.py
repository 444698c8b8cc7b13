"""The reference engine checked against the model: abstraction, lockstep walks, replay."""
