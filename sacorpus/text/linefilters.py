"""Line filters: which lines of an extracted text are page furniture rather than the article.

Kept apart from extraction so that each filter can be measured on its own (``benchmarks/snippet_losses.py``
runs extraction with and without them against must-contain snippets of real pages).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from sacorpus.text.boilerplate import LineHistory

#: consecutive lines that are each one whole link: a list of related stories, not the story
LINK_RUN = 3


def _host(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def same_site(href: str, page_url: str | None) -> bool:
    """A link to the page's own site: relative, or a host that is the page's or a sub/parent domain."""
    host = _host(href)
    if not host:
        return not href.startswith(("mailto:", "tel:", "javascript:"))
    page = _host(page_url or "")
    if not page:
        return True  # the page's own address is unknown: a page's links are mostly its own site's
    return host == page or host.endswith("." + page) or page.endswith("." + host)


def drop_link_lines(text: str, anchors: list[tuple[str, str]], url: str | None = None) -> str:
    """Remove runs of lines that are nothing but a link to another article of the same site: "Read
    also" lists, "More from" boxes (teasers of the publication's own stories).

    A single linked line inside a story (a linked headline the story discusses, a URL quoted as a link)
    stays; only ``LINK_RUN`` or more in a row go. Links to other sites (sources, products, documents a
    story lists) are content and stay, however many there are.
    """
    linked = {t for t, href in anchors if len(t) >= 12 and same_site(href, url)}
    if not linked:
        return text
    lines = text.split("\n")
    is_link = [(line[2:] if line.startswith("- ") else line) in linked for line in lines]
    out = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and is_link[j]:
            j += 1
        if j - i >= LINK_RUN:
            i = j
            continue
        out.extend(lines[i : max(j, i + 1)])
        i = max(j, i + 1)
    return "\n".join(out)


_SEE_ALSO = re.compile(
    r"^\s*(?:read\s+(?:more|also|next)|also\s+read|more|related(?:\s+(?:articles?|stories|links|news))?|see\s+also|"
    r"more\s+on\s+this(?:\s+story)?|recommended|don'?t\s+miss|les\s+også|lees\s+ook|lesen\s+sie\s+(?:auch|mehr)|dowiedz\s+się\s+więcej|"
    r"mehr\s+zum\s+thema|auch\s+interessant|zum\s+artikel|lire\s+aussi|à\s+lire\s+aussi|lea\s+también|"
    r"leia\s+também|läs\s+också|læs\s+også|lue\s+myös|czytaj\s+(?:też|także|więcej)|čtěte\s+také|"
    r"funda\s+(?:futhi|olunye\s+udaba(?:\s+lapha)?)|lees\s+ook|lea\s+(?:más|además)|"
    r"puedes\s+ver|te\s+puede\s+interesar|weitere\s+beiträge(?:\s+[\w-]+){0,3})\s*[:|\-–—>»]",
    re.I,
)
# all-capital pointers ("MIRA: ...", "LEA: ..."): in capitals a label, not a speaker named Mira or Lea
_CAPS_POINTER = re.compile(r"^(?:MIRA|MIRE|LEA|LEE|VEA|VER\s+TAMBIÉN|LEIA|LIRE)\s*:")
# stand-alone furniture lines: widget labels, calls to action, credits, copyright
_FURNITURE = re.compile(
    r"^(?:read\s+more|czytaj\s+więcej|advertisement|advertentie|anzeige|publicité|publicidad|recommended(?:\s+videos?)?|"
    r"popular|most\s+read|share(?:\s+this(?:\s+article)?)?|swipe\s*→?|embed|schlagwörter(?:\s+zu\s+diesem\s+artikel)?|"
    r"tags?|etiketler\s*:?|fehler\s+gefunden\?.*|jetzt\s+unterstützen|lesedauer:.*|\d+\s+min(?:ute)?n?\s+(?:read|lesezeit)|"
    r"temas|kategorien?:.{0,80}|schon\s+gelesen\??|empfohlene\s+beiträge|zum\s+newsletter\s+anmelden|"
    r"video\s+verfügbar\s+bis\b.{0,40}|ten\s+tekst\s+przeczytasz\b.{0,60}|"
    r"materiał\s+chroniony\s+prawem\s+autorskim.{0,120}|>>.{5,160}<<|"
    r"das\s+thema\s+könnte\s+(?:dich|sie)\s+auch\s+interessieren:?|weitere\s+themen|bild\s+anzeigen|inhaltsverzeichnis|"
    r"vorschau\s+auf\s+den\s+nächsten\s+artikel|mehr\s+zum\s+thema\s+auf\s+\S+|letzte\s+änderung\b.{0,40}|"
    r"kommentare\s+insgesamt:.{0,20}|keine\s+kommentare\b.{0,80}|"
    r"(?:sie\s+sind|du\s+bist)\s+(?:aktuell\s+|derzeit\s+)?nicht\s+eingeloggt.{0,80}|du\s+musst\s+eingeloggt\s+sein.{0,120}|"
    r"\(\s*(?:credit|photo|image|picture|foto)s?\s*:.{0,90}\)|fot\.\s.{0,90}|"
    r"(?:photo|foto|bild|image|picture|credit|source|quelle|imagen|titelbild|beitragsbild)s?\s*[:©].{0,90}|"
    r"cr[ée]dits?\s+photos?\s*:.{0,90}|"
    r".{0,90}(?:/|\bvia\s+)(?:getty\s*images|afp|reuters|ap|dpa|epa|shutterstock|gallo\s+images)|"
    r"(?:copyright\s*)?©.{0,200}|copyright\s+\d{4}.{0,200}|"
    r"(?:would\s+you\s+like\s+to\s+comment|sign\s+up\b|subscribe\b|join\s+our\b|follow\s+us\b|get\s+in\s+touch\b|"
    r"for\s+the\s+latest\b|get\s+daily\b|do\s+you\s+have\s+a\s+story|please\s+read\s+our\s+comment|"
    r"for\s+more\s+stories\s+like\s+this).{0,200})$",
    re.I,
)


# calls to action in the languages of the corpus' neighbours
_CALL_TO_ACTION = re.compile(
    r"^(?:folgst\s+du\s+schon|wie\s+hat\s+ihnen\s+(?:dieser|der)\s+artikel\s+gefallen|kommentar\s+abgeben|"
    r"du\s+musst\s+dich\s+einloggen|jetzt\s+(?:abonnieren|anmelden|registrieren)|suscr[ií]bete|"
    r"esta\s+funcionalidad\s+es\s+s[oó]lo\s+para\s+suscriptores|get\s+the\s+latest\b|get\s+real-time\s+updates|"
    r"join\s+(?:the\s+)?(?:conversation|thought-provoking)|click\s+here\s+to\s+(?:subscribe|sign\s+up|join)|"
    r"download\s+(?:the|our)\s+(?:\w+\s+)?app|abonneer|abonnez-vous|iscriviti|"
    r"if\s+you\s+enjoyed\s+(?:reading\s+)?this\s+(?:post|article|story)|lust\s+auf\s+mehr\?|"
    r"klicken\s+sie\s+auf\s+den\s+(?:unteren\s+)?button,?\s+um\s+den\s+inhalt|"
    r"click\s+(?:on\s+)?the\s+button\s+below\s+to\s+load).{0,200}$",
    re.I,
)


#: the top of the body, where a page repeats its headline (after a kicker or a date line at most)
HEADER_LINES = 3


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


#: a line this long is the story's first paragraph: the header zone ends there
PROSE_LINE = 100


def _headline_repeat(line: str, index: int, keys: set[str]) -> bool:
    """The headline itself at the top of the body (the title is its own field).

    Only above the story's first paragraph: an exact repeat of a headline the page states (punctuation
    and case aside), after breadcrumbs at most; or, in the first ``HEADER_LINES`` lines, a kicker and the
    headline ("Premiere in Eisenhüttenstadt - DDR-Hotel Lunik öffnet..."). A sentence that ends with the
    headline's words, a lede that starts like it, or the same words further down are text.
    """
    squashed = _squash(line)
    return squashed in keys or (
        index < HEADER_LINES
        and len(line) < 300
        and any(squashed.endswith(k) and len(squashed) < len(k) + 80 for k in keys)
    )


def drop_furniture_lines(text: str, titles: list[str]) -> str:
    """Drop lines that are page furniture on any site, and repeats of a line within the page.

    Kept only what measurably removes furniture on both evaluation sets and never reporting: stray
    symbols, the headline repeated at the top of the body, "Read more: ..." pointers, widget labels,
    photo credits, copyright and sign-up prompts. A line repeated on the page keeps its first occurrence.
    Contact lines, credits of contributors ("Additional reporting by ..."), date lines and bylines are
    text and stay.
    """
    keys = {_squash(t) for t in titles if t and len(_squash(t)) >= 12}
    out = []
    seen: set[str] = set()
    header = True  # above the first paragraph, until the headline has been dropped once
    for index, line in enumerate(text.split("\n")):
        if not _squash(line) and len(line) <= 3:
            continue  # stray symbols ("¯", "___")
        if header and _headline_repeat(line, index, keys):
            header = False
            continue
        header = header and len(line) < PROSE_LINE
        if len(line) < 220 and (
            _SEE_ALSO.match(line)
            or _FURNITURE.match(line)
            or _CALL_TO_ACTION.match(line)
            or _CAPS_POINTER.match(line)
        ):
            continue
        if len(line) >= 15 and line in seen:
            continue
        seen.add(line)
        out.append(line)
    return "\n".join(out)


def filter_lines(
    text: str,
    *,
    titles: list[str | None],
    anchors: list[tuple[str, str]],
    strip_text: tuple[str, ...] = (),
    history: LineHistory | None = None,
    url: str | None = None,
) -> str:
    """Every line filter in order: link-line runs, furniture, the publication's static text, and lines
    the publication repeats on other pages (``history``). Lists and tables stay."""
    from sacorpus.text.preclean import strip_static_text

    text = drop_link_lines(text, anchors, url)
    text = drop_furniture_lines(text, [t for t in titles if t])
    if strip_text:
        text = strip_static_text(text, strip_text)
    if history is not None:
        text = history.drop_repeated(text)
    return text
