"""Word clusters from unlabelled text: what lets a tagger trained on 25,000 words know the rest.

Why: most words of a news text never occur in a small treebank, but they occur in news pages. Words
used in the same contexts (the same left and right neighbours) get the same cluster, and the tagger
learns the tags of clusters from the words it was trained on. The recipe is the cheap classic one:
counts of the 1,000 most frequent left and right neighbours of each frequent word, square-root
scaled, reduced by SVD, then k-means twice (coarse and fine, seeded), written ``coarse.fine``.
The pages' paragraphs are tokenized by the project's own tokenizer, so the cluster keys are the
tokens the tagger sees in a crawl.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sacorpus.text.tagging.features import normalise

#: tokens after which a capital starts a sentence-like unit (quotes, colons, bullets)
_OPENERS = frozenset(('"', "``", "“", ":", ".", "!", "?", "-", "–", "—", "(", "*", "•", "|"))


def page_paragraphs(folder: Path) -> Iterator[str]:
    """Paragraph texts (<p>, headings, list items) of every ``*.html.gz`` page under ``folder``."""
    import lxml.html

    for path in sorted(folder.rglob("*.html.gz")):
        try:
            with gzip.open(path, "rb") as fh:
                root = lxml.html.fromstring(fh.read())
        except (OSError, ValueError, lxml.etree.ParserError):
            continue
        for element in root.iter("p", "h1", "h2", "h3", "li"):
            text = " ".join(element.text_content().split())
            if len(text) > 40:
                yield text


def sentences_of(paragraphs: Iterable[str]) -> Iterator[list[str]]:
    """Each paragraph's tokens as the project's tokenizer cuts them (not yet normalised)."""
    from sacorpus.text.tokenize import tokenize

    for paragraph in paragraphs:
        yield list(tokenize(paragraph, "en").tokens)


def capital_shares(sentences: Iterable[Sequence[str]], *, min_count: int = 5) -> dict[str, str]:
    """Normalised word -> how often it is capitalised inside a sentence, in fifths ("0" to "4").

    Why: whether a capitalised word is a name (PROPN) or a capitalised common word is the tagger's
    most frequent confusion, and the answer is in unlabelled text: "Apple" and "Monday" are
    capitalised wherever they stand, "Report" only at the start of a sentence or in a headline.
    Sentence-initial tokens and all-capital paragraphs (headlines, shouting) are not counted.
    """
    capital: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for sentence in sentences:
        if sum(t.isupper() for t in sentence) * 2 > len(sentence):
            continue
        for i, token in enumerate(sentence):
            if i == 0 or not token[:1].isalpha() or sentence[i - 1] in _OPENERS:
                continue
            word = normalise(token)
            seen[word] += 1
            capital[word] += token[:1].isupper()
    return {w: str(min(4, capital[w] * 5 // n)) for w, n in seen.items() if n >= min_count}


def _kmeans(points: np.ndarray, k: int, rng: np.random.Generator, rounds: int = 20) -> np.ndarray:
    centres = points[rng.choice(len(points), size=k, replace=False)]
    labels = np.zeros(len(points), dtype=np.int64)
    for _ in range(rounds):
        labels = np.argmax(points @ centres.T, axis=1)  # unit vectors: nearest = largest cosine
        for c in range(k):
            members = points[labels == c]
            if len(members):
                centre = members.sum(axis=0)
                centres[c] = centre / max(float(np.linalg.norm(centre)), 1e-9)
    return labels


class WordTables(NamedTuple):
    """What unlabelled text tells the tagger about words: their clusters and capitalisation, and the
    text itself (tokenized), which a first model tags to learn each word's usual tags."""

    clusters: dict[str, str]
    capitals: dict[str, str]
    text: Sequence[Sequence[str]] = ()


def tag_lexicon(
    tag: Callable[[Sequence[str]], list[str]],
    sentences: Iterable[Sequence[str]],
    *,
    min_count: int = 3,
    min_share: float = 0.7,
) -> dict[str, str]:
    """Normalised word -> the tag a first model gives it most often in unlabelled text ("NOUN"), or its
    two most frequent tags ("NOUN/VERB") when the first has less than ``min_share`` of its uses.

    Why: a word the treebank never shows is often frequent in news text, and tagged in many contexts
    there; the votes of all those contexts are a better guess of its part of speech than one sentence
    gives, and the second model learns how far to trust them.
    """
    votes: dict[str, Counter[str]] = {}
    for sentence in sentences:
        for token, guess in zip(sentence, tag(sentence), strict=True):
            votes.setdefault(normalise(token), Counter())[guess] += 1
    lexicon = {}
    for word, counts in votes.items():
        total = sum(counts.values())
        if total < min_count:
            continue
        ranked = counts.most_common(2)
        first = ranked[0][0]
        lexicon[word] = (
            first if ranked[0][1] >= min_share * total or len(ranked) < 2 else f"{first}/{ranked[1][0]}"
        )
    return lexicon


def learn_clusters(
    raw: Iterable[Sequence[str]],
    *,
    seed: int,
    vocabulary: int = 40_000,
    contexts: int = 1000,
    dims: int = 80,
    coarse: int = 60,
    fine: int = 600,
    min_count: int = 3,
) -> dict[str, str]:
    """Normalised word -> ``coarse.fine`` cluster ids, learned from tokenized sentences."""
    sentences = [[normalise(t) for t in s] for s in raw]
    freq = Counter(w for s in sentences for w in s)
    words = [w for w, n in freq.most_common(vocabulary) if n >= min_count]
    index = {w: i for i, w in enumerate(words)}
    context_index = {w: i for i, w in enumerate(words[:contexts])}
    matrix = np.zeros((len(words), 2 * contexts), dtype=np.float32)
    for sentence in sentences:
        padded = ["<s>", *sentence, "</s>"]
        for j in range(1, len(padded) - 1):
            row = index.get(padded[j])
            if row is None:
                continue
            left, right = context_index.get(padded[j - 1]), context_index.get(padded[j + 1])
            if left is not None:
                matrix[row, left] += 1
            if right is not None:
                matrix[row, contexts + right] += 1
    matrix = np.sqrt(matrix)
    u, s, _ = np.linalg.svd(matrix - matrix.mean(axis=0), full_matrices=False)
    vectors = u[:, :dims] * s[:dims]
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    rng = np.random.default_rng(seed)
    coarse_ids = _kmeans(vectors, coarse, rng)
    fine_ids = _kmeans(vectors, fine, rng)
    return {w: f"{coarse_ids[i]}.{fine_ids[i]}" for w, i in index.items()}
