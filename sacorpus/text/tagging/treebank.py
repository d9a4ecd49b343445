"""Reading Universal Dependencies CoNLL-U treebanks as (forms, UPOS, lemmas) sentences.

Why the syntactic words and not the surface tokens: UD splits contractions into words ("don't" ->
"do" "n't", "gonna" -> "gon" "na"), exactly as the project's Treebank tokenizer does, so the tagger
learns on the units it will see. Multiword-token lines (``1-2``) and empty nodes (``1.1``) are skipped.
Plain double quotes in a treebank and the tokenizer's `` and '' are unified by the features.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Sentence:
    forms: list[str]
    upos: list[str]
    lemmas: list[str]


def read_conllu(path: str | Path) -> Iterator[Sentence]:
    """The sentences of a CoNLL-U file, in order."""
    sentence = Sentence([], [], [])
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                if sentence.forms:
                    yield sentence
                sentence = Sentence([], [], [])
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 4 or not cols[0].isdigit():
                continue
            sentence.forms.append(cols[1])
            sentence.lemmas.append(cols[2])
            sentence.upos.append(cols[3])
    if sentence.forms:
        yield sentence
