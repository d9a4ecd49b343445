"""Settings derived from other settings, resolved from the crawl's final settings.

Why: a value computed in :mod:`sacorpus.settings` at import time sees only the environment, so
``-s SACORPUS_CONTACT_URL=...`` (or scrapyd's ``setting=``) did not reach the User-Agent site operators
see. The add-on runs when the crawler's settings hold every source (``-s``, scrapyd ``setting=``, the
spider, the settings module, the environment) and before they are frozen. The store backend is resolved
in :func:`sacorpus.storage.base.store_path`, which corpus commands (no crawler, no add-ons) share.
"""

from __future__ import annotations

from typing import Any

from sacorpus import settings as defaults


def user_agent(settings: Any) -> str:
    """The User-Agent naming the run's contact URL, unless the run gives its own USER_AGENT."""
    given = settings.get("USER_AGENT")
    contact = settings.get("SACORPUS_CONTACT_URL") or defaults.SACORPUS_CONTACT_URL
    if given and given != defaults.USER_AGENT:
        return str(given)  # the run's own User-Agent wins
    return str(defaults.USER_AGENT).replace(defaults.SACORPUS_CONTACT_URL, str(contact))


class RunSettingsAddon:
    """Scrapy add-on (in ``ADDONS``): fills settings derived from the run's final settings."""

    def update_settings(self, settings: Any) -> None:
        agent = user_agent(settings)
        if agent != settings.get("USER_AGENT"):
            priority = max(
                settings.getpriority("SACORPUS_CONTACT_URL") or 0, settings.getpriority("USER_AGENT") or 0
            )
            settings.set("USER_AGENT", agent, priority=priority)


__all__ = ["RunSettingsAddon", "user_agent"]
