"""Skibbitt, the three-round tile puzzle: tiles, groupings, scores, the solver and the generator.

A pure package: no I/O, no clock, and no imports from (or into) the scorekeeper packages.
The command and the page live in :mod:`skibbitt_app`.
"""
