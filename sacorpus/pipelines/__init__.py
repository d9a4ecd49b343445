"""Item pipelines: thin Scrapy adapters around sacorpus.text and sacorpus.storage, one module a stage."""
