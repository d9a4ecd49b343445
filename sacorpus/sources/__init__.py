"""Pure source parsing (no Scrapy): feeds, sitemaps, Wayback CDX, URLs."""
