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
import math
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

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

MODEL_RESOURCE = "langid_sa_nb.npz"
UNDETERMINED = "und"
NGRAM_ORDERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
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


def char_ngrams(normalized: str, orders: tuple[int, ...] = NGRAM_ORDERS) -> list[str]:
    """All character n-grams of the given orders (spaces included: they mark word edges)."""
    n_chars = len(normalized)
    grams: list[str] = []
    for n in orders:
        grams += [normalized[i : i + n] for i in range(n_chars - n + 1)]
    return grams


_HASH_BASE = 1_000_003
_MASK64 = (1 << 64) - 1


def gram_hash(gram: str) -> int:
    """64-bit polynomial hash of an n-gram, equal to what :func:`text_gram_hashes` computes."""
    h = 0
    for ch in gram:
        h = (h * _HASH_BASE + ord(ch)) & _MASK64
    return (h * _HASH_BASE + len(gram)) & _MASK64


def text_gram_hashes(normalized: str, orders: tuple[int, ...] = NGRAM_ORDERS) -> np.ndarray:
    """Hashes of all the character n-grams of ``normalized`` (as :func:`char_ngrams` lists them)."""
    codes = np.frombuffer(normalized.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    n_chars = len(codes)
    base = np.uint64(_HASH_BASE)
    parts = []
    for n in orders:
        count = n_chars - n + 1
        if count <= 0:
            continue
        h = np.zeros(count, dtype=np.uint64)
        for k in range(n):
            h = h * base + codes[k : k + count]
        parts.append(h * base + np.uint64(n))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


@dataclass(frozen=True)
class NBModel:
    """A multinomial Naive Bayes over character n-grams: log P(gram | language) per row."""

    languages: tuple[str, ...]
    index: dict[str, int]
    logp: np.ndarray  # (n_features, n_languages) float32
    log_prior: np.ndarray  # (n_languages,)
    #: per-n-gram mean log-likelihood below which a text is "unlike anything the model knows"
    ood_threshold: float
    #: multiplier on the per-n-gram mean log-likelihood margin, for a calibrated probability
    temperature: float
    #: text CLD2 confidently puts outside the SA set is taken back only above this fit
    override_threshold: float
    #: log-probability charged in the fit for an n-gram the model does not know (its lowest value)
    unseen_logp: float
    #: the character n-gram orders the model counts
    orders: tuple[int, ...] = NGRAM_ORDERS

    def __post_init__(self) -> None:
        # Exact lookup, vectorised: every feature's 64-bit polynomial hash, sorted, so a text's
        # n-grams are found with one numpy searchsorted instead of a dict lookup per n-gram.
        hashes = np.fromiter((gram_hash(g) for g in self.index), dtype=np.uint64, count=len(self.index))
        rows = np.fromiter(self.index.values(), dtype=np.int64, count=len(self.index))
        order = np.argsort(hashes, kind="stable")
        object.__setattr__(self, "_hashes", hashes[order])
        object.__setattr__(self, "_rows", rows[order])

    def scores(self, normalized: str) -> tuple[np.ndarray, int, int]:
        """Summed log-likelihood per language, how many n-grams were known, and how many in all."""
        grams = text_gram_hashes(normalized, self.orders)
        n_all = len(grams)
        hashes: np.ndarray = self._hashes  # type: ignore[attr-defined]
        if n_all == 0 or len(hashes) == 0:
            return np.zeros(len(self.languages), dtype=np.float64), 0, n_all
        pos = np.searchsorted(hashes, grams)
        np.minimum(pos, len(hashes) - 1, out=pos)
        known = hashes[pos] == grams
        rows = self._rows[pos[known]]  # type: ignore[attr-defined]
        if len(rows) == 0:
            return np.zeros(len(self.languages), dtype=np.float64), 0, n_all
        total = self.logp[rows].sum(axis=0, dtype=np.float64)
        return total, len(rows), n_all

    def predict(self, normalized: str) -> tuple[str, float, float]:
        """(language, probability, fit): fit is the winner's mean log-likelihood per n-gram.

        Unknown n-grams count in the fit at the model's lowest log-probability, so text in another
        script or an unrelated language (few known n-grams) fits badly instead of looking perfect.
        """
        total, count, n_all = self.scores(normalized)
        if count == 0:
            return UNDETERMINED, 0.0, -math.inf
        mean = total / count
        # A calibrated posterior: scaled mean margins (the raw NB posterior is always ~1.0).
        z = (mean - mean.max()) * self.temperature * math.sqrt(count)
        probs = np.exp(z)
        probs /= probs.sum()
        best = int(np.argmax(total))
        fit = (float(total[best]) + (n_all - count) * self.unseen_logp) / n_all
        return self.languages[best], float(probs[best]), fit

    @classmethod
    def from_npz(cls, data: Any) -> NBModel:
        features = bytes(data["features"].tobytes()).decode("utf-8").split("\n")
        languages = tuple(str(x) for x in bytes(data["languages"].tobytes()).decode("utf-8").split("\n"))
        params = data["params"]
        return cls(
            languages=languages,
            index={g: i for i, g in enumerate(features)},
            logp=data["logp"].astype(np.float32),
            log_prior=data["log_prior"].astype(np.float64),
            ood_threshold=float(params[0]),
            temperature=float(params[1]),
            override_threshold=float(params[2]),
            unseen_logp=float(data["logp"].min()),
            orders=tuple(range(1, int(params[3]) + 1)) if len(params) > 3 else NGRAM_ORDERS,
        )

    def to_npz_arrays(self) -> dict[str, np.ndarray]:
        features = [""] * len(self.index)
        for gram, i in self.index.items():
            features[i] = gram
        return {
            "features": np.frombuffer("\n".join(features).encode("utf-8"), dtype=np.uint8),
            "languages": np.frombuffer("\n".join(self.languages).encode("utf-8"), dtype=np.uint8),
            "logp": self.logp.astype(np.float16),
            "log_prior": self.log_prior.astype(np.float32),
            "params": np.asarray(
                [self.ood_threshold, self.temperature, self.override_threshold, max(self.orders)],
                dtype=np.float64,
            ),
        }


_model: NBModel | None = None
_model_lock = threading.Lock()


def load_model() -> NBModel:
    """The shipped model, loaded on first use and kept for the life of the process."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                ref = resources.files("sacorpus.models").joinpath(MODEL_RESOURCE)
                with ref.open("rb") as fh, np.load(fh, allow_pickle=False) as data:
                    _model = NBModel.from_npz(data)
                logger.debug("loaded %s: %d features", MODEL_RESOURCE, len(_model.index))
    return _model


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
    if not text:
        return UNDETERMINED, 0.0
    # Afrikaans' indefinite article as official texts write it ("ŉ", U+0149, or "ʼn"): one spelling,
    # the one the model and CLD2 know ("'n"); CLD2 otherwise reads such short texts as Dutch
    text = text.replace("\u0149", "'n").replace("\u02bcn", "'n")
    normalized = normalize_for_model(text)
    letters = len(normalized) - normalized.count(" ") - normalized.count("'")
    if letters < MIN_LETTERS:
        return UNDETERMINED, 0.0
    cld2_code, percent, reliable = _cld2(text)
    model = load_model()
    lang, prob, fit = model.predict(normalized)
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
    for paragraph in paragraphs:
        lang, prob = identify(paragraph)
        results.append((lang, round(prob, 4)))
        if lang == UNDETERMINED:
            continue
        letters = sum(ch.isalpha() for ch in paragraph)
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
