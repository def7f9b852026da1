"""End-to-end under hostile input: the real ``nocontact run`` process polling the Bot API
stand-in, which serves malformed and forged updates besides ordinary ones.

- an update python-telegram-bot cannot read is skipped and acknowledged: a neighbour is
  answered while it is queued, and nothing of it reaches the log;
- an update whose sender is not its private chat is refused;
- a seeded fuzz run of a few thousand updates: no unhandled error, no person's canary
  in another person's chat, no raw update in the log, every button press answered;
- a clean stop (SIGTERM) logs nothing at ERROR.
"""

from __future__ import annotations

import asyncio
import random
import re
import string
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
import pytest_asyncio

from flows.commands import COMMANDS
from tests.e2e.harness import BotProcess, ChatUser, visible
from tests.standin import BotApiStandIn
from tests.standin.server import MALFORMED

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: Telegram ids of the people in this module: long and distinctive, so that finding one
#: in the log means it was logged
PEOPLE = [8_305_000_101 + 7 * i for i in range(8)]
NEIGHBOUR = 8_305_000_999
#: log lines of a healthy bot (level names as the log format writes them)
BAD_LEVELS = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback")


def canary(telegram_id: int) -> str:
    """The word only this person ever types (letters and digits: HTML leaves it whole)."""
    return f"CANARY{telegram_id % 100_000:05d}Q{telegram_id % 97:02d}"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def standin() -> AsyncIterator[BotApiStandIn]:
    # no flood limits: the bot's own pacing is tested elsewhere, and the fuzz run would
    # otherwise spend its time waiting out 1 message/s per chat
    async with BotApiStandIn(overall_rate=None, per_chat_rate=None) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def running_bot(
    standin: BotApiStandIn, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    data_dir = tmp_path_factory.mktemp("faults") / "data"
    bot = BotProcess(standin, data_dir, extra_env={"RATE_LIMIT_OVERALL": "2000"})
    await bot.start()
    yield bot
    await bot.stop()


def log_problems(bot: BotProcess, secrets: list[str]) -> list[str]:
    """Lines at ERROR or CRITICAL, tracebacks, and every line holding a secret."""
    return [
        line[:300]
        for line in bot.output().splitlines()
        if BAD_LEVELS.search(line) or any(secret in line for secret in secrets)
    ]


def secrets_of(ids: list[int]) -> list[str]:
    return [*map(canary, ids), *map(str, ids)]


async def settled(standin: BotApiStandIn, quiet: float = 0.25, timeout: float = 60) -> None:
    """Wait until every queued update was fetched and the bot has gone quiet: no call
    for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = len(standin.calls)
        try:
            await standin.wait_for(lambda seen=seen: len(standin.calls) != seen, timeout=quiet)
        except TimeoutError:
            if standin.pending_update_count == 0:
                return
    raise TimeoutError(f"the bot did not settle ({standin.pending_update_count} pending)")


async def help_answered(standin: BotApiStandIn, chat: int, timeout: float = 60) -> None:
    """``chat`` sends /help and gets the help (the bound leaves room for a loaded
    machine; while an update the bot cannot read stalled polling, it never came)."""
    count = len(standin.messages_for(chat))
    standin.register_chat(chat)
    standin.inject_command(chat, "/help")
    await standin.wait_for(
        lambda: "/urge" in visible(standin.messages_for(chat)[count:]) or None, timeout
    )


# --------------------------------------------------------------------------- poison updates
@pytest.mark.parametrize("fault", MALFORMED)
async def test_a_neighbour_is_answered_while_an_update_that_cannot_be_read_is_queued(
    standin: BotApiStandIn, running_bot: BotProcess, fault: str
) -> None:
    poisoner = PEOPLE[0]
    neighbour = ChatUser(standin, NEIGHBOUR)
    standin.inject_malformed(poisoner, fault, canary(poisoner))
    await help_answered(standin, neighbour.chat_id)
    await settled(standin)
    assert standin.pending_update_count == 0  # acknowledged: never fetched again
    assert standin.messages_for(poisoner) == []  # nothing answered to what could not be read
    assert log_problems(running_bot, secrets_of([poisoner, NEIGHBOUR])) == []
    assert "could not be read" in running_bot.output()


async def test_a_message_from_someone_else_in_a_private_chat_is_refused(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    owner, other = ChatUser(standin, PEOPLE[1]), ChatUser(standin, PEOPLE[2])
    await other.say("/reasons")
    await other.say(f"I left because of {canary(other.chat_id)}")
    before = len(standin.messages_for(owner.chat_id))
    standin.inject_command(owner.chat_id, "/reasons", user_id=other.chat_id)
    standin.inject_text(owner.chat_id, canary(other.chat_id), user_id=other.chat_id)
    await other.say("/help")  # a later update of the same bot: the two were handled
    await settled(standin)
    assert standin.messages_for(owner.chat_id)[before:] == []
    assert log_problems(running_bot, secrets_of([owner.chat_id, other.chat_id])) == []
    assert "refused an update" in running_bot.output()


# --------------------------------------------------------------------------- the fuzz run
SEED = 20_261_201
ROUNDS = 60
PER_ROUND = 50  # 3,000 updates in all

WORDS = [
    "yes",
    "no",
    "1234",
    "0000",
    "08:30",
    "tomorrow",
    "I want to text him",
    "he said he has changed",
    "my mother keeps calling",
    "<b>bold</b> & <i>",
    "🙂",
    "   ",
    "Europe/Berlin",
    "+05:30",
    "cancel",
    "I am scared, he said he would come to the flat",
]


@dataclass
class Fuzz:
    standin: BotApiStandIn
    rng: random.Random
    legit_callbacks: list[str] = field(default_factory=list)
    injected: int = 0

    def text(self, person: int) -> str:
        rng = self.rng
        pick = rng.random()
        if pick < 0.35:
            return "/" + rng.choice(COMMANDS).name
        if pick < 0.7:
            return rng.choice(WORDS)
        if pick < 0.9:
            return f"{rng.choice(WORDS)} {canary(person)}"
        if pick < 0.95:
            return (canary(person) + " ") * rng.randint(300, 700)  # longer than a message
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 60)))

    def live_buttons(self, chat: int) -> list[tuple[int, str]]:
        return [
            (message.message_id, button.callback_data)
            for message in self.standin.messages_for(chat, include_deleted=False)[-6:]
            for button in message.buttons
            if button.callback_data
        ]

    def one(self, person: int, people: list[int]) -> None:
        standin, rng = self.standin, self.rng
        pick = rng.random()
        other = rng.choice([p for p in people if p != person])
        self.injected += 1
        if pick < 0.40:
            text = self.text(person)
            if text.startswith("/"):
                standin.inject_command(person, text)
            else:
                standin.inject_text(person, text)
        elif pick < 0.62:
            buttons = self.live_buttons(person)
            if buttons:
                message_id, data = rng.choice(buttons)
                self.legit_callbacks.append(standin.inject_callback(person, message_id, data))
            else:
                standin.inject_command(person, "/start")
        elif pick < 0.66:
            buttons = self.live_buttons(person)
            if buttons:
                message_id, _ = rng.choice(buttons)
                forged = "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 64)))
                self.legit_callbacks.append(standin.inject_callback(person, message_id, forged))
            else:
                standin.inject_sticker(person)
        elif pick < 0.70:
            when = datetime.now(UTC) - timedelta(hours=rng.randint(0, 400))
            standin.inject_text(
                person,
                f"{rng.choice(WORDS)} {canary(person)}",
                forward_date=when,
                forward_origin_name="X",
            )
        elif pick < 0.74:
            rng.choice([standin.inject_sticker, standin.inject_photo])(person)
        elif pick < 0.82:
            # someone else's message in this person's private chat (Telegram never sends it)
            if rng.random() < 0.5:
                text = self.text(other)
                inject = standin.inject_command if text.startswith("/") else standin.inject_text
                inject(person, text, user_id=other)
            else:
                buttons = self.live_buttons(person)
                if buttons:
                    message_id, data = rng.choice(buttons)
                    standin.inject_callback(person, message_id, data, user_id=other)
        elif pick < 0.94:
            standin.inject_malformed(person, rng.choice(MALFORMED), self.text(person))
        else:
            standin.inject_group_text(
                -1_000_000 - rng.randint(1, 5), self.text(person), user_id=person
            )


def leaks(standin: BotApiStandIn, people: list[int]) -> list[str]:
    """Every call to a person's chat that holds another person's canary."""
    found = []
    for call in standin.calls:
        chat = str(call.params.get("chat_id", ""))
        if not chat.lstrip("-").isdigit() or int(chat) not in people:
            continue
        sent = repr(call.params)
        for other in people:
            if other != int(chat) and canary(other) in sent:
                found.append(f"{call.method}: {canary(other)} in chat of {canary(int(chat))}")
    return found


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_fuzz_no_errors_no_leaks_no_raw_updates_and_neighbours_answered(
    standin: BotApiStandIn, running_bot: BotProcess
) -> None:
    people = PEOPLE[3:]
    fuzz = Fuzz(standin, random.Random(SEED))
    for person in people:  # everyone starts with their canary among their reasons
        user = ChatUser(standin, person)
        await user.say("/start")
        await user.say(f"He read my messages {canary(person)}\nI was scared {canary(person)}")
    errors_before = len(standin.errors)
    for round_no in range(ROUNDS):
        for _ in range(PER_ROUND):
            fuzz.one(fuzz.rng.choice(people), people)
        if round_no % 10 == 5:
            # a poison update queued, and a neighbour answered meanwhile
            standin.inject_malformed(people[0], fuzz.rng.choice(MALFORMED), canary(people[0]))
            await help_answered(standin, NEIGHBOUR)
        await settled(standin, quiet=0.15, timeout=120)
    assert fuzz.injected >= ROUNDS * PER_ROUND
    # the run did reach the flows: many answers, many buttons pressed
    assert sum(len(standin.messages_for(p)) for p in people) > 1000
    assert len(fuzz.legit_callbacks) > 300
    assert leaks(standin, [*people, NEIGHBOUR]) == []
    # errors first: an unanswered button is most often the trace of one
    assert log_problems(running_bot, secrets_of([*people, NEIGHBOUR])) == []
    assert "error while handling an update" not in running_bot.output()
    rule_breaks = [
        f"{e.method}: {e.description}"
        for e in standin.errors[errors_before:]
        if e.error_code not in (403, 429)
    ]
    assert rule_breaks == []

    def unanswered() -> list[str]:
        answered = {a.callback_query_id for a in standin.callback_answers}
        return [c for c in fuzz.legit_callbacks if c not in answered]

    # "settled" is a quiet spell; on a loaded machine a press may still be on its way
    try:
        await standin.wait_for(lambda: not unanswered(), timeout=60)
    except TimeoutError:
        pass
    assert unanswered() == []


# --------------------------------------------------------------------------- a clean stop
@pytest.mark.slow
async def test_a_clean_stop_logs_nothing_at_error(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data_dir = tmp_path_factory.mktemp("stop") / "data"
    async with BotApiStandIn() as standin:  # its own: one bot polls a stand-in at a time
        for poll_timeout in ("1", "30"):
            bot = BotProcess(standin, data_dir, extra_env={"POLL_TIMEOUT": poll_timeout})
            await bot.start()
            await ChatUser(standin, NEIGHBOUR).say("/help")
            await asyncio.sleep(1.5)  # mid long poll
            assert await bot.stop() == 0
            assert log_problems(bot, []) == [], bot.output()


@pytest.mark.slow
async def test_a_slow_bot_api_at_shutdown_is_a_warning_not_an_error(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """At a stop the bot confirms the last updates with one more getUpdates; when the Bot
    API is too slow to answer it, the stop is still clean: a warning, no ERROR."""
    data_dir = tmp_path_factory.mktemp("slowstop") / "data"
    async with BotApiStandIn() as standin:
        bot = BotProcess(standin, data_dir)
        await bot.start()
        await ChatUser(standin, NEIGHBOUR).say("/help")
        standin.short_poll_delay = 8.0  # longer than the bot's 5 s read timeout
        assert await bot.stop() == 0
        assert log_problems(bot, []) == [], bot.output()
        assert "WARNING telegram.ext.Updater: Error while calling `get_updates`" in bot.output()
