"""bot.telegram.transport.AiohttpRequest: real python-telegram-bot calls over real local HTTP."""

from __future__ import annotations

import asyncio
import socket
import time
import traceback
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData
from telegram.request._requestparameter import RequestParameter

from bot.app import build_application
from bot.config import Settings
from bot.store.facade import Store
from bot.telegram.transport import AiohttpRequest, RequestNotSent, ServerError, _describe
from bot.telegram.updates import ScreenedUpdates
from tests.offline import OfflineRequest
from tests.standin import BotApiStandIn

CHAT = 5001
TOKEN = "123:SECRET-TOKEN"
BOT_USER = {"id": 123, "is_bot": True, "first_name": "Bot", "username": "bot"}
MESSAGE = {"message_id": 7, "date": 0, "chat": {"id": CHAT, "type": "private"}, "text": "x"}


# --------------------------------------------------------------------------- servers
@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(TOKEN, per_chat_rate=None, overall_rate=None) as server:
        server.inject_text(CHAT, "hi")
        yield server


@dataclass
class Seen:
    method: str
    content_type: str
    headers: dict[str, str]
    body: bytes
    fields: dict[str, Any]


@dataclass
class Capture:
    """A bare Bot API endpoint that records requests; ``hold`` blocks until released."""

    url: str = ""
    seen: list[Seen] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    updates_delay: float = 0.0

    @property
    def base_url(self) -> str:
        return f"{self.url}/bot"

    def method_url(self, method: str) -> str:
        return f"{self.base_url}{TOKEN}/{method}"

    async def handle(self, request: web.Request) -> web.Response:
        fields: dict[str, Any] = {}
        for name, value in (await request.post()).items():  # as the stand-in parses them
            if isinstance(value, web.FileField):
                fields[name] = (value.filename, value.content_type, value.file.read())
            else:
                fields[name] = value
        body = await request.read()  # the form-encoded body (a multipart one is consumed)
        method = request.match_info["method"]
        self.seen.append(Seen(method, request.content_type, dict(request.headers), body, fields))
        result: Any = MESSAGE
        if method == "hold":
            self.arrived.set()
            await self.release.wait()
        elif method == "getMe":
            result = BOT_USER
        elif method == "getUpdates":
            await asyncio.sleep(self.updates_delay)
            result = []
        elif method == "gateway":  # what nginx in front of the Bot API answers
            return web.Response(status=502, text="<html>502 Bad Gateway</html>")
        elif method == "busy":
            body = {"ok": False, "error_code": 500, "description": "Internal Server Error"}
            return web.json_response(body, status=500)
        return web.json_response({"ok": True, "result": result})


@pytest.fixture
async def capture() -> AsyncIterator[Capture]:
    cap = Capture()
    app = web.Application()
    app.router.add_route("*", "/bot{token}/{method}", cap.handle)
    runner = web.AppRunner(app, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    cap.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield cap
    finally:
        cap.release.set()
        await runner.cleanup()


def aiohttp_bot(base_url: str, **request_kw: Any) -> Bot:
    return Bot(
        TOKEN,
        base_url=base_url,
        request=AiohttpRequest(**request_kw),
        get_updates_request=AiohttpRequest(connection_pool_size=1, **request_kw),
    )


def text_param(text: str) -> RequestData:
    return RequestData(
        [RequestParameter("chat_id", CHAT, None), RequestParameter("text", text, None)]
    )


# --------------------------------------------------------------------------- round trips
async def test_a_bot_on_aiohttp_talks_to_the_bot_api(standin: BotApiStandIn) -> None:
    async with aiohttp_bot(standin.base_url) as bot:
        assert bot.username == standin.bot_user["username"]  # getMe during initialize
        (update,) = await bot.get_updates(timeout=0)
        assert update.message is not None and update.message.text == "hi"
        message = await bot.send_message(CHAT, "<b>Hello</b> &amp; bye", parse_mode="HTML")
        assert message.text == "Hello & bye" and message.chat.id == CHAT
    (sent,) = standin.messages_for(CHAT)
    assert sent.visible_text == "Hello & bye" and sent.parse_mode == "HTML"


async def test_send_document_uploads_the_file_with_its_name(standin: BotApiStandIn) -> None:
    content = b"%PDF-1.4 \x00\xff binary"
    async with aiohttp_bot(standin.base_url) as bot:
        message = await bot.send_document(
            CHAT, content, filename="report é.pdf", caption="Your report"
        )
        photo = await bot.send_photo(CHAT, b"\x89PNG fake", filename="chart.png")
    assert message.document is not None
    assert message.document.file_name == "report é.pdf"
    assert message.document.file_size == len(content)
    assert message.caption == "Your report"
    document, picture = standin.messages_for(CHAT)
    assert document.file is not None and picture.file is not None
    assert document.file.filename == "report é.pdf"
    assert document.file.content_type == "application/pdf"
    assert document.file.data == content
    assert picture.file.filename == "chart.png" and picture.file.data == b"\x89PNG fake"
    assert photo.photo


async def test_request_bodies_are_what_httpx_sends(capture: Capture) -> None:
    text = "héllo & <b>bye</b> + 100%"
    for request in (HTTPXRequest(), AiohttpRequest()):
        async with Bot(TOKEN, base_url=capture.base_url, request=request) as bot:
            await bot.send_message(CHAT, text, disable_notification=True)
            await bot.send_document(CHAT, b"a\x00b", filename='my "notes".txt', caption="ü")
    get_me_httpx, text_httpx, doc_httpx, get_me_aio, text_aio, doc_aio = capture.seen
    assert get_me_aio.body == get_me_httpx.body == b""
    assert "Content-Type" not in get_me_aio.headers
    # plain parameters: byte for byte the same form-encoded body
    assert text_aio.content_type == text_httpx.content_type == "application/x-www-form-urlencoded"
    assert text_aio.body == text_httpx.body
    assert text_aio.fields["text"] == text
    # files: the same fields, file name, type and content (only the boundary differs)
    assert doc_aio.content_type == doc_httpx.content_type == "multipart/form-data"
    assert doc_aio.fields == doc_httpx.fields
    # both escape '"' in file names the HTML5 way; aiohttp's server does not unescape it
    assert doc_aio.fields["document"] == ("my %22notes%22.txt", "text/plain", b"a\x00b")
    for seen in capture.seen:
        assert seen.headers["User-Agent"] == BaseRequest.USER_AGENT


# --------------------------------------------------------------------------- timeouts
async def test_a_slow_answer_raises_timed_out(capture: Capture) -> None:
    request = AiohttpRequest()
    await request.initialize()
    try:
        started = time.monotonic()
        with pytest.raises(TimedOut):
            await request.post(capture.method_url("hold"), text_param("x"), read_timeout=0.2)
        assert time.monotonic() - started < 2
        # the constructor's read timeout applies when a call gives none
        short = AiohttpRequest(read_timeout=0.2)
        await short.initialize()
        with pytest.raises(TimedOut):
            await short.post(capture.method_url("hold"), text_param("x"))
        await short.shutdown()
    finally:
        await request.shutdown()


async def test_long_polling_gets_the_poll_timeout_on_top_of_the_read_timeout(
    capture: Capture,
) -> None:
    capture.updates_delay = 0.4
    async with aiohttp_bot(capture.base_url, read_timeout=0.2) as bot:
        assert await bot.get_updates(timeout=1) == ()  # waited 0.4 s > 0.2 s
        with pytest.raises(TimedOut):
            await bot.get_updates(timeout=0)


async def test_a_full_connection_pool_raises_pool_timeout(capture: Capture) -> None:
    request = AiohttpRequest(connection_pool_size=1, pool_timeout=0.1)
    await request.initialize()
    try:
        first = asyncio.create_task(request.post(capture.method_url("hold"), text_param("1")))
        await asyncio.wait_for(capture.arrived.wait(), 2)
        with pytest.raises(TimedOut, match="Pool timeout"):
            await request.post(capture.method_url("sendMessage"), text_param("2"))
        capture.release.set()
        assert (await first)["message_id"] == MESSAGE["message_id"]
        # the connection is free again
        await request.post(capture.method_url("sendMessage"), text_param("3"))
    finally:
        await request.shutdown()
    assert [s.fields["text"] for s in capture.seen] == ["1", "3"]


# --------------------------------------------------------------------------- errors
def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_a_refused_connection_raises_network_error_without_secrets() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/bot{TOKEN}/sendMessage"
    diary = "my private " + "diary entry"  # not in any source line a traceback shows
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.post(url, text_param(diary))
    finally:
        await request.shutdown()
    error = caught.value
    assert not isinstance(error, TimedOut)
    assert str(error).startswith("aiohttp.ClientConnectorError")
    logged = "".join(traceback.format_exception(error))  # what PTB's exc_info logs print
    assert diary not in logged
    assert TOKEN not in logged


async def test_the_errors_say_what_certainly_was_not_sent(capture: Capture) -> None:
    """A 5xx answer and a request that never left are told apart from a timeout after
    sending (which may have delivered the message), so the scheduler knows what it may
    send again."""
    request = AiohttpRequest(connection_pool_size=1, pool_timeout=0.1)
    await request.initialize()
    try:
        with pytest.raises(ServerError) as gateway:
            await request.post(capture.method_url("gateway"), text_param("x"))
        assert gateway.value.status == 502 and str(gateway.value) == "Bad Gateway (502)"
        with pytest.raises(ServerError, match="Internal Server Error") as busy:
            await request.post(capture.method_url("busy"), text_param("x"))
        assert busy.value.status == 500
        refused = f"http://127.0.0.1:{_closed_port()}/bot{TOKEN}/sendMessage"
        with pytest.raises(RequestNotSent):
            await request.post(refused, text_param("x"))
        first = asyncio.create_task(request.post(capture.method_url("hold"), text_param("1")))
        await asyncio.wait_for(capture.arrived.wait(), 2)
        with pytest.raises(RequestNotSent):  # the pool was full: not sent
            await request.post(capture.method_url("sendMessage"), text_param("2"))
        capture.release.set()
        await first
        slow = AiohttpRequest(read_timeout=0.2)
        await slow.initialize()
        capture.release.clear()
        try:
            with pytest.raises(TimedOut) as timed_out:  # sent; it may have arrived
                await slow.post(capture.method_url("hold"), text_param("3"))
            assert not isinstance(timed_out.value, RequestNotSent | ServerError)
        finally:
            capture.release.set()
            await slow.shutdown()
    finally:
        await request.shutdown()


def test_error_messages_never_show_the_url_with_the_token() -> None:
    url = f"https://api.telegram.org/bot{TOKEN}/sendDocument"
    error = aiohttp.ClientOSError(32, f"Can not write request body for {url}")
    assert _describe(error, url) == (
        "aiohttp.ClientOSError: [Errno 32] Can not write request body for <Bot API URL>"
    )


# --------------------------------------------------------------------------- lifecycle
async def test_shutdown_twice_and_initialize_again(capture: Capture) -> None:
    request = AiohttpRequest()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(capture.method_url("getMe"), "POST")
    await request.shutdown()  # never initialized: nothing to do
    await request.initialize()
    await request.initialize()  # already open: kept
    assert (await request.post(capture.method_url("getMe")))["id"] == BOT_USER["id"]
    await request.shutdown()
    await request.shutdown()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(capture.method_url("getMe"), "POST")
    await request.initialize()
    try:
        assert (await request.post(capture.method_url("getMe")))["id"] == BOT_USER["id"]
    finally:
        await request.shutdown()


async def test_build_application_uses_aiohttp_unless_told_otherwise(tmp_path: Path) -> None:
    settings = Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data")
    store = await Store.open(settings)
    try:
        app = build_application(settings, store)
        screened, other = app.bot._request  # (getUpdates, everything else)
        assert isinstance(screened, ScreenedUpdates)  # what getUpdates returns is screened
        requests = (screened.inner, other)
        assert all(isinstance(r, AiohttpRequest) for r in requests)
        assert requests[0] is not requests[1]
        assert [r._pool_size for r in requests] == [1, 256]  # type: ignore[attr-defined]
        assert screened.read_timeout == 5.0
        offline = OfflineRequest()
        app = build_application(settings, store, request=offline)
        screened, other = app.bot._request
        assert isinstance(screened, ScreenedUpdates)
        assert (screened.inner, other) == (offline, offline)
    finally:
        await store.close()


# --------------------------------------------------------------------------- proxies
UNREACHABLE = "http://bot-api.invalid:9"


async def test_the_proxy_from_the_environment_is_used(
    capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator behind a proxy sets HTTP(S)_PROXY, as with PTB's own transport: the
    call reaches the Bot API through it (the server name itself cannot be resolved)."""
    monkeypatch.setenv("HTTP_PROXY", capture.url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    async with aiohttp_bot(f"{UNREACHABLE}/bot") as bot:
        await bot.send_message(CHAT, "through the proxy")
    assert [seen.method for seen in capture.seen] == ["getMe", "sendMessage"]
    assert capture.seen[1].fields["text"] == "through the proxy"


async def test_no_proxy_hosts_are_reached_directly(
    capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", capture.url)
    monkeypatch.setenv("NO_PROXY", "bot-api.invalid")
    request = AiohttpRequest(connect_timeout=2)
    await request.initialize()
    try:
        with pytest.raises(NetworkError):
            await request.post(f"{UNREACHABLE}/bot{TOKEN}/getMe")
    finally:
        await request.shutdown()
    assert capture.seen == []
