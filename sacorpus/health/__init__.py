"""Crawl health: what each run did, kept per publication in the store, and the alarms it raises.

``record`` builds a run's health record from its stats (pure), ``alarms`` judges a record against the
publication's earlier runs (pure), ``extension`` writes the record at the end of a crawl, and
``scrapy health`` (``sacorpus/commands/health.py``) prints the history.
"""
