"""check_draft(): what in a reply gives the other person something to push against."""

from __future__ import annotations

import pytest

from flows.analysis import DraftCheck, check_draft

SEED = (
    "You have always been selfish. Everyone knows what kind of person you are. "
    "Are you picking her up at 5?"
)
PROBLEM_IDS = {
    "justifying",
    "arguing",
    "defending",
    "explaining",
    "apologising",
    "reopening_question",
    "emotional",
    "insult",
    "oversharing",
    "affection",
    "well_wishing",
    "inviting",
    "too_long",
}


def _ids(check: DraftCheck) -> set[str]:
    assert {p.id for p in check.problems} <= PROBLEM_IDS
    return {p.id for p in check.problems}


def test_short_answer_to_the_seed_is_ok() -> None:
    for draft in ("5.", "Yes, 5pm.", "Yes, I'll be there at 5."):
        check = check_draft(SEED, draft)
        assert check.verdict == "ok", (draft, check)
        assert check.problems == ()
        assert check.suggestion == draft


def test_defending_against_the_seed_insult_is_trimmed_to_the_answer() -> None:
    draft = (
        "Yes I will pick her up at 5, but I am not selfish and you know it. How dare you say that?"
    )
    check = check_draft(SEED, draft)
    assert check.verdict == "trim"
    assert {"defending", "arguing", "reopening_question", "too_long"} <= _ids(check)
    assert check.suggestion == "Yes I will pick her up at 5."
    for problem in check.problems:
        assert all(p in draft for p in problem.phrases)
        assert problem.why


def test_trim_falls_back_to_the_grey_rock_reply() -> None:
    draft = "I'm sorry, I know I was late last time because work was mad, I'm doing my best."
    check = check_draft(SEED, draft)
    assert check.verdict == "trim"
    assert {"apologising", "justifying"} <= _ids(check)
    assert check.suggestion == "Yes, 5."


def test_insult_means_dont_send() -> None:
    check = check_draft(SEED, "Yes 5. You're a pathetic liar.")
    assert check.verdict == "dont_send"
    assert "insult" in _ids(check)
    assert check.suggestion == ""


def test_reply_to_a_hoover_without_a_question_is_dont_send() -> None:
    incoming = "I miss you so much. I've changed, I promise."
    draft = "I miss you too but I can't, you hurt me so much. Why did you do it?"
    check = check_draft(incoming, draft)
    assert check.verdict == "dont_send"
    assert {"emotional", "reopening_question"} <= _ids(check)
    assert check.suggestion == ""


def test_a_short_boundary_line_is_ok_even_without_a_question() -> None:
    incoming = "Your mother just wants me to tell you one thing: she loves you."
    draft = "I am not in contact with them. Please do not pass messages between us."
    assert check_draft(incoming, draft).verdict == "ok"


@pytest.mark.parametrize(
    ("draft", "problem"),
    [
        ("Yes, 5. I'm living at my sister's now with my new boyfriend.", "oversharing"),
        ("5. Sorry about last week.", "apologising"),
        ("5. Let me explain what happened on Friday.", "explaining"),
        ("5. That's not true and you know it.", "arguing"),
        ("5. I did everything I could for her.", "defending"),
        ("5. I only left because you scared me.", "justifying"),
        ("5. How are you doing?", "reopening_question"),
        ("5. I feel so hurt by what you said!!", "emotional"),
        ("Yes 5, fuck off.", "insult"),
    ],
)
def test_each_problem_is_named(draft: str, problem: str) -> None:
    check = check_draft(SEED, draft)
    assert problem in _ids(check)
    assert check.verdict in ("trim", "dont_send")
    if check.verdict == "trim":
        assert check.suggestion.startswith("5") or check.suggestion.startswith("Yes")


def test_practical_clarifying_question_is_not_reopening() -> None:
    check = check_draft("Can you have the kids this weekend?", "Yes. Saturday at 10?")
    assert "reopening_question" not in _ids(check)
    assert check.verdict == "ok"


def test_long_draft_is_too_long_for_one_question() -> None:
    draft = (
        "Yes I can pick her up at 5 on Friday and I will bring her bag and her coat and "
        "the shoes she left at mine last week and the book for school"
    )
    check = check_draft("Are you picking her up at 5 on Friday?", draft)
    assert "too_long" in _ids(check)


def test_draft_without_incoming_is_still_checked() -> None:
    assert check_draft("", "ok, 5").verdict == "ok"
    assert check_draft("", "I'm so sorry, I miss you").verdict in ("trim", "dont_send")


def test_to_json_is_plain_data() -> None:
    data = check_draft(SEED, "5. Sorry.").to_json()
    assert data["verdict"] == "trim"
    assert data["suggestion"] == "5."
    assert data["problems"][0]["id"] == "apologising"


# --------------------------------------------------------------------------- reopening the door
REPORTED = "Happy birthday. I hope you're well. I've been thinking about you a lot and I miss us."


@pytest.mark.parametrize(
    ("draft", "problem"),
    [
        (REPORTED, "affection"),
        ("Merry Christmas to you and your family.", "well_wishing"),
        ("Congratulations on the new job!", "well_wishing"),
        ("Hope all is well with you.", "well_wishing"),
        ("How have you been?", "well_wishing"),
        ("How are you", "well_wishing"),
        ("I still think about us.", "affection"),
        ("Remember when we went to Cornwall?", "affection"),
        ("I miss talking to you.", "affection"),
        ("Those were the days. We used to laugh so much.", "affection"),
        ("Thinking of you today xx", "affection"),
        ("My door is always open.", "inviting"),
        ("We should grab a coffee sometime.", "inviting"),
        ("Call me whenever.", "inviting"),
        ("I'm so sorry for everything.", "apologising"),
        ("I just wanted you to understand why I left.", "explaining"),
    ],
)
def test_what_reopens_the_door_is_held_back(draft: str, problem: str) -> None:
    for incoming in ("", "Happy new year. I miss you."):
        check = check_draft(incoming, draft)
        assert problem in _ids(check), (incoming, draft)
        assert check.verdict == "dont_send", (incoming, draft, check)


@pytest.mark.parametrize(
    "draft",
    [
        "Yes, 5. Hope you're doing well.",
        "Yes, 5. Take care.",
        "Yes, 5. Happy birthday.",
        "Yes, 5. I miss us.",
        "Yes, 5. How are you?",
        "Yes, 5. We should talk.",
    ],
)
def test_the_practical_answer_is_kept_and_the_warmth_left_out(draft: str) -> None:
    check = check_draft(SEED, draft)
    assert check.verdict == "trim", (draft, check)
    assert check.suggestion == "Yes, 5."


@pytest.mark.parametrize(
    ("incoming", "draft"),
    [
        (SEED, "Yes, I'll take care of her bag."),
        (SEED, "Yes, 5. Remember her inhaler."),
        (SEED, "Yes, 5. Text me when you're outside."),
        (SEED, "Yes, 5pm is fine. Hope you're ok with the usual place."),
        (SEED, "Happy to do 5."),
        ("Can you do the handover on the 10th?", "Yes, the 10th at 6."),
        ("Her birthday party is on Saturday, can you bring her?", "Yes, Saturday at 3."),
        ("", "The papers are signed."),
        ("", "I am not in contact with them. Please do not pass messages between us."),
    ],
)
def test_practical_look_alikes_still_pass(incoming: str, draft: str) -> None:
    check = check_draft(incoming, draft)
    assert check.verdict == "ok", (draft, check)
    assert not {"affection", "well_wishing", "inviting"} & _ids(check)
