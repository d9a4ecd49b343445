"""Storage backends behind one protocol: SQLite (embedded default) and MongoDB."""
