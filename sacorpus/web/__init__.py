"""The corpus browser (`scrapy serve`): read-only web pages over the stored corpus."""
