"""The full-disk tests' real, tiny tmpfs (``tiny_disk``, from ``tests/support/tiny_disk.py``)."""

from tiny_disk import tiny_disk  # noqa: F401
