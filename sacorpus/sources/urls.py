"""URL identity and scope: canonical forms, per-publication allow/deny, mirrors, article ids.

The same article reaches the crawler as ``?utm_source=twitter``, ``#comments``, ``/amp``, ``m.``
hosts, a mirror domain that only redirects, or - on some sites - with a new numeric id after an
edit while the slug stays the same. Canonical forms make "already stored?" and dedup work across
all of these; :class:`UrlPolicy` keeps a crawl inside one publication and away from galleries,
videos and picture pages.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, parse_qsl, quote, urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:
    from sacorpus.publications import Publication

TRACKING_PARAMS = frozenset(
    {
        "fbclid", "gclid", "dclid", "gclsrc", "msclkid", "yclid", "igshid", "twclid", "ttclid", "li_fat_id",
        "mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "hsctatracking", "mkt_tok", "oly_anon_id",
        "oly_enc_id", "vero_id", "wickedid", "rb_clickid", "s_cid", "cmpid", "cmp", "ocid", "ito", "xtor",
        "wt_mc", "wt.mc_id", "spm", "ref", "ref_src", "referrer", "referer", "src", "source", "share",
        "sharing", "amp", "amp_js_v", "amp_gsa", "usqp", "outputtype", "platform", "ncid", "sr_share",
        "at_medium", "at_campaign", "at_custom1", "at_custom2", "at_custom3", "at_custom4",
        "ns_mchannel", "ns_source", "ns_campaign", "ns_linkname", "ns_fee", "feature", "fb_action_ids",
        "fb_action_types", "fb_ref", "fb_source", "action_object_map", "action_type_map", "action_ref_map",
        "__twitter_impression", "ftag", "intcmp", "int_source", "int_medium", "int_campaign", "pk_campaign",
        "pk_kwd", "piwik_campaign", "piwik_kwd", "mtm_campaign", "mtm_source", "mtm_medium", "dicbo",
    }
)  # fmt: skip
TRACKING_PREFIXES = ("utm_", "ga_", "hmb_", "pk_", "mtm_", "at_", "ns_", "__s")
NON_PAGE_EXTENSIONS = re.compile(
    r"\.(?:jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|wmv|flv|webm|ogg|wav|pdf|docx?|xlsx?"
    r"|pptx?|zip|gz|rar|7z|exe|dmg|apk|css|js|json|woff2?|ttf|eot)$",
    re.I,
)
_MOBILE_HOST = re.compile(r"^(?:m|mobile|amp|touch)\.", re.I)
_AMP_CACHE = re.compile(r"^[a-z0-9-]+\.cdn\.ampproject\.org$", re.I)


def _strip_amp_path(path: str) -> str:
    """``/amp``, ``/amp/``, ``.amp``, ``.amp.html`` endings and a leading ``/amp/`` segment.

    WordPress's ``/slug/amp/`` maps to ``/slug/`` and ``/slug/amp`` to ``/slug``, matching the
    canonical links those sites publish.
    """
    path = re.sub(r"(?<=.)/amp(/?)$", r"\1", path, flags=re.I)
    path = re.sub(r"\.amp(?:\.html?)?$", "", path, flags=re.I)
    return re.sub(r"^/amp/", "/", path, flags=re.I) or "/"


def _from_amp_cache(parts: SplitResult) -> tuple[str, str, str] | None:
    """Google AMP cache ``https://host-com.cdn.ampproject.org/c/s/host.com/path`` -> (scheme, host, path)."""
    if not _AMP_CACHE.match(parts.hostname or ""):
        return None
    m = re.match(r"^/[a-z]/(s/)?([^/]+)(/.*)?$", parts.path)
    if not m:
        return None
    return ("https" if m.group(1) else "http", m.group(2), m.group(3) or "/")


def canonicalize(url: str, *, keep_params: Collection[str] = ()) -> str:
    """The canonical form of ``url``: one string per article, whatever link led to it.

    Lower-cases scheme and host, drops default ports, the fragment, tracking parameters (utm_*,
    fbclid, ... except ``keep_params``), AMP variants (``/amp``, ``?amp=1``, ``amp.`` and AMP-cache
    hosts), maps ``m.``/``mobile.`` hosts to ``www.`` and sorts the remaining query. A string that is
    not an http(s) URL comes back stripped but otherwise unchanged (never raises).
    """
    try:
        return _canonicalize(url.strip(), {p.lower() for p in keep_params})
    except ValueError:
        return url.strip()


def _canonicalize(url: str, keep: set[str]) -> str:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        return url
    host = (parts.hostname or "").lower().rstrip(".")
    path = parts.path or "/"
    cached = _from_amp_cache(parts)
    if cached:
        scheme, host, path = cached
        host = host.lower()
    port = parts.port
    netloc = host if port in (None, 80, 443) else f"{host}:{port}"
    if _MOBILE_HOST.match(netloc):
        netloc = _MOBILE_HOST.sub("www.", netloc)
    path = _strip_amp_path(re.sub(r"/{2,}", "/", path))
    query = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        low = key.lower()
        if low not in keep and (low in TRACKING_PARAMS or low.startswith(TRACKING_PREFIXES)):
            continue
        query.append((key, value))
    query.sort()
    return urlunsplit((scheme, netloc, _quote_path(path), urlencode(query), ""))


_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _quote_path(path: str) -> str:
    """Normalise percent-encoding so ``%7E``/``~`` and ``%c3``/``%C3`` compare equal (RFC 3986 6.2.2).

    Only escapes of unreserved characters are decoded (``%2F`` stays, it means something else than
    ``/``); raw spaces and non-ASCII characters are escaped as UTF-8.
    """

    def fix(m: re.Match[str]) -> str:
        char = chr(int(m.group(1), 16))
        return char if char in _UNRESERVED else "%" + m.group(1).upper()

    return quote(_ESCAPE.sub(fix, path), safe="/:@!$&'()*+,;=-._~%")


@dataclass
class UrlPolicy:
    """Which URLs belong to a publication, and how to recognise an article and its id."""

    domains: tuple[str, ...]
    mirrors: tuple[str, ...] = ()
    home_host: str | None = None
    allow: tuple[re.Pattern[str], ...] = ()
    deny: tuple[re.Pattern[str], ...] = ()
    article: tuple[re.Pattern[str], ...] = ()
    id_pattern: re.Pattern[str] | None = None
    keep_params: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_publication(cls, pub: Publication) -> UrlPolicy:
        rules = pub.urls
        return cls(
            domains=tuple(d.lower() for d in pub.domains),
            mirrors=tuple(m.lower() for m in pub.mirrors),
            home_host=(urlsplit(pub.home).hostname or "").lower() or None,
            allow=_compile(rules.allow),
            deny=_compile(rules.deny),
            article=_compile(rules.article),
            id_pattern=re.compile(rules.id_pattern) if rules.id_pattern else None,
        )

    # scope ---------------------------------------------------------------------------------------

    def _owns(self, host: str, hosts: Iterable[str]) -> bool:
        host = host.lower().split(":")[0].rstrip(".")
        return any(host == d or host.endswith("." + d) for d in hosts)

    def owns(self, url: str) -> bool:
        host = urlsplit(url).hostname or ""
        return self._owns(host, (*self.domains, *self.mirrors))

    def is_mirror(self, url: str) -> bool:
        """True for a host that only redirects to the publication (fetch once, never store under it)."""
        host = urlsplit(url).hostname or ""
        return self._owns(host, self.mirrors) and not self._owns(host, self.domains)

    def allowed(self, url: str) -> bool:
        """Inside the publication, not a file/media link, not denied, and allowed (when allow is set)."""
        try:
            parts = urlsplit(canonicalize(url, keep_params=self.keep_params))
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not self.owns(url):
            return False
        if NON_PAGE_EXTENSIONS.search(parts.path):
            return False
        target = _match_target(parts)
        if any(p.search(target) for p in self.deny):
            return False
        return not self.allow or any(p.search(target) for p in self.allow)

    def is_article(self, url: str) -> bool:
        """Allowed and shaped like an article (when the publication says what articles look like)."""
        if not self.allowed(url):
            return False
        canon = canonicalize(url, keep_params=self.keep_params)
        target = _match_target(urlsplit(canon))
        # path patterns (as allow and deny are written) and whole-URL ones (``^https?://host/...``)
        return not self.article or any(p.search(target) or p.search(canon) for p in self.article)

    def canonical(self, url: str) -> str:
        """:func:`canonicalize`, plus mirror and mobile hosts mapped to the publication's home host."""
        canon = canonicalize(url, keep_params=self.keep_params)
        parts = urlsplit(canon)
        host = parts.hostname or ""
        if (
            self.home_host
            and host != self.home_host
            and (
                self.is_mirror(canon)
                or (self._owns(host, self.domains) and _is_variant_host(host, self.home_host))
            )
        ):
            canon = urlunsplit((parts.scheme, self.home_host, parts.path, parts.query, ""))
        return canon

    # ids ----------------------------------------------------------------------------------------

    def slug_key(self, url: str) -> str | None:
        """The URL path with the id cut out: equal for "same slug, changed id" URLs; None without an id."""
        m = self._id_match(url)
        if not m:
            return None
        path = urlsplit(self.canonical(url)).path
        cut = path[: m.start("id")] + path[m.end("id") :]
        return re.sub(r"[-_./]+$", "", cut.lower()) or None

    def _id_match(self, url: str) -> re.Match[str] | None:
        if not self.id_pattern:
            return None
        path = urlsplit(self.canonical(url)).path
        m = self.id_pattern.search(path)
        return m if m and "id" in m.groupdict() and m.group("id") else None


class MirrorMap:
    """A publication's URLs fetched from a mirror or fixture site (``base_url``), and mapped back.

    Why one class: the crawl (the spider's ``fetch_url``/``logical_url``) and ``scrapy
    check-publications`` must agree on which hosts a mirror stands in for: the publication's domains
    and the hosts of its listed sources (a feed on another host, such as a feed service).
    """

    def __init__(self, publication: Publication, base: str | None) -> None:
        self.publication = publication
        self.base = urlsplit(base) if base else None
        src = publication.sources
        urls = (*src.feeds, *src.sitemaps, *src.news_sitemaps, *src.start_urls, publication.home)
        self.source_hosts = {urlsplit(u).netloc for u in urls}

    def fetch_url(self, url: str) -> str:
        """The URL to download: the publication's hosts are replaced by the mirror when one is set."""
        parts = urlsplit(url)
        if self.base is None or not parts.netloc:
            return url
        if self.publication.owns(parts.hostname or "") or parts.netloc in self.source_hosts:
            return urlunsplit((self.base.scheme, self.base.netloc, parts.path, parts.query, parts.fragment))
        return url

    def logical_url(self, url: str) -> str:
        """The publication's URL for a fetched one (inverse of :meth:`fetch_url`)."""
        parts = urlsplit(url)
        if self.base is None or parts.netloc != self.base.netloc:
            return url
        home = urlsplit(self.publication.home)
        return urlunsplit((home.scheme, home.netloc, parts.path, parts.query, parts.fragment))


def owner_of(url: str, publications: Iterable[Publication]) -> Publication | None:
    """The publication a URL belongs to: the one owning its host, and where several share a host (a
    group site and its titles' sections), the one whose URL rules allow the URL's path."""
    host = urlsplit(url).hostname or ""
    owners = [p for p in publications if host and p.owns(host)]
    if len(owners) > 1:
        return next((p for p in owners if UrlPolicy.from_publication(p).allowed(url)), owners[0])
    return owners[0] if owners else None


def _match_target(parts: SplitResult) -> str:
    """What allow/deny/article patterns are matched against: the path plus ``?query`` if any."""
    return str(parts.path) + (f"?{parts.query}" if parts.query else "")


def _is_variant_host(host: str, home: str) -> bool:
    """``iol.co.za`` vs ``www.iol.co.za`` (or m./amp. which canonicalize already turned into www.)."""
    strip = re.compile(r"^www\d?\.")
    return strip.sub("", host) == strip.sub("", home)


def _compile(patterns: Iterable[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)
