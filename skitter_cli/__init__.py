"""The ``skitter`` command: one module per subcommand (``main`` is their table of contents).

It stands above both apps: ``serve`` and the board's tools run the board (``web``), ``hub``
and its tools the tournament hub (``hub``); neither app imports it.
"""
