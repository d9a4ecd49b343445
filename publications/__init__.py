"""Publication definitions: one TOML file per publication, shipped as package data."""
