"""The properties proved of the model, and the proof engines: induction, BMC, vacuity, reach."""
