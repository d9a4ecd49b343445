"""CoNLL-U: ``# newdoc id``, ``# newpar``, ``# sent_id``, ``# text``, then ten columns a token.

Columns: ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC. The corpus has no
morphological features or dependencies, so those are ``_``; LEMMA and UPOS are ``_`` for an untagged
token. MISC says ``SpaceAfter=No`` where the text had no space after the token, so ``# text`` can be
rebuilt from the forms, as UD tools expect. Sentence ids are ``<doc id>-<n>`` (n from 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sacorpus.corpus.documents import article_id, paragraphs

_NONE = "_"


def _column(value: str | None) -> str:
    """A column value: never empty, never with a tab or a space."""
    value = "".join(str(value or "").split())
    return value or _NONE


def conllu_document(
    record: Mapping[str, Any], *, tag: bool = False, models: dict[str, Any] | None = None
) -> str:
    """One article as a CoNLL-U document (each sentence followed by a blank line)."""
    doc_id = article_id(str(record.get("url") or ""))
    out = [f"# newdoc id = {doc_id}", f"# url = {' '.join(str(record.get('url') or '').split())}"]
    n = 0
    for paragraph in paragraphs(dict(record), tag=tag, models=models):
        out.append("# newpar")
        for sentence in paragraph:
            n += 1
            out.append(f"# sent_id = {doc_id}-{n}")
            out.append(f"# text = {sentence.text}")
            for k, t in enumerate(sentence.tokens, start=1):
                misc = _NONE if t.space_after else "SpaceAfter=No"
                out.append(
                    f"{k}\t{_column(t.form)}\t{_column(t.lemma)}\t{_column(t.upos)}\t_\t_\t_\t_\t_\t{misc}"
                )
            out.append("")
    return "\n".join(out) + "\n" if n else ""
