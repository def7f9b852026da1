"""End-to-end: the real ``nocontact run`` process, polling a Bot API stand-in on
127.0.0.1 that answers like Telegram and enforces its limits (4096 characters, valid
HTML, 64-byte callback data, identical edits, flood limits).

One bot process serves the module; each test is a different person (chat id).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn, SentMessage

pytestmark = pytest.mark.asyncio(loop_scope="module")


#: The Telegram id of the person onboarded first (looked for on disk later).
ONBOARDED = 731_946_285


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def standin() -> AsyncIterator[BotApiStandIn]:
    # a generous per-chat burst: steps that send a few messages at once must not be
    # slowed by retries here; flood handling has its own tests
    async with BotApiStandIn(overall_rate=30.0, per_chat_rate=1.0, burst=8) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def running_bot(
    standin: BotApiStandIn, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    data_dir = tmp_path_factory.mktemp("e2e") / "data"
    bot = BotProcess(standin, data_dir)
    await bot.start()
    yield bot
    code = await bot.stop()
    assert code == 0, bot.output()


def telegram_errors(standin: BotApiStandIn, chat_id: int) -> list[str]:
    """Errors other than flood control that the bot caused in this chat."""
    return [
        f"{e.method}: {e.description}"
        for e in standin.errors
        if e.chat_id == chat_id and e.error_code != 429
    ]


async def test_the_command_menu_is_set_at_start_up(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    names = {c["command"] for c in standin.commands}
    assert {"start", "urge", "hoover", "monkey", "reasons", "checkin", "safety", "wipe"} <= names
    assert {"help", "cancel", "privacy", "hide", "export", "progress", "evidence"} <= names
    assert "support" in names


@pytest.mark.slow
async def test_onboarding_saves_reasons_and_support_and_start_again_keeps_them(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, ONBOARDED)
    intro = visible(await user.say("/start"))
    assert "crisis" in intro.lower() and "/safety" in intro
    await user.say("He read my messages\nI was scared to come home")
    await user.press("Done")
    await user.say("Sam")
    done = visible(await user.say("text her"))
    assert "/checkin" in done
    again = visible(await user.say("/start"))
    assert "crisis" not in again.lower() or "welcome" in again.lower()
    await user.say("/reasons")
    listing = visible(await user.press("See all"))
    assert "He read my messages" in listing and "I was scared to come home" in listing
    assert telegram_errors(standin, ONBOARDED) == []


@pytest.mark.slow
async def test_onboarding_with_reasons_sent_as_separate_messages(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    """The normal way to use Telegram: one reason per message.  Every one is a reason;
    the support person is asked for only after Done, can be skipped, and /support sets
    them later."""
    user = ChatUser(standin, 1101)
    await user.say("/start")
    sent = ["He read my messages", "He called me crazy when I cried", "I lost my friends"]
    for n, reason in enumerate(sent, 1):
        step = visible(await user.say(reason))
        assert f"{n} reason" in step, step
        assert "How can you reach" not in step and "someone you trust" not in step
        assert "Done" in user.button_labels()
    step = visible(await user.press("Done"))
    assert "someone you trust" in step
    step = visible(await user.press("Skip"))
    assert "/checkin" in step
    await user.say("/reasons")
    listing = visible(await user.press("See all"))
    assert all(reason in listing for reason in sent)
    step = visible(await user.say("/support"))
    assert "someone you trust" in step
    await user.say("Maya")
    step = visible(await user.press("Skip"))
    assert "Maya" in step
    step = visible(await user.say("/start"))
    assert "Welcome back" in step and "/support" in step
    step = visible(await user.press("Someone to reach"))
    step = visible(await user.press("Remove"))
    step = visible(await user.press("Yes, remove"))
    assert "Removed" in step
    assert telegram_errors(standin, 1101) == []


async def test_a_10000_character_paste_arrives_in_pieces_and_is_kept_whole(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    """Telegram delivers a 10,000-character paste as three messages."""
    user = ChatUser(standin, 1102)
    line = "You never cared about anyone but yourself and now everyone can see it. "
    paste = (line * 200)[:10_000]
    await user.say("/hoover")
    step = visible(await user.say(paste[:4096]))
    assert "first part" in step and "That's all of it" in user.button_labels()
    await user.say(paste[4096:8192])
    step = visible(await user.say(paste[8192:]))
    assert "3 pieces together" in step and "characters are kept" in step
    assert telegram_errors(standin, 1102) == []


async def test_urge_flow_reads_reasons_back_and_waits_it_out(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1002)
    await user.say("/start")
    await user.say("She laughed when I cried")
    await user.press("Done")
    await user.press("Skip")
    step = visible(await user.say("/urge"))
    assert "pulling" in step.lower()
    step = visible(await user.press("miss them"))
    assert "She laughed when I cried" in step  # the user's own words, read back
    assert "way back in" in step
    step = visible(await user.press("Wait it out"))
    step = visible(await user.press("15"))
    assert "15" in step or "check" in step.lower()
    assert telegram_errors(standin, 1002) == []


@pytest.mark.slow
async def test_urge_write_it_here_keeps_an_unsent_message(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1003)
    await user.say("/urge")
    await user.press("explain")
    await user.press("Write it here")
    await user.say("You never listened to me, not once <b>ever</b> & I am done")
    await user.press("Done")
    await user.say("/urge")
    step = visible(await user.press("unsent"))
    assert "You never listened" in step
    assert telegram_errors(standin, 1003) == []


async def test_urge_necessary_contact_suggests_a_grey_rock_reply(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1004)
    await user.say("/urge")
    await user.press("practical")
    await user.press("necessary")
    step = visible(
        await user.say(
            "You have always been selfish. Everyone knows what kind of person you are. "
            "Are you picking her up at 5?"
        )
    )
    assert "picking her up at 5" in step
    assert "5" in step
    assert telegram_errors(standin, 1004) == []


async def test_hoover_names_tactics_saves_evidence_and_plans_no_reply(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1005)
    await user.say("/hoover")
    step = visible(
        await user.say(
            "I'm so sorry for everything. I've changed, I promise it will be different this "
            "time. I love you and I miss you so much."
        )
    )
    assert "sincere" in step.lower()
    assert "promise" in step.lower() or "change" in step.lower()
    assert "frighten you" in step  # asked once, with buttons
    await user.press("No")
    await user.press("Save it")
    await user.press("them")
    if any("No reply" in label for label in user.button_labels()):
        await user.press("No reply")
    assert "block" in visible(user.messages()[-3:]).lower()
    evidence = visible(await user.say("/evidence"))
    assert "sorry" in evidence.lower()
    assert telegram_errors(standin, 1005) == []


async def test_a_forwarded_message_is_offered_the_hoover_flow_with_its_date(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1006)
    when = datetime.now(UTC) - timedelta(days=3)
    step = visible(await user.forward("please come home, the kids miss you, I miss you", when))
    assert "who is it from" in step.lower()
    assert user.button_labels()
    step = visible(await user.press(user.button_labels()[0]))
    assert "sincere" in step.lower() or "who" in step.lower() or "save" in step.lower()
    assert telegram_errors(standin, 1006) == []


@pytest.mark.slow
async def test_flying_monkey_boundary_and_relay_count(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1007)
    await user.say("/monkey")
    await user.say("Aunt C")
    step = visible(
        await user.say(
            "Your mother is heartbroken, she wants you to know she forgives you. Call her."
        )
    )
    assert "passes on a message" in step.lower() or "passed on" in step.lower()
    assert "guilt" in step.lower()
    await user.press("No")
    step = visible(await user.press("boundary"))
    assert "not in contact" in step.lower() or "pass on" in step.lower()
    # a later relay from the same person is counted
    await user.say("/monkey")
    await user.press("Aunt C")
    step = visible(await user.say("She says you are being cruel and everyone agrees."))
    assert "since you asked" in step.lower()
    assert telegram_errors(standin, 1007) == []


async def test_a_stale_button_says_expired_and_shows_the_current_step(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1008)
    await user.say("/urge")
    old = user.last_with_buttons()
    data = old.buttons[2].callback_data  # "I feel guilty", not pressed yet
    assert data
    await user.say("/reasons")  # the user moved on instead
    replies = await user.press_data(old.message_id, data)
    assert "expired" in visible(replies).lower()
    assert replies[-1].buttons
    answers = [a for a in standin.callback_answers if a.text and "expired" in a.text.lower()]
    assert answers


async def test_group_chats_get_a_private_only_answer(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    standin.register_chat(-5001, chat_type="group", title="family")
    count = len(standin.messages_for(-5001))
    standin.inject_group_text(-5001, "/start")
    replies = await standin.wait_for(
        lambda: standin.messages_for(-5001)[count:] or None, timeout=10
    )
    assert "private" in (replies[0].visible_text or "")


async def test_a_sticker_gets_a_clear_answer(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1009)
    await user.say("/reasons")
    replies = await user.sticker()
    assert replies and visible(replies).strip()
    assert telegram_errors(standin, 1009) == []


async def test_huge_pasted_text_and_html_never_break_telegram_limits(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1010)
    await user.say("/hoover")
    await user.say("<i>I</i> need you & you need me > everything. " * 500)
    await user.say("/reasons")  # no reasons yet: it asks for them straight away
    await user.say("\n".join(f"Reason number {i} <because> & more" for i in range(150)))
    await user.say("/reasons")
    assert telegram_errors(standin, 1010) == []
    assert all(len(m.visible_text or "") <= 4096 for m in user.messages())


async def test_danger_gets_the_safety_message_first_and_the_flow_resumes(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1011)
    await user.say("/monkey")
    replies = await user.say("he said he'd kill me if I ever told anyone")
    assert "emergency" in (replies[0].visible_text or "").lower()
    assert len(replies) >= 2


async def test_data_on_disk_holds_no_plaintext(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    # the onboarded person's Telegram id, as digits and as SQLite stores an integer (big
    # endian); an id this long cannot turn up by chance in a timestamp's digits
    tg_id = (str(ONBOARDED).encode(), ONBOARDED.to_bytes(4, "big"))
    for path in Path(running_bot.data_dir).glob("*.db*"):
        raw = path.read_bytes()
        for needle in (b"He read my messages", b"Aunt C", b"You never listened", *tg_id):
            assert needle not in raw, f"{needle!r} found in {path.name}"
    # and the key store is not the data database
    assert (
        sqlite3.connect(running_bot.data_dir / "nocontact.db")
        .execute("select count(*) from sqlite_master")
        .fetchone()[0]
        > 0
    )


@pytest.mark.slow
async def test_restart_mid_flow_continues_where_the_user_was(tmp_path: Path) -> None:
    async with BotApiStandIn(burst=8) as standin:
        await _restart_mid_flow(standin, tmp_path)


async def _restart_mid_flow(standin: BotApiStandIn, tmp_path: Path) -> None:
    bot = BotProcess(standin, tmp_path / "data")
    await bot.start()
    user = ChatUser(standin, 2001)
    await user.say("/urge")
    await user.press("angry")
    await user.press("Write it here")
    await bot.kill()  # a crash between two steps

    await bot.start()
    try:
        step = visible(await user.say("I am so angry at how you treated me"))
        assert "saved" in step.lower() or "kept" in step.lower() or "done" in step.lower()
        await user.say("/urge")
        assert any("unsent" in label.lower() for label in user.button_labels())
    finally:
        assert await bot.stop() == 0, bot.output()


@pytest.mark.slow
async def test_urge_reach_my_support_person_shows_how_to_reach_them(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1012)
    await user.say("/start")
    await user.press("Skip")
    await user.say("Priya")
    await user.say("call her after 6")
    await user.say("/urge")
    await user.press("guilty")
    step = visible(await user.press("Reach"))
    assert "Priya" in step and "call her after 6" in step
    assert telegram_errors(standin, 1012) == []


@pytest.mark.slow
async def test_hoover_necessary_contact_answers_only_the_practical_question(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1013)
    await user.say("/hoover")
    await user.say(
        "I can't believe you would do this to our family after everything. "
        "Are you picking her up at 5?"
    )
    await user.press("No")
    await user.press("Don't save")
    step = visible(await user.press("practical answer"))
    assert "picking her up at 5" in step
    assert "5" in step.split("picking her up at 5")[-1]  # a short suggested answer follows
    assert telegram_errors(standin, 1013) == []


@pytest.mark.slow
async def test_flying_monkey_say_nothing_and_block_are_logged_with_a_reminder(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1014)
    await user.say("/monkey")
    await user.say("Cousin J")
    await user.say("He told me to tell you he's not angry any more, just call him.")
    await user.press("No")
    step = visible(await user.press("Say nothing"))
    assert "not your job" in step.lower() or "don't have to" in step.lower()
    await user.say("/monkey")
    await user.press("Cousin J")
    await user.say("Everyone is saying you made it all up.")
    await user.press("No")
    step = visible(await user.press("block"))
    assert step
    assert telegram_errors(standin, 1014) == []


async def test_pressing_the_same_button_twice_is_harmless(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    user = ChatUser(standin, 1015)
    await user.say("/urge")
    menu = user.last_with_buttons()
    button = menu.buttons[0]
    assert button.callback_data
    first = await user.press_data(menu.message_id, button.callback_data)
    assert first and "expired" not in visible(first).lower()
    second = await user.press_data(menu.message_id, button.callback_data)
    assert "expired" in visible(second).lower()
    assert telegram_errors(standin, 1015) == []


async def test_export_uploads_one_archive_that_verifies_with_the_code_in_its_message(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    import io
    import json
    import zipfile

    from bot.reports.archive import verify_archive

    user = ChatUser(standin, 1016)
    await user.say("/start")
    await user.say("He read my messages every night")
    await user.say("/export")

    def archive() -> SentMessage | None:
        docs = [m for m in user.messages() if m.method == "sendDocument"]
        return docs[0] if docs else None

    sent = await standin.wait_for(archive, timeout=15)
    assert sent.file is not None  # a multipart upload
    assert sent.file.filename.startswith("backup-") and sent.file.filename.endswith(".zip")
    with zipfile.ZipFile(io.BytesIO(sent.file.data)) as zf:
        document = json.loads(zf.read("data.json"))
        assert zf.read("report.pdf").startswith(b"%PDF")
    assert "He read my messages every night" in json.dumps(document)
    code = document["integrity"]["final"]
    assert sent.text is not None and code in sent.text
    assert verify_archive(sent.file.data, code).intact
    assert telegram_errors(standin, 1016) == []
