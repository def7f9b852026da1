"""The bot's HTTP transport: python-telegram-bot's ``BaseRequest`` on aiohttp.

PTB's default ``HTTPXRequest`` (httpx, httpcore, anyio) spends more CPU per Bot API call
than the rest of the bot; aiohttp does the same work for a fraction of it.  This class
mirrors ``HTTPXRequest``: the same constructor defaults, the same timeout resolution
(``media_write_timeout`` when files are uploaded), the same request bodies (form-encoded
parameters, ``multipart/form-data`` with files), the same CA certificates, and the same
errors (``TimedOut``, ``NetworkError`` naming the error class).

Differences, all deliberate:

- aiohttp has no per-write timeout, so the write timeout bounds the whole request
  instead: ``total = connect + write + read`` (no limit if any of them is ``None``).
  The read timeout only starts once the request body has been sent.
- The connection pool is guarded by a semaphore so that waiting longer than
  ``pool_timeout`` for a free connection raises PTB's "Pool timeout" ``TimedOut``.
- aiohttp's error messages can hold the request URL, which holds the bot token, and PTB
  logs polling errors with their traceback: errors are re-raised with the URL redacted
  and without the aiohttp exception chained.
- The errors say whether the request certainly never reached the Bot API, so a caller
  knows what is safe to send again (``bot.telegram.send.retry_delay``):
  :class:`RequestNotSent` (no free connection, the connection could not be made) and
  :class:`ServerError` (a 5xx answer: the Bot API, or a gateway in front of it, did not
  take the message).  A read timeout or a connection lost mid-request stays a plain
  ``TimedOut`` / ``NetworkError``: the message may or may not have arrived.
- Proxies come from the environment (``HTTPS_PROXY``, ``HTTP_PROXY``, ``NO_PROXY``), as
  with httpx, read once per Bot API server rather than on every call (aiohttp's own
  ``trust_env`` reads them on every call, which costs more than the call itself);
  SOCKS proxies are not supported.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import urllib.request
from collections.abc import AsyncIterator, Iterator
from http import HTTPStatus
from urllib.parse import urlencode, urlsplit

import aiohttp
import httpx
from aiohttp.payload import BytesPayload
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

log = logging.getLogger(__name__)

POOL_TIMEOUT_MESSAGE = (
    "Pool timeout: All connections in the connection pool are occupied. Request was *not* "
    "sent to Telegram. Consider adjusting the connection pool size or the pool timeout."
)
FORM_URLENCODED = "application/x-www-form-urlencoded"
REDACTED_URL = "<Bot API URL>"
# without a body aiohttp would add "Content-Type: application/octet-stream"; httpx sends none
_NO_BODY_SKIP = ("Content-Type",)

# httpx's (HTML5) escaping of multipart file names; aiohttp itself escapes backslashes.
# DEL and ESC are escaped too: aiohttp refuses them in headers.
_FILENAME_ESCAPES = {'"': "%22"} | {chr(c): f"%{c:02X}" for c in [*range(0x20), 0x7F]}
_FILENAME_ESCAPE_RE = re.compile("|".join(map(re.escape, _FILENAME_ESCAPES)))


class RequestNotSent(NetworkError):
    """The request never left this machine (no connection was made): safe to repeat."""


class PoolTimedOut(TimedOut, RequestNotSent):
    """PTB's "Pool timeout": every connection was busy, the request was not sent."""


class ConnectTimedOut(TimedOut, RequestNotSent):
    """Connecting to the Bot API server timed out: the request was not sent."""


class ServerError(NetworkError):
    """The Bot API server (or a gateway in front of it) answered 5xx: it did not take the
    request.  ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _server_error(status: int, payload: bytes) -> ServerError:
    """The error PTB would raise for a 5xx answer (its message), as a :class:`ServerError`."""
    try:
        message = f"{HTTPStatus(status).phrase} ({status})"
    except ValueError:
        message = f"Unknown HTTPError ({status})"
    try:
        description = json.loads(payload).get("description")
    except (ValueError, AttributeError, UnicodeDecodeError):
        description = None
    return ServerError(description if isinstance(description, str) else message, status)


def _total(*timeouts: float | None) -> float | None:
    total = 0.0
    for timeout in timeouts:
        if timeout is None:
            return None
        total += timeout
    return total


def _escape_filename(filename: str) -> str:
    return _FILENAME_ESCAPE_RE.sub(lambda match: _FILENAME_ESCAPES[match.group(0)], filename)


def _multipart(request_data: RequestData) -> aiohttp.FormData:
    # quote_fields=False: UTF-8 file names as they are (what httpx sends), not %-encoded
    form = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=_escape_filename(filename), content_type=mimetype)
    return form


@contextlib.contextmanager
def _telegram_errors(url: str) -> Iterator[None]:
    """aiohttp's errors as PTB's, saying whether the request may have been sent."""
    try:
        yield
    except aiohttp.ConnectionTimeoutError:
        raise ConnectTimedOut from None
    except TimeoutError:
        # aiohttp's other timeouts (socket read, total) are TimeoutErrors too
        raise TimedOut from None
    except aiohttp.ClientConnectorError as error:
        # refused, unreachable, DNS, TLS handshake: nothing was sent
        raise RequestNotSent(_describe(error, url)) from None
    except (aiohttp.ClientError, OSError) as error:
        raise NetworkError(_describe(error, url)) from None


def _describe(error: BaseException, url: str) -> str:
    """``aiohttp.ClassName: message`` with the URL (it holds the bot token) redacted."""
    forms = {url}
    with contextlib.suppress(ValueError, TypeError):  # aiohttp may have refused it too
        forms.add(str(URL(url)))
    text = str(error)
    for form in forms:
        text = text.replace(form, REDACTED_URL)
    prefix = "aiohttp." if isinstance(error, aiohttp.ClientError) else ""
    return f"{prefix}{type(error).__name__}: {text}"


class AiohttpRequest(BaseRequest):
    """:class:`telegram.request.BaseRequest` implemented with an ``aiohttp.ClientSession``.

    The session is made by :meth:`initialize` (it must be made inside the running event
    loop) and closed by :meth:`shutdown`; initializing again after a shutdown makes a new
    one.  Arguments and defaults are those of :class:`telegram.request.HTTPXRequest`.
    """

    __slots__ = (
        "_connect_timeout",
        "_media_write_timeout",
        "_pool_size",
        "_pool_timeout",
        "_proxies",
        "_read_timeout",
        "_session",
        "_slots",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._slots = asyncio.Semaphore(connection_pool_size)
        # "scheme://host/bot<token>" -> the proxy for it, if any
        self._proxies: dict[str, str | None] = {}

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (PTB adds the long-poll timeout to it for getUpdates)."""
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is not None and not self._session.closed:
            return
        connector = aiohttp.TCPConnector(
            limit=self._pool_size,
            # the CA certificates httpx uses (certifi, or SSL_CERT_FILE / SSL_CERT_DIR)
            ssl=httpx.create_ssl_context(),
        )
        self._session = aiohttp.ClientSession(
            connector=connector, headers={"User-Agent": self.USER_AGENT}
        )
        self._slots = asyncio.Semaphore(self._pool_size)
        self._proxies = {}

    def _proxy_for(self, url: str) -> str | None:
        """The proxy the environment names for ``url`` (None: connect directly)."""
        base = url.rsplit("/", 1)[0]
        if base not in self._proxies:
            parts = urlsplit(url)
            proxy = urllib.request.getproxies_environment().get(parts.scheme)
            if proxy and urllib.request.proxy_bypass(parts.hostname or ""):
                proxy = None
            self._proxies[base] = proxy or None
        return self._proxies[base]

    async def shutdown(self) -> None:
        if self._session is None or self._session.closed:
            log.debug("this AiohttpRequest is already shut down")
            return
        await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")

        uploads = request_data is not None and request_data.contains_files
        if isinstance(read_timeout, DefaultValue):
            read_timeout = self._read_timeout
        if isinstance(write_timeout, DefaultValue):
            write_timeout = self._media_write_timeout if uploads else self._write_timeout
        if isinstance(connect_timeout, DefaultValue):
            connect_timeout = self._connect_timeout
        if isinstance(pool_timeout, DefaultValue):
            pool_timeout = self._pool_timeout

        data: aiohttp.FormData | BytesPayload | None = None
        if request_data is not None:
            if uploads:
                data = _multipart(request_data)
            elif params := request_data.json_parameters:
                # = request_data.url_encoded_parameters(), without building the dict twice
                data = BytesPayload(urlencode(params).encode(), content_type=FORM_URLENCODED)
        timeout = aiohttp.ClientTimeout(
            total=_total(connect_timeout, write_timeout, read_timeout),
            connect=connect_timeout,
            sock_read=read_timeout,
        )

        slots = self._slots
        await self._take_connection(slots, pool_timeout)
        try:
            with _telegram_errors(url):
                async with session.request(
                    method,
                    url,
                    data=data,
                    timeout=timeout,
                    proxy=self._proxy_for(url),
                    skip_auto_headers=_NO_BODY_SKIP if data is None else None,
                ) as response:
                    status, payload = response.status, await response.read()
        finally:
            slots.release()
        if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
            raise _server_error(status, payload)
        return status, payload

    async def stream(
        self, url: str, piece: int, read_timeout: float | None = 30.0
    ) -> AsyncIterator[bytes]:
        """GET ``url`` (a file from the Bot API's file endpoint) and hand its body on in
        pieces of at most ``piece`` bytes, as they arrive: a large file is never held
        whole.  Errors are those of :meth:`do_request` (the URL, which holds the token,
        redacted)."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        timeout = aiohttp.ClientTimeout(connect=self._connect_timeout, sock_read=read_timeout)
        slots = self._slots
        await self._take_connection(slots, self._pool_timeout)
        try:
            with _telegram_errors(url):
                async with session.get(
                    url, timeout=timeout, proxy=self._proxy_for(url)
                ) as response:
                    if response.status != HTTPStatus.OK:
                        raise NetworkError(
                            f"the file could not be fetched (HTTP {response.status})"
                        )
                    async for chunk in response.content.iter_chunked(piece):
                        yield chunk
        finally:
            slots.release()

    @staticmethod
    async def _take_connection(slots: asyncio.Semaphore, pool_timeout: float | None) -> None:
        if not slots.locked():
            await slots.acquire()  # returns at once
            return
        try:
            async with asyncio.timeout(pool_timeout):
                await slots.acquire()
        except TimeoutError:
            raise PoolTimedOut(POOL_TIMEOUT_MESSAGE) from None
