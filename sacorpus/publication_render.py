"""Which of a publication's pages need a browser: the ``[render]`` table of its file.

Why data: live blogs and pages whose text a script builds exist on some publications and only under
some paths (``/live/``); everything else is fetched as plain HTTP, which is faster, lighter and what
robots.txt-abiding archives expect. So a publication says where it needs rendering, never the code::

    [render]
    urls = ['/live/', '/liveblog/']   # regexes searched in the article URL (or: all = true)
    wait_for = "article .post"        # CSS selector the browser waits for (optional)
    wait = 1.5                        # seconds to wait after the page loaded (optional)
    timeout = 30                      # seconds a render may take at most (optional)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sacorpus.publication_reader import TomlReader, selector_problem

MAX_WAIT = 60.0  # seconds; a longer wait is a typo (milliseconds?) and would stall the crawl
MAX_TIMEOUT = 300.0


@dataclass(frozen=True)
class RenderRules:
    """Article URLs of a publication that are rendered in a browser before extraction."""

    urls: tuple[str, ...] = ()  # regexes searched in the publication's article URL
    all: bool = False  # every article page
    wait_for: str | None = None  # a CSS selector that appears once the script has built the text
    wait: float = 0.0  # seconds waited after load (and after wait_for)
    timeout: float = 30.0  # seconds for the whole render

    def wants(self, url: str) -> bool:
        """True when the article at ``url`` (the publication's own URL) is to be rendered."""
        return self.all or any(re.search(p, url) for p in self.urls)


def read_render(top: TomlReader) -> RenderRules | None:
    """The ``[render]`` table, checked: patterns compile, the selector is CSS, times are sane."""
    r = top.sub("render")
    if r is None:
        return None
    rules = RenderRules(
        urls=r.strings("urls", regex=True),
        all=r.get("all", bool, default=False),
        wait_for=r.get("wait_for", str),
        wait=float(r.get("wait", (int, float), default=0.0)),
        timeout=float(r.get("timeout", (int, float), default=30.0)),
    )
    if not (rules.urls or rules.all):
        raise r.fail("urls", "a [render] table needs url patterns (urls = ['/live/']) or all = true")
    if rules.urls and rules.all:
        raise r.fail("all", "give either url patterns or all = true, not both")
    if rules.wait_for is not None:
        problem = selector_problem(rules.wait_for)
        if problem or rules.wait_for.lstrip().startswith(("/", "(")):
            raise r.fail("wait_for", problem or "must be a CSS selector (XPath is not supported here)")
    if not 0 <= rules.wait <= MAX_WAIT:
        raise r.fail("wait", f"seconds between 0 and {MAX_WAIT:g}, got {rules.wait:g}")
    if not 0 < rules.timeout <= MAX_TIMEOUT:
        raise r.fail("timeout", f"seconds between 0 and {MAX_TIMEOUT:g}, got {rules.timeout:g}")
    r.finish()
    return rules


__all__ = ["RenderRules", "read_render"]
