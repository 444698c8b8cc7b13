"""Flow diagrams of the charts of ``buckshot.spec`` (docs/diagrams.md); the files beside these
modules are written by ``buckshot diagrams``, never by hand."""
