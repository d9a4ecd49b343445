"""Spiders: PublicationSpider in base.py and one tiny file per publication."""
