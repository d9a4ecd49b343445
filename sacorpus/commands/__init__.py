"""Custom scrapy commands (COMMANDS_MODULE)."""
