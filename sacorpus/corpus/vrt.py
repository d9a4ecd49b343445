"""Vertical text (VRT) for CWB / CQPweb / (No)Sketch Engine: ``<text>``, ``<p>``, ``<s>``, a token a line.

Each token line is ``word<TAB>pos<TAB>lemma`` (the positional attributes to declare when encoding:
``-P pos -P lemma``); an untagged token has ``_`` for both. ``<text>`` carries id, url, publication,
date, language and dedup (the structural attributes ``-S text:0+id+url+publication+date+language+dedup
-S p -S s``). Everything is XML-escaped, token lines included, as cwb-encode's ``-x`` expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from sacorpus.corpus.documents import article_id, paragraphs
from sacorpus.corpus.lineformat import format_date

NONE = "_"


def _attr(value: Any) -> str:
    return '"' + escape(" ".join(str(value or "").split()), {'"': "&quot;"}) + '"'


def vrt_text(record: Mapping[str, Any], *, tag: bool = False, models: dict[str, Any] | None = None) -> str:
    """One article as a ``<text>`` element (with its final newline)."""
    url = str(record.get("url") or "")
    attrs = {
        "id": article_id(url),
        "url": url,
        "publication": record.get("publication"),
        "date": (format_date(record.get("published_at")) or "")[:10],
        "language": record.get("language"),
        "dedup": record.get("dedup_label"),
    }
    out = ["<text " + " ".join(f"{k}={_attr(v)}" for k, v in attrs.items()) + ">"]
    for paragraph in paragraphs(dict(record), tag=tag, models=models):
        out.append("<p>")
        for sentence in paragraph:
            out.append("<s>")
            out.extend(
                f"{escape(t.form)}\t{escape(t.upos or NONE)}\t{escape(t.lemma or NONE)}"
                for t in sentence.tokens
            )
            out.append("</s>")
        out.append("</p>")
    out.append("</text>")
    return "\n".join(out) + "\n"
