"""sacorpus: a Scrapy project that builds clean, tokenized, deduplicated news-text corpora."""
