"""UPOS tags and lemmas for an article's stored tokens, stored compactly and aligned with them.

Why this shape: an article keeps ``tokens`` (one list); its annotation is two strings of the same
length in words, ``upos`` ("DET NOUN VERB ...") and ``lemmas`` (``=`` where the lemma is the token
itself, the common case), so a tagged article grows by a few bytes a token and a reader zips them
with ``tokens`` (:func:`token_annotations`). A sentence is tagged with the model of its paragraph's
language (the article's language when paragraphs were not told apart); a sentence in a language
without a shipped model gets ``_`` for tag and lemma: no tags rather than wrong ones.
``pos_model`` names the models used, so ``scrapy annotate`` knows what is already done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sacorpus.text.tagging.model import PosModel, shipped_model

UNTAGGED = "_"
SAME = "="
FIELDS = ("upos", "lemmas", "pos_model")
#: what tagging reads from a record
READS = ("tokens", "token_offsets", "sentences", "language", "paragraph_languages")


def _sentence_groups(offsets: Sequence[Sequence[int]], sentences: Sequence[Sequence[int]]) -> list[range]:
    """Token index ranges of each sentence (tokens outside every sentence form their own group)."""
    groups: list[range] = []
    i, n = 0, len(offsets)
    for _start, end in sentences:
        first = i
        while i < n and offsets[i][0] < end:
            i += 1
        if i > first:
            groups.append(range(first, i))
    if i < n:
        groups.append(range(i, n))
    return groups


def _language_at(position: int, paragraphs: Sequence[dict[str, Any]], default: str | None) -> str | None:
    for paragraph in paragraphs:
        if paragraph.get("start", 0) <= position < paragraph.get("end", 0):
            return paragraph.get("lang") or default
    return default


def annotation_fields(
    record: dict[str, Any], models: dict[str, PosModel | None] | None = None
) -> dict[str, Any]:
    """``upos``, ``lemmas`` and ``pos_model`` for a record with ``tokens`` (and offsets, sentences).

    ``models`` caches language -> model (the shipped ones by default). ``pos_model`` is "" when no
    sentence had a model's language.
    """
    tokens: list[str] = list(record.get("tokens") or [])
    offsets = record.get("token_offsets") or []
    if len(offsets) != len(tokens):
        offsets = [[i, i] for i in range(len(tokens))]
    sentences = record.get("sentences") or []
    paragraphs = record.get("paragraph_languages") or []
    models = models if models is not None else {}
    tags = [UNTAGGED] * len(tokens)
    lemmas = [UNTAGGED] * len(tokens)
    used: set[str] = set()
    for group in _sentence_groups(offsets, sentences):
        language = _language_at(offsets[group.start][0], paragraphs, record.get("language"))
        if language not in models:
            models[language or ""] = shipped_model(language)
        model = models.get(language or "")
        if model is None:
            continue
        words = tokens[group.start : group.stop]
        sentence_tags, sentence_lemmas = model.annotate(words)
        for k, (word, tag, lemma) in enumerate(zip(words, sentence_tags, sentence_lemmas, strict=True)):
            tags[group.start + k] = tag
            lemmas[group.start + k] = SAME if lemma == word else "".join(lemma.split()) or SAME
        used.add(f"{model.language}:{model.name}")
    return {"upos": " ".join(tags), "lemmas": " ".join(lemmas), "pos_model": ",".join(sorted(used))}


def with_annotation(record: dict[str, Any], models: dict[str, PosModel | None]) -> dict[str, Any]:
    """The record itself when it was annotated; else a copy with the shipped models' annotation."""
    if record.get("pos_model") is not None or not record.get("tokens"):
        return record
    return {**record, **annotation_fields(record, models)}


def token_annotations(record: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    """(token, UPOS, lemma) per stored token; None where the article or the sentence is not tagged."""
    tokens = list(record.get("tokens") or [])
    tags = (record.get("upos") or "").split(" ") if record.get("upos") else []
    lemmas = (record.get("lemmas") or "").split(" ") if record.get("lemmas") else []
    if len(tags) != len(tokens) or len(lemmas) != len(tokens):
        return [(token, None, None) for token in tokens]
    out: list[tuple[str, str | None, str | None]] = []
    for token, tag, lemma in zip(tokens, tags, lemmas, strict=True):
        if tag == UNTAGGED:
            out.append((token, None, None))
        else:
            out.append((token, tag, token if lemma == SAME else lemma))
    return out


def current_model_names(languages: Sequence[str | None]) -> set[str]:
    """What ``pos_model`` would name for these languages today (to see whether a record is up to date)."""
    names = set()
    for language in languages:
        model = shipped_model(language)
        if model is not None:
            names.add(f"{model.language}:{model.name}")
    return names
