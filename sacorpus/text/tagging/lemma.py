"""Lemmas from a word and its part of speech: a table of seen words, then suffix rules learned from them.

Why edit rules: a treebank shows each word's lemma as an edit of its form ("studies" -> cut 3, add
"y"); keyed by the part of speech and the longest known suffix, the most frequent edit generalises
to unseen words ("replies" -> "reply"). Whether the lemma keeps the form's capitals is learned with
the edit (proper nouns keep them, "The" -> "the" does not).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

MAX_SUFFIX = 5
Edit = tuple[str, int, str]  # (case: "k" keep | "l" lower, characters cut, text appended)


def edit_of(form: str, lemma: str) -> Edit:
    """The edit that turns ``form`` into ``lemma`` (compared in lower case, plus the case choice)."""
    low, lemma_low = form.lower(), lemma.lower()
    common = 0
    while common < min(len(low), len(lemma_low)) and low[common] == lemma_low[common]:
        common += 1
    case = "k" if lemma != lemma_low or (lemma == form and form != low) else "l"
    return case, len(low) - common, lemma_low[common:]


def apply_edit(form: str, edit: Edit) -> str:
    case, cut, add = edit
    stem = form[: len(form) - cut] if cut else form
    if case == "l":
        stem = stem.lower()
    lemma = stem + add
    return lemma or form


class Lemmatizer:
    """Known (lower-case word, UPOS) -> lemma; else the edit of the longest suffix seen with that UPOS."""

    def __init__(self, table: Mapping[str, str], rules: Mapping[str, str]) -> None:
        self.table = dict(table)
        self.rules = {key: _parse_edit(value) for key, value in rules.items()}

    def lemma(self, form: str, upos: str) -> str:
        known = self.table.get(f"{upos} {form.lower()}")
        if known is not None:
            return {"=": form, "=l": form.lower()}.get(known, known)
        low = form.lower()
        for n in range(min(MAX_SUFFIX, len(low)), -1, -1):
            edit = self.rules.get(f"{upos} {low[len(low) - n :]}")
            if edit is not None:
                return apply_edit(form, edit)
        return form if upos == "PROPN" else low

    @classmethod
    def learn(cls, examples: Iterable[tuple[str, str, str]], min_rule_count: int = 2) -> Lemmatizer:
        """From (form, UPOS, lemma) triples: the majority lemma per word, the majority edit per suffix."""
        by_word: dict[str, Counter[str]] = defaultdict(Counter)
        by_suffix: dict[str, Counter[Edit]] = defaultdict(Counter)
        for form, upos, lemma in examples:
            if not lemma or lemma == "_":
                continue
            by_word[f"{upos} {form.lower()}"][_table_value(form, lemma)] += 1
            edit = edit_of(form, lemma)
            low = form.lower()
            for n in range(min(MAX_SUFFIX, len(low)) + 1):
                by_suffix[f"{upos} {low[len(low) - n :]}"][edit] += 1
        table = {key: c.most_common(1)[0][0] for key, c in by_word.items()}
        rules = {}
        for key, edits in by_suffix.items():
            edit, n = edits.most_common(1)[0]
            if n >= min_rule_count:
                rules[key] = f"{edit[0]}{edit[1]} {edit[2]}"
        return cls(table, rules)

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"table": self.table, "rules": {k: f"{e[0]}{e[1]} {e[2]}" for k, e in self.rules.items()}}


def _table_value(form: str, lemma: str) -> str:
    if lemma == form.lower():
        return "=l"
    if lemma == form:
        return "="
    return lemma


def _parse_edit(value: str) -> Edit:
    head, _, add = value.partition(" ")
    return head[0], int(head[1:]), add
