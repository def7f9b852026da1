"""``analyze(text)``: the tactics, danger, practical questions and grey-rock reply of a
message someone sent the user."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from flows.analysis.context import Sender, combine_tactics, source_for
from flows.analysis.danger import Classifier, check_danger
from flows.analysis.greyrock import practical_questions, reply
from flows.analysis.learned import Model, load_model
from flows.analysis.matching import Hit, compile_split, find_table, phrases
from flows.analysis.normalize import normalize
from flows.analysis.patterns import TACTICS
from flows.analysis.result import Analysis, Finding
from flows.analysis.rule_starts import table
from flows.types import TACTICS as TACTIC_IDS

_COMPILED: dict[str, tuple[re.Pattern[str], ...]] = {
    tactic: tuple(p for pattern in rule.patterns for p in compile_split(pattern))
    for tactic, rule in TACTICS.items()
}
#: The tactic rules as one table (``find_table`` runs them all at once).
_TABLE = table(list(_COMPILED.values()))
#: Findings are reported in the fixed vocabulary order.
_ORDER: tuple[str, ...] = TACTIC_IDS
_WHY_SELF_HARM = (
    "This mentions them harming themselves. That is serious, and it is not yours to fix"
    " alone: emergency services can help them."
)
_WHY_LOGISTICS = "This asks something practical. You can answer only that, briefly."
_WHY_THREAT_DANGER = "This sounds threatening. Threats are worth saving as evidence."
_DANGER_AS_THREAT = ("violence", "stalking", "weapon", "child_safety")


def analyze(
    text: str,
    sender: Sender = "them",
    learned: Model | Literal["shipped"] | None = "shipped",
    *,
    classifier: Classifier = "shipped",
) -> Analysis:
    """Analyse a message someone sent the user (a hoover, a relay, a co-parenting text).
    ``sender``: who it is from (see flows/analysis/context.py).  ``learned``: the learned
    model to combine with the rules (``None``: the rules alone; bench/ passes the model of
    each leave-one-writer-out fold).  ``classifier``: the lexicon classifier for the danger
    check (see ``check_danger``)."""
    norm = normalize(text)
    model = load_model() if learned == "shipped" else learned
    source = source_for(sender)
    danger = check_danger(text, source, classifier, sender=sender, learned=model).found
    hits: dict[str, list[Hit]] = {}
    for tactic, found in zip(_COMPILED, find_table(_TABLE, norm.text), strict=True):
        if found:
            hits[tactic] = found
    why: dict[str, str] = {tactic: rule.why for tactic, rule in TACTICS.items()}
    extra: dict[str, tuple[str, ...]] = {}
    for finding in danger:
        if finding.id == "self_harm_them":
            extra["self_harm"] = finding.phrases
            why["self_harm"] = _WHY_SELF_HARM
        elif finding.id in _DANGER_AS_THREAT:
            extra["threat"] = extra.get("threat", ()) + finding.phrases
            if "threat" not in hits:
                why["threat"] = _WHY_THREAT_DANGER
    blocking = [h for tactic_hits in hits.values() for h in tactic_hits]
    questions = practical_questions(norm, blocking)
    if questions:
        hits["logistics"] = [Hit(s, e) for s, e in questions]
        why["logistics"] = _WHY_LOGISTICS
    rule_tactics: list[Finding] = []
    for tactic in _ORDER:
        said = phrases(norm, hits.get(tactic, ()))
        more = tuple(p for p in extra.get(tactic, ()) if p not in said)
        if said or more:
            rule_tactics.append(Finding(tactic, (said + more)[:5], why[tactic]))
    tactics = list(combine_tactics(rule_tactics, text, sender, model, _ORDER))
    named = {f.id for f in tactics}
    for f in rule_tactics:  # what the danger findings say is always named
        if f.id in extra and f.id not in named:
            tactics.append(f)
    if "logistics" in hits and "logistics" not in named:
        tactics.extend(f for f in rule_tactics if f.id == "logistics")
    tactics.sort(key=lambda f: _ORDER.index(f.id))
    # a finding of the learned model gets the rule's plain words for its tactic
    tactics = [f if f.why else replace(f, why=why.get(f.id, _WHY_LOGISTICS)) for f in tactics]
    logistics = tuple(norm.exact(s, e) for s, e in questions)
    return Analysis(
        tactics=tuple(tactics),
        danger=danger,
        logistics=logistics,
        grey_rock=reply(norm, questions),
    )
