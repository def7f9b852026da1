"""The risk check and the safety path: asked in /safety and after a frightening message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from flows.commands import Menu
from flows.conversations.hoover import Hv
from flows.conversations.monkey import Mk
from flows.conversations.riskcheck import ITEMS, Rc
from flows.conversations.safety_path import Fear, Path, path_replies
from flows.types import HelpLine, Region, ResourceBook, UpdateSettings

from .conftest import NOW, Convo, text_of, values

RISK = Menu.COMMAND("riskcheck")


def _answer_all(convo: Convo, answers: dict[str, str], default: str = "n") -> str:
    convo.tap(Rc.BEGIN)
    out = convo.last
    for item in ITEMS:
        out = convo.tap(Rc.ANSWER(answers.get(item.id, default)))
    return text_of(out)


def test_safety_offers_the_risk_check(known: Convo) -> None:
    out = known.command("safety")
    assert "cmd:riskcheck" in values(out)
    out = known.tap(RISK)
    assert f"{len(ITEMS)} yes-or-no questions" in text_of(out)
    assert "can't tell you that you're safe" in text_of(out)


def test_a_grave_sign_puts_help_lines_first_and_says_what_it_means(known: Convo) -> None:
    known.store.settings["region"] = "us"
    known.command("riskcheck")
    said = _answer_all(known, {"strangle": "y"})
    assert said.startswith("If you are in danger right now, call 911.")  # resources first
    assert "National Domestic Violence Hotline" in said.split("choking")[0]
    assert "most strongly linked with serious" in said
    assert "choking or strangling" in said
    assert "advocate" in said
    assert "you are safe" not in said.lower() and "you're safe" not in said.lower()
    stored = known.store.settings["risk_check"]
    assert stored["answers"]["strangle"] == "y" and stored["answers"]["gun"] == "n"


def test_four_other_signs_together_also_call_for_help(known: Convo) -> None:
    known.command("riskcheck")
    said = _answer_all(known, {k: "y" for k in ("worse", "separated", "stalking", "control")})
    assert "most strongly linked with serious" in said


def test_no_yes_never_says_safe(known: Convo) -> None:
    known.command("riskcheck")
    said = _answer_all(known, {}, default="n")
    assert "can't measure how safe you are" in said
    assert "you are safe" not in said.lower()


def test_retaking_shows_what_changed(known: Convo) -> None:
    known.command("riskcheck")
    _answer_all(known, {"stalking": "y"})
    out = known.command("riskcheck")
    assert "I'll show what changed" in text_of(out)
    said = _answer_all(known, {"gun": "y"})
    assert "New since last time: access to a gun." in said
    assert "Not a yes this time: following, watching or tracking you." in said


def test_back_stop_and_unsure(known: Convo) -> None:
    known.command("riskcheck")
    known.tap(Rc.BEGIN)
    assert known.tap(Rc.ANSWER("maybe"), shown=False).ignored  # a forged answer
    known.tap(Rc.ANSWER("u"))
    out = known.tap(Rc.BACK)
    assert out.replies[-1].text.startswith("1 of ")
    known.tap(Rc.ANSWER("u"))
    out = known.tap(Rc.STOP)
    assert "weren't sure about 1" in text_of(out)
    assert any(isinstance(e, UpdateSettings) for e in out.effects)
    assert known.state is None  # stopped: the answers so far are kept, the check ends


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("I'll kill you if you don't come back", "violence"),
        ("I know you're following me, I'm outside your house", "stalking"),
        ("If you leave I will hurt myself", "self_harm_them"),
        ("I've got a knife and I will use it", "weapon"),
    ],
)
def test_each_danger_kind_in_hoover_takes_the_safety_path(
    known: Convo, message: str, kind: str
) -> None:
    known.command("hoover")
    out = known.say(message)
    assert out.replies[0].kind == "safety"
    assert "whether it is sincere" not in text_of(out)
    out = known.tap(Fear.NO)  # even "no": the detector's finding counts
    assert {Path.SAVE, Path.ON, "cmd:safety", "cmd:riskcheck"} <= set(values(out))
    assert {Path.SUPPORT} <= set(values(out))  # Maya, the support person
    out = known.tap(Path.SUPPORT)
    assert "Maya" in text_of(out)
    known.tap(Path.SAVE)
    known.tap(Hv.THEM)
    assert kind in known.store.evidence[-1].danger


def test_yes_takes_the_safety_path_whatever_the_detector_said(known: Convo) -> None:
    known.command("hoover")
    out = known.say("Nice curtains.")  # nothing the fake detector knows
    assert out.replies[0].kind != "safety"
    out = known.tap(Fear.YES)
    said = text_of(out)
    assert "Trust that feeling" in said
    assert said.index("call your local emergency number") < said.index("advocate")
    assert "cmd:riskcheck" in values(out)
    out = known.tap(Path.ON)
    assert Hv.SAVE in values(out)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    assert known.store.evidence[-1].felt == "yes"


def test_not_sure_in_monkey_takes_the_safety_path(known: Convo) -> None:
    known.command("monkey")
    known.say("Bo")
    known.say("He wanted you to know he drove past the new place")
    out = known.tap(Fear.UNSURE)
    assert Path.SAVE in values(out)
    out = known.tap(Path.ON)
    assert Mk.BOUNDARY in values(out)


def test_self_harm_puts_the_crisis_line_first(known: Convo) -> None:
    region = Region(
        "uk",
        "United Kingdom",
        "999",
        (HelpLine("Refuge", "0808 2000 247"), HelpLine("Samaritans", "116 123", topic="crisis")),
    )
    data = replace(
        known.store.data(NOW, frozenset()),
        resources=ResourceBook("uk", {"uk": region}),
    )
    abuse_first = text_of(path_replies(("violence",), "yes", data, saved=False, warned=False))
    assert abuse_first.index("Refuge") < abuse_first.index("Samaritans")
    crisis_first = text_of(path_replies(("self_harm_them",), None, data, saved=False, warned=False))
    assert crisis_first.index("Samaritans") < crisis_first.index("Refuge")


def test_the_check_in_asks_when_they_reached_out_with_nothing_to_paste(known: Convo) -> None:
    from flows.conversations.checkin import Dy

    known.trigger("checkin")
    known.tap(Dy.REACHED)
    out = known.tap(Dy.NOTHING_TO_LOOK_AT)
    assert "frighten you" in text_of(out)
    out = known.tap(Fear.YES)
    assert "Trust that feeling" in text_of(out) and "cmd:riskcheck" in values(out)
    out = known.tap(Path.SUPPORT)
    assert "Maya" in text_of(out)
    out = known.tap(Path.ON)
    assert "call your local emergency number" in text_of(out)
    assert known.state is None
    # "No" goes on as before
    known.trigger("checkin")
    known.tap(Dy.REACHED)
    known.tap(Dy.NOTHING_TO_LOOK_AT)
    out = known.tap(Fear.NO)
    assert "/hoover for them" in text_of(out)
