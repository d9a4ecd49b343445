"""The one date parser: page metadata, visible text, feeds and sitemaps, and the one stored UTC form.

Why one module: a page's ``datePublished``, a feed's ``pubDate`` and a sitemap's ``lastmod`` are the same
kind of string (ISO 8601, RFC 822, W3C partial dates, epoch seconds, local formats), and every date the
project writes (stored articles, feed and sitemap entries, fetch times, dedup order keys) must compare
with every other as plain text. One parser and one formatter make that hold: ``YYYY-MM-DDTHH:MM:SSZ``.

Why here: ``sacorpus/sources`` holds the parsers of web formats that both pure rooms share (URLs, dates);
this module needs nothing but the standard library and feedparser, so the page core
(:mod:`sacorpus.text.dates`, which adds what a page states and where) and the source parsers both import
it without importing each other's page or feed logic.

Values written by earlier versions may carry ``+00:00`` instead of ``Z`` (feed and sitemap dates did):
:func:`stored_utc` reads either, so filters and order keys compare old rows with new ones.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

_ISO = re.compile(
    r"(?P<y>(?:19|20)\d{2})-?(?P<m>[01]\d)-?(?P<d>[0-3]\d)"
    r"(?:[T\s]+(?P<H>[0-2]\d):?(?P<M>[0-5]\d)(?::?(?P<S>[0-5]\d)(?:[.,]\d+)?)?"
    r"\s*(?P<tz>Z|UTC|GMT|[+-][0-2]\d(?::?[0-5]\d)?)?)?"
)
_W3C_PARTIAL = re.compile(r"((?:19|20)\d{2})(?:-([01]\d))?")
#: Month names by month: English and the European languages news sites most often use, then the South
#: African official languages. For the Nguni and Sotho-Tswana languages both the loan names news pages
#: print ("Mashi", "Okthoba") and the traditional names ("uNdasa", "Mopitlwe") are listed; Venda and
#: Tsonga pages print loan names close enough to the ones here or the English ones.
_MONTH_NAMES = [
    "january jan januar janvier enero janeiro gennaio januarie januwari janyuwari masingana mqungu "
    "pherekgong ferikgong",
    "february feb februar février fevrier febrero fevereiro febbraio februarie februwari febhuwari "
    "nhlolanja mdumba hlakola tlhakole",
    "march mar märz maerz mars marzo março maart mashi matshi ndasa kwindla hlakubele mopitlwe",
    "april apr avril abril aprile ephreli epreli aphreli apreli mbasa tshazimpuzi mmesa moranang",
    "may mai mayo maio maggio mei meyi nhlaba canzibe motsheanong motsheganong",
    "june jun juni juin junio junho giugno junie nhlangulana silimela phupjane seetebosigo",
    "july jul juli juillet julio julho luglio julie julayi ntulikazi khala phupu phukwi",
    "august aug août aout agosto augustus agasti ncwaba thupha phato phatwe",
    "september sep sept septembre septiembre setembro settembre septhemba septemba mandulo msintsi lwetse",
    "october oct oktober octobre octubre outubro ottobre okthoba okthobha oktoba mfumfu dwarha "
    "mphalane diphalane",
    "november nov novembre noviembre novembro novemba lwezi nkanga pudungwana ngwanatsele",
    "december dec dezember décembre decembre diciembre dezembro dicembre desember disemba zibandlela "
    "mnga tshitwe sedimonthole",
]
_MONTHS = {m: i + 1 for i, names in enumerate(_MONTH_NAMES) for m in names.split()}
#: What Nguni and Sotho-Tswana grammar glues before a month name ("kuMashi", "ngoJanuwari", "uNdasa",
#: "eyoMqungu", "ka-Okthoba"): tried only when the whole word is not a month name.
_MONTH_PREFIX = re.compile(r"^(?:ngoka|ngo|nge|ku|ka|eyo|eye|yo|ye|u|e)-?")


def _month(name: str) -> int | None:
    """The month a month word names, with or without a grammatical prefix, or None."""
    word = name.lower().rstrip(".")
    if word in _MONTHS:
        return _MONTHS[word]
    bare = _MONTH_PREFIX.sub("", word)
    return _MONTHS.get(bare) if len(bare) > 3 else None  # "kuMar" is not a date; "Kumar" is a name


_TEXT_DATE = re.compile(
    r"(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\.?\s+(?P<mon1>[^\W\d_][\w-]{2,13})\.?,?\s+(?P<y1>(?:19|20)\d{2})"
    r"|(?P<mon2>[^\W\d_][\w-]{2,13})\.?\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20)\d{2})"
    r"|(?P<d3>[0-3]?\d)[./](?P<m3>[01]?\d)[./](?P<y3>(?:19|20)\d{2})",
    re.I,
)
_TIME = re.compile(r"(?P<H>[0-2]?\d)[:h](?P<M>[0-5]\d)\s*(?P<ampm>[ap]\.?m\.?)?", re.I)
_RFC822_WITH_DAY = re.compile(r"\d{1,2}\s+\w{3}\s+\d{4}\s+\d{1,2}:\d{2}")


def _tz(value: str | None) -> timezone | None:
    if not value:
        return None
    if value.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if value[0] == "-" else 1
    digits = value[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 14:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def plausible(dt: datetime | None) -> datetime | None:
    """``dt`` (naive read as UTC) when it can be a news date: from 1990 to two days ahead, else None.

    A publication date of 1970 or 2099 is a CMS default or a bad clock, not a date to sort or window by.
    """
    if dt is None:
        return None
    aware = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    try:
        plausible = datetime(1990, 1, 1, tzinfo=UTC) <= aware <= datetime.now(UTC) + timedelta(days=2)
    except OverflowError:
        return None
    return aware if plausible else None


def parse_date(value: str | None, *, allow_text: bool = True) -> datetime | None:
    """One date string as an aware datetime (its own offset; UTC when it states none), or None.

    Formats are tried from the most to the least specific: ISO 8601 anywhere in the string, RFC 822 with
    a weekday, epoch seconds or milliseconds, then (``allow_text``) a date written in words or digits with
    an optional time, then W3C partial dates (``YYYY``, ``YYYY-MM``: the first day of the period) and
    RFC 822 without a weekday. The first format that reads the string decides; a date outside 1990 to
    two days ahead is None. (Feeds are read by feedparser, whose own date handlers run first: see
    :func:`struct_to_datetime`.)
    """
    if not value or not isinstance(value, str):
        return None
    value = value.strip()[:200]
    if not value:
        return None
    m = _ISO.search(value)
    dt = _from_iso(m) if m else None
    if dt is not None:
        return plausible(dt)
    if _RFC822_WITH_DAY.search(value) and "," in value[:6]:
        dt = _rfc822(value)
        if dt is not None:
            return plausible(dt)
    if re.fullmatch(r"\d{10}(?:\d{3})?", value):  # epoch seconds / milliseconds
        return plausible(datetime.fromtimestamp(int(value[:10]), UTC))
    if allow_text:
        m = _TEXT_DATE.search(value)
        if m:
            return plausible(_from_text(m, value))
    return plausible(_structured_fallbacks(value))


def _from_iso(m: re.Match[str]) -> datetime | None:
    try:
        dt = datetime(
            int(m["y"]), int(m["m"]), int(m["d"]), int(m["H"] or 0), int(m["M"] or 0), int(m["S"] or 0)
        )
    except ValueError:
        return None
    return dt.replace(tzinfo=_tz(m["tz"]) or UTC)


def _rfc822(value: str) -> datetime | None:
    try:
        dt = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def _from_text(m: re.Match[str], value: str) -> datetime | None:
    """ "5 May 2024", "May 5th, 2024" or "05.05.2024", with the first time of day after it."""
    try:
        if m["y1"]:
            month = _month(m["mon1"])
            day, year = int(m["d1"]), int(m["y1"])
        elif m["y2"]:
            month = _month(m["mon2"])
            day, year = int(m["d2"]), int(m["y2"])
        else:
            month, day, year = int(m["m3"]), int(m["d3"]), int(m["y3"])
        if not month:
            return None
        hour = minute = 0
        t = _TIME.search(value, m.end())
        if t:
            hour, minute = int(t["H"]), int(t["M"])
            if t["ampm"] and t["ampm"][0].lower() == "p" and hour < 12:
                hour += 12
            if hour > 23:
                hour = minute = 0
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:
        return None


def _structured_fallbacks(value: str) -> datetime | None:
    """W3C partial dates, then RFC 822 without a weekday (and C's asctime, which it also reads)."""
    m = _W3C_PARTIAL.fullmatch(value)
    if m:
        month = int(m.group(2) or 1)
        return datetime(int(m.group(1)), month, 1, tzinfo=UTC) if 1 <= month <= 12 else None
    return _rfc822(value)


def struct_to_datetime(parsed: time.struct_time | None) -> datetime | None:
    """A UTC ``time.struct_time`` (as feedparser returns) as an aware datetime, or None."""
    if not parsed:
        return None
    try:
        return datetime(*parsed[:6], tzinfo=UTC)
    except (TypeError, ValueError, OverflowError):
        return None


def to_utc_iso(value: datetime | str | None) -> str | None:
    """The one stored form, ``YYYY-MM-DDTHH:MM:SSZ`` (UTC, whole seconds), or None.

    A datetime is converted (naive ones are UTC). A string is a feed or sitemap date field: it is read
    with :func:`parse_date` without free-text dates (such a field holds a date and nothing else; the
    sitemap protocol leaves a missing zone undefined, and UTC is the least surprising reading).
    """
    if isinstance(value, str):
        value = parse_date(value, allow_text=False)
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, ValueError):
        return None


def utc_now_iso() -> str:
    """Now, in the stored form (fetch times, poll times)."""
    return to_utc_iso(datetime.now(UTC)) or ""


def stored_utc(value: str | None) -> str | None:
    """A stored ISO 8601 date in the one form, whichever form it was written in; other text unchanged.

    Rows written before the stored form was one carry ``+00:00`` (or, from imports, another offset);
    reading through this keeps ``--since/--until`` filters and dedup order keys right on them.
    """
    if not value or (len(value) == 20 and value.endswith("Z")):
        return value
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return value
    return to_utc_iso(parsed) if parsed.tzinfo is not None or "T" in value else value


def iso_date(value: str | None) -> date | None:
    """The calendar date (UTC) of a stored ISO string, or None."""
    if not value:
        return None
    try:
        return date.fromisoformat(str(stored_utc(value))[:10])
    except ValueError:
        return None


def in_window(entry_date: str | None, since: date | None, until: date | None) -> bool:
    """Whether an entry dated ``entry_date`` (stored form or any parsable date) falls in [since, until].

    Both ends are inclusive whole days. An entry without a (parsable) date is kept: a sitemap that
    gives no dates must not silently yield nothing; the article's own date is checked downstream.
    """
    if since is None and until is None:
        return True
    day = iso_date(to_utc_iso(entry_date))
    if day is None:
        return True
    if since is not None and day < since:
        return False
    return not (until is not None and day > until)


def parse_day(value: str | date | None, name: str = "date") -> date | None:
    """A ``-a since=YYYY-MM-DD`` run argument as a date (None when empty); ValueError in one line if bad."""
    if isinstance(value, date):
        return value
    if value is None or not str(value).strip():
        return None
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise ValueError(f"argument {name}={value!r} is not a date (YYYY-MM-DD)") from None
