"""The learned model: TF-IDF over characters and words, one logistic regression per label.

It sits beside the rules (danger.py) and is OR'ed with them (and takes the place of the
small lexicon classifier, classifier.py, which backs the rules up only when this model is
missing): a phrasing no rule knows can still look like the thousands of labelled messages
the model was trained on (``bench/train_learned.py``; the figures and
the choice are in ``bench/learned.md``).

Features (the same code serves training and scoring, so they cannot drift apart):

- ``c:<n-gram>``: character 2- to 5-grams inside each word, padded with spaces
  (" kni", "nife "), which carry over typos, endings and run-together slang;
- ``w:<word>``, ``w:<word> <word>`` and ``w:<word> <word> <word>``: words, and runs of
  two and three words (``WORD_GRAMS``);
- ``s:<sender>``, ``s:<sender>|w:<word>`` and ``s:<sender>|w:<word> <word>``: who the
  message is from (``them``, the person the user left; ``relay``, someone passing
  messages; ``other``; ``me``, the user) joined to words and pairs (``SENDER_GRAMS``), so
  "I'm outside" can weigh differently from a friend and from them.

Each block is TF-IDF weighted (sublinear term frequency, smoothed idf) and scaled to
unit length, as scikit-learn's ``TfidfVectorizer`` does.  A long text is scored window by
window (whole sentences, up to ``WINDOW`` words) and the best window counts, so a long harmless
letter cannot add up to danger.  Every finding names the words that weighed most, cut
from the original text.  Plain Python: the model is a JSON file shipped with the package,
read once; it never touches the network.

(Over 400 lines: the features, the fast scorer that must equal their plain definition,
the windows and the explanations are one model's code; split, the training script and the
bot could drift apart.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache, partial
from importlib import resources
from itertools import chain, repeat
from operator import itemgetter, mul
from typing import Any, Literal, NamedTuple

from flows.types import DANGER_KINDS

Sender = Literal["them", "relay", "other", "me"]
SENDERS: tuple[Sender, ...] = ("them", "relay", "other", "me")

#: Words per scoring window at most: within the length of the messages the model learns
#: from (99% of the training messages have at most 47 words, half at most 20), so a long
#: letter is read in parts of a length the model knows.  Windows of 100 words diluted a
#: threat in a long message (on development sets padded to 1,000 characters, 50 words
#: found 0.69 and 0.56 of the threats where 100 found 0.49 and 0.33).  Whole sentences
#: grouped up to 40 words (``_windows``), on blind_n before it was trained on: 0.73 of the
#: threats and 0.56 of their kinds, where half-overlapping windows of 50 words found 0.69
#: and 0.52, in fewer windows (bench/learned.md).
WINDOW = 40
_STRIDE = WINDOW // 2
#: Texts with fewer words are left to the rules.
MIN_WORDS = 2
#: At most this many phrases explain a finding.
MAX_EXPLAIN = 3
CHAR_RANGE = (2, 5)
#: Runs of up to this many words are features of their own (w:), and the sender joined to
#: runs of up to SENDER_GRAMS words (s:): chosen leave-one-writer-out (bench/learned.md).
WORD_GRAMS = 3
SENDER_GRAMS = 2
#: The danger heads: one per kind, and "danger" for any kind at all.
DANGER_HEADS = frozenset(DANGER_KINDS)
MODEL_FILE = "learned_model.json.gz"
#: The SHA-256 of the shipped model file (bench/train_learned.py --fit prints the new one):
#: a damaged or swapped file is not loaded.
MODEL_SHA256 = "93e301b51f22e0e71a1e5d3bd7c42ea2d6c335f29c966901e68c41f0d92bd729"

#: A word (letters and digits, inner apostrophes) or one symbol (an emoji, "!").
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]", re.UNICODE)
_REPEAT = re.compile(r"(.)\1{2,}")


class Token(NamedTuple):
    text: str  # normalised: lower case, curly apostrophes straight, long repeats cut
    start: int  # span in the original text
    end: int
    is_word: bool  # a word (letters and digits), not a symbol


def tokens(text: str) -> list[Token]:
    low = text.lower().replace("’", "'")
    if len(low) != len(text):  # a letter whose lower case is longer: spans from the original
        return [_token(m.group().lower().replace("’", "'"), m) for m in _TOKEN.finditer(text)]
    repeats = _REPEAT.search(low) is not None
    out = []
    for m in _TOKEN.finditer(low):
        word = _REPEAT.sub(r"\1\1", m.group()) if repeats else m.group()
        out.append(Token(word, m.start(), m.end(), word[0].isalnum()))
    return out


def _token(low: str, m: re.Match[str]) -> Token:
    low = _REPEAT.sub(r"\1\1", low)
    return Token(low, m.start(), m.end(), low[0].isalnum())


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
    for n in range(1, WORD_GRAMS + 1):
        for j in range(len(words) - n + 1):
            run = words[j : j + n]
            out.append((f"w:{' '.join(w for _, w in run)}", run[0][0], run[-1][0]))
    if sender is not None:
        out.append((f"s:{sender}", 0, 0))
        for n in range(1, SENDER_GRAMS + 1):
            for j in range(len(words) - n + 1):
                run = words[j : j + n]
                joined = " ".join(w for _, w in run)
                out.append((f"s:{sender}|w:{joined}", run[0][0], run[-1][0]))
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
    for n in range(1, WORD_GRAMS + 1):
        out.extend(f"w:{' '.join(words[j : j + n])}" for j in range(len(words) - n + 1))
    if sender is not None:
        out.append(f"s:{sender}")
        for n in range(1, SENDER_GRAMS + 1):
            out.extend(
                f"s:{sender}|w:{' '.join(words[j : j + n])}" for j in range(len(words) - n + 1)
            )
    return out


def block(feature: str) -> str:
    """Which block a feature belongs to: "c", "w" or "s" (each normalised on its own)."""
    return feature[0]


def weigh(counts: Mapping[str, int], idf: Mapping[str, float]) -> dict[str, float]:
    """TF-IDF values of the features known to the model (term count times idf), each block
    at unit length.  The reference definition: training builds the same matrix with scipy,
    and ``score`` computes the same logits word by word."""
    raw: dict[str, float] = {}
    norms: dict[str, float] = {}
    for feature, n in counts.items():
        w = idf.get(feature)
        if w is None:
            continue
        value = n * w
        raw[feature] = value
        b = block(feature)
        norms[b] = norms.get(b, 0.0) + value * value
    return {f: v / math.sqrt(norms[block(f)]) for f, v in raw.items()}


# --------------------------------------------------------------------------- the model
#: A feature's weights for every label are kept as one integer (``pack``): a lane of
#: ``_LANE`` bits per label holds the weight in fixed point.  Integers add exactly, so the
#: sum of many features' integers is every label's sum at once, done in C: several times
#: quicker than adding lists of floats in Python, and smaller (bench/learned.md).
_LANE = 88
#: Fixed point: a weight is held to 2**-44 (about 6e-14); a window sums at most a few
#: thousand, so a logit is within about 1e-10 of the float sum.
_ONE = float(1 << 44)
#: A weight (times its idf) must stay below this: 2**52 in fixed point, so even 2**30 of
#: them cannot overflow a lane (2**87).
WEIGHT_LIMIT = 256.0
_LIMIT = round(WEIGHT_LIMIT * _ONE)
_HALF = 1 << (_LANE - 1)
_MASK = (1 << _LANE) - 1
#: Packed weights: an integer whose lane ``i`` (``_LANE`` bits, two's complement across
#: lanes) is label ``i``'s weight times ``_ONE``; 0 when a feature weighs nothing.
Packed = int


def pack(weights: Iterable[tuple[int, float]]) -> Packed:
    """One integer for a feature's weights, given as (label index, weight) pairs (see
    ``_LANE``)."""
    out = 0
    for i, v in weights:
        fixed = round(v * _ONE)
        if abs(fixed) >= _LIMIT:
            raise ValueError("a weight of the learned model is out of range")
        out += fixed << (_LANE * i)
    return out


@lru_cache(maxsize=64)
def _offset(n: int) -> int:
    """Half a lane added to each of ``n`` lanes: every lane becomes non-negative."""
    return sum(_HALF << (_LANE * i) for i in range(n))


def unpack(total: Packed, n: int) -> list[float]:
    """The ``n`` label values of a packed integer (or of a sum of them)."""
    shifted = total + _offset(n)
    return [(((shifted >> (_LANE * i)) & _MASK) - _HALF) / _ONE for i in range(n)]


def _near(shifted: Packed) -> int:
    """The lowest lane of ``shifted`` (a packed integer shifted down to the lane wanted),
    in fixed point: its value, or one unit (2**-44) less where the lanes below it are
    negative overall.  Without the addition ``unpack`` makes, about twice as quick: for
    explanations, which only compare words' shares."""
    low = shifted & _MASK
    return low - (1 << _LANE) if low >= _HALF else low


#: What one word brings: its character n-grams' summed weights (idf times coefficient,
#: packed) and the n-grams the model knows (for the block's length).
_WordPart = tuple[Packed, tuple[str, ...]]
#: Words remembered per model (words repeat across messages; a few MB at most).
_WORD_CACHE = 8192


@dataclass(frozen=True)
class Model:
    labels: tuple[str, ...]
    idf: Mapping[str, float]
    #: feature -> its weight for every label times its idf, packed (``pack``; the file
    #: keeps only the weights that matter, and is read straight into this form)
    dense: Mapping[str, Packed]
    intercept: tuple[float, ...]
    threshold: tuple[float, ...]  # on the logit, chosen out of fold
    #: danger heads count from threshold + margin (see bench/train_learned.py)
    margin: float = 0.0
    #: a rule's danger finding of a kind counts where the model's logit for that kind is
    #: at least this far from its (margin-raised) threshold
    rules_gate: float = -1e9
    #: a rule's tactic counts where the model's logit for it is at least this far from
    #: its threshold
    tactic_gate: float = -1e9
    #: once a message is found dangerous, a kind whose logit is at most this far from its
    #: threshold is named too (chosen on held-out scores; the default names none)
    kind_gate: float = 1e9
    version: str = ""
    #: a danger head this far below its cut, at most, is worth the gentle "are you
    #: safe?" line (chosen on held-out scores: bench/train_learned.py ``GENTLE_BUDGET``)
    gentle: float = 1.0
    words: dict[str, _WordPart] = field(default_factory=dict, compare=False, repr=False)

    #: each feature's idf squared (a block's length is summed from these)
    idf2: Mapping[str, float] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.idf2:
            object.__setattr__(self, "idf2", {f: w * w for f, w in self.idf.items()})

    def cut(self, index: int) -> float:
        """The logit from which label ``index`` is found."""
        label = self.labels[index]
        danger = label == "danger" or label in DANGER_HEADS
        return self.threshold[index] + (self.margin if danger else 0.0)

    def word(self, text: str) -> _WordPart:
        """The character n-gram part of one word (remembered)."""
        part = self.words.get(text)
        if part is None:
            if len(self.words) >= _WORD_CACHE:
                self.words.clear()
            known = tuple(g for g in _grams(text) if g in self.idf)
            part = self.words[text] = (sum(map(self.dense.get, known, _ZEROS)), known)
        return part

    def weights(self, feature: str) -> list[float] | None:
        """A feature's weight times its idf for every label (None: it weighs nothing)."""
        packed = self.dense.get(feature)
        return None if packed is None else unpack(packed, len(self.labels))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        labels = tuple(str(x) for x in data["labels"])
        idf = {str(k): float(v) for k, v in data["idf"].items()}
        intercept = tuple(float(x) for x in data["intercept"])
        threshold = tuple(float(x) for x in data["threshold"])
        if not (len(labels) == len(intercept) == len(threshold)):
            raise ValueError("the learned model's label tables differ in length")
        n = len(labels)
        dense: dict[str, Packed] = {}
        for feature, pairs in data["coef"].items():  # "label:weight,label:weight"
            w = idf.get(feature, 0.0)
            weights = []
            for pair in pairs.split(","):
                index, _, weight = pair.partition(":")
                i = int(index)
                if not 0 <= i < n:
                    raise ValueError("the learned model names a label it does not have")
                weights.append((i, float(weight) * w))
            dense[str(feature)] = pack(weights)
        return cls(
            labels,
            idf,
            dense,
            intercept,
            threshold,
            float(data.get("margin", 0.0)),
            float(data.get("rules_gate", -1e9)),
            float(data.get("tactic_gate", -1e9)),
            float(data.get("kind_gate", 1e9)),
            str(data.get("version", "")),
            float(data.get("gentle", 1.0)),
        )


@dataclass(frozen=True)
class Scored:
    label: str
    logit: float
    threshold: float
    #: works out ``spans`` when asked (most findings are explained by a rule's words)
    explain: Callable[[], tuple[tuple[int, int], ...]] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def found(self) -> bool:
        return self.logit >= self.threshold

    @cached_property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """The spans (start, end) of the original text that weighed most, best first
        (only for a label that is found)."""
        return self.explain() if self.explain is not None and self.found else ()


#: A token that ends a sentence (a line break between two tokens ends one too).
_ENDS = frozenset(".!?;…")


def _sentences(toks: Sequence[Token], text: str) -> list[tuple[int, int, int]]:
    """Each sentence of ``toks`` (from ``text``): its first token, the token after its last
    and how many words it has.  Marks that follow one another ("?!") end one sentence."""
    out = []
    first = words = 0
    for i, t in enumerate(toks):
        words += t.is_word
        if i + 1 == len(toks):
            ends = True
        else:
            after = toks[i + 1]
            ends = (t.text in _ENDS and after.text not in _ENDS) or "\n" in text[
                t.end : after.start
            ]
        if ends:
            out.append((first, i + 1, words))
            first, words = i + 1, 0
    return out


def _slide(toks: Sequence[Token], lo: int, hi: int) -> list[tuple[int, int]]:
    """Windows of ``WINDOW`` words, half overlapping, over ``toks[lo:hi]`` (a sentence
    longer than a window, as a voice note with no full stops can be)."""
    words = [i for i in range(lo, hi) if toks[i].is_word]
    out = []
    for first in range(0, len(words) - _STRIDE, _STRIDE):
        last = min(first + WINDOW, len(words)) - 1
        out.append((words[first], (words[last + 1] if last + 1 < len(words) else hi)))
    return out


def _windows(toks: Sequence[Token], text: str) -> list[tuple[int, int]]:
    """The windows (token ranges) a text is scored in: the whole text when it has at most
    ``WINDOW`` words, else whole sentences grouped in order, each group as many as fit in
    ``WINDOW`` words (a longer sentence is read in overlapping windows of its own).  A
    threat is seldom split between sentences, so the groups need not overlap: about half
    the windows half-overlapping ones take, for the same reading (bench/learned.md)."""
    if sum(t.is_word for t in toks) <= WINDOW:
        return [(0, len(toks))] if toks else []
    out: list[tuple[int, int]] = []
    lo, count = -1, 0  # the group being filled: its first token and its words
    for first, end, words in _sentences(toks, text):
        if lo >= 0 and (count + words > WINDOW or words > WINDOW):
            out.append((lo, first))
            lo, count = -1, 0
        if words > WINDOW:
            out.extend(_slide(toks, first, end))
            continue
        if lo < 0:
            lo = first
        count += words
    if lo >= 0:
        out.append((lo, len(toks)))
    return out


#: A word n-gram (w:) or a sender's (s:) the model knows, as one token holds it (the
#: n-grams ending at that token): the token indices of its words, the feature and its
#: packed weights (0: known for the block's length only).
_Gram = tuple[tuple[int, ...], str, Packed]


@dataclass
class _Parts:
    """Each token's share of each block, and the features (with idf) the blocks' lengths
    are made of.  Linear in the term counts, so a window is a sum over its tokens."""

    c: list[Packed]  # the word's character n-grams
    c_known: list[tuple[str, ...]]
    w: list[list[_Gram]]  # the known w: n-grams ending at this token
    s: list[list[_Gram]]  # the known s: n-grams ending at this token
    #: each token's share of the w: and of the s: runs it is in, times ``_SPLIT``
    #: (``_shares``: worked out when a finding is first explained)
    shares: list[tuple[Packed, Packed]] | None = None


#: A run of n words gives each of them 1/n of its weights: in whole numbers, _SPLIT // n
#: of a run's packed weights, then over _SPLIT.
_SPLIT = math.lcm(*range(1, max(WORD_GRAMS, SENDER_GRAMS) + 1))


def _shares(p: _Parts) -> list[tuple[Packed, Packed]]:
    """Each token's share of the w: and of the s: runs of words it is in (all of them;
    ``_explain`` takes off those that begin before its window)."""
    if p.shares is None:
        w = [0] * len(p.c)
        s = [0] * len(p.c)
        for grams, out in ((p.w, w), (p.s, s)):
            for ending in grams:
                for words, _, vec in ending:
                    if vec:
                        part = vec * (_SPLIT // len(words))
                        for j in words:
                            out[j] += part
        p.shares = list(zip(w, s, strict=True))
    return p.shares


def _parts(model: Model, toks: Sequence[Token], sender: Sender | None) -> _Parts:
    """Every token's part: its word's character n-grams, and the known runs of words (w:,
    and s: with the sender) that end at it."""
    dense_get, idf, word = model.dense.get, model.idf, model.word
    p = _Parts([0] * len(toks), [()] * len(toks), [[] for _ in toks], [[] for _ in toks])
    at: list[int] = []  # the token index of every word
    texts: list[str] = []  # and its text
    for i, t in enumerate(toks):
        if t.is_word:
            p.c[i], p.c_known[i] = word(t.text)
            at.append(i)
            texts.append(t.text)
            continue
        f = "w:" + t.text  # an emoji or a mark counts as a word of its own
        if f in idf:
            p.w[i].append(((i,), f, dense_get(f, 0)))
    blocks = [("w:", WORD_GRAMS, p.w)]
    if sender is not None:
        blocks.append((f"s:{sender}|w:", SENDER_GRAMS, p.s))
    for head, longest, out in blocks:
        runs: dict[int, str] = {}  # where a known run of n words begins: the run
        for k, text in enumerate(texts):
            f = head + text
            if f in idf:
                runs[k] = text
                out[at[k]].append(((at[k],), f, dense_get(f, 0)))
        for n in range(2, longest + 1):
            # a run is only known where both shorter runs in it are (a run's messages hold
            # them too: ``closed``), so only those are looked up
            shorter, runs = runs, {}
            for k, run in shorter.items():
                if k + 1 in shorter:
                    longer = f"{run} {texts[k + n - 1]}"
                    f = head + longer
                    if f in idf:
                        runs[k] = longer
                        words = tuple(at[k : k + n])
                        out[words[-1]].append((words, f, dense_get(f, 0)))
    return p


def closed(idf: Mapping[str, float]) -> bool:
    """Every run of words a model knows (its ``idf``) is made of runs it knows: a run's
    messages hold its shorter runs too, so a vocabulary kept by how many messages hold a
    feature is closed; ``_parts`` relies on it, and bench/train_learned.py writes no model
    that is not."""
    for feature in idf:
        head, sep, run = feature.rpartition("w:")
        words = run.split(" ")
        if sep and head in ("", *(f"s:{s}|" for s in SENDERS)) and len(words) > 1:
            shorter = (" ".join(words[:-1]), " ".join(words[1:]))
            if any(f"{head}w:{w}" not in idf for w in shorter):
                return False
    return True


def _length(counts: Mapping[str, int], idf2: Mapping[str, float]) -> float:
    """One over the block's length (its features' count times idf, squared and summed;
    ``idf2``: the idf squared)."""
    n = counts.values()
    total = sum(map(mul, map(idf2.__getitem__, counts), map(mul, n, n)))
    return 1.0 / math.sqrt(total) if total else 0.0


_FEATURE = itemgetter(1)
_WEIGHTS = itemgetter(2)
_ZEROS = repeat(0)


def _inside(grams: list[list[_Gram]], lo: int, hi: int) -> list[_Gram]:
    """The n-grams of the window ``toks[lo:hi]``: those whose words are all inside it."""
    return [g for g in chain.from_iterable(grams[lo:hi]) if g[0][0] >= lo]


def _block(
    grams: Sequence[_Gram], idf2: Mapping[str, float], extra: Sequence[_Gram] = ()
) -> tuple[float, Packed]:
    """A block's scale (one over its length) and its known features' summed weights."""
    every = list(chain(grams, extra))
    return _length(Counter(map(_FEATURE, every)), idf2), sum(map(_WEIGHTS, every))


def _window_logits(
    model: Model, p: _Parts, lo: int, hi: int, sender: Sender | None
) -> tuple[list[float], tuple[float, float, float]]:
    """The logits of the window ``toks[lo:hi]`` and its three block scales (an n-gram
    counts where all its words are in the window)."""
    idf = model.idf
    n = len(model.labels)
    sc = _length(Counter(chain.from_iterable(p.c_known[lo:hi])), model.idf2)
    head = f"s:{sender}" if sender is not None else None
    extra: tuple[_Gram, ...] = ()
    if head is not None and head in idf:
        extra = (((lo,), head, model.dense.get(head, 0)),)
    sw, w_total = _block(_inside(p.w, lo, hi), model.idf2)
    ss, s_total = _block(_inside(p.s, lo, hi), model.idf2, extra)
    c_sum = unpack(sum(p.c[lo:hi]), n)
    w_sum = unpack(w_total, n)
    s_sum = unpack(s_total, n)
    logits = [
        b + sc * c + sw * w + ss * s
        for b, c, w, s in zip(model.intercept, c_sum, w_sum, s_sum, strict=True)
    ]
    return logits, (sc, sw, ss)


def score(model: Model, text: str, sender: Sender | None) -> list[Scored]:
    """Every label's best-window logit, with the words behind it where it is found."""
    toks = tokens(text)
    if sum(1 for t in toks if t.is_word) < MIN_WORDS:
        toks = []  # an emoji or a single word carries too little for the model
    labels = len(model.labels)
    best = list(model.intercept) if not toks else [-math.inf] * labels
    where: list[tuple[int, int, tuple[float, float, float]]] = [(0, 0, (0.0, 0.0, 0.0))] * labels
    parts = _parts(model, toks, sender)
    for lo, hi in _windows(toks, text):
        logits, scales = _window_logits(model, parts, lo, hi, sender)
        for index, logit in enumerate(logits):
            if logit > best[index]:
                best[index], where[index] = logit, (lo, hi, scales)
    out = []
    for index, logit in enumerate(best):
        lo, hi, scales = where[index]
        explain = partial(_explain, index, toks, parts, lo, hi, scales) if toks else None
        out.append(Scored(model.labels[index], logit, model.cut(index), explain))
    return out


def _explain(
    index: int,
    toks: Sequence[Token],
    p: _Parts,
    lo: int,
    hi: int,
    scales: tuple[float, float, float],
) -> tuple[tuple[int, int], ...]:
    """The words (joined into phrases when next to each other) that pushed ``index`` up:
    each word's share of the logit (a run of words shares it evenly among them)."""
    sc, sw, ss = scales
    shift = _LANE * index
    shares = _shares(p)
    per_token: dict[int, float] = {}
    for i in range(lo, hi):
        w, s = shares[i]
        per_token[i] = (
            _near(p.c[i] >> shift) * sc + (_near(w >> shift) * sw + _near(s >> shift) * ss) / _SPLIT
        )
    for i in range(lo, hi) if lo else ():  # a run that begins before the window is not in it
        for grams, scale in ((p.w[i], sw), (p.s[i], ss)):
            for words, _, vec in grams:
                if vec and words[0] < lo:
                    share = _near(vec >> shift) * scale / len(words)
                    for j in words:
                        if j >= lo:
                            per_token[j] -= share
    strongest = max(per_token.values(), default=0.0)
    # the words that carried it, not every word that leaned the same way
    ranked = sorted((v, i) for i, v in per_token.items() if v > 0 and v >= 0.25 * strongest)
    top = sorted(i for _, i in ranked[-MAX_EXPLAIN * 2 :])
    chosen = set(top)
    phrases: list[list[int]] = []
    for i in top:
        if phrases and i - 1 in chosen and phrases[-1][-1] == i - 1:
            phrases[-1].append(i)
        else:
            phrases.append([i])
    strength = [sum(per_token[i] for i in ph) for ph in phrases]
    said: dict[str, tuple[int, int]] = {}  # the same words twice are quoted once
    for k in sorted(range(len(phrases)), key=lambda k: -strength[k]):
        ph = phrases[k]
        said.setdefault(" ".join(toks[i].text for i in ph), (toks[ph[0]].start, toks[ph[-1]].end))
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
    return f"learned model {model.version}: {len(model.dense)} features, {len(model.labels)} labels"


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
