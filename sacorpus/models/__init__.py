"""Shipped models (language identification, part-of-speech tags and lemmas)."""
