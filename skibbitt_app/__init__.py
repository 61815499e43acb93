"""Skibbitt's edges: the ``skibbitt`` command, the JSON it speaks and the page's server.

The rules live in the pure :mod:`skibbitt` package; this one reads and writes.
"""
