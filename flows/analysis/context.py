"""Who a message is from, and how the rules and the learned model are combined.

The same words mean different things from different people: "I'm outside, come down!" is a
friend's hello, and from the person the user left it is turning up; knowing the user's new
address, routine, workplace, car, visitors or the children's school is stalking when it
comes from them.  So the analysis takes the sender:

- ``them``: the person the user left;
- ``relay``: someone passing messages or pressure on their behalf;
- ``other``: anyone else (a friend, a colleague, the school);
- ``me``: the user themself.

The learned model (learned.py) sees the sender as features; the rules see it through the
source (``user`` for ``me``, ``incoming`` otherwise) and here: a rule's stalking finding is
not kept for a message from ``other`` unless the model, which saw friends' messages in
training, finds stalking too.

Combining (chosen by leave-one-writer-out figures on the writers the rules were never
tuned on, bench/train_learned.py and bench/learned.md): a danger kind counts when the
learned model finds it, or when a rule finds it and the model's logit for that kind is
not far below its threshold (``Model.rules_gate``); when the model finds danger but no
kind past its cut, and nothing else is found, the likeliest kind of that sender's counts;
once a message is found dangerous, so does every other kind within ``Model.kind_gate`` of
its cut (naming a further kind flags no ordinary message).  A tactic counts when the model
finds it, or when a rule finds it and the model's logit is not far below its threshold
(``Model.tactic_gate``).  On writers they were not tuned on, the rules alone flag about
one ordinary message in twenty and add more wrong tactics than right ones.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Literal

from flows.analysis import learned
from flows.analysis.learned import Model, Scored
from flows.analysis.matching import negated
from flows.analysis.normalize import without_headers
from flows.analysis.result import Finding
from flows.types import DANGER_KINDS

Sender = learned.Sender
SENDERS = learned.SENDERS
Source = Literal["user", "incoming"]


def sender_for(source: Source) -> Sender:
    """The sender when only the source is known: the user's own words, or (to be safe)
    the person they left."""
    return "me" if source == "user" else "them"


def source_for(sender: Sender) -> Source:
    return "user" if sender == "me" else "incoming"


#: Why a learned danger finding matters, in a line (the rules have their own).
DANGER_WHY: dict[str, str] = {
    "violence": "This reads like a threat or an act of violence, even if it is not said outright.",
    "stalking": (
        "This suggests they know where you are or what you do, or keep turning up. "
        "That is stalking, and it is serious."
    ),
    "self_harm_them": "This hints that they might harm themselves.",
    "self_harm_user": "This sounds like you might be thinking of not being here.",
    "weapon": "This brings a weapon into it.",
    "child_safety": "This may put the children at risk.",
}
TACTIC_WHY = "Messages worded like this often carry this pattern."
#: The rules' self-harm findings always stand, whatever the model says: a crisis line
#: comes first there, and on writers they were not tuned on those rules are precise
#: (bench/learned.md: 87 of 98 hits right for the user's own words, 66 of 82 for theirs).
UNGATED = frozenset({"self_harm_user", "self_harm_them"})
_RECENT: OrderedDict[tuple[int, str, str], tuple[Model, dict[str, Scored]]] = OrderedDict()
_RECENT_SIZE = 32


def scores(model: Model, text: str, sender: Sender) -> dict[str, Scored]:
    """The model's scores of ``text`` from ``sender`` (the last few are kept: the safety
    net and the flow look at the same pasted message; kept with the model itself, since
    another model may later be given the id of one that is gone)."""
    key = (id(model), text, sender)
    kept = _RECENT.get(key)
    if kept is not None and kept[0] is model:
        return kept[1]
    found = {s.label: s for s in learned.score(model, without_headers(text), sender)}
    _RECENT[key] = (model, found)
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return found


def _quote(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(text[a:b] for a, b in spans if text[a:b].strip()))


def _margin(s: Scored) -> float:
    return s.logit - s.threshold


#: Whose self-harm it is, the model's guess aside: the user's own words are about the user
#: (reported speech is the rules' to find), anyone else's about themself.
_NOT_FROM = {True: "self_harm_them", False: "self_harm_user"}


def _only_cleared(quoted: Sequence[str], cleared: Sequence[str]) -> bool:
    """Every word the model quotes is inside what the rules let go ("he'd never hurt me",
    "stick to your guns")."""
    let_go = [c.lower() for c in cleared]
    return bool(quoted) and all(any(q.lower() in c for c in let_go) for q in quoted)


_SENTENCE_END = re.compile(r"[.!?;,\n]+")


def _sentence(text: str, phrase: str) -> str | None:
    """The sentence of ``text`` holding ``phrase`` (None if it is not found as such)."""
    at = text.find(phrase)
    if at < 0:
        return None
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    end = _SENTENCE_END.search(text, at + len(phrase))
    return text[start : end.end() if end else len(text)]


def _model_disagrees(
    model: Model, finding: Finding, text: str, sender: Sender, scored: dict[str, Scored]
) -> bool:
    """The model's logit for the rule's kind is more than ``rules_gate`` below its
    threshold, on the whole text and on the sentence of each phrase the rule quotes: a
    threat in a long apology ("... I will be outside your work at 5") is read where it is
    said, not drowned by the rest."""
    mine = scored.get(finding.id)
    if mine is None or _margin(mine) >= model.rules_gate:
        return False
    index = model.labels.index(finding.id)
    for phrase in finding.phrases:
        sentence = _sentence(text, phrase)
        if sentence is None or sentence == text:
            continue
        s = learned.score(model, sentence, sender)[index]
        if _margin(s) >= model.rules_gate:
            return False
    return True


def combine_danger(
    rules: Sequence[Finding],
    text: str,
    sender: Sender,
    model: Model | None,
    cleared: Sequence[str] = (),
) -> tuple[Finding, ...]:
    """The danger findings the user is told about: what the rules find (unless the model
    is sure it is not that), what the model finds, and, once the message is found
    dangerous, the other kinds the model leans to within ``Model.kind_gate``.  A learned
    finding resting only on words the rules cleared ("stick to your guns") is not one."""
    if model is None:
        return tuple(rules)
    scored = scores(model, text, sender)
    wrong_self = _NOT_FROM[sender == "me"]
    kinds = [
        s for label, s in scored.items() if label in learned.DANGER_HEADS and label != wrong_self
    ]
    out: dict[str, Finding] = {}
    for f in rules:
        if f.id not in UNGATED and _model_disagrees(model, f, text, sender, scored):
            continue  # the model, trained on thousands of messages, is sure it is not this
        if f.id == "stalking" and sender == "other" and not scored["stalking"].found:
            continue
        out.setdefault(f.id, f)
    found = [s for s in kinds if s.found]
    if not found and not out and "danger" in scored and scored["danger"].found and kinds:
        found = [max(kinds, key=_margin)]  # danger, of no kind past its cut: the likeliest
    for s in found:
        if s.label not in out:
            _add(out, s, s.spans or scored["danger"].spans, text, cleared)
    if out:
        for s in kinds:
            if s.label not in out and _margin(s) >= model.kind_gate:
                _add(out, s, _spans_near(s, scored), text, cleared)
    order = {k: i for i, k in enumerate(DANGER_KINDS)}
    return tuple(sorted(out.values(), key=lambda f: order.get(f.id, 99)))


def _add(
    out: dict[str, Finding],
    s: Scored,
    spans: Sequence[tuple[int, int]],
    text: str,
    cleared: Sequence[str],
) -> None:
    if NEGATION_CHECK and _denied(text, spans, cleared):
        return
    quoted = _quote(text, spans)
    if not _only_cleared(quoted, cleared):
        out[s.label] = Finding(s.label, quoted, DANGER_WHY[s.label])


#: Whether a learned finding is dropped when its strongest words are negated ("he'd never
#: hurt me") or are negated words the rules cleared.  Off: leave one writer out, on 56
#: writers, the check took any-danger recall from 0.830 to 0.800 to save false positives
#: from 0.045 to 0.043, and the thresholds are chosen without it
#: (bench/train_learned.py ``danger_verdicts``);
#: bench/analysis.py measures the other setting beside the shipped one.
NEGATION_CHECK = False
_NEGATION = re.compile(r"\b(?:not|never|no|don't|dont|won't|wont|wouldn't|isn't|ain't)\b")
#: A condition opening just before a negation: "if you don't call", "unless u answer".
_CONDITION = re.compile(r"\b(?:if|unless|or else|or)(?:\s+[\w']+){0,2}\s*$")


def _negation(low: str, start: int, end: int) -> bool:
    """A quoted span that is negated, or is itself a negation; a negation that is a
    condition ("I'll swallow every pill if you don't call") is the threat's condition,
    not a denial of it."""
    if _CONDITION.search(low, max(0, start - 30), start):
        return False
    return negated(low, start, end) or bool(_NEGATION.search(low, start, end))


def _denied(text: str, spans: Sequence[tuple[int, int]], cleared: Sequence[str]) -> bool:
    """The strongest words are negated, or some are negated words the rules cleared."""
    low = text.lower()
    if len(low) != len(text) or not spans:
        return False
    if _negation(low, *spans[0]):
        return True
    return any(_negation(low, a, b) and _only_cleared((text[a:b],), cleared) for a, b in spans)


def _spans_near(s: Scored, scored: dict[str, Scored]) -> tuple[tuple[int, int], ...]:
    """The words behind a kind named beside a finding (its logit is under its threshold,
    so its own spans are not worked out): explained as if it were found."""
    if s.explain is not None:
        return s.explain()
    return scored["danger"].spans


def possible(text: str, sender: Sender, model: Model | None) -> tuple[str, ...]:
    """Kinds the model leans towards without reaching its raised threshold: worth the
    gentle "are you safe?" line."""
    if model is None:
        return ()
    scored = scores(model, text, sender)
    leaning = [
        s
        for label, s in scored.items()
        if label in learned.DANGER_HEADS and s.logit >= s.threshold - model.gentle
    ]
    return tuple(s.label for s in sorted(leaning, key=lambda s: -_margin(s)))


def combine_tactics(
    rules: Sequence[Finding], text: str, sender: Sender, model: Model | None, order: Sequence[str]
) -> tuple[Finding, ...]:
    """The tactics named to the user, in the vocabulary's order."""
    if model is None:
        return tuple(rules)
    scored = scores(model, text, sender)
    by_rule = {f.id: f for f in rules}
    out = []
    for tactic in order:
        s = scored.get(tactic)
        rule = by_rule.get(tactic)
        if s is None:
            if rule is not None:
                out.append(rule)
        elif rule is not None and _margin(s) >= model.tactic_gate:
            out.append(rule)  # the rule's words and why, where the model does not disagree
        elif s.found:
            out.append(Finding(tactic, _quote(text, s.spans), ""))
    return tuple(out)
