"""Language identification for South African news text (all 11 official written languages).

Why two stages: general detectors (CLD2, lingua) know the major world languages but confuse the
South African Bantu languages with each other (CLD2 files most isiNdebele under isiZulu, some Sepedi
under Setswana). So CLD2 runs first and keeps its answer for text that is clearly in some other
language; everything it calls South African is decided by a character 1-6-gram Naive Bayes trained
on the Vuk'uzenzele corpus (``scripts/train_langid.py``), shipped as
``sacorpus/models/langid_sa_nb.npz`` (see ATTRIBUTION.md there). Text CLD2 cannot place (short
headlines) goes to the Naive Bayes model when it fits it as well as its training data, else to lingua
(low-accuracy mode, loaded only if needed). A text the Naive Bayes model finds unlike any of its
languages is never forced into one: it keeps the general detector's code, or gets ``und``.

Codes: ISO 639-1 where one exists (en af zu xh st tn ts ss ve nr), ``nso`` for Sepedi, the general
detector's code for other languages, ``und`` when unsure.

Everything here is pure Python + numpy; the model loads lazily, once per process.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from sacorpus.text.langid_model import (
    MODEL_RESOURCE,
    NGRAM_ORDERS,
    UNDETERMINED,
    NBModel,
    char_ngrams,
    gram_hash,
    load_model,
    text_gram_hashes,
)

logger = logging.getLogger(__name__)

#: The 11 official written languages of South Africa, in the codes this project uses.
SA_LANGUAGES: tuple[str, ...] = ("af", "en", "nr", "nso", "st", "ss", "tn", "ts", "ve", "xh", "zu")

#: Dataset labels (ISO 639-3 style, as in the Vuk'uzenzele LID splits) -> project codes.
DATASET_LABELS: dict[str, str] = {
    "af": "af",
    "afr": "af",
    "eng": "en",
    "nbl": "nr",
    "nso": "nso",
    "sot": "st",
    "ssw": "ss",
    "tsn": "tn",
    "tso": "ts",
    "ven": "ve",
    "xho": "xh",
    "zul": "zu",
}

#: Only the first characters of a long text are scored: enough for a confident answer, bounded time.
MAX_CHARS = 2000
#: Fewer letters than this and no one can tell the language.
MIN_LETTERS = 3

# Languages lingua is asked about when CLD2 cannot tell: the SA languages it knows and the major
# news languages (not other Bantu languages, which would claim isiNdebele or Tshivenda text).
_LINGUA_CODES = (
    "af", "en", "zu", "xh", "st", "tn", "ts", "de", "fr", "es", "pt", "it", "nl", "ru", "pl", "tr", "cs",
    "sk", "sv", "nb", "nn", "da", "fi", "is", "ja", "ko", "zh", "ar", "he", "hi", "ur", "bn", "fa", "vi",
    "th", "id", "ms", "uk", "bg", "sr", "hr", "sl", "hu", "ro", "el", "ca", "lt", "lv", "et",
)  # fmt: skip
_CLD2_CODE_FIXES = {"iw": "he", "jw": "jv", "in": "id", "ji": "yi", "zh-Hant": "zh", "un": UNDETERMINED}

_URL_RE = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\w+", re.IGNORECASE)
_NON_LETTER_RE = re.compile(r"[^\w']+|[\d_]+")
_SPACES_RE = re.compile(r"\s+")
# Control characters, surrogates and non-characters make CLD2 raise; they carry no language.
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def normalize_for_model(text: str) -> str:
    """Lower-case letters and apostrophes only, words separated by one space, padded with spaces.

    Digits, URLs and punctuation say nothing about the language (and differ between the magazine
    register the model learned from and news), so they are dropped before counting n-grams.
    """
    text = unicodedata.normalize("NFC", text[: MAX_CHARS * 2])
    text = text.replace("\u2019", "'").replace("\u02bc", "'").replace("`", "'")
    text = _URL_RE.sub(" ", text)
    text = _NON_LETTER_RE.sub(" ", text.lower())
    text = _SPACES_RE.sub(" ", text).strip()[:MAX_CHARS]
    return f" {text} " if text else ""


_model_lock = threading.Lock()


def _cld2(text: str) -> tuple[str, int, bool]:
    """CLD2's top language (project code), its percent of the text, and its reliability flag."""
    import pycld2

    clean = _CONTROL_RE.sub(" ", text[: MAX_CHARS * 2])
    try:
        reliable, _, details = pycld2.detect(clean)
    except pycld2.error:
        clean = clean.encode("utf-8", "ignore").decode("utf-8", "ignore")
        try:
            reliable, _, details = pycld2.detect(clean)
        except pycld2.error:
            return "un", 0, False
    code, percent = details[0][1], details[0][2]
    return code, percent, bool(reliable)


_lingua_detector: Any = None


def _lingua_detect(text: str) -> tuple[str, float] | None:
    """lingua's top language and confidence, or None when lingua is not installed.

    Built on first use only (low-accuracy mode, about 60 MB), since CLD2 answers most texts.
    """
    global _lingua_detector
    try:
        from lingua import IsoCode639_1, Language, LanguageDetectorBuilder
    except ImportError:
        return None
    if _lingua_detector is None:
        with _model_lock:
            if _lingua_detector is None:
                languages = [
                    Language.from_iso_code_639_1(getattr(IsoCode639_1, c.upper())) for c in _LINGUA_CODES
                ]
                _lingua_detector = (
                    LanguageDetectorBuilder.from_languages(*languages).with_low_accuracy_mode().build()
                )
    values = _lingua_detector.compute_language_confidence_values(text[:MAX_CHARS])
    if not values:
        return None
    top = values[0]
    return top.language.iso_code_639_1.name.lower(), float(top.value)


def _general_code(cld2_code: str) -> str:
    code = _CLD2_CODE_FIXES.get(cld2_code, cld2_code)
    return code.split("-")[0] if code != "zh-Hant" else "zh"


_AFRIKAANS_ONLY = frozenset(
    {"die", "nie", "'n", "sê", "jy", "hulle", "vir", "hy", "sy", "julle", "gaan", "moet"}
)
_DUTCH_ONLY = frozenset(
    {"de", "een", "niet", "zijn", "wordt", "zij", "ze", "deze", "jij", "hij", "naar", "heeft"}
)


def _looks_afrikaans(normalized: str) -> bool:
    """CLD2 calls short Afrikaans "Dutch"; the model has no Dutch class, so a few spelling facts
    decide: Dutch writes "ij" (Afrikaans "y") and has its own function words."""
    if "ij" in normalized:
        return False
    words = set(normalized.split())
    return bool(words & _AFRIKAANS_ONLY) and not words & _DUTCH_ONLY


def identify(text: str) -> tuple[str, float]:
    """The language of ``text`` and a probability in [0, 1]; ``("und", 0.0)`` when it cannot tell."""
    return identify_many([text])[0]


def identify_many(texts: list[str]) -> list[tuple[str, float]]:
    """:func:`identify` of each text, the model scoring them all in one vectorised pass."""
    prepared = [_prepare(text) for text in texts]
    scored = iter(load_model().predict_many([p[1] for p in prepared if p is not None]))
    return [_decide(p[0], p[1], next(scored)) if p is not None else (UNDETERMINED, 0.0) for p in prepared]


def _prepare(text: str) -> tuple[str, str] | None:
    """(text with one spelling of Afrikaans' "'n", its normalized form); None with too few letters."""
    if not text:
        return None
    # Afrikaans' indefinite article as official texts write it ("ŉ", U+0149, or "ʼn"): one spelling,
    # the one the model and CLD2 know ("'n"); CLD2 otherwise reads such short texts as Dutch
    text = text.replace("\u0149", "'n").replace("\u02bcn", "'n")
    normalized = normalize_for_model(text)
    letters = len(normalized) - normalized.count(" ") - normalized.count("'")
    if letters < MIN_LETTERS:
        return None
    return text, normalized


def _decide(text: str, normalized: str, predicted: tuple[str, float, float]) -> tuple[str, float]:
    """CLD2 first, the SA model (``predicted``) for what CLD2 calls South African or cannot place."""
    cld2_code, percent, reliable = _cld2(text)
    model = load_model()
    lang, prob, fit = predicted
    if cld2_code in SA_LANGUAGES:
        # CLD2 sees a South African language: the SA model decides which one.
        if lang != UNDETERMINED and fit >= model.ood_threshold:
            return lang, prob
        return UNDETERMINED, 0.0
    if cld2_code == "un" or not reliable:
        # CLD2 cannot tell (short headlines, mixed lines). Text the SA model fits as well as its
        # training data is South African; otherwise lingua (a second general detector) is asked.
        if lang != UNDETERMINED and fit >= model.override_threshold:
            return lang, prob
        general = _lingua_detect(text)
        if general is None or general[0] in SA_LANGUAGES:
            if lang != UNDETERMINED and fit >= model.ood_threshold:
                return lang, prob
            return UNDETERMINED, 0.0
        return general if general[1] >= 0.5 else (UNDETERMINED, 0.0)
    if cld2_code == "nl" and lang == "af" and _looks_afrikaans(normalized):
        return lang, prob
    # CLD2 sees a language outside the South African set. Only text the SA model fits as well as
    # its own training data overrides that (CLD2 sometimes calls short English 'ro' or 'ms').
    if lang != UNDETERMINED and fit >= model.override_threshold:
        return lang, prob
    return _general_code(cld2_code), min(1.0, percent / 100.0)


@dataclass
class ArticleLanguage:
    """Language of an article and of each paragraph; ``mixed`` when a second language is substantial."""

    language: str
    probability: float
    paragraphs: list[tuple[str, float]]
    mixed: bool = False
    #: share of the article's letters per language (paragraph-weighted), largest first
    shares: dict[str, float] = field(default_factory=dict)


#: A second language must hold this share of an article's letters for it to count as mixed...
MIXED_MIN_SHARE = 0.15
#: ...in paragraphs identified at least this confidently and at least this long.
MIXED_MIN_PROB = 0.8
MIXED_MIN_LETTERS = 40


def identify_paragraphs(paragraphs: list[str]) -> ArticleLanguage:
    """Identify each paragraph, then the article: the language holding most of its letters.

    Short paragraphs (bylines, captions) are identified but weigh little; the article probability is
    the letter-weighted mean probability of the paragraphs that agree with the article language.
    """
    results: list[tuple[str, float]] = []
    weight: dict[str, float] = {}
    confident: dict[str, float] = {}
    prob_sum: dict[str, float] = {}
    for paragraph, (lang, prob) in zip(paragraphs, identify_many(paragraphs), strict=True):
        results.append((lang, round(prob, 4)))
        if lang == UNDETERMINED:
            continue
        letters = sum(map(str.isalpha, paragraph))
        weight[lang] = weight.get(lang, 0.0) + letters
        prob_sum[lang] = prob_sum.get(lang, 0.0) + letters * prob
        if prob >= MIXED_MIN_PROB and letters >= MIXED_MIN_LETTERS:
            confident[lang] = confident.get(lang, 0.0) + letters
    if not weight:
        return ArticleLanguage(UNDETERMINED, 0.0, results, False, {})
    total = sum(weight.values())
    shares = {k: round(v / total, 4) for k, v in sorted(weight.items(), key=lambda kv: -kv[1])}
    language = next(iter(shares))
    probability = round(prob_sum[language] / weight[language] * shares[language], 4)
    confident_total = sum(confident.values()) or 1.0
    mixed = sum(1 for v in confident.values() if v / confident_total >= MIXED_MIN_SHARE) >= 2
    return ArticleLanguage(language, probability, results, mixed, shares)


__all__ = [
    "DATASET_LABELS",
    "MODEL_RESOURCE",
    "NGRAM_ORDERS",
    "SA_LANGUAGES",
    "UNDETERMINED",
    "ArticleLanguage",
    "NBModel",
    "char_ngrams",
    "gram_hash",
    "identify",
    "identify_many",
    "identify_paragraphs",
    "load_model",
    "normalize_for_model",
    "text_gram_hashes",
]
