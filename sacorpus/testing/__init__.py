"""Test helpers that ship with the package (loopback servers used by several test areas)."""
