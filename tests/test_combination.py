"""How the rules and the learned model are combined (flows/analysis/context.py): a kind
named beside a finding, the likeliest kind when the model finds danger of no kind, and the
negation check the bench measures beside the shipped setting."""

from __future__ import annotations

import dataclasses

import pytest

from flows.analysis import check_danger, context
from flows.analysis.learned import Model, Sender, load_model
from flows.types import DANGER_KINDS

THREAT = "I'm going to kill you when I find you"
HARMLESS = "see you at football practice on Saturday, bring the big water bottle"


def _model() -> Model:
    model = load_model()
    assert model is not None
    return model


def _kinds(text: str, sender: Sender, model: Model | None) -> set[str]:
    source = "user" if sender == "me" else "incoming"
    return {f.id for f in check_danger(text, source, sender=sender, learned=model).found}


def test_once_a_message_is_dangerous_every_kind_within_the_kind_gate_is_named() -> None:
    shipped = _model()
    wide = dataclasses.replace(shipped, kind_gate=-1e6)
    assert _kinds(THREAT, "them", shipped) < _kinds(THREAT, "them", wide)
    # every kind of this sender's: never the user's own self-harm for a message from them
    assert _kinds(THREAT, "them", wide) == set(DANGER_KINDS) - {"self_harm_user"}
    # each named kind quotes words of the message
    for f in check_danger(THREAT, "incoming", sender="them", learned=wide).found:
        assert f.phrases and all(p in THREAT for p in f.phrases)


def test_the_kind_gate_never_flags_a_message_nothing_else_found() -> None:
    wide = dataclasses.replace(_model(), kind_gate=-1e6)
    assert _kinds(HARMLESS, "them", _model()) == set()
    assert _kinds(HARMLESS, "them", wide) == set()


@pytest.mark.parametrize(
    ("sender", "never"), [("me", "self_harm_them"), ("them", "self_harm_user")]
)
def test_danger_of_no_kind_is_named_as_the_likeliest_kind_of_that_sender(
    sender: Sender, never: str
) -> None:
    shipped = _model()
    cuts = [
        1e9 if label in DANGER_KINDS else t
        for label, t in zip(shipped.labels, shipped.threshold, strict=True)
    ]
    cuts[shipped.labels.index("danger")] = -1e9
    some = dataclasses.replace(shipped, threshold=tuple(cuts))
    found = _kinds(HARMLESS, sender, some)
    assert len(found) == 1
    assert never not in found


def test_with_the_negation_check_a_denial_is_dropped_and_a_condition_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    denial = "he said he'd never hurt me"
    at = denial.index("never")
    assert context._denied(denial, [(at, at + len("never hurt"))], ())
    condition = "I'll swallow every pill in the cabinet if you don't call"
    at = condition.index("don't")
    assert not context._denied(condition, [(at, at + len("don't call"))], ())
    monkeypatch.setattr(context, "NEGATION_CHECK", True)
    assert _kinds(condition, "them", _model()) == {"self_harm_them"}
