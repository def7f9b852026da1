"""analyze() and detect_danger(): what a user would see for real messages."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from flows.analysis import Analysis, Finding, analyze, detect_danger
from flows.types import DANGER_KINDS, TACTICS

SEED = (
    "You have always been selfish. Everyone knows what kind of person you are. "
    "Are you picking her up at 5?"
)


def _ids(findings: tuple[Finding, ...]) -> set[str]:
    return {f.id for f in findings}


def _assert_explained(text: str, result: Analysis) -> None:
    for finding in result.tactics + result.danger:
        assert finding.phrases, finding
        assert finding.why.endswith("."), finding
        for phrase in finding.phrases:
            assert phrase in text, (phrase, finding.id)


# --------------------------------------------------------------------------- grey rock
def test_seed_example_answers_only_the_pick_up_question() -> None:
    result = analyze(SEED)
    assert result.logistics == ("Are you picking her up at 5?",)
    assert result.grey_rock is not None
    assert result.grey_rock in ("5.", "Yes, 5.", "Yes, 5pm.")
    assert {"blame", "smear", "logistics"} <= set(result.tactic_ids)
    assert not result.danger
    _assert_explained(SEED, result)


def test_no_practical_question_means_no_reply() -> None:
    result = analyze("I miss you so much. Please just give me one more chance, I've changed.")
    assert result.logistics == ()
    assert result.grey_rock is None
    assert {"affection", "pressure", "promise"} <= set(result.tactic_ids)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("Who is picking Sam up from swimming on Wednesday, you or your mum?", "I will."),
        ("I'll drop them at 6 on Sunday. Is that ok?", "OK."),
        ("What time is Leo's dentist appointment on Thursday?", "Thursday at [time]."),
        ("When are you bringing Ellie's passport back?", "[day and time]."),
    ],
)
def test_grey_rock_reply_is_short_and_neutral(text: str, reply: str) -> None:
    result = analyze(text)
    assert result.grey_rock == reply


def test_insult_is_not_answered_even_next_to_a_question() -> None:
    text = "Typical of you to forget her inhaler AGAIN. Useless. Is it in your car or not?"
    result = analyze(text)
    assert result.logistics == ("Is it in your car or not?",)
    assert result.grey_rock is not None
    assert "useless" not in result.grey_rock.lower()
    assert "blame" in result.tactic_ids


def test_invitation_that_pushes_contact_is_not_logistics() -> None:
    result = analyze("Don't you think we could at least be friends? It's been a year.")
    assert result.grey_rock is None
    assert "pressure" in result.tactic_ids


# --------------------------------------------------------------------------- tactics
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm so sorry for everything. I promise it will never happen again.",
            {"apology", "promise"},
        ),
        ("Your mother just wants me to tell you one thing: she loves you.", {"relay"}),
        ("After everything I did for you, you can't even reply?", {"guilt"}),
        ("Call me. It's urgent.", {"urgency"}),
        ("Where are you staying now? Who's the guy in your photos?", {"info_seeking"}),
        ("I sent flowers to your office.", {"gift"}),
        ("He told everyone you cheated. People are talking.", {"smear"}),
        ("You'll regret this. Mark my words.", {"threat"}),
        ("This is all your fault. You made me like this.", {"blame"}),
        ("I'm the one who got hurt here and somehow I'm the bad guy?", {"victim"}),
    ],
)
def test_tactics_are_named_with_their_phrases(text: str, expected: set[str]) -> None:
    # a relayed message is analysed as from the person relaying it, as /monkey does
    result = analyze(text, sender="relay" if expected == {"relay"} else "them")
    assert expected <= set(result.tactic_ids)
    assert set(result.tactic_ids) <= set(TACTICS)
    _assert_explained(text, result)


def test_why_names_the_pattern_kindly() -> None:
    finding = next(f for f in analyze("I've changed, I'm getting help.").tactics)
    assert finding.id == "promise"
    assert finding.why == "This looks like a promise to change."


def test_friendly_message_has_no_tactics_or_danger() -> None:
    result = analyze("Congrats on the new job!! So proud of you 🎉", sender="other")  # a friend
    assert result.tactics == () and result.danger == () and result.grey_rock is None


#: The learned model (OR'ed with the rules) flags these harmless sentences: known false
#: alarms, listed in bench/learned.md.  strict: a fix shows up as an unexpected pass.
KNOWN_FALSE_ALARM = "a known false alarm of the learned model (bench/learned.md)"
#: ... and dangers it misses that the rules do not name either.
KNOWN_MISS = "a known miss of the learned model (bench/learned.md)"


def false_alarm(text: str) -> Any:
    """A harmless sentence the shipped model flags (strict xfail: a fix shows up)."""
    return pytest.param(text, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FALSE_ALARM))


# --------------------------------------------------------------------------- danger
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("I want to end it all", {"self_harm_user"}),
        ("I want to kill myself", {"self_harm_user"}),
        ("kms honestly", {"self_harm_user"}),
        ("he said he'd kill me if I left", {"violence"}),
        ("she threatened to take the kids and disappear", {"child_safety"}),
        ("he's been parked outside my work", {"stalking"}),
        ("he has a gun", {"weapon"}),
        ("he told my sister he'll kill himself if I don't come back", {"self_harm_them"}),
        ("I'll kill myself if you don't come back", {"self_harm_user"}),
    ],
)
def test_danger_in_the_users_own_words(text: str, kinds: set[str]) -> None:
    found = detect_danger(text)
    assert _ids(found) == kinds
    for finding in found:
        assert all(p in text for p in finding.phrases)
        assert set(finding.id for finding in found) <= set(DANGER_KINDS)


def test_perspective_of_an_incoming_self_harm_threat() -> None:
    text = "I'll kill myself if you don't come back."
    assert _ids(detect_danger(text, source="incoming")) == {"self_harm_them"}
    result = analyze(text)
    assert _ids(result.danger) == {"self_harm_them"}
    assert "self_harm" in result.tactic_ids


def test_threat_of_violence_in_a_message_is_also_a_threat_tactic() -> None:
    result = analyze("I know where you live now. Don't think you can hide from me.")
    assert _ids(result.danger) == {"stalking"}
    assert "threat" in result.tactic_ids


@pytest.mark.parametrize(
    "text",
    [
        "I could kill for a coffee",
        "this deadline is killing me",
        "you absolutely killed it at the quiz",
        "I'm dying to see the film",
        "I'll murder this pizza",
        "My mum will kill me if I'm late for dinner again",
        "Shoot me a text when you get home",
        "Stick to your guns",
        "cut myself a huge slice of cake",
        "I'm dead 😂",
        # flagged since learned findings on negated words are kept (context.NEGATION_CHECK)
        false_alarm("he said he'd never hurt me"),
        false_alarm("I'm not going to hurt myself, don't worry"),
        "I'm not suicidal, just tired",
        false_alarm("I don't want to die, I want to feel better"),
        "I want to end the relationship for good",
    ],
)
def test_idioms_and_negations_are_not_danger(text: str) -> None:
    assert detect_danger(text) == ()
    assert detect_danger(text, source="incoming") == ()


@pytest.mark.parametrize(
    ("source", "text", "kinds"),
    [
        ("user", "he pinned me to the floor", {"violence"}),
        ("user", "he threw me across the room", {"violence"}),
        ("user", "he pushed me down the stairs", {"violence"}),
        ("user", "she dragged me by my hair", {"violence"}),
        ("user", "got a bruise on my arm from where he grabbed me", {"violence"}),
        ("incoming", "I'll break every finger on that hand", {"violence"}),
        ("incoming", "keep this up and you'll end up in hospital", {"violence"}),
        ("incoming", "nobody would find you out there", {"violence"}),
        ("incoming", "you're lucky I only smashed the phone", {"violence"}),
        ("user", "his car has been outside my flat every night", {"stalking"}),
        ("user", "found an air tag under my car", {"stalking"}),
        ("user", "he's been logging into my email", {"stalking"}),
        ("user", "he keeps driving past my flat", {"stalking"}),
        ("incoming", "love your new curtains btw", {"stalking"}),
        ("incoming", "still got the password to your icloud", {"stalking"}),
        ("user", "everyone would be better off without me", {"self_harm_user"}),
        ("user", "I've been looking up how many pills it would take", {"self_harm_user"}),
        ("user", "I think about just not being here", {"self_harm_user"}),
        ("user", "I hope I don't wake up tomorrow", {"self_harm_user"}),
        ("incoming", "I'm on the bridge. bye", {"self_harm_them"}),
        ("incoming", "the kids are at my mum's and they won't be coming back", {"child_safety"}),
        ("incoming", "I'm taking her to Spain and we might stay a while", {"child_safety"}),
        pytest.param(
            "user",
            "he's hiding the children at his mum's",
            {"child_safety"},
            marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISS),
        ),
        ("incoming", "I know where the gun is", {"weapon", "violence"}),
        ("user", "he waved a knife at me", {"weapon", "violence"}),
    ],
)
def test_danger_in_words_no_rule_names_exactly(
    source: Literal["user", "incoming"], text: str, kinds: set[str]
) -> None:
    assert _ids(detect_danger(text, source)) == kinds


@pytest.mark.parametrize(
    "text",
    [
        "this commute is killing me",
        "she absolutely slayed that presentation",
        "my feet are murdering me after that wedding",
        "I'd die for a holiday right now",
        "can u bring the big knife for the watermelon",
        false_alarm("the neighbour's dog keeps following me round the garden"),
        "I'll beat you at mario kart any day",
        false_alarm("I hit my head on the shelf"),
        "he shot me a look across the room haha",
        "if I go back it'll kill me, I know that",
        "no more going through your phone, I promise",
        false_alarm("I'm so tired I could sleep forever"),
        false_alarm("I watched a film where they burn the house down"),  # since the tenth retrain
    ],
)
def test_everyday_words_for_harm_are_not_danger(text: str) -> None:
    assert detect_danger(text) == ()
    assert detect_danger(text, source="incoming") == ()


def test_a_stated_arrangement_is_logistics_answered_with_noted() -> None:
    result = analyze("Pick up is 5pm Friday at the leisure centre car park.")
    assert "logistics" in result.tactic_ids
    assert result.grey_rock == "Noted."


def test_negation_far_away_does_not_cancel_danger() -> None:
    assert _ids(detect_danger("if you don't come back I'll kill myself", "incoming")) == {
        "self_harm_them"
    }


def test_a_threat_with_a_condition_is_found() -> None:
    text = "I'll swallow every pill in the cabinet if you don't call"
    assert _ids(detect_danger(text, "incoming")) == {"self_harm_them"}


# --------------------------------------------------------------------------- robustness
@pytest.mark.parametrize(
    "text",
    [
        "are u picking her up at 5",
        "ARE YOU PICKING HER UP AT 5???",
        "r u picking her up at 5 😒",
        "youve always been selfish  are you picking her up at 5",
    ],
)
def test_logistics_survive_case_abbreviations_and_emoji(text: str) -> None:
    result = analyze(text)
    assert result.logistics, text
    assert result.grey_rock is not None and "5" in result.grey_rock


@pytest.mark.parametrize(
    ("text", "tactic"),
    [
        ("im soooo sorry babe pleeease", "apology"),
        ("i miss uuu 😭😭", "affection"),
        ("I’m sorry, I’ve changed", "promise"),
        ("u owe me that at least", "pressure"),
    ],
)
def test_typos_stretched_letters_and_curly_quotes(text: str, tactic: str) -> None:
    result = analyze(text)
    assert tactic in result.tactic_ids
    _assert_explained(text, result)


def test_phrases_come_from_the_original_text_not_the_normalised_one() -> None:
    text = "Im SOOO sorry, pls forgive me"
    apology = next(f for f in analyze(text).tactics if f.id == "apology")
    assert "SOOO sorry" in text
    assert any(p in text and "sorry" in p.lower() for p in apology.phrases)
    assert "forgive me" in apology.phrases


def test_quoted_forward_is_analysed_without_the_header() -> None:
    text = (
        "Forwarded from Mum\n"
        "> Your father wants me to remind you that he paid for your degree.\n"
        "> Are you coming on Sunday at 2?"
    )
    result = analyze(text, sender="relay")  # Mum passing on Father's words
    assert "relay" in result.tactic_ids
    assert "guilt" in result.tactic_ids
    assert result.logistics == ("Are you coming on Sunday at 2?",)
    assert not any("Forwarded" in p for f in result.tactics for p in f.phrases)


def test_several_sentences_keep_every_danger() -> None:
    text = (
        "I miss you. I've still got my dad's shotgun in the loft, just so you know. "
        "And I'll take the kids to Spain and you won't find us."
    )
    assert {"weapon", "violence", "child_safety"} <= _ids(analyze(text).danger)


def test_a_100_kb_text_is_analysed_and_phrase_lists_are_capped() -> None:
    # (its speed is measured in bench/analysis.py, not asserted here)
    chunk = (
        "I'm so sorry, I miss you. Are you picking her up at 5? You'll regret this. "
        "he said he'd kill me if I left. this deadline is killing me lol 😂\n"
    )
    text = (chunk * (100_000 // len(chunk) + 1))[:100_000]
    result = analyze(text)
    assert "violence" in result.danger_ids
    assert all(len(f.phrases) <= 5 for f in result.tactics + result.danger)
    assert len(result.logistics) <= 3


def test_empty_and_whitespace_text() -> None:
    for text in ("", "   ", "\n\n", "😂"):
        result = analyze(text)
        assert result.tactics == () and result.danger == () and result.grey_rock is None


def test_to_json_is_plain_data() -> None:
    data = analyze(SEED).to_json()
    assert data["grey_rock"] == "Yes, 5."
    assert data["logistics"] == ("Are you picking her up at 5?",)
    assert {t["id"] for t in data["tactics"]} >= {"blame", "logistics"}


def test_announcing_a_visit_to_the_users_work_inside_a_hoover_is_stalking() -> None:
    text = (
        "I am so sorry baby. I know I messed up but I have changed, I am seeing a therapist "
        "now. Please just answer me, I will be outside your work at 5 tomorrow with your "
        "birthday present"
    )
    result = analyze(text)
    assert "stalking" in result.danger_ids
    assert {"apology", "promise"} <= set(result.tactic_ids)
    # a co-parenting arrangement at a relative's house is not
    assert analyze("I'll drop the kids at your mum's at 5").danger_ids == ()


@pytest.mark.parametrize(
    "text",
    [
        "honestly i've been googling painless ways",
        "i cut again last night, first time in months",
        "I've written letters to my sister and my mum, just in case",
        "i dont see myself being around much longer tbh",
        "sometimes i stand on the platform and think how easy it would be",
        "I keep picturing my own funeral and it doesn't even scare me",
        "i gave my cat to my neighbour and sorted my bank stuff, i feel calm now",
        "what's even the point of me",
        "the pain would end if I wasn't here",
        "I've been drinking and thinking about the river",
    ],
)
def test_indirect_crisis_words_in_the_users_own_words_get_the_safety_net(text: str) -> None:
    assert "self_harm_user" in [f.id for f in detect_danger(text, source="user")]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("stalking", "he made a fake account to keep looking at my instagram"),
        ("stalking", "my neighbour said a man was looking through my windows at night"),
        ("stalking", "my friend said he's been asking everyone where I moved to"),
    ],
)
def test_watching_and_hunting_for_the_user_is_stalking(kind: str, text: str) -> None:
    assert kind in [f.id for f in detect_danger(text, source="user")]


@pytest.mark.parametrize(
    "text",
    [
        false_alarm("I cut myself cooking dinner lol"),  # since the tenth retrain
        false_alarm("I keep thinking how easy it would be to move to Spain"),
        false_alarm("I gave my dog a bath and sorted the garden"),
        "made a new account for my bakery and I keep checking the likes",
        "I wrote him a letter just in case he needs the address",
        false_alarm("what is the point of meetings that could be emails"),
        false_alarm("thinking about the river walk tomorrow"),
    ],
)
def test_everyday_sentences_with_the_same_words_are_not_danger(text: str) -> None:
    assert detect_danger(text, source="user", model=None) == ()


def test_a_pasted_message_is_checked_for_danger_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net checks a pasted message, then the flow analyses the same text: the
    rules and the classifier run once, not twice."""
    from flows.analysis import check_danger, danger

    calls = 0
    original = danger._check

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(danger, "_check", counting)
    text = "I'm sorry. I'll change, I promise. Pick up or I'm coming round tonight."
    first = check_danger(text, "incoming")
    again = analyze(text)
    assert calls == 1
    assert again.danger == first.found


@pytest.mark.xfail(strict=True, reason=KNOWN_MISS)  # missed since the retrain on 50 writers
def test_a_birthday_present_brought_to_the_users_work_is_named_a_gift() -> None:
    text = (
        "I am so sorry baby. I know I messed up but I have changed, I am seeing a therapist "
        "now. Please just answer me, I will be outside your work at 5 tomorrow with your "
        "birthday present"
    )
    assert "gift" in analyze(text).tactic_ids
