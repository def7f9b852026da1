"""The ``nocontact`` command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import ConfigError, Settings, load_settings


def _print_json(obj: object) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def _cmd_run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import run

    return run(settings, webhook_url=args.webhook)


def _cmd_migrate(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.admin import migrate

    return asyncio.run(migrate(settings))


def _cmd_rotate(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.admin import rotate_master_key

    return asyncio.run(rotate_master_key(settings, forget_retired=args.forget_retired))


def _cmd_doctor(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.admin import doctor

    return asyncio.run(doctor(settings))


def _cmd_health(settings: Settings, args: argparse.Namespace) -> int:
    from bot.health import check

    healthy, why = asyncio.run(check(settings))
    print(f"{'healthy' if healthy else 'UNHEALTHY'}: {why}")
    return 0 if healthy else 1


def _cmd_backup(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.backup import backup

    return asyncio.run(backup(settings, Path(args.directory)))


def _cmd_restore(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.backup import restore

    return asyncio.run(restore(settings, Path(args.directory)))


def _cmd_chat(settings: Settings, args: argparse.Namespace) -> int:
    from bot.cli.terminal import chat

    return asyncio.run(chat(settings))


def _cmd_analyze(settings: Settings | None, args: argparse.Namespace) -> int:
    from flows.analysis import analyze

    if args.text == "-":
        for line in sys.stdin:
            line = line.rstrip("\n")
            _print_json(analyze(line, sender=args.sender).to_json())
            sys.stdout.flush()
        return 0
    _print_json(analyze(" ".join([args.text, *args.more]), sender=args.sender).to_json())
    return 0


def _cmd_check_draft(settings: Settings | None, args: argparse.Namespace) -> int:
    from flows.analysis import check_draft

    _print_json(check_draft(args.incoming or "", " ".join(args.draft)).to_json())
    return 0


def _cmd_verify_export(settings: Settings | None, args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.reports.archive import verify_archive

    verdict = verify_archive(Path(args.file), args.hash)
    if verdict.intact:
        print("intact")
        print(f"check code: {verdict.final}")
        if args.hash is None:
            print("Compare it with the check code in the chat message and on the report pages.")
        return 0
    print("NOT intact:")
    for problem in verdict.problems:
        print(f"- {problem}")
    if verdict.final:
        print(f"check code of the archive as it is now: {verdict.final}")
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nocontact",
        description="A self-hosted Telegram bot that helps you go and stay no contact.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "run",
        help="run the bot (long polling; --webhook URL to receive updates by webhook). A "
        "second process on the same database waits as a standby",
    )
    p.add_argument(
        "--webhook",
        metavar="URL",
        default=None,
        help="the public https:// URL Telegram posts updates to (behind a reverse proxy that "
        "forwards it to WEBHOOK_LISTEN:WEBHOOK_PORT)",
    )
    p.set_defaults(func=_cmd_run, needs_settings=True)

    p = sub.add_parser("migrate", help="create or upgrade the database schema")
    p.set_defaults(func=_cmd_migrate, needs_settings=True)

    p = sub.add_parser(
        "rotate-master-key",
        help="wrap every user key under a new master key (resumes an interrupted rotation)",
    )
    p.add_argument(
        "--forget-retired",
        action="store_true",
        help="then remove the old master keys from the file, so copies of the key store made "
        "before (backups, WAL archives, pg_wal) can no longer be opened with it",
    )
    p.set_defaults(func=_cmd_rotate, needs_settings=True)

    p = sub.add_parser(
        "doctor", help="check configuration, key, database and migrations; explain problems"
    )
    p.set_defaults(func=_cmd_doctor, needs_settings=True)

    p = sub.add_parser(
        "health", help="exit 0 if a bot process is active on this database and alive, else 1"
    )
    p.set_defaults(func=_cmd_health, needs_settings=True)

    p = sub.add_parser(
        "backup", help="copy the data and the key store to DIR while the bot runs (not the key)"
    )
    p.add_argument("directory", metavar="DIR", help="a new or empty directory")
    p.set_defaults(func=_cmd_backup, needs_settings=True)

    p = sub.add_parser(
        "restore",
        help="check a backup in DIR against the master key, then put it in place",
    )
    p.add_argument("directory", metavar="DIR", help="a directory made by `nocontact backup`")
    p.set_defaults(func=_cmd_restore, needs_settings=True)

    p = sub.add_parser("chat", help="talk to the bot's flows in this terminal (no token needed)")
    p.set_defaults(func=_cmd_chat, needs_settings=True)

    p = sub.add_parser("analyze", help="analyse a message and print JSON ('-' reads stdin lines)")
    p.add_argument("text", help="the message, or - to read one message per line from stdin")
    p.add_argument("more", nargs="*", help=argparse.SUPPRESS)
    p.add_argument(
        "--from",
        dest="sender",
        choices=("them", "relay", "other", "me"),
        default="them",
        help="who wrote it: the person you left (default), someone passing messages, "
        "someone else, or you",
    )
    p.set_defaults(func=_cmd_analyze, needs_settings=False)

    p = sub.add_parser("check-draft", help="check a reply you want to send and print JSON")
    p.add_argument("--incoming", default="", help="the message you are answering")
    p.add_argument("draft", nargs="+", help="your draft reply")
    p.set_defaults(func=_cmd_check_draft, needs_settings=False)

    p = sub.add_parser(
        "verify-export",
        help="check an /export archive: prints 'intact' or what was changed, removed, "
        "reordered or added",
    )
    p.add_argument("file", help="the .zip file /export sent")
    p.add_argument(
        "--hash", default=None, help="the check code from the chat message or the report"
    )
    p.set_defaults(func=_cmd_verify_export, needs_settings=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings: Settings | None = None
    try:
        if args.needs_settings:
            settings = load_settings()
        result: int = args.func(settings, args)
    except ConfigError as exc:
        print(f"nocontact: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
