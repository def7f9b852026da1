"""``nocontact backup DIR`` and ``nocontact restore DIR``.

A backup is the data database and the key store, copied while the bot runs (SQLite's
online backup API gives a consistent copy of each, WAL included), plus ``backup.json``
(file names, checksums, schema revision, master key ids; nothing about anyone).  The data
is copied first and the key store second: everyone in the data copy then has their key in
the key copy (a key is stored before its user), and a user wiped in between stays unreadable.

The master key is never in a backup: it must be kept apart from it.  On PostgreSQL the
command prints the ``pg_dump`` command to use.

``restore`` first checks the backup against the master key (``MASTER_KEY_FILE``), the
checksums and the schema; only then, with no bot running on the target (the lease is
taken) and nothing there to overwrite, it copies the files into place.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.config import ConfigError, Settings
from bot.crypto.keys import verify_ring
from bot.crypto.keystore import KeyStore, KeyStoreState
from bot.crypto.ring import MasterKeyRing
from bot.store.db import (
    create_engine,
    current_revision,
    ensure_private_dir,
    head_revision,
    safe_url,
    sqlite_path,
)
from bot.store.facade import count_users_in
from bot.store.lease import Lease

DATA_FILE = "nocontact.db"
KEYS_FILE = "keys.db"
MANIFEST = "backup.json"


def _sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database (the online backup API)."""
    if not source.exists():
        raise ConfigError(f"{source} does not exist: there is nothing to back up yet.")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    os.chmod(target, 0o600)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def pg_dump_command(url: str, target: Path) -> str:
    """The pg_dump command for a PostgreSQL URL (the password, if any, is not shown)."""
    parsed = make_url(url).set(drivername="postgresql")
    return (
        f"pg_dump --format=custom --file={target} '{parsed.render_as_string(hide_password=True)}'"
    )


def _is_empty(directory: Path) -> bool:
    return not directory.exists() or not any(directory.iterdir())


def _in_use(target: Path) -> bool:
    return any(Path(f"{target}{suffix}").exists() for suffix in ("", "-wal", "-shm"))


async def backup(settings: Settings, directory: Path) -> int:
    if not _is_empty(directory):
        raise ConfigError(f"{directory} is not empty; give a new or empty directory.")
    ensure_private_dir(directory)
    files: dict[str, str] = {}
    notes: list[str] = []
    data = sqlite_path(settings.database_url)
    if data is not None:
        _copy_sqlite(data, directory / DATA_FILE)
        files[DATA_FILE] = _sha256(directory / DATA_FILE)
    else:
        notes.append(
            "The data database is on PostgreSQL. Dump it with:\n  "
            + pg_dump_command(settings.database_url, directory / "nocontact.dump")
            + "\n  (before this command is the safe order: then everyone in the dump has "
            "their key in this copy of the key store)"
        )
    keys = sqlite_path(settings.keystore_url)
    if keys is not None:
        _copy_sqlite(keys, directory / KEYS_FILE)
        files[KEYS_FILE] = _sha256(directory / KEYS_FILE)
    else:
        notes.append(
            "The key store is on PostgreSQL. Dump it with:\n  "
            + pg_dump_command(settings.keystore_url, directory / "keys.dump")
        )
    state = await _inspect(directory / KEYS_FILE) if keys is not None else None
    manifest = {
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "schema": head_revision(),
        "files": files,
        "master_keys": sorted(state.checks) if state is not None else [],
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"Backed up {', '.join(files) or 'nothing'} to {directory} (a consistent copy of each).")
    for note in notes:
        print(note)
    print(
        f"nocontact: REMINDER: the master key ({settings.master_key_file.resolve()}) is not in "
        "this backup, on purpose. Keep a copy of it somewhere else (a password manager, an "
        "encrypted USB stick), never next to the backup: with both, anyone can read the data; "
        "without the key, nobody can.",
        file=sys.stderr,
    )
    return 0


async def _inspect(keys: Path) -> KeyStoreState:
    store = KeyStore(_sqlite_url(keys))
    try:
        return await store.inspect()
    finally:
        await store.close()


async def check_backup(settings: Settings, directory: Path) -> list[str]:
    """Problems that make the backup unusable with this master key (empty: usable)."""
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        return [f"{directory} has no {MANIFEST}: it is not a nocontact backup."]
    manifest = json.loads(manifest_path.read_text())
    problems = []
    for name, digest in manifest.get("files", {}).items():
        path = directory / name
        if not path.is_file():
            problems.append(f"{name} is missing from the backup.")
        elif _sha256(path) != digest:
            problems.append(f"{name} has changed since the backup was made (checksum).")
    if problems:
        return problems
    keys = directory / KEYS_FILE
    if keys.is_file():
        ring = MasterKeyRing.load(settings.master_key_file)
        if ring is None:
            return [
                f"there is no master key at {settings.master_key_file}: the backup cannot be "
                "read without it. Put your copy there (or set MASTER_KEY_FILE)."
            ]
        try:
            verify_ring(ring, await _inspect(keys), str(keys))
        except ConfigError as exc:
            return [str(exc)]
    data = directory / DATA_FILE
    if data.is_file():
        engine = create_engine(_sqlite_url(data))
        try:
            revision = await current_revision(engine)
            await count_users_in(engine, _sqlite_url(data))
        finally:
            await engine.dispose()
        if revision is None:
            problems.append(f"{DATA_FILE} in the backup has no schema.")
    return problems


async def restore(settings: Settings, directory: Path) -> int:
    problems = await check_backup(settings, directory)
    if problems:
        for problem in problems:
            print(f"PROBLEM  {problem}")
        print("The backup was not restored; nothing was changed.")
        return 1
    print(f"ok       the master key opens the backup in {directory}")
    targets = [
        (directory / name, sqlite_path(url))
        for name, url in ((DATA_FILE, settings.database_url), (KEYS_FILE, settings.keystore_url))
        if (directory / name).is_file()
    ]
    for _, target in targets:
        if target is None:
            raise ConfigError(
                "DATABASE_URL or KEYSTORE_URL is not a SQLite file; restore the PostgreSQL dump "
                "with pg_restore, then run `nocontact doctor`."
            )
        if _in_use(target):
            raise ConfigError(
                f"{target} exists. Move it away first (the backup never overwrites data), then "
                "run restore again."
            )
    lease = Lease(settings.database_url)
    if not await lease.try_acquire():
        raise ConfigError(
            f"a nocontact process is running on {safe_url(settings.database_url)}; stop it first."
        )
    try:
        for source, target in targets:
            assert target is not None
            ensure_private_dir(target.parent)
            shutil.copyfile(source, target)
            os.chmod(target, 0o600)
            print(f"restored {target}")
    finally:
        await lease.release()
    print("Restored. Run `nocontact migrate` if this version is newer, then start the bot.")
    return 0
