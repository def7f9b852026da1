"""Benchmark: check-ins for many users due in the same minute, and start-up at scale.

Run from the repository root::

    python bench/checkins.py                            # 1,000 users at 30 msg/s (~35 s)
    python bench/checkins.py --users 10000 --rate 30    # the full run (~6 min)
    python bench/checkins.py --users 2000 --rate 0      # no limit: the sending capacity
    python bench/checkins.py --registered 20000 --skip-delivery   # start-up only, smaller

Two parts, each in its own processes (so that time and memory are measured apart from
the seeding):

1. **Delivery.**  ``--users`` users, all with a check-in due in the same minute, are
   seeded straight into the encrypted store; the real Scheduler (the bot's Application
   with its rate limiter, the real flows and store) sends them to the Bot API stand-in
   running in a separate process, which enforces ``--rate`` messages per second overall
   and ``--per-chat-rate`` per chat (answering 429 beyond).  The bot is configured with
   the same rate.  Printed: delivered / limit ratio (messages delivered over what the
   limit allowed during the sweep; target >= 0.95), duplicates (target 0), missed
   (target 0) and the 429 answers.
2. **Start-up.**  ``--registered`` users (1 % of them blocked, a few interrupted
   mid-send) are seeded in bulk through the ORM; a fresh process then opens the store,
   builds the Application and starts the Scheduler (blocked set, recovery, a first
   sweep) and reports the time taken (target < 3 s) and its peak RSS (target < 300 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.crypto.cells import RecordCipher, new_data_key  # noqa: E402
from bot.crypto.keystore import UserKeyRow  # noqa: E402
from bot.schedule.models import BLOCKED, CHECKIN, PENDING, SENDING, ScheduleItem  # noqa: E402
from bot.store.facade import Store  # noqa: E402
from bot.store.models import USERS_CHAT, USERS_SETTINGS, User, new_id  # noqa: E402

TOKEN = "123:BENCH"
CHECKIN_WORDS = "How did today go?"
FIRST_CHAT = 10_000_000
BATCH = 2000


# --------------------------------------------------------------------------- seeding
async def seed(
    settings: Settings,
    users: int,
    due_at: datetime,
    *,
    blocked_every: int = 0,
    interrupted: int = 0,
) -> None:
    """Create ``users`` users in bulk, straight through the ORM: a wrapped key each, the
    encrypted chat id and check-in settings, and a schedule row due at ``due_at``."""
    store = await Store.open(settings)
    keys = store._keys  # the bench seeds the key store directly; the bot never does this
    now = datetime.now(UTC)
    checkin = {"time": due_at.strftime("%H:%M"), "tz": "UTC", "days": list(range(7))}
    doc = {"checkin": checkin, "discreet": True}
    try:
        for start in range(0, users, BATCH):
            key_rows: list[dict[str, Any]] = []
            user_rows: list[dict[str, Any]] = []
            item_rows: list[dict[str, Any]] = []
            for n in range(start, min(users, start + BATCH)):
                user_id = new_id()
                chat = FIRST_CHAT + n
                data_key = new_data_key()
                cipher = RecordCipher(data_key, user_id)
                key_id, wrapped = keys.ring.wrap(data_key, purpose="user", subject=user_id)
                key_rows.append(
                    {"user_id": user_id, "key_id": key_id, "wrapped": wrapped, "created_at": now}
                )
                user_rows.append(
                    {
                        "id": user_id,
                        "tg_hash": keys.lookup.telegram_hash(chat),
                        "chat": cipher.encrypt_int(USERS_CHAT, user_id, chat),
                        "settings": cipher.encrypt_json(USERS_SETTINGS, user_id, doc),
                        "state": None,
                        "created_at": now,
                    }
                )
                status = PENDING
                if blocked_every and n % blocked_every == 0:
                    status = BLOCKED
                elif n < interrupted:
                    status = SENDING
                item_rows.append(
                    {
                        "id": new_id(),
                        "user_id": user_id,
                        "kind": CHECKIN,
                        "topic": "",
                        "due_at": due_at,
                        "status": status,
                        "claimed_at": None,
                    }
                )
            async with keys.keystore.sessions.begin() as session:
                await session.execute(insert(UserKeyRow), key_rows)
            async with store.sessions.begin() as session:
                await session.execute(insert(User), user_rows)
                await session.execute(insert(ScheduleItem), item_rows)
    finally:
        await store.close()


def bench_settings(data_dir: Path, base_url: str, rate: float, per_chat: float) -> Settings:
    return Settings(
        telegram_bot_token=TOKEN,
        telegram_api_base_url=base_url,
        data_dir=data_dir,
        rate_limit_overall=rate,
        rate_limit_per_chat=per_chat,
        checkin_grace_minutes=120,
        log_level="WARNING",
    )


# --------------------------------------------------------------------------- the stand-in
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_standin(rate: float, per_chat: float) -> tuple[subprocess.Popen[bytes], str]:
    """The stand-in in its own process (rate 0: no overall limit)."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.standin",
            "--port",
            str(port),
            "--token",
            TOKEN,
            "--overall-rate",
            str(rate) if rate > 0 else "none",
            "--per-chat-rate",
            str(per_chat),
            "--any-chat",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if "listening" not in line:
        proc.kill()
        raise RuntimeError(f"the stand-in did not start: {line}")
    return proc, f"http://127.0.0.1:{port}"


def standin_state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/_control/state", timeout=120) as response:
        state: dict[str, Any] = json.loads(response.read())
    return state


# --------------------------------------------------------------------------- part 1
async def deliver(args: argparse.Namespace) -> dict[str, Any]:
    """Seed, then sweep once against the stand-in URL; return the sweep's figures."""
    from bot.app import build_application
    from bot.schedule.scheduler import Scheduler

    data_dir = Path(args.data_dir)
    rate = args.rate if args.rate > 0 else 1_000_000.0
    settings = bench_settings(data_dir, f"{args.standin}/bot", rate, args.per_chat_rate)
    due_at = datetime.now(UTC).replace(second=0, microsecond=0)
    started = time.perf_counter()
    await seed(settings, args.users, due_at)
    seeded = time.perf_counter() - started

    store = await Store.open(settings)
    application = build_application(settings, store)
    await application.initialize()
    scheduler: Scheduler = application.bot_data["scheduler"]
    try:
        await scheduler.attach(application.bot)
        started = time.perf_counter()
        report = await scheduler.sweep()
        swept = time.perf_counter() - started
    finally:
        await application.shutdown()
        await store.close()
    return {"seed_seconds": seeded, "sweep_seconds": swept, "report": report.summary()}


def part_delivery(args: argparse.Namespace, workdir: Path) -> bool:
    limit = f"{args.rate:g} msg/s overall" if args.rate > 0 else "no overall limit"
    print(
        f"== delivery: {args.users:,} users due in the same minute; stand-in limit "
        f"{limit}, {args.per_chat_rate:g} msg/s per chat (configured rate = stand-in limit)"
    )
    proc, url = start_standin(args.rate, args.per_chat_rate)
    try:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--phase",
                "deliver",
                "--standin",
                url,
                "--data-dir",
                str(workdir / "deliver"),
                "--users",
                str(args.users),
                "--rate",
                str(args.rate),
                "--per-chat-rate",
                str(args.per_chat_rate),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            print(out.stdout, out.stderr)
            return False
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        state = standin_state(url)
    finally:
        proc.terminate()
        proc.wait(10)

    messages = [m for m in state["sent"] if CHECKIN_WORDS in (m.get("visible_text") or "")]
    per_chat = Counter(m["chat_id"] for m in messages)
    expected = {FIRST_CHAT + n for n in range(args.users)}
    duplicates = sum(count - 1 for count in per_chat.values() if count > 1)
    missed = len(expected - set(per_chat))
    times = sorted(m["at"] for m in state["sent"])
    delivered = len(state["sent"])
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    achieved = (delivered - 1) / span if span > 0 else float("inf")
    # What the limit allowed during the sweep: rate x sweep time (plus the first message).
    allowed = args.rate * figures["sweep_seconds"] + 1
    ratio = min(1.0, delivered / allowed) if args.rate > 0 else 1.0
    print(
        f"  seeding {args.users:,} users: {figures['seed_seconds']:.1f} s (not part of the figures)"
    )
    print(f"  sweep: {figures['sweep_seconds']:.1f} s ({figures['report']})")
    print(f"  delivered: {delivered:,} messages, first to last {span:.2f} s = {achieved:.1f} msg/s")
    if args.rate > 0:
        print(
            f"  delivered/limit ratio: {ratio:.3f}  (delivered / (limit x sweep time); "
            "target >= 0.95)"
        )
    else:
        print(f"  capacity without a limit: {delivered / figures['sweep_seconds']:.1f} msg/s")
    print(f"  duplicates: {duplicates}  (target 0)")
    print(f"  missed: {missed}  (target 0)")
    print(f"  429 answers from the stand-in: {state['rejected_429_count']}")
    return ratio >= 0.95 and duplicates == 0 and missed == 0


# --------------------------------------------------------------------------- part 2
async def startup(args: argparse.Namespace) -> dict[str, Any]:
    """Open the store, build the Application and start the Scheduler (no network)."""
    from bot.app import build_application
    from bot.schedule.scheduler import Scheduler
    from tests.offline import OfflineRequest

    settings = bench_settings(Path(args.data_dir), "http://127.0.0.1:9/bot", 30.0, 1.0)
    started = time.perf_counter()
    store = await Store.open(settings)
    opened = time.perf_counter()
    application = build_application(settings, store, request=OfflineRequest())
    scheduler: Scheduler = application.bot_data["scheduler"]
    await scheduler.attach(application.bot)
    attached = time.perf_counter()
    report = await scheduler.sweep()  # the first sweep at start-up: nothing is due
    swept = time.perf_counter()
    users = await store.count_users()
    blocked = scheduler.blocked_count
    await store.close()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "users": users,
        "blocked": blocked,
        "open_store": opened - started,
        "scheduler_start": attached - opened,
        "first_sweep": swept - attached,
        "total": swept - started,
        "sweep": report.summary(),
        "peak_rss_mb": peak_kib / 1024,
    }


async def seed_registered(args: argparse.Namespace) -> None:
    settings = bench_settings(Path(args.data_dir), "http://127.0.0.1:9/bot", 30.0, 1.0)
    tomorrow = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=1)
    await seed(settings, args.registered, tomorrow, blocked_every=100, interrupted=10)


def part_startup(args: argparse.Namespace, workdir: Path) -> bool:
    print(f"== start-up with {args.registered:,} registered users")
    data_dir = workdir / "startup"
    common = ["--data-dir", str(data_dir), "--registered", str(args.registered)]
    started = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--phase", "seed", *common], cwd=ROOT, check=True)
    print(f"  seeding (separate process, not measured): {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--phase", "startup", *common],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    process_seconds = time.perf_counter() - started
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"  users: {figures['users']:,}, blocked: {figures['blocked']:,} "
        f"(loaded into memory), first sweep: {figures['sweep']}"
    )
    print(f"  open store (key check, migrations): {figures['open_store']:.3f} s")
    print(f"  scheduler start (blocked set, recovery): {figures['scheduler_start']:.3f} s")
    print(f"  first sweep: {figures['first_sweep']:.3f} s")
    print(f"  start-up total: {figures['total']:.3f} s  (target < 3 s)")
    print(f"  (the whole process, Python imports and exit included: {process_seconds:.2f} s)")
    print(f"  peak RSS of the started process: {figures['peak_rss_mb']:.0f} MB  (target < 300 MB)")
    return bool(figures["total"] < 3.0 and figures["peak_rss_mb"] < 300)


# --------------------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=1000, help="users due at once")
    parser.add_argument(
        "--rate", type=float, default=30.0, help="overall limit in msg/s (0: no limit)"
    )
    parser.add_argument("--per-chat-rate", type=float, default=1.0, help="per-chat limit")
    parser.add_argument("--registered", type=int, default=100_000, help="users for start-up")
    parser.add_argument("--skip-delivery", action="store_true")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--phase", choices=["deliver", "seed", "startup"], help=argparse.SUPPRESS)
    parser.add_argument("--standin", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.phase == "deliver":
        print(json.dumps(asyncio.run(deliver(args))))
        return 0
    if args.phase == "seed":
        asyncio.run(seed_registered(args))
        return 0
    if args.phase == "startup":
        print(json.dumps(asyncio.run(startup(args))))
        return 0

    ok = True
    with tempfile.TemporaryDirectory(prefix="nocontact-bench-") as tmp:
        workdir = Path(tmp)
        os.chmod(workdir, 0o700)
        if not args.skip_delivery:
            ok = part_delivery(args, workdir) and ok
        if not args.skip_startup:
            ok = part_startup(args, workdir) and ok
    print("all targets met" if ok else "some targets were NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
