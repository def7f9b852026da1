"""HTTP control API of the stand-in, for a bot or benchmark driving it from another process.

All endpoints take and return JSON:

- POST /_control/inject   {"kind": "text"|"command"|"callback"|"sticker"|"photo"|"group_text"
                           |"malformed" (with "fault", see server.MALFORMED),
                           "chat_id": int, ...the keyword arguments of the inject_* method}
                          -> {"update_id": int} (callback: {"callback_id": str})
                          forward_date is a unix timestamp.
- GET  /_control/state    [?chat_id=N] -> sent messages, errors, callback answers, commands,
                          counters (uploaded file bytes are reported as their size only)
- POST /_control/wait_messages {"chat_id", "count", "timeout"} -> {"messages": [...]}
                          (408 if the count is not reached in time)
- POST /_control/block | /_control/unblock {"chat_id"}
- POST /_control/limits   {"overall_rate", "per_chat_rate", "burst"} (null = unlimited)
- POST /_control/reset_counters
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.standin.records import UploadedFile

if TYPE_CHECKING:
    from tests.standin.server import BotApiStandIn


def record_json(record: Any) -> Any:
    """A record (dataclass) as JSON-ready data; uploaded files become their metadata."""
    if isinstance(record, UploadedFile):
        return {
            "field": record.field,
            "filename": record.filename,
            "content_type": record.content_type,
            "size": record.size,
        }
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        return {f.name: record_json(getattr(record, f.name)) for f in dataclasses.fields(record)}
    if isinstance(record, dict):
        return {str(k): record_json(v) for k, v in record.items()}
    if isinstance(record, list | tuple):
        return [record_json(v) for v in record]
    return record


def control_routes(standin: BotApiStandIn) -> list[web.RouteDef]:
    async def inject(request: web.Request) -> web.Response:
        try:
            return await _inject(await request.json())
        except (TypeError, KeyError, ValueError, LookupError) as error:
            return web.json_response({"error": repr(error)}, status=400)

    async def _inject(body: dict[str, Any]) -> web.Response:
        kind = body.pop("kind")
        chat_id = int(body.pop("chat_id"))
        if kind == "callback":
            callback_id = standin.inject_callback(chat_id, int(body["message_id"]), body["data"])
            return web.json_response({"callback_id": callback_id})
        if "forward_date" in body and body["forward_date"] is not None:
            body["forward_date"] = datetime.fromtimestamp(float(body["forward_date"]), UTC)
        injectors: dict[str, Callable[..., int]] = {
            "text": standin.inject_text,
            "command": standin.inject_command,
            "sticker": standin.inject_sticker,
            "photo": standin.inject_photo,
            "group_text": standin.inject_group_text,
            "malformed": standin.inject_malformed,
        }
        update_id = injectors[kind](chat_id, **body)
        return web.json_response({"update_id": update_id})

    async def state(request: web.Request) -> web.Response:
        chat = request.query.get("chat_id")
        sent = standin.sent if chat is None else standin.messages_for(int(chat))
        return web.json_response(
            {
                "sent": record_json(sent),
                "errors": record_json(standin.errors),
                "callback_answers": record_json(standin.callback_answers),
                "commands": standin.commands,
                "delivered_count": standin.delivered_count,
                "rejected_429_count": standin.rejected_429_count,
                "conflict_count": standin.conflict_count,
                "pending_update_count": standin.pending_update_count,
                "last_fetched_update_id": standin.last_fetched_update_id,
            }
        )

    async def wait_messages(request: web.Request) -> web.Response:
        body = await request.json()
        try:
            messages = await standin.wait_for_messages(
                int(body["chat_id"]), int(body["count"]), float(body.get("timeout", 10.0))
            )
        except TimeoutError as error:
            return web.json_response({"error": str(error)}, status=408)
        return web.json_response({"messages": record_json(messages)})

    async def block(request: web.Request) -> web.Response:
        standin.block(int((await request.json())["chat_id"]))
        return web.json_response({"ok": True})

    async def unblock(request: web.Request) -> web.Response:
        standin.unblock(int((await request.json())["chat_id"]))
        return web.json_response({"ok": True})

    async def limits(request: web.Request) -> web.Response:
        body = await request.json()
        standin.set_limits(
            overall_rate=body.get("overall_rate"),
            per_chat_rate=body.get("per_chat_rate"),
            burst=body.get("burst"),
        )
        return web.json_response({"ok": True})

    async def reset_counters(request: web.Request) -> web.Response:
        standin.reset_counters()
        return web.json_response({"ok": True})

    return [
        web.post("/_control/inject", inject),
        web.get("/_control/state", state),
        web.post("/_control/wait_messages", wait_messages),
        web.post("/_control/block", block),
        web.post("/_control/unblock", unblock),
        web.post("/_control/limits", limits),
        web.post("/_control/reset_counters", reset_counters),
    ]
