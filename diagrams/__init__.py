"""Flow diagrams generated from the charts of ``buckshot.spec`` (DOT, SVG, Mermaid, HTML).

The files beside this package's modules are generated; never edit them by hand.
"""
