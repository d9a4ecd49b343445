"""The corpus commands, one class each, free of Scrapy (see :mod:`sacorpus.corpus.command`).

``sacorpus <name>`` runs them directly (:mod:`sacorpus.console`); ``scrapy <name>`` runs them through
the adapters in ``sacorpus/commands/``. :data:`COMMANDS` names each command's class.
"""

from __future__ import annotations

COMMANDS = {
    "collocations": "sacorpus.corpus.commands.collocations:Collocations",
    "export": "sacorpus.corpus.commands.export:Export",
    "kwic": "sacorpus.corpus.commands.kwic:Kwic",
    "search": "sacorpus.corpus.commands.search:Search",
    "serve": "sacorpus.corpus.commands.serve:Serve",
    "stats": "sacorpus.corpus.commands.stats:Stats",
    "wordlist": "sacorpus.corpus.commands.wordlist:Wordlist",
}
