"""A shipped part-of-speech and lemma model: one gzip-compressed JSON file per language, loaded lazily.

Why JSON and not pickle: a model file is data; loading it must never run code. Why per language and
no fallback: a language without a model gets no tags rather than another language's wrong ones.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from sacorpus.text.tagging.lemma import Lemmatizer
from sacorpus.text.tagging.perceptron import AveragedPerceptron, SequenceTagger, Weights

#: languages with a shipped model (sacorpus/models/pos_<lang>.json.gz)
MODEL_LANGUAGES = ("en", "af")
#: 2 added the right-to-left pass and the capitalisation table; 3 the lexicon of tags in unlabelled
#: text; older files (without those parts) still load
FORMAT = 3
READABLE_FORMATS = (1, 2, 3)


@dataclass
class PosModel:
    """A tagger and a lemmatizer for one language, with the name stored beside every tagged article."""

    language: str
    name: str
    tagger: SequenceTagger
    lemmatizer: Lemmatizer
    meta: dict[str, Any] = field(default_factory=dict)

    def annotate(self, tokens: list[str]) -> tuple[list[str], list[str]]:
        """UPOS tags and lemmas of one sentence's tokens."""
        tags = self.tagger.tag(tokens)
        return tags, [self.lemmatizer.lemma(tok, tag) for tok, tag in zip(tokens, tags, strict=True)]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "language": self.language,
            "name": self.name,
            "meta": self.meta,
            "classes": self.tagger.model.classes,
            "weights": self.tagger.model.weights,
            "tagdict": self.tagger.tagdict,
            "clusters": self.tagger.clusters,
            "capitals": self.tagger.capitals,
            "lexicon": self.tagger.lexicon,
            "backward": self.tagger.backward.model.weights if self.tagger.backward else None,
            "lemmas": self.lemmatizer.to_json(),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> PosModel:
        if doc.get("format") not in READABLE_FORMATS:
            raise ValueError(f"POS model format {doc.get('format')!r}, expected one of {READABLE_FORMATS}")

        def tagger(weights: Weights, **how: Any) -> SequenceTagger:
            model = AveragedPerceptron(doc["classes"], weights)
            return SequenceTagger(
                model,
                doc["tagdict"],
                doc["clusters"],
                capitals=doc.get("capitals"),
                lexicon=doc.get("lexicon"),
                **how,
            )

        backward = tagger(doc["backward"], reverse=True) if doc.get("backward") else None
        lemmas = doc["lemmas"]
        return cls(
            doc["language"],
            doc["name"],
            tagger(doc["weights"], backward=backward),
            Lemmatizer(lemmas["table"], lemmas["rules"]),
            doc["meta"],
        )

    def save(self, path: str | Path) -> None:
        data = json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as fh:  # mtime 0: same bytes each build
            fh.write(data.encode("utf-8"))

    @classmethod
    def load(cls, path: str | Path) -> PosModel:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return cls.from_json(json.load(fh))


@lru_cache(maxsize=8)
def shipped_model(language: str | None) -> PosModel | None:
    """The package's model for ``language`` (loaded once per process), None when it has none."""
    if language not in MODEL_LANGUAGES:
        return None
    ref = resources.files("sacorpus.models").joinpath(f"pos_{language}.json.gz")
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return PosModel.load(path)
