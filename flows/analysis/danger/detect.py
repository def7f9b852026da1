"""Running the danger rules: every rule over the normalised text, the guards on each
hit, the escalation table, then the trained classifier (classifier.py) for the kinds
the rules did not find."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from flows.analysis.classifier import (
    SELF_HARM,
    Model,
    Scored,
    classify,
    load_model,
    score,
    worrying,
)
from flows.analysis.danger.escalation import escalate
from flows.analysis.danger.guards import IDIOM, kept
from flows.analysis.danger.person import kind_of
from flows.analysis.danger.rule import Kind, Rule, Source
from flows.analysis.danger.rules import COMPILED
from flows.analysis.matching import Hit, find_table, phrases
from flows.analysis.normalize import Normalized
from flows.analysis.result import Finding
from flows.analysis.rule_starts import Table, table

#: What a finding of each kind says, in the fixed order of ``flows.types.DANGER_KINDS``.
WHY: dict[Kind, str] = {
    "violence": "This mentions hurting someone, or a threat of violence.",
    "stalking": "This sounds like being watched, followed or turned up on.",
    "self_harm_them": "This sounds like they are talking about harming themselves.",
    "self_harm_user": "It sounds like you might be thinking about hurting yourself.",
    "weapon": "This mentions a weapon.",
    "child_safety": "This sounds like a risk to the children, or a threat to take them.",
}

#: Which trained model backs up the rules: the shipped one, a given one, or none.
Classifier = Model | Literal["shipped"] | None


@dataclass(frozen=True)
class DangerCheck:
    found: tuple[Finding, ...]
    #: when nothing was found: the danger kinds the classifier leans towards, worth a
    #: gentle "are you safe?" (``Model.gentle``)
    possible: tuple[str, ...] = ()
    #: the words of the text the rules looked at and let go (a negation, an idiom, a
    #: harmless context): the learned model may not find danger in them alone
    cleared: tuple[str, ...] = ()


#: The rules that read texts from each source (a rule may be for one source only), in
#: their order, and their table (``find_table`` runs them all at once), the idioms first.
_RULES: dict[Source, tuple[tuple[Rule, tuple[re.Pattern[str], ...]], ...]] = {
    source: tuple(r for r in COMPILED if r[0].source in (None, source))
    for source in get_args(Source)
}
_TABLES: dict[Source, Table] = {
    source: table([IDIOM, *(patterns for _, patterns in rules)]) for source, rules in _RULES.items()
}


def rule_hits(text: str, source: Source) -> tuple[dict[Kind, list[Hit]], list[Hit]]:
    """What the rules find in the normalised ``text``, by kind, before the escalation
    table; and what they looked at and let go (idioms, and hits the guards dropped)."""
    idiom_spans, *each = find_table(_TABLES[source], text)
    cleared: list[Hit] = list(idiom_spans)
    found: dict[Kind, list[Hit]] = {}
    for (rule, _), hits in zip(_RULES[source], each, strict=True):
        for hit in hits:
            if kept(rule, text, hit, idiom_spans, source):
                found.setdefault(kind_of(rule, text, hit, source), []).append(hit)
            else:
                cleared.append(hit)
    return found, cleared


def check(norm: Normalized, source: Source, model: Classifier) -> DangerCheck:
    """The danger check of a normalised text (uncached; see ``check_danger``)."""
    found, cleared = rule_hits(norm.text, source)
    escalate(norm.text, found, source)

    learnt: dict[str, Finding] = {}
    scores: list[Scored] = []
    if model is not None:
        chosen = load_model() if model == "shipped" else model
        scores = score(chosen, norm.text, source)  # once, for the finding and the gentle tier
        learnt = {f.id: f for f in classify(chosen, norm, source, cleared, bool(found), scores)}
        if any(kind in found for kind in SELF_HARM):  # the rules already know whose
            learnt = {k: f for k, f in learnt.items() if k not in SELF_HARM}
    findings: list[Finding] = []
    for kind, why in WHY.items():
        if kind in found:
            hits = sorted(found[kind], key=lambda h: h.start)
            findings.append(Finding(kind, phrases(norm, hits), why))
        elif kind in learnt:
            findings.append(learnt[kind])
    let_go = phrases(norm, cleared) if cleared else ()
    if findings or model is None:
        return DangerCheck(tuple(findings), cleared=let_go)
    return DangerCheck((), worrying(chosen, norm, source, cleared, scores), let_go)
