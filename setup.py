"""scrapyd-deploy builds the egg through this file; all metadata lives in pyproject.toml."""

from setuptools import setup

setup()
