"""A small trained danger classifier that backs up the rules in danger.py when the learned
model (learned.py) is missing (``danger.LEXICON_WITH_LEARNED``: beside the learned model it
added more false alarms than dangers).

One linear model per danger kind (logistic regression, trained by
``bench/train_danger.py`` on the sets it names in ``TRAIN_FILES``) over simple features
of the normalised text:

- ``w:<word>`` and ``b:<word> <word>``: lower-case word unigrams and bigrams;
- ``x:<stem>``: a word or phrase of a small hand-written danger lexicon (``LEXICON``), so
  that "kill", "killing" and "killed" share what was learnt;
- ``s:<source>`` and ``s:<source>|x:<stem>``: who wrote it (``user`` or ``incoming``), so
  "I want to die" from the user is ``self_harm_user`` and from someone else
  ``self_harm_them``.

The score of a kind is the bias plus the weights of the distinct features present; a
long text is scored window by window (``WINDOW`` words) and the best window counts, so a
long harmless text cannot add up to danger.  Every finding names the words that weighed
most, cut from the original text.  Plain Python: the model is a JSON file shipped with
the package, read once.

(Over 400 lines: the lexicon, the features and the scoring of one small model,
read together when the model is retrained; bench/train_danger.py is its other half.)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal, NamedTuple

from flows.analysis.matching import Hit, negated
from flows.analysis.normalize import Normalized
from flows.analysis.result import Finding

Source = Literal["user", "incoming"]

#: Words per scoring window; a text with more words is scored window by window.
WINDOW = 60
#: Windows overlap by half.
_STRIDE = WINDOW // 2
#: The two self-harm kinds: whose harm it is.
SELF_HARM = ("self_harm_them", "self_harm_user")
#: At most this many phrases explain a classifier finding.
MAX_EXPLAIN = 3

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

#: A small hand-written danger lexicon: concept -> stems and phrases.  A stem matches a
#: whole word give or take a common ending ("strangl": "strangle", "strangled"; "hit"
#: does not match "history").  Each match gives the features ``x:<stem>``, ``c:<concept>``
#: and ``s:<source>|c:<concept>``; each pair of concepts in the same window gives
#: ``cc:<concept>+<concept>`` ("harm" near "kids", "take" near "kids"), which carries
#: what was learnt over to words the training messages never used.
LEXICON: dict[str, tuple[str, ...]] = {
    "harm": (
        "kill",
        "murder",
        "hurt",
        "harm",
        "stab",
        "shoot",
        "shot",
        "strangl",
        "chok",
        "punch",
        "hit",
        "beat",
        "slap",
        "kick",
        "smash",
        "batter",
        "throttl",
        "suffocat",
        "smother",
        "drown",
        "blood",
        "bleed",
        "bruis",
        "injur",
        "wound",
        "rape",
        "assault",
        "attack",
        "violen",
        "threat",
        "threaten",
        "pay for",
        "regret",
        "sorry you",
        "teach you",
        "lesson",
        "destroy",
        "ruin",
        "punish",
    ),
    "body": (
        "neck",
        "throat",
        "face",
        "head",
        "arm",
        "wrist",
        "ribs",
        "nose",
        "jaw",
        "eye",
        "teeth",
        "skull",
        "legs",
        "hands",
    ),
    "weapon": (
        "knife",
        "knives",
        "gun",
        "blade",
        "weapon",
        "rifle",
        "shotgun",
        "pistol",
        "firearm",
        "machete",
        "axe",
        "bat",
        "hammer",
        "taser",
        "crossbow",
        "bullet",
        "ammo",
        "loaded",
    ),
    "watch": (
        "outside",
        "follow",
        "watch",
        "track",
        "tracker",
        "airtag",
        "location",
        "parked",
        "window",
        "saw",
        "seen",
        "spotted",
        "waiting",
        "behind",
        "address",
        "route",
        "camera",
        "spy",
        "spyware",
        "gps",
        "turn up",
        "turned up",
        "showed up",
        "show up",
        "appear",
        "everywhere",
        "lights",
        "car",
        "find you",
        "found you",
        "where you",
        "who you",
    ),
    "place": ("house", "home", "flat", "work", "office", "school", "gym", "door", "street"),
    "kids": (
        "kids",
        "children",
        "child",
        "son",
        "daughter",
        "baby",
        "boys",
        "girls",
        "little ones",
        "nursery",
        "toddler",
    ),
    "take": (
        "take",
        "taking",
        "took",
        "snatch",
        "never see",
        "custody",
        "abroad",
        "passport",
        "country",
        "away from you",
        "keep them",
        "pick up",
        "collect",
        "court",
    ),
    "selfharm": (
        "die",
        "dying",
        "dead",
        "death",
        "suicid",
        "pills",
        "tablets",
        "overdose",
        "paracetamol",
        "bridge",
        "rope",
        "razor",
        "edge",
        "jump",
        "end it",
        "ending it",
        "end it all",
        "goodbye",
        "gone",
        "not be here",
        "disappear",
        "can't go on",
        "anymore",
        "pointless",
        "no point",
        "better off",
        "burden",
        "hang",
        "cut",
        "last",
        "tired",
        "give up",
        "sleep forever",
        "not wake up",
        "exist",
    ),
    "fear": ("scared", "afraid", "terrified", "frighten", "fear", "panic", "safe", "unsafe"),
    "reflexive": ("myself", "himself", "herself", "themselves", "yourself"),
    "first": ("i", "me", "my", "i'm", "i'll", "i've", "i'd"),
    "third": ("he", "she", "they", "him", "her", "them", "his", "he's", "she's", "he'll"),
    "you": ("you", "your", "you're", "you'll", "you'd"),
    "future": ("will", "going to", "if", "unless", "or else", "next time", "before", "watch"),
}
#: The concepts that are about danger (the others only say who and when).
DANGER_CONCEPTS = frozenset(
    ("harm", "body", "weapon", "watch", "kids", "take", "selfharm", "fear", "reflexive")
)
#: Concepts whose stems are nouns: only a plural ending is the same word.
_NOUNS = frozenset(("weapon",))
_STEMS: dict[str, str] = {stem: concept for concept, stems in LEXICON.items() for stem in stems}
_LEXICON = re.compile(
    r"\b(" + "|".join(re.escape(s) for s in sorted(_STEMS, key=len, reverse=True)) + r")"
    r"(e|s|es|d|ed|ing|er|ers|al|ly|ings|ce|t)?\b"
)

#: Phrases a user reads: per kind, what the words tend to come with.
WHY: dict[str, str] = {
    "violence": "Words like “{}” often come with a risk of someone getting hurt.",
    "stalking": "Words like “{}” often come with being watched or followed.",
    "self_harm_them": "Words like “{}” often come up when someone talks about harming themselves.",
    "self_harm_user": "Words like “{}” often come up when someone is thinking of hurting"
    " themselves.",
    "weapon": "Words like “{}” often come with a weapon being mentioned.",
    "child_safety": "Words like “{}” often come with a risk to the children.",
}


class Feature(NamedTuple):
    name: str
    start: int  # normalised offsets of the words behind it (start == end: no words)
    end: int


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]


def features(
    text: str, source: Source, known: Mapping[str, object] | None = None
) -> list[list[Feature]]:
    """The features of a normalised text, grouped by the word they end at (one group per
    word, in order), plus the source features in a last group with empty spans.
    ``known``: only the features in it are kept, and every concept (pairs of concepts are
    features too): the model's, the others weigh nothing."""
    words = _words(text)
    groups: list[list[Feature]] = [[] for _ in words]
    starts = {start: i for i, (_, start, _) in enumerate(words)}
    for i, (word, start, end) in enumerate(words):
        name = "w:" + word
        if known is None or name in known:
            groups[i].append(Feature(name, start, end))
        if i:
            prev, pstart, pend = words[i - 1]
            if text[pend:start].isspace():  # not across punctuation
                name = f"b:{prev} {word}"
                if known is None or name in known:
                    groups[i].append(Feature(name, pstart, end))
    for match in _LEXICON.finditer(text):
        first = starts.get(match.start())
        if first is None:
            continue
        stem = match.group(1)
        concept = _STEMS[stem]
        if concept in _NOUNS and (match.group(2) or "") not in ("", "s", "es"):
            continue  # "hammered", "batting": not the weapon
        last = first + stem.count(" ")
        if last >= len(words) or words[last][2] != match.end():
            continue
        for name in ("x:" + stem, "c:" + concept, f"s:{source}|c:{concept}"):
            if known is None or name[0] == "c" or name in known:  # concepts make pairs
                groups[last].append(Feature(name, match.start(), match.end()))
    groups.append([Feature("s:" + source, 0, 0)])
    return groups


def windows(groups: Sequence[Sequence[Feature]]) -> list[dict[str, Feature]]:
    """The distinct features of each scoring window (first occurrence kept).  The source
    features (the last group) belong to every window."""
    *per_word, always = groups
    if len(per_word) <= WINDOW:
        spans = [(0, len(per_word))]
    else:
        spans = [(s, s + WINDOW) for s in range(0, len(per_word) - _STRIDE, _STRIDE)]
    out: list[dict[str, Feature]] = []
    for begin, end in spans:
        found: dict[str, Feature] = {}
        for group in per_word[begin:end]:
            for feature in group:
                found.setdefault(feature.name, feature)
        for feature in always:
            found.setdefault(feature.name, feature)
        _add_pairs(found)
        out.append(found)
    return out


def _add_pairs(found: dict[str, Feature]) -> None:
    concepts = sorted(name[2:] for name in found if name.startswith("c:"))
    for i, first in enumerate(concepts):
        for second in concepts[i + 1 :]:
            found[f"cc:{first}+{second}"] = Feature(f"cc:{first}+{second}", 0, 0)


def message_features(text: str, source: Source) -> set[str]:
    """The distinct feature names of a whole (normalised) message: what training sees."""
    found = {f.name: f for group in features(text, source) for f in group}
    _add_pairs(found)
    return set(found)


@dataclass(frozen=True)
class Model:
    kinds: tuple[str, ...]
    bias: tuple[float, ...]
    weights: Mapping[str, tuple[float, ...]]  # feature -> one weight per kind
    #: a kind is found when its score is at least this
    thresholds: tuple[float, ...]
    #: ...or at least this when the rules cleared the words as an idiom or a negation
    confident: tuple[float, ...]
    #: a score this high, below the threshold, is worth a gentle "are you safe?" (see
    #: ``worrying``); never above the threshold
    gentle: tuple[float, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        kinds = tuple(data["kinds"])
        return cls(
            kinds=kinds,
            bias=tuple(float(b) for b in data["bias"]),
            weights={k: tuple(float(x) for x in v) for k, v in data["weights"].items()},
            thresholds=tuple(float(t) for t in data["thresholds"]),
            confident=tuple(float(t) for t in data["confident"]),
            gentle=tuple(float(t) for t in data["gentle"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "bias": list(self.bias),
            "weights": {k: list(v) for k, v in sorted(self.weights.items())},
            "thresholds": list(self.thresholds),
            "confident": list(self.confident),
            "gentle": list(self.gentle),
        }


@dataclass(frozen=True)
class Scored:
    """The best window of one kind: its score and the features that pushed it up."""

    kind: str
    score: float
    reasons: tuple[Feature, ...]  # positive contributions, strongest first

    @property
    def grounded(self) -> bool:
        """Some word of the danger lexicon pushed it up: without one, a finding would be
        explained by everyday words alone ("he's", "mum's"), and is not made."""
        return any(f.name[2:] in DANGER_CONCEPTS for f in self.reasons if f.name[:2] == "c:")

    @property
    def effective(self) -> float:
        """The score a threshold is compared with (-inf unless grounded)."""
        return self.score if self.grounded else -math.inf


def score(model: Model, text: str, source: Source) -> list[Scored]:
    """Per kind, the best window's score and its positive features (normalised text)."""
    n = len(model.kinds)
    best: list[tuple[float, list[tuple[Feature, tuple[float, ...]]]] | None] = [None] * n
    for window in windows(features(text, source, model.weights)):
        present = [(f, w) for name, f in window.items() if (w := model.weights.get(name))]
        if present:
            columns = zip(*(w for _, w in present), strict=True)
            totals = [b + sum(col) for b, col in zip(model.bias, columns, strict=True)]
        else:
            totals = list(model.bias)
        for k in range(n):
            current = best[k]
            if current is None or totals[k] > current[0]:
                best[k] = (totals[k], present)
    out = []
    for k, found in enumerate(best):
        if found is None:
            continue
        total, present = found
        reasons = sorted(
            ((w[k], f) for f, w in present if w[k] > 0 and f.end > f.start),
            key=lambda item: (-item[0], item[1].start),
        )
        out.append(Scored(model.kinds[k], total, tuple(f for _, f in reasons)))
    return out


def _overlaps(feature: Feature, spans: Sequence[Hit]) -> bool:
    return any(s.start < feature.end and feature.start < s.end for s in spans)


def explain(norm: Normalized, reasons: Sequence[Feature]) -> tuple[str, ...]:
    """The original phrases behind the strongest features (overlaps merged, at most
    MAX_EXPLAIN, strongest first)."""
    spans: list[tuple[int, int]] = []
    for feature in reasons:
        merged = False
        for i, (start, end) in enumerate(spans):
            if feature.start < end and start < feature.end:
                spans[i] = (min(start, feature.start), max(end, feature.end))
                merged = True
                break
        if not merged:
            if len(spans) >= MAX_EXPLAIN:
                break
            spans.append((feature.start, feature.end))
    out: list[str] = []
    for start, end in spans:
        phrase = norm.phrase(start, end)
        if phrase and phrase not in out:
            out.append(phrase)
    return tuple(out)


def classify(
    model: Model,
    norm: Normalized,
    source: Source,
    cleared: Sequence[Hit] = (),
    rules_found: bool = False,
    scores: Sequence[Scored] | None = None,
) -> list[Finding]:
    """The danger kinds the model finds.  ``cleared``: normalised spans the rules looked at
    and let go (an idiom, a negation, a cooking knife).  When there is one, when the
    strongest words are negated ("he would never hurt me"), or when the rules already
    found some danger (``rules_found``: the model then only adds a kind it is sure of),
    the model must be very confident (``Model.confident``).  ``scores``: the text's
    ``score`` when the caller already has it."""
    passed: list[tuple[float, Scored]] = []
    if scores is None:
        scores = score(model, norm.text, source)
    for k, scored in enumerate(scores):
        if scored.effective < model.thresholds[k]:
            continue
        if scored.kind == "self_harm_user" and source == "incoming":
            continue  # a message someone sent: the self-harm is theirs
        top = scored.reasons[:MAX_EXPLAIN]
        guarded = (
            rules_found or bool(cleared) or any(negated(norm.text, f.start, f.end) for f in top)
        )
        if guarded and scored.score < model.confident[k]:
            continue
        passed.append((scored.score - model.thresholds[k], scored))
    self_harm = [(m, s) for m, s in passed if s.kind in SELF_HARM]
    if len(self_harm) > 1:  # theirs or the user's, not both: the clearer one
        weaker = min(self_harm, key=lambda item: item[0])[1]
        passed = [(m, s) for m, s in passed if s is not weaker]
    out: list[Finding] = []
    for _, scored in passed:
        phrases = explain(norm, scored.reasons)
        if phrases:
            out.append(Finding(scored.kind, phrases, WHY[scored.kind].format(phrases[0])))
    return out


def worrying(
    model: Model,
    norm: Normalized,
    source: Source,
    cleared: Sequence[Hit] = (),
    scores: Sequence[Scored] | None = None,
) -> tuple[str, ...]:
    """The kinds whose score reaches the gentle threshold: not enough to say "this is
    danger", enough to ask whether the user is safe.  Nothing when the strongest words are
    negated or were cleared by the rules (an idiom, a cooking knife)."""
    out: list[str] = []
    if scores is None:
        scores = score(model, norm.text, source)
    for k, scored in enumerate(scores):
        if scored.effective < model.gentle[k]:
            continue
        if scored.kind == "self_harm_user" and source == "incoming":
            continue
        top = scored.reasons[:MAX_EXPLAIN]
        if any(negated(norm.text, f.start, f.end) or _overlaps(f, cleared) for f in top):
            continue
        out.append(scored.kind)
    return tuple(out)


@cache
def load_model() -> Model:
    """The shipped model (flows/analysis/data/danger_model.json), read once."""
    resource = resources.files("flows.analysis").joinpath("data/danger_model.json")
    return Model.from_json(json.loads(resource.read_text(encoding="utf-8"))["model"])
