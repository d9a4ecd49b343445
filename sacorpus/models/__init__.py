"""Shipped models (language identification)."""
