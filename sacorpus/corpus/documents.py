"""An article as paragraphs of sentences of annotated tokens: what the VRT and CoNLL-U exports write.

Why one walk for both: CWB's vertical text and CoNLL-U differ only in markup; which token belongs to
which sentence and paragraph, its tag and lemma, and whether a space followed it are the same
answer, computed here once from the stored offsets. Paragraphs are the text's lines; a sentence
belongs to the paragraph it starts in. An article that was never annotated gets its tags from the
shipped models when asked (``tag=True``), else none (written ``_``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: what the two exports read from the store
DOCUMENT_FIELDS = (
    "url",
    "publication",
    "published_at",
    "title",
    "language",
    "paragraph_languages",
    "dedup_label",
    "text",
    "sentences",
    "tokens",
    "token_offsets",
    "upos",
    "lemmas",
    "pos_model",
)


@dataclass(frozen=True)
class Token:
    form: str
    upos: str | None
    lemma: str | None
    space_after: bool


@dataclass(frozen=True)
class Sentence:
    text: str
    tokens: list[Token]


def article_id(url: str) -> str:
    """A stable short id for an article (the same URL always gets the same id, in every export)."""
    return hashlib.sha1(url.encode("utf-8")).hexdigest()[:16]


def paragraphs(
    record: dict[str, Any], *, tag: bool = False, models: dict[str, Any] | None = None
) -> Iterator[list[Sentence]]:
    """The article's paragraphs, each a list of its sentences (an empty article yields nothing)."""
    # imported here: the text analysis loads the language models, which a command that only needs
    # this module's field list (every corpus command, through the export fields) must not pay for
    from sacorpus.text.analysis import paragraph_spans
    from sacorpus.text.tagging.annotate import token_annotations, with_annotation

    text = str(record.get("text") or "")
    annotated = token_annotations(
        with_annotation(record, models if models is not None else {}) if tag else record
    )
    offsets = record.get("token_offsets") or []
    if len(offsets) != len(annotated):
        offsets = [[0, 0]] * len(annotated)
    paragraph_ends = [end for _start, end in paragraph_spans(text)] or [len(text)]
    # a record stored without sentences: each paragraph one sentence
    spans = [tuple(s) for s in record.get("sentences") or []] or paragraph_spans(text) or [(0, len(text))]
    current: list[Sentence] = []
    para = 0
    i = 0
    for start, end in spans:
        first = i
        while i < len(annotated) and (offsets[i][0] < end or end <= start):
            i += 1
        if i == first:
            continue
        while para < len(paragraph_ends) - 1 and start >= paragraph_ends[para]:
            if current:
                yield current
                current = []
            para += 1
        tokens = [
            Token(form, upos, lemma, k + 1 >= i or offsets[k][1] < offsets[k + 1][0])
            for k, (form, upos, lemma) in zip(range(first, i), annotated[first:i], strict=True)
        ]
        current.append(Sentence(" ".join(text[start:end].split()), tokens))
    if i < len(annotated):  # tokens after the last sentence (offsets that do not fit): keep them
        rest = [Token(f, u, lem, True) for f, u, lem in annotated[i:]]
        current.append(Sentence(" ".join(t.form for t in rest), rest))
    if current:
        yield current
