"""Danger detection: violence, stalking, self-harm (theirs or the user's), weapons and the
children's safety.  Fast enough to run on every free text the user sends.

The rules (rules.py, and the modules by kind it gathers) are readable regular
expressions over the normalised text (see normalize.py), each with an id and examples
it must and must not fire on.  The guards (guards.py) drop a hit that is negated ("he
would never hurt me"), an idiom ("this deadline is killing me", "shoot me a text") or
harmless in its context; person.py tells whose self-harm a hit is about; the
escalation table (escalation.py) makes a menacing weapon violence too.  Recall comes
first: when in doubt, the safety message is shown.  detect.py runs it all, then (when the
learned model is missing) the small lexicon classifier (classifier.py) for the kinds the
rules did not find; with the learned model there, ``check_danger`` combines the rules
with it (context.py).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Literal

from flows.analysis.context import Sender, combine_danger, possible, sender_for
from flows.analysis.danger.detect import WHY, Classifier, DangerCheck
from flows.analysis.danger.detect import check as _check
from flows.analysis.danger.rule import Source
from flows.analysis.learned import Model, load_model
from flows.analysis.normalize import Normalized, normalize
from flows.analysis.result import Finding

#: The learned model to combine with the rules: the shipped one, another (bench/), or none.
Learned = Model | Literal["shipped"] | None
#: Whether the small lexicon classifier (classifier.py) still backs up the rules when the
#: learned model is there too.  No: leave one writer out on the writers the rules never
#: saw, the rules and the learned model alone found more (any danger 0.747 against 0.740,
#: each kind 0.674 against 0.669) with fewer false alarms (0.047 against 0.049), each set
#: with its own thresholds, and the check is about 2 ms faster (bench/learned.md).  The
#: lexicon classifier still backs up the rules when the learned model is missing.
LEXICON_WITH_LEARNED = False

__all__ = [
    "WHY",
    "Classifier",
    "DangerCheck",
    "Source",
    "check_danger",
    "detect_danger",
    "detect_in",
]


def detect_in(
    norm: Normalized, source: Source = "user", model: Classifier = "shipped"
) -> tuple[Finding, ...]:
    """Danger findings for already-normalised text (shared with analyze()): the rules,
    then the trained classifier (classifier.py) for the kinds the rules did not find.
    ``model=None``: the rules only."""
    return _checked(norm, source, model).found


def check_danger(
    text: str,
    source: Source = "user",
    model: Classifier = "shipped",
    *,
    sender: Sender | None = None,
    learned: Learned = "shipped",
) -> DangerCheck:
    """The safety net's check of any text: the rules' findings OR the learned model's
    (flows/analysis/context.py), and when there are none, the kinds still worth a gentle
    "are you safe?" (``DangerCheck.possible``).  ``sender``: who wrote it (by default the
    user for ``source="user"``, else the person they left); ``learned=None``: the rules
    and the lexicon classifier alone."""
    chosen = load_model() if learned == "shipped" else learned
    if chosen is not None and model == "shipped" and not LEXICON_WITH_LEARNED:
        model = None
    rules = _checked(normalize(text), source, model)
    if chosen is None:
        return rules
    who = sender if sender is not None else sender_for(source)
    found = combine_danger(rules.found, text, who, chosen, rules.cleared)
    if found:
        return DangerCheck(found)
    return DangerCheck((), rules.possible or possible(text, who, chosen))


def detect_danger(
    text: str,
    source: Source = "user",
    model: Classifier = "shipped",
    *,
    sender: Sender | None = None,
    learned: Learned = "shipped",
) -> tuple[Finding, ...]:
    """Danger in a free text.  ``source="user"``: the user's own words (first-person
    self-harm is ``self_harm_user``); ``"incoming"``: a message someone sent the user
    (first-person self-harm is the sender's, ``self_harm_them``).  Reported speech in
    the user's words ("he said he'd kill me", "she's going to kill herself") is caught
    either way.  ``model``: see ``detect_in``; ``sender``, ``learned``: see
    ``check_danger``."""
    return check_danger(text, source, model, sender=sender, learned=learned).found


#: The last few texts checked with the shipped lexicon classifier or none.  A pasted
#: message is checked by the safety net and then again by the flow that analyses it; the
#: second time is free.
#: (In memory only, like the rest of a conversation step; never written anywhere.)
_RECENT: OrderedDict[tuple[str, str, bool], DangerCheck] = OrderedDict()
_RECENT_SIZE = 32


def _checked(norm: Normalized, source: Source, model: Classifier) -> DangerCheck:
    if model is not None and model != "shipped":
        return _check(norm, source, model)
    key = (norm.original, source, model is None)
    found = _RECENT.get(key)
    if found is None:
        found = _RECENT[key] = _check(norm, source, model)
        if len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)
    return found
