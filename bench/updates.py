"""Updates answered per second: the real bot against a bare echo bot, same stand-in.

Both bots run as their own processes, polling the Bot API stand-in served by this
process on 127.0.0.1 (flood limits off: this measures processing, not Telegram's caps).
Many people talk at once; each walks a realistic mix of flow steps (onboarding, the urge,
hoover and flying-monkey flows, reasons, free text, button presses).  A step counts as
answered once the bot has sent every message it sends for that step (measured once in a
calibration walk).  The echo bot (bench/echo_bot.py: PTB's echo and inline-keyboard
examples, PTB's defaults) gets the same updates: the same texts and commands, and a
press of a button on its last message wherever we press one.

    python bench/updates.py [--users 30] [--rounds 2] [--no-same-transport]
                            [--database-url postgresql+asyncpg://postgres@127.0.0.1/postgres]

With ``--database-url`` (a PostgreSQL server; the URL's database is only used to create
a scratch database for the run, and to drop it after) the bot's data database is on
PostgreSQL, and the bench also prints the new connections per update in each round
(``pg_stat_database.sessions``, PostgreSQL 14 and later): about 0 once the pool is warm.

Prints both rates and their ratio (target: at least 0.8).  For comparison it then runs
the echo bot once more on nocontact's own HTTP transport (``bot.telegram.transport``, aiohttp)
and prints that ratio too: it shows what the rest of each step costs.

Measured on the 2-core development machine (2026-11-30, 30 people, 3 rounds, best round):
nocontact about 540-570 updates/s, the bare echo bot about 370-420 updates/s (it varies
more from run to run), ratio about 1.4-1.5.  The echo bot on aiohttp answers about
1,800-1,950 updates/s, so against it the ratio is about 0.3: per update, most of a bare
PTB bot's time is httpx, and most of ours is the real work of a step (the flow, the
danger check, encrypting and committing the state, the message ids for /hide and the
events before the step is done) plus PTB's parsing of every update and answer.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.standin import BotApiStandIn  # noqa: E402

PYTHON = sys.executable
NOCONTACT = str(Path(sys.executable).with_name("nocontact"))

# (kind, payload): "say" types text (or a /command), "press" taps a button by label
SCRIPT: list[tuple[str, str]] = [
    ("say", "/start"),
    ("say", "He never let me see my friends\nI was always walking on eggshells"),
    ("press", "Skip"),
    ("say", "hi, I don't know what to do"),
    ("say", "/urge"),
    ("press", "I miss them"),
    ("press", "Wait it out"),
    ("press", "15"),
    ("say", "/hoover"),
    ("say", "I'm so sorry. I've changed, I promise. I miss you so much, please come back"),
    ("press", "No"),  # does it frighten you?
    ("press", "Don't save"),
    ("press", "No reply"),
    ("say", "/monkey"),
    ("say", "Aunt C"),
    ("say", "Your mum wants you to know she's heartbroken. You should call her."),
    ("press", "No"),  # does it frighten you?
    ("press", "Say nothing"),
    ("say", "/reasons"),
    ("press", "Read me one"),
    ("say", "/urge"),
    ("press", "explain"),
    ("press", "Write it here"),
    ("say", "You never listened and you never will."),
    ("press", "Done"),
    ("say", "/cancel"),
]


@dataclass
class Bot:
    name: str
    argv: list[str]
    env: dict[str, str]
    proc: asyncio.subprocess.Process | None = None

    async def start(self, standin: BotApiStandIn) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            env=self.env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        # ready when it polls: send a probe and wait for its answer
        chat = 10_000_000
        standin.register_chat(chat)
        count = len(standin.messages_for(chat))
        standin.inject_text(chat, "/start")
        await standin.wait_for(lambda: len(standin.messages_for(chat)) > count or None, 60)

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.terminate()
            await self.proc.wait()


async def wait_count(standin: BotApiStandIn, chat: int, count: int, timeout: float = 60) -> None:
    await standin.wait_for(lambda: len(standin.messages_for(chat)) >= count or None, timeout)


async def walk(
    standin: BotApiStandIn, chat: int, expected: list[int] | None, echo: bool
) -> list[int]:
    """One person's walk; returns how many messages each step produced."""
    standin.register_chat(chat)
    counts: list[int] = []
    for index, (kind, payload) in enumerate(SCRIPT):
        before = len(standin.messages_for(chat))
        if kind == "say":
            if payload.startswith("/"):
                standin.inject_command(chat, payload)
            else:
                standin.inject_text(chat, payload)
        else:
            # the same kind of update for both bots: a press of a button on one of the
            # bot's messages (the echo bot's replies carry one button)
            target = None
            for message in reversed(standin.messages_for(chat)):
                for button in message.buttons:
                    if button.callback_data and (echo or payload.lower() in button.text.lower()):
                        target = (message.message_id, button.callback_data)
                        break
                if target:
                    break
            if target is None:
                raise RuntimeError(f"step {index}: no button like {payload!r}")
            standin.inject_callback(chat, target[0], target[1])
        if expected is None:
            # calibration: wait for the first message, then for quiet
            await wait_count(standin, chat, before + 1)
            seen = -1
            while seen != len(standin.messages_for(chat)):
                seen = len(standin.messages_for(chat))
                await asyncio.sleep(0.3)
            counts.append(seen - before)
        else:
            await wait_count(standin, chat, before + expected[index])
            counts.append(expected[index])
    return counts


async def measure(
    standin: BotApiStandIn, users: int, first_chat: int, expected: list[int], echo: bool
) -> float:
    start = time.perf_counter()
    await asyncio.gather(*(walk(standin, first_chat + i, expected, echo) for i in range(users)))
    elapsed = time.perf_counter() - start
    return users * len(SCRIPT) / elapsed


class Sessions:
    """Counts the sessions (connections) PostgreSQL has made to one database."""

    def __init__(self, admin_url: str, database: str) -> None:
        self.admin_url = admin_url.replace("+asyncpg", "")
        self.database = database

    async def count(self) -> int:
        import asyncpg

        conn = await asyncpg.connect(self.admin_url)
        try:
            value = await conn.fetchval(
                "SELECT sessions FROM pg_stat_database WHERE datname = $1", self.database
            )
            await conn.execute("SELECT pg_stat_clear_snapshot()")
        finally:
            await conn.close()
        return int(value or 0)


async def rates_of(
    standin: BotApiStandIn,
    bot: Bot,
    users: int,
    rounds: int,
    first_chat: int,
    echo: bool,
    sessions: Sessions | None = None,
    new_per_update: list[float] | None = None,
) -> tuple[list[float], list[int]]:
    """Start ``bot``, calibrate (and warm up) with one walk, measure ``rounds`` rounds
    (and, with ``sessions``, the new database connections per update of each round)."""
    try:
        await bot.start(standin)
        expected = await walk(standin, first_chat, None, echo=echo)
        chat = first_chat + 1
        rates = []
        for _ in range(rounds):
            before = await sessions.count() if sessions is not None else 0
            rates.append(await measure(standin, users, chat, expected, echo=echo))
            if sessions is not None and new_per_update is not None:
                await asyncio.sleep(0.6)  # the statistics collector reports every 500 ms
                made = await sessions.count() - before
                new_per_update.append(made / (users * len(SCRIPT)))
            chat += users
        return rates, expected
    finally:
        await bot.stop()


async def scratch_database(admin_url: str, create: bool, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url.replace("+asyncpg", ""))
    try:
        if create:
            await conn.execute(f'CREATE DATABASE "{name}"')
        else:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def main(
    users: int, rounds: int, same_transport: bool, database_url: str | None = None
) -> None:
    async with BotApiStandIn(overall_rate=None, per_chat_rate=None) as standin:
        base_env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TELEGRAM_", "DATABASE", "ECHO_TRANSPORT"))
        }
        base_env.update(TELEGRAM_BOT_TOKEN=standin.token, TELEGRAM_API_BASE_URL=standin.base_url)
        data_dir = Path(tempfile.mkdtemp(prefix="nc-bench-"))
        database_env: dict[str, str] = {}
        sessions: Sessions | None = None
        new_per_update: list[float] = []
        scratch = f"nocontact_bench_{os.getpid()}"
        if database_url is not None:
            await scratch_database(database_url, True, scratch)
            base, _, _ = database_url.rpartition("/")
            database_env["DATABASE_URL"] = f"{base}/{scratch}"
            sessions = Sessions(database_url, scratch)
        ours = Bot(
            "nocontact",
            [NOCONTACT, "run"],
            {
                **base_env,
                "NOCONTACT_DATA_DIR": str(data_dir / "data"),
                "POLL_TIMEOUT": "1",
                "LOG_LEVEL": "WARNING",
                "RATE_LIMIT_OVERALL": "100000",
                **database_env,
            },
        )
        echo_argv = [PYTHON, str(ROOT / "bench" / "echo_bot.py")]
        echo = Bot("echo", echo_argv, base_env)
        try:
            our_rates, expected = await rates_of(
                standin, ours, users, rounds, 1_000, False, sessions, new_per_update
            )
            echo_rates, _ = await rates_of(standin, echo, users, rounds, 100_000, True)
            same_rates: list[float] = []
            if same_transport:
                echo_same = Bot("echo", echo_argv, {**base_env, "ECHO_TRANSPORT": "aiohttp"})
                same_rates, _ = await rates_of(standin, echo_same, users, rounds, 200_000, True)
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)
            if database_url is not None:
                await scratch_database(database_url, False, scratch)

    def shown(rates: list[float]) -> str:
        return ", ".join(f"{rate:.0f}" for rate in rates)

    ours_best = max(our_rates)
    echo_best = max(echo_rates)
    print(f"data database:                 {'PostgreSQL' if database_url else 'SQLite'}")
    print(f"people talking at once:        {users}")
    print(f"steps per person:              {len(SCRIPT)} (messages per step: {expected})")
    print(f"nocontact updates/second:      {ours_best:8.1f}  (rounds: {shown(our_rates)})")
    print(f"echo baseline updates/second:  {echo_best:8.1f}  (rounds: {shown(echo_rates)})")
    print(f"ratio (target >= 0.80):        {ours_best / echo_best:8.2f}")
    if new_per_update:
        print(
            "new database connections per update (after warm-up): "
            + ", ".join(f"{value:.3f}" for value in new_per_update)
            + " (rounds)"
        )
    if same_rates:
        same_best = max(same_rates)
        print(
            f"for comparison, the echo bot on nocontact's HTTP transport: {same_best:.1f} "
            f"updates/second (rounds: {shown(same_rates)}), ratio {ours_best / same_best:.2f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--no-same-transport",
        action="store_true",
        help="skip the extra run of the echo bot on nocontact's HTTP transport",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL server (postgresql+asyncpg://user@host/db): the bench makes a "
        "scratch database there for the run and drops it after",
    )
    args = parser.parse_args()
    asyncio.run(main(args.users, args.rounds, not args.no_same_transport, args.database_url))
