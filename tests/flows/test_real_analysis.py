"""A few conversations with the real analysis (skipped until flows.analysis exports it)."""

from __future__ import annotations

import pytest

from flows.conversations.monkey import Mk
from flows.conversations.safety_path import Fear
from flows.conversations.urge import Ur

from .conftest import Convo, text_of, values

pytestmark = pytest.mark.real_analysis


def test_hoover_names_an_apology_and_a_promise(known: Convo) -> None:
    known.command("hoover")
    out = known.say("I'm so sorry. I've changed, I promise it will never happen again.")
    assert "Here's what I notice" in text_of(out)
    assert "You do not have to decide whether it is sincere." in text_of(out)
    assert Fear.NO in values(out)  # the step after the paste: the question


def test_real_threat_gets_the_safety_message_first(known: Convo) -> None:
    out = known.forward("If you don't come back I will kill you.")
    assert out.replies[0].kind == "safety"


def test_grey_rock_answers_only_the_question(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("practical"))
    known.tap(Ur.NEEDED)
    out = known.say(
        "You have always been selfish. Everyone knows what kind of person you are. "
        "Are you picking her up at 5?"
    )
    assert Ur.CHECK_DRAFT in values(out)
    known.tap(Ur.CHECK_DRAFT)
    out = known.say("Yes. And I'm not selfish, you are the one who ruined everything.")
    assert Ur.HELD in values(out)


def test_relay_is_named(known: Convo) -> None:
    known.command("monkey")
    known.say("Aunt C.")
    out = known.say("Your mother asked me to tell you she misses you. Please call her.")
    assert Fear.NO in values(out)
    out = known.tap(Fear.NO)
    assert Mk.BOUNDARY in values(out)


@pytest.mark.parametrize("start", ["hoover", "monkey", "urge"])
def test_walk_with_the_real_analysis(start: str) -> None:
    import copy

    from flows.types import Input

    from .test_walk import rich_store

    samples = [
        "I'm sorry. I've changed. Everyone knows you abandoned me. Answer tonight or else.",
        "Your mother asked me to tell you she is heartbroken. Where are you living now?",
        "You have always been selfish. Are you picking her up at 5?",
        "If you leave I will kill myself.",
    ]
    first = Convo(rich_store())
    first.command(start)
    queue = [first]
    steps = 0
    while queue and steps < 250:
        convo = queue.pop(0)
        options = [("choice", v) for v in dict.fromkeys(values(convo.last))]
        options += [("text", t) for t in samples]
        for kind, value in options:
            steps += 1
            branch = copy.deepcopy(convo)
            out = branch.send(Input(kind, branch.now, text=value))  # type: ignore[arg-type]
            if not out.ignored and out.state is not None and len(queue) < 40:
                queue.append(branch)


def test_a_warm_draft_is_not_called_short_and_practical(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.NEEDED)
    known.tap(Ur.FIRST)
    out = known.say(
        "Happy birthday. I hope you're well. I've been thinking about you a lot and I miss us."
    )
    assert "short and practical" not in text_of(out)
    assert "hold this one back" in text_of(out)
