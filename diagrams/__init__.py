"""Flow diagrams generated from the charts of ``buckshot.spec`` (DOT, SVG, Mermaid, HTML).

The files beside this package's modules are generated; never edit them by hand:
``charts/<frame kind>.{dot,svg,mmd}`` (one per chart), ``stack.{dot,svg,mmd}`` (which
transition pushes which frame, and where each frame resumes), ``traces/<log>.{dot,svg,mmd}``
(played fragments drawn from event logs), ``traces/<log>.html`` (the explorer page of each
log) and ``index.html`` (a page that shows them all).

Regenerate them with ``buckshot diagrams`` (:mod:`buckshot.cli.diagrams`), which calls
:func:`buckshot.diagrams.write.write_all`; draw any saved log with
``buckshot diagrams trace LOG``, and write any log's explorer page with ``buckshot explore``.
The modules, by job: ``catalogue`` (what is drawn), ``chart_dot``/``chart_mermaid``,
``stack_model``/``stack_dot``/``stack_mermaid``, ``tracelog``/``timeline``/``trace_dot``/
``trace_mermaid``, ``explore_state``/``explore_page`` (the explorer; its command is
:mod:`buckshot.cli.explore`), ``html``, ``svg`` (renders through the ``graphviz``
package), ``write`` (writes the files); ``labels`` (markup of HTML-like labels),
``describe``, ``legend`` and ``style`` are shared by the rest.
"""
