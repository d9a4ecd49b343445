"""One spelling for text that looks the same: composed Unicode and no invisible format characters.

Why: a page may write "é" as "e" + combining acute, or break "Bundes­regierung" with a soft hyphen
(U+00AD) that the browser shows only at a line end. Left in, the corpus holds two spellings of one
word, and search, word lists, KWIC and dedup miss one of them. Zero-width joiners (ZWJ/ZWNJ) stay:
they change how Arabic and Indic scripts are shaped, so they are part of the spelling.
"""

from __future__ import annotations

import re
import unicodedata

#: soft hyphen, zero-width space, word joiner, invisible operators, byte-order mark / zero-width no-break
INVISIBLE = re.compile("[\u00ad\u200b\u2060-\u2064\ufeff]")


def visible_text(text: str) -> str:
    """``text`` in NFC with the invisible format characters above removed."""
    return INVISIBLE.sub("", unicodedata.normalize("NFC", text))


__all__ = ["INVISIBLE", "visible_text"]
