"""The learned model: TF-IDF over characters and words, one logistic regression per label.

It sits beside the rules (danger.py) and the small lexicon classifier (classifier.py) and
is OR'ed with them: a phrasing no rule knows can still look like the thousands of
labelled messages the model was trained on (``bench/train_learned.py``; the figures and
the choice are in ``bench/learned.md``).

Features (the same code serves training and scoring, so they cannot drift apart):

- ``c:<n-gram>``: character 2- to 5-grams inside each word, padded with spaces
  (" kni", "nife "), which carry over typos, endings and run-together slang;
- ``w:<word>`` and ``w:<word> <word>``: words and pairs of words;
- ``s:<sender>`` and ``s:<sender>|w:<word>``: who the message is from (``them``, the
  person the user left; ``relay``, someone passing messages; ``other``; ``me``, the user),
  so "I'm outside" can weigh differently from a friend and from them.

Each block is TF-IDF weighted (sublinear term frequency, smoothed idf) and scaled to
unit length, as scikit-learn's ``TfidfVectorizer`` does.  A long text is scored window by
window (``WINDOW`` words, half overlapping) and the best window counts, so a long harmless
letter cannot add up to danger.  Every finding names the words that weighed most, cut
from the original text.  Plain Python: the model is a JSON file shipped with the package,
read once; it never touches the network.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise
from typing import Any, Literal

from flows.types import DANGER_KINDS

Sender = Literal["them", "relay", "other", "me"]
SENDERS: tuple[Sender, ...] = ("them", "relay", "other", "me")

#: Words per scoring window (most messages are shorter; a long letter is read in parts).
WINDOW = 100
_STRIDE = WINDOW // 2
#: Texts with fewer words are left to the rules.
MIN_WORDS = 2
#: At most this many phrases explain a finding.
MAX_EXPLAIN = 3
CHAR_RANGE = (2, 5)
#: The danger heads: one per kind, and "danger" for any kind at all.
DANGER_HEADS = frozenset(DANGER_KINDS)
MODEL_FILE = "learned_model.json.gz"
#: The SHA-256 of the shipped model file (bench/train_learned.py --fit prints the new one):
#: a damaged or swapped file is not loaded.
MODEL_SHA256 = "05a253e7031a33d0be186e063b833cc1b7a4beb58991f3a5c5fef098c187a79e"

#: A word (letters and digits, inner apostrophes) or one symbol (an emoji, "!").
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]", re.UNICODE)
_REPEAT = re.compile(r"(.)\1{2,}")


@dataclass(frozen=True)
class Token:
    text: str  # normalised: lower case, curly apostrophes straight, long repeats cut
    start: int  # span in the original text
    end: int

    @property
    def is_word(self) -> bool:
        return self.text[0].isalnum()


def tokens(text: str) -> list[Token]:
    out = []
    for m in _TOKEN.finditer(text):
        low = _REPEAT.sub(r"\1\1", m.group().lower().replace("’", "'"))
        out.append(Token(low, m.start(), m.end()))
    return out


# --------------------------------------------------------------------------- features
#: One feature occurrence and the token(s) it came from (for explanations).
Occurrence = tuple[str, int, int]  # feature, first token index, last token index


def occurrences(toks: Sequence[Token], sender: Sender | None) -> list[Occurrence]:
    """Every feature occurrence of ``toks``, in the three blocks (c:, w:, s:)."""
    out: list[Occurrence] = []
    lo, hi = CHAR_RANGE
    words = [(i, t.text) for i, t in enumerate(toks) if t.is_word]
    for i, t in enumerate(toks):
        if not t.is_word:
            out.append((f"w:{t.text}", i, i))  # an emoji or a mark counts as a word
            continue
        padded = f" {t.text} "
        for n in range(lo, hi + 1):
            for k in range(len(padded) - n + 1):
                out.append((f"c:{padded[k : k + n]}", i, i))
    for j, (i, word) in enumerate(words):
        out.append((f"w:{word}", i, i))
        if j + 1 < len(words):
            i2, word2 = words[j + 1]
            out.append((f"w:{word} {word2}", i, i2))
    if sender is not None:
        out.append((f"s:{sender}", 0, 0))
        for i, word in words:
            out.append((f"s:{sender}|w:{word}", i, i))
    return out


@lru_cache(maxsize=65536)
def _grams(word: str) -> tuple[str, ...]:
    """The character n-gram features of one word (words repeat: worth remembering)."""
    lo, hi = CHAR_RANGE
    padded = f" {word} "
    return tuple(
        f"c:{padded[k : k + n]}" for n in range(lo, hi + 1) for k in range(len(padded) - n + 1)
    )


def feature_list(toks: Sequence[Token], sender: Sender | None) -> list[str]:
    """The features of ``toks`` as ``occurrences`` gives them, without the positions (the
    fast path for scoring)."""
    out: list[str] = []
    words = [t.text for t in toks if t.is_word]
    for t in toks:
        if t.is_word:
            out.extend(_grams(t.text))
        else:
            out.append(f"w:{t.text}")
    out.extend(f"w:{w}" for w in words)
    out.extend(f"w:{a} {b}" for a, b in pairwise(words))
    if sender is not None:
        out.append(f"s:{sender}")
        out.extend(f"s:{sender}|w:{w}" for w in words)
    return out


def block(feature: str) -> str:
    """Which block a feature belongs to: "c", "w" or "s" (each normalised on its own)."""
    return feature[0]


def weigh(counts: Mapping[str, int], idf: Mapping[str, float]) -> dict[str, float]:
    """TF-IDF values of the features known to the model, each block at unit length."""
    raw: dict[str, float] = {}
    norms: dict[str, float] = {}
    for feature, n in counts.items():
        w = idf.get(feature)
        if w is None:
            continue
        value = (1.0 + math.log(n)) * w
        raw[feature] = value
        b = block(feature)
        norms[b] = norms.get(b, 0.0) + value * value
    return {f: v / math.sqrt(norms[block(f)]) for f, v in raw.items()}


# --------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class Model:
    labels: tuple[str, ...]
    idf: Mapping[str, float]
    #: feature -> ((label index, weight), ...): only the weights that matter are kept
    coef: Mapping[str, tuple[tuple[int, float], ...]]
    intercept: tuple[float, ...]
    threshold: tuple[float, ...]  # on the logit, chosen out of fold
    #: danger heads count from threshold + margin (see bench/train_learned.py)
    margin: float = 0.0
    #: a rule's danger finding counts where the best danger head is at least this far
    #: from its (margin-raised) threshold
    rules_gate: float = -1e9
    #: a rule's tactic counts where the model's logit for it is at least this far from
    #: its threshold
    tactic_gate: float = -1e9
    version: str = ""

    def cut(self, index: int) -> float:
        """The logit from which label ``index`` is found."""
        label = self.labels[index]
        danger = label == "danger" or label in DANGER_HEADS
        return self.threshold[index] + (self.margin if danger else 0.0)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        labels = tuple(str(x) for x in data["labels"])
        idf = {str(k): float(v) for k, v in data["idf"].items()}
        coef = {str(k): tuple((int(i), float(w)) for i, w in v) for k, v in data["coef"].items()}
        intercept = tuple(float(x) for x in data["intercept"])
        threshold = tuple(float(x) for x in data["threshold"])
        if not (len(labels) == len(intercept) == len(threshold)):
            raise ValueError("the learned model's label tables differ in length")
        return cls(
            labels,
            idf,
            coef,
            intercept,
            threshold,
            float(data.get("margin", 0.0)),
            float(data.get("rules_gate", -1e9)),
            float(data.get("tactic_gate", -1e9)),
            str(data.get("version", "")),
        )


@dataclass(frozen=True)
class Scored:
    label: str
    logit: float
    threshold: float
    #: the spans (start, end) of the original text that weighed most, best first
    spans: tuple[tuple[int, int], ...]

    @property
    def found(self) -> bool:
        return self.logit >= self.threshold


def _windows(toks: Sequence[Token]) -> list[tuple[int, int]]:
    words = [i for i, t in enumerate(toks) if t.is_word]
    if len(words) <= WINDOW:
        return [(0, len(toks))] if toks else []
    out = []
    for first in range(0, len(words) - _STRIDE, _STRIDE):
        last = min(first + WINDOW, len(words)) - 1
        out.append((words[first], (words[last + 1] if last + 1 < len(words) else len(toks))))
    return out


def score(model: Model, text: str, sender: Sender | None) -> list[Scored]:
    """Every label's best-window logit, with the words behind it where it is found."""
    toks = tokens(text)
    if sum(1 for t in toks if t.is_word) < MIN_WORDS:
        toks = []  # an emoji or a single word carries too little for the model
    labels = len(model.labels)
    best = [-math.inf] * labels
    where: list[tuple[int, int]] = [(0, 0)] * labels
    idf, coef, log, sqrt = model.idf, model.coef, math.log, math.sqrt
    for lo, hi in _windows(toks):
        counts = Counter(feature_list(toks[lo:hi], sender))
        raw: list[tuple[str, float]] = []
        norms = {"c": 0.0, "w": 0.0, "s": 0.0}
        for feature, n in counts.items():
            w = idf.get(feature)
            if w is None:
                continue
            value = w if n == 1 else (1.0 + log(n)) * w
            raw.append((feature, value))
            norms[feature[0]] += value * value
        scale = {b: (1.0 / sqrt(x) if x else 0.0) for b, x in norms.items()}
        logits = list(model.intercept)
        for feature, value in raw:
            v = value * scale[feature[0]]
            for index, weight in coef.get(feature, ()):
                logits[index] += v * weight
        for index, logit in enumerate(logits):
            if logit > best[index]:
                best[index], where[index] = logit, (lo, hi)
    out = []
    for index, logit in enumerate(best):
        cut = model.cut(index)
        spans: tuple[tuple[int, int], ...] = ()
        if logit >= cut:  # explain only what is found, on its best window
            lo, hi = where[index]
            window = toks[lo:hi]
            occ = occurrences(window, sender)
            values = weigh(Counter(f for f, _, _ in occ), idf)
            spans = _explain(model, index, window, occ, values)
        out.append(Scored(model.labels[index], logit, cut, spans))
    return out


def _explain(
    model: Model,
    index: int,
    window: Sequence[Token],
    occ: Sequence[Occurrence],
    values: Mapping[str, float],
) -> tuple[tuple[int, int], ...]:
    """The words (joined into phrases when next to each other) that pushed ``index`` up."""
    per_token: dict[int, float] = {}
    counts = Counter(f for f, _, _ in occ)
    share_of: dict[str, float] = {}  # one occurrence's share of the logit, per feature
    for feature, first, last in occ:
        share = share_of.get(feature)
        if share is None:
            weight = 0.0
            if feature in values and not (feature.startswith("s:") and "|" not in feature):
                weight = next((w for i, w in model.coef.get(feature, ()) if i == index), 0.0)
            share = share_of[feature] = values.get(feature, 0.0) * weight / counts[feature]
        if not share:
            continue
        part = share / (last - first + 1)
        for i in range(first, last + 1):
            per_token[i] = per_token.get(i, 0.0) + part
    strongest = max(per_token.values(), default=0.0)
    # the words that carried it, not every word that leaned the same way
    ranked = sorted((v, i) for i, v in per_token.items() if v > 0 and v >= 0.25 * strongest)
    top = sorted(i for _, i in ranked[-MAX_EXPLAIN * 2 :])
    phrases: list[tuple[int, int]] = []
    for i in top:
        t = window[i]
        if phrases and i - 1 in top and window[i - 1].end >= phrases[-1][1]:
            phrases[-1] = (phrases[-1][0], t.end)
        else:
            phrases.append((t.start, t.end))
    strength = {
        span: sum(
            per_token.get(i, 0.0) for i, t in enumerate(window) if span[0] <= t.start < span[1]
        )
        for span in phrases
    }
    said: dict[str, tuple[int, int]] = {}  # the same words twice are quoted once
    for span in sorted(phrases, key=lambda s: -strength[s]):
        words = " ".join(t.text for t in window if span[0] <= t.start < span[1])
        said.setdefault(words, span)
    return tuple(said.values())[:MAX_EXPLAIN]


@cache
def load_model() -> Model | None:
    """The shipped model, or ``None`` if it is missing or broken (the rules still run;
    ``nocontact doctor`` says so)."""
    return _load()[0]


def model_status() -> str:
    """One line for ``nocontact doctor``: loaded, or why not."""
    model, why = _load()
    if model is None:
        return why
    return f"learned model {model.version}: {len(model.coef)} features, {len(model.labels)} labels"


@cache
def _load() -> tuple[Model | None, str]:
    try:
        raw = resources.files("flows.analysis").joinpath("data", MODEL_FILE).read_bytes()
    except OSError:
        return None, f"the learned model ({MODEL_FILE}) is missing: the rules run alone"
    if hashlib.sha256(raw).hexdigest() != MODEL_SHA256:
        return None, f"the learned model ({MODEL_FILE}) fails its check: the rules run alone"
    try:
        return Model.from_json(json.loads(gzip.decompress(raw))), ""
    except (OSError, ValueError, KeyError, TypeError):
        return None, f"the learned model ({MODEL_FILE}) cannot be read: the rules run alone"
