"""Operator commands: ``nocontact migrate``, ``rotate-master-key`` and ``doctor``.

Each returns the process exit code.  A missing or wrong master key raises
``MasterKeyError`` (a ``ConfigError``), which the CLI prints and turns into exit 2.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from bot.config import ConfigError, Settings
from bot.crypto.keys import missing_data_error, verify_ring
from bot.crypto.keystore import KeyStore, KeyStoreState
from bot.crypto.ring import MasterKeyError, MasterKeyRing, key_file_mode_problem
from bot.crypto.rotation import rotate_master_key as rotate_keys
from bot.store.db import (
    create_engine,
    current_revision,
    database_file_missing,
    describe_error,
    head_revision,
    newer_schema_problem,
    safe_url,
    sqlite_files,
)
from bot.store.facade import Store, count_users_in

_TOKEN_SHAPE = re.compile(r"^\d{5,}:[A-Za-z0-9_-]{30,}$")


async def migrate(settings: Settings) -> int:
    """Verify (or create) the master key, then bring the database schema up to date."""
    store = await Store.open(settings, migrate=True)
    try:
        revision = await current_revision(store.engine)
        users = await store.count_users()
    finally:
        await store.close()
    print(
        f"The database {safe_url(settings.database_url)} is up to date "
        f"(schema {revision}, {users} user(s))."
    )
    return 0


async def rotate_master_key(
    settings: Settings,
    *,
    batch_size: int = 200,
    on_progress: Callable[[int], None] | None = None,
    forget_retired: bool = False,
) -> int:
    """Re-wrap every user key under a new master key; finishes an interrupted rotation.
    ``forget_retired``: then remove the old keys from the file."""
    report = await rotate_keys(
        settings.master_key_file,
        settings.keystore_url,
        batch_size=batch_size,
        on_progress=on_progress,
        forget_retired=forget_retired,
    )
    path = settings.master_key_file.resolve()
    how = "The interrupted rotation is finished" if report.resumed else "Rotation finished"
    print(
        f"{how}: {report.rewrapped} user key(s) re-wrapped; the new master key is "
        f"{report.key_id}. The data rows were not touched."
    )
    if report.forgotten:
        kept = (
            f"The retired key(s) {', '.join(report.forgotten)} were removed from the file: "
            "copies of the key store made before this rotation (backups, WAL archives, "
            "PostgreSQL's pg_wal) can no longer be opened with it, nor the keys of users who "
            "wiped their data. Old copies of master.key still open them: destroy those."
        )
    else:
        kept = (
            "(The old key stays in the file, retired, so older backups of the key store "
            "still open. `--forget-retired` removes it.)"
        )
    print(
        f"nocontact: WARNING: back up {path} NOW. It holds the new master key; copies of "
        f"the file made before this rotation cannot open the key store any more. {kept}",
        file=sys.stderr,
    )
    return 0


# --------------------------------------------------------------------------- doctor
@dataclass
class _Report:
    problems: list[str] = field(default_factory=list)

    def ok(self, text: str) -> None:
        print(f"ok       {text}")

    def note(self, text: str) -> None:
        print(f"note     {text}")

    def problem(self, text: str) -> None:
        self.problems.append(text)
        print(f"PROBLEM  {text}")


def _check_config(settings: Settings, report: _Report) -> None:
    token = settings.telegram_bot_token
    if not token:
        report.problem(
            "TELEGRAM_BOT_TOKEN is not set, so `nocontact run` cannot reach Telegram. Ask "
            "@BotFather for a token and put it in .env (`nocontact chat` works without one)."
        )
    elif not _TOKEN_SHAPE.match(token):
        report.problem(
            "TELEGRAM_BOT_TOKEN does not look like a bot token (it should look like "
            "123456789:AA... as given by @BotFather)."
        )
    else:
        report.ok("TELEGRAM_BOT_TOKEN is set")
    report.ok(f"time zone {settings.timezone}")
    data_dir = settings.data_dir
    if not data_dir.exists():
        report.note(f"the data directory {data_dir} does not exist yet; it is made on first start")
    elif not os.access(data_dir, os.W_OK):
        report.problem(f"the data directory {data_dir} is not writable by this user")
    else:
        report.ok(f"data directory {data_dir}")
    resources = settings.safety_resources_file
    if resources is not None and not resources.is_file():
        report.problem(f"SAFETY_RESOURCES_FILE points to {resources}, which is not a file")


async def _check_keys(settings: Settings, report: _Report) -> KeyStoreState | None:
    path = settings.master_key_file
    ring: MasterKeyRing | None = None
    try:
        ring = MasterKeyRing.load(path)
    except ConfigError as exc:
        report.problem(str(exc))
        return None
    if ring is not None:
        report.ok(f"master key file {path} (primary key {ring.primary})")
        problem = key_file_mode_problem(path)
        if problem:
            report.problem(problem)
        else:
            report.ok("master key file is readable by its owner only")
    keystore = KeyStore(settings.keystore_url)
    try:
        state = await keystore.inspect()
    except (OSError, SQLAlchemyError) as exc:
        report.problem(f"cannot open the key store {keystore.label}: {describe_error(exc)}")
        return None
    finally:
        await keystore.close()
    if ring is None:
        if state.empty:
            report.note(
                f"there is no master key yet; the first start creates {path}. Back it up then."
            )
        else:
            report.problem(
                f"the master key file {path} is missing, but the key store {keystore.label} "
                "needs it. Restore the file from your backup (or set MASTER_KEY_FILE)."
            )
        return state
    try:
        verify_ring(ring, state, keystore.label)
    except ConfigError as exc:
        report.problem(str(exc))
        return state
    if state.empty:
        report.note(f"the key store {keystore.label} is empty; the first start fills it")
    else:
        report.ok(
            f"the master key opens the key store {keystore.label} ({state.user_keys} user key(s))"
        )
    if state.rotation_target is not None or ring.pending is not None:
        report.problem(
            "a master key rotation was interrupted. Run `nocontact rotate-master-key` to finish it."
        )
    return state


async def _check_database(
    settings: Settings, report: _Report, keystate: KeyStoreState | None
) -> None:
    url = settings.database_url
    label = safe_url(url)
    user_keys = keystate.user_keys if keystate is not None else 0
    if database_file_missing(url):
        if user_keys:
            report.problem(
                missing_data_error(user_keys, safe_url(settings.keystore_url), label).args[0]
            )
        elif sqlite_files(url)[0].exists():
            report.problem(f"the database {label} has no schema yet. Run `nocontact migrate`.")
        else:
            report.problem(f"the database {label} does not exist yet. Run `nocontact migrate`.")
        return
    engine = create_engine(url)
    try:
        revision = await current_revision(engine)
        users = await count_users_in(engine, url)
        async with engine.connect() as conn:
            newer = await conn.run_sync(lambda sync: newer_schema_problem(sync, label))
    except (OSError, SQLAlchemyError) as exc:
        report.problem(f"cannot reach the database {label}: {describe_error(exc)}")
        return
    finally:
        await engine.dispose()
    head = head_revision()
    if user_keys and not users:
        report.problem(
            missing_data_error(user_keys, safe_url(settings.keystore_url), label).args[0]
        )
    if newer:
        report.problem(newer)
    elif revision is None:
        report.problem(f"the database {label} has no schema yet. Run `nocontact migrate`.")
    elif revision != head:
        report.problem(
            f"the database {label} is at schema {revision}, this version needs {head}. "
            "Run `nocontact migrate`."
        )
    else:
        report.ok(f"database {label} reachable, schema up to date ({head}), {users} user(s)")
    if keystate is not None and keystate.empty and users:
        report.problem(
            f"the database holds {users} user(s) but the key store is empty: their data "
            "cannot be read. Check KEYSTORE_URL, or restore the key store from your backup."
        )


def _check_model(report: _Report) -> None:
    from flows.analysis.learned import load_model, model_status

    if load_model() is None:
        report.note(model_status())  # the bot still runs, on the rules
    else:
        report.ok(model_status())


def _check_ocr(report: _Report) -> None:
    from bot.reading.ocr import status

    ocr = status()
    if ocr.available:
        report.ok(ocr.sentence)
    elif not ocr.installed:
        report.note(ocr.sentence)  # an optional extra: the bot runs without it
    else:
        report.problem(ocr.sentence)  # installed, but it cannot work here


async def doctor(settings: Settings) -> int:
    """Check configuration, master key, key store and database; explain what is wrong."""
    report = _Report()
    _check_config(settings, report)
    keystate = await _check_keys(settings, report)
    await _check_database(settings, report, keystate)
    _check_model(report)
    _check_ocr(report)
    if report.problems:
        print(f"\n{len(report.problems)} problem(s) found.")
        return 1
    print("\nEverything looks fine.")
    return 0


__all__ = ["MasterKeyError", "doctor", "migrate", "rotate_master_key"]
