"""Run the Bot API stand-in as its own process: ``python -m tests.standin --port 8081``.

Drive it through the HTTP control API described in tests/standin/control.py.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from tests.standin.server import BotApiStandIn


def _rate(value: str) -> float | None:
    return None if value.lower() in ("none", "0", "off") else float(value)


async def _serve(args: argparse.Namespace) -> None:
    standin = BotApiStandIn(
        args.token,
        overall_rate=args.overall_rate,
        per_chat_rate=args.per_chat_rate,
        burst=args.burst,
        known_chats_only=not args.any_chat,
        port=args.port,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with standin:
        print(
            f"Bot API stand-in listening on {standin.url} (base_url {standin.base_url})", flush=True
        )
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.standin")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default="123:TEST")
    parser.add_argument("--overall-rate", type=_rate, default=30.0, help="msgs/s or 'none'")
    parser.add_argument("--per-chat-rate", type=_rate, default=1.0, help="msgs/s or 'none'")
    parser.add_argument("--burst", type=int, default=3)
    parser.add_argument(
        "--any-chat", action="store_true", help="allow sending to chats no update came from"
    )
    asyncio.run(_serve(parser.parse_args()))


if __name__ == "__main__":
    main()
