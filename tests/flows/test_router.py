"""The router: commands, free text, forwards, media, forged buttons, trimming, resume,
render() and needs(), and the command list."""

from __future__ import annotations

import re
from datetime import timedelta

from flows import router
from flows.choices import pack
from flows.commands import COMMANDS, Menu
from flows.conversations.evidence import Ev
from flows.conversations.hoover import Hv
from flows.conversations.incoming import In
from flows.conversations.reasons import Rs
from flows.conversations.safety_path import Fear
from flows.conversations.urge import Ur
from flows.session import Here
from flows.types import Input, SaveUnsent

from .conftest import NOW, Convo, text_of, values

MENU_VALUES = {pack(Menu.COMMAND(n)) for n in ("urge", "hoover", "monkey", "reasons", "safety")}


def test_commands_are_the_stable_names_from_the_brief() -> None:
    names = [c.name for c in COMMANDS if c.in_menu]
    assert names == [
        "start", "help", "urge", "hoover", "monkey", "reasons", "checkin", "progress",
        "evidence", "safety", "support", "privacy", "hide", "export", "wipe", "cancel",
    ]  # fmt: skip


def test_command_descriptions_are_discreet() -> None:
    for cmd in COMMANDS:
        assert cmd.menu and len(cmd.menu) <= 40
        low = cmd.menu.lower()
        for word in ("narciss", "abuse", "no contact", "ex", "hoover", "monkey", "safety"):
            assert not re.search(rf"\b{word}", low), (cmd.name, cmd.menu)


def test_help_names_every_command(convo: Convo) -> None:
    out = convo.command("help")
    for cmd in COMMANDS:
        if cmd.name != "help" and cmd.in_menu:
            assert f"/{cmd.name}" in text_of(out)
    assert "not a crisis service" in text_of(out)


def test_free_text_outside_a_flow_gets_a_short_menu(convo: Convo) -> None:
    out = convo.say("hi")
    assert MENU_VALUES <= set(values(out))
    assert convo.state is None
    assert len(out.replies) == 1


def test_command_slash_and_case_are_tolerated(convo: Convo) -> None:
    out = convo.command("/URGE")
    assert convo.state is not None and convo.state["flow"] == "urge"
    assert "pulling you" in text_of(out)


def test_unknown_command_keeps_the_flow(known: Convo) -> None:
    known.command("urge")
    state = known.state
    out = known.command("frobnicate")
    assert "/help" in text_of(out)
    assert known.state == state


def test_forged_choice_outside_a_flow_is_ignored(convo: Convo) -> None:
    out = convo.send(Input("choice", NOW, text=pack(Ur.PULL("miss"))))
    assert out.ignored and not out.replies and out.state is None


def test_stale_choice_from_another_step_is_ignored(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    state = known.state
    out = known.tap(Ur.PULL("guilt"), shown=False)  # the previous step's button
    assert out.ignored and known.state == state


def test_render_shows_the_current_step_again(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("anger"))
    shown = known.render()
    assert Ur.WAIT in values(shown)
    assert "way back in" in text_of(shown)


def test_render_without_state_is_the_main_menu(convo: Convo) -> None:
    assert MENU_VALUES <= set(values(convo.render()))


def test_render_of_a_garbled_state_is_the_main_menu(convo: Convo) -> None:
    data = convo.store.data(NOW)
    for state in ({"flow": "nope"}, {"flow": "urge", "step": "nope"}, {"x": 1}):
        assert MENU_VALUES <= set(values(router.render(Here.from_json(state), data)))
    garbled = Here.from_json({"flow": "urge", "step": "nope"})
    out = router.handle(garbled, Input("text", NOW, text="hi"), data)
    assert out.state is None and MENU_VALUES <= set(values(out))


def test_media_where_text_is_expected_explains_and_shows_the_step(known: Convo) -> None:
    known.command("hoover")
    state = known.state
    out = known.media("sticker")
    assert "only read text" in out.replies[0].text
    assert "Paste or forward" in out.replies[-1].text
    assert known.state == state


def test_media_outside_a_flow(convo: Convo) -> None:
    out = convo.media("voice")
    assert "only read text" in text_of(out)
    assert convo.state is None


def test_text_where_only_buttons_fit_nudges_and_shows_the_step(known: Convo) -> None:
    known.command("hoover")
    known.say("I'm sorry, I will change")
    out = known.say("hmm")
    assert "tap one of the options" in out.replies[0].text
    assert Fear.NO in values(out)  # the step after the paste: the question


def test_cancel_leaves_any_flow(known: Convo) -> None:
    known.command("monkey")
    out = known.command("cancel")
    assert known.state is None
    assert "Nothing you wrote was lost" in text_of(out)


def test_cancel_keeps_an_unsent_draft(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    known.say("I still think about you.")
    out = known.command("cancel")
    assert SaveUnsent("I still think about you.") in out.effects
    assert "unsent messages" in text_of(out)
    assert [u.text for u in known.store.unsent] == ["I still think about you."]


def test_restarting_the_same_flow_keeps_the_draft(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    known.say("Part one.")
    out = known.command("urge")
    assert SaveUnsent("Part one.") in out.effects
    assert "pulling you" in text_of(out)


def test_a_command_mid_flow_offers_to_go_back_and_nothing_is_lost(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    known.say("Dear you,")
    known.command("reasons")
    known.tap(Rs.ADD)
    known.say("He never said sorry")
    out = known.tap(Rs.DONE)
    assert "go back to" in out.replies[-1].text
    out = known.tap(Menu.RESUME)
    assert known.state is not None and known.state["step"] == "write"
    assert known.state["draft"] == "Dear you,"
    out = known.say("I'm done.")
    out = known.tap(Ur.WRITTEN)
    assert known.store.unsent[-1].text == "Dear you,\n\nI'm done."


def test_declining_to_go_back_still_keeps_the_draft(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.tap(Ur.WRITE)
    known.say("Half a letter")
    known.command("help")
    out = known.tap(Menu.NO_RESUME)
    assert SaveUnsent("Half a letter") in out.effects
    assert known.state is None


def test_text_during_a_go_back_offer_gets_the_menu_and_the_offer_stays(known: Convo) -> None:
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    known.command("help")
    out = known.say("hello")
    assert pack(Menu.COMMAND("urge")) in values(out) and pack(Menu.RESUME) in values(out)
    known.tap(Menu.RESUME)
    assert known.state is not None and known.state["step"] == "choose"


def test_progress_and_export_are_adapter_commands_and_keep_the_flow(known: Convo) -> None:
    known.command("urge")
    state = known.state
    for name in ("progress", "export"):
        out = known.command(name)
        assert out.replies == ()
        assert [type(e).__name__ for e in out.effects] == ["Command"]
        assert out.effects[0].name == name  # type: ignore[union-attr]
        assert known.state == state


def test_menu_buttons_start_their_flows(convo: Convo) -> None:
    convo.say("hi")
    convo.tap(Menu.COMMAND("monkey"))
    assert convo.state is not None and convo.state["flow"] == "monkey"


def test_forward_outside_a_flow_offers_hoover_or_monkey_and_keeps_the_text(known: Convo) -> None:
    at = NOW - timedelta(days=1)
    out = known.forward("I'm sorry, I will change.", at=at)
    assert {In.THEM, In.RELAY} <= set(values(out))
    out = known.tap(In.THEM)
    assert "Here's what I notice" in text_of(out)
    assert "Paste or forward" not in text_of(out)  # not asked again
    known.tap(Fear.NO)
    known.tap(Hv.SAVE)
    known.tap(Hv.THEM)
    assert known.store.evidence[-1].original_at == at
    assert known.store.evidence[-1].text == "I'm sorry, I will change."


def test_long_paste_outside_a_flow_offers_hoover_or_monkey(known: Convo) -> None:
    out = known.say("Your mother wants me to tell you something. " * 10)
    assert {In.THEM, In.RELAY} <= set(values(out))
    out = known.tap(In.RELAY)
    assert "Who passed it on" in text_of(out)
    out = known.say("Uncle B")
    assert "“wants me to tell you”" in text_of(out)


def test_short_text_outside_a_flow_is_not_taken_for_a_message(convo: Convo) -> None:
    out = convo.say("Your mother wants me to tell you something.")
    assert In.THEM not in values(out)


def test_forward_mid_flow_at_a_button_step_offers_and_then_returns(known: Convo) -> None:
    known.command("reasons")
    known.command("urge")
    known.tap(Ur.PULL("miss"))
    out = known.forward("I'm sorry")
    assert In.THEM in values(out)
    known.tap(In.NO)
    out = known.last
    assert pack(Menu.RESUME) in values(out)
    known.tap(Menu.RESUME)
    assert known.state is not None and known.state["flow"] == "urge"


def test_very_long_text_is_trimmed_with_a_note_not_dropped(known: Convo) -> None:
    known.command("hoover")
    out = known.say("sorry " * 5000)
    assert "30,000 characters. I kept the first 20,000" in text_of(out)
    assert len(known.state["text"]) <= 20000  # type: ignore[index]
    assert "Here's what I notice" in text_of(out)


def test_needs_asks_for_evidence_and_unsent_only_when_used() -> None:
    assert router.needs(None, Input("command", NOW, text="evidence")) == {"evidence"}
    assert router.needs(None, Input("command", NOW, text="urge")) == {"unsent"}
    evidence_button = pack(Menu.COMMAND("evidence"))
    assert router.needs(None, Input("choice", NOW, text=evidence_button)) == {"evidence"}
    assert router.needs(None, Input("command", NOW, text="help")) == frozenset()
    assert router.needs(None, Input("text", NOW, text="hi")) == frozenset()
    state = Here.from_json({"flow": "evidence", "step": "list", "ids": []})
    assert router.needs(state, Input("choice", NOW, text=pack(Ev.READ(0)))) == {"evidence"}
    offer = Here.from_json(
        {"flow": "resume", "step": "offer", "resume": {"flow": "urge", "step": "pull"}}
    )
    assert router.needs(offer, Input("choice", NOW, text=pack(Menu.RESUME))) == {"unsent"}
    # with no input: what render() of the current step needs
    assert router.needs(state) == {"evidence"}
    assert router.needs(None) == frozenset()


def test_unknown_trigger_is_ignored(convo: Convo) -> None:
    out = convo.trigger("mystery")
    assert out.ignored
