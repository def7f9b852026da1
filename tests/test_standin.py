"""The Bot API stand-in, driven by real python-telegram-bot over HTTP."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound, Forbidden, InvalidToken, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackContext,
    CallbackQueryHandler,
    MessageHandler,
    filters,
)

from tests.standin import BotApiStandIn
from tests.standin.html_check import HtmlParseError, parse_html

CHAT = 5001


@pytest.fixture
async def standin() -> AsyncIterator[BotApiStandIn]:
    async with BotApiStandIn(per_chat_rate=None, overall_rate=None) as server:
        server.inject_text(CHAT, "hi")
        yield server


@pytest.fixture
async def bot(standin: BotApiStandIn) -> AsyncIterator[Bot]:
    async with Bot(standin.token, base_url=standin.base_url) as real_bot:
        yield real_bot


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d)] for t, d in pairs])


async def test_send_message_returns_a_real_message(standin: BotApiStandIn, bot: Bot) -> None:
    message = await bot.send_message(
        CHAT, "<b>Hello</b> there", parse_mode=ParseMode.HTML, reply_markup=keyboard(("Yes", "y"))
    )
    assert message.text == "Hello there"
    assert message.chat.id == CHAT and message.from_user is not None
    assert message.from_user.is_bot
    assert message.message_id == 2  # the injected user message was 1
    assert message.reply_markup == keyboard(("Yes", "y"))
    (sent,) = standin.messages_for(CHAT)
    assert sent.visible_text == "Hello there"
    assert [b.callback_data for b in sent.buttons] == ["y"]
    assert standin.delivered_count == 1


async def test_too_long_text_is_rejected_after_html_parsing(
    standin: BotApiStandIn, bot: Bot
) -> None:
    await bot.send_message(CHAT, "<b>" + "x" * 4096 + "</b>", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(CHAT, "x" * 4097)
    assert standin.errors[-1].description == "Bad Request: message is too long"
    assert len(standin.sent) == 1


async def test_invalid_html_is_rejected(standin: BotApiStandIn, bot: Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities: unsupported start tag"):
        await bot.send_message(CHAT, "a <foo>b</foo>", parse_mode=ParseMode.HTML)
    assert standin.errors[-1].description == (
        'Bad Request: can\'t parse entities: Unsupported start tag "foo" at byte offset 2'
    )
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(CHAT, "fish & chips < 5", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match=r"(?i)unmatched end tag"):
        await bot.send_message(CHAT, "<b><i>x</b></i>", parse_mode=ParseMode.HTML)
    assert standin.sent == []


async def test_escaped_user_text_passes(standin: BotApiStandIn, bot: Bot) -> None:
    user_text = 'fish & chips <b>not bold</b> "quoted"'
    message = await bot.send_message(
        CHAT, f"<i>You wrote:</i> {html.escape(user_text)}", parse_mode=ParseMode.HTML
    )
    assert message.text == f"You wrote: {user_text}"
    assert standin.sent[0].visible_text == f"You wrote: {user_text}"


async def test_bad_inline_keyboards_are_rejected(standin: BotApiStandIn, bot: Bot) -> None:
    await bot.send_message(CHAT, "ok", reply_markup=keyboard(("A", "é" * 32)))  # 64 bytes
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(CHAT, "too long", reply_markup=keyboard(("A", "x" * 65)))
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(CHAT, "empty", reply_markup=keyboard(("A", "")))
    with pytest.raises(BadRequest, match="text must be non-empty"):
        await bot.send_message(CHAT, "no label", reply_markup=keyboard(("", "a")))
    assert len(standin.sent) == 1


async def test_identical_edit_is_not_modified(standin: BotApiStandIn, bot: Bot) -> None:
    message = await bot.send_message(CHAT, "<b>Hi</b>", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_text("<b>Hi</b>", CHAT, message.message_id, parse_mode="HTML")
    edited = await bot.edit_message_text("Hi", CHAT, message.message_id)  # bold dropped
    assert isinstance(edited, type(message)) and edited.text == "Hi"
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("Hi", CHAT, 999)
    assert standin.sent[0].text == "Hi" and len(standin.sent[0].edits) == 1


async def test_edit_without_markup_removes_the_keyboard(standin: BotApiStandIn, bot: Bot) -> None:
    message = await bot.send_message(CHAT, "Pick", reply_markup=keyboard(("A", "a")))
    edited = await bot.edit_message_text("Pick", CHAT, message.message_id)
    assert not isinstance(edited, bool) and edited.reply_markup is None
    assert standin.sent[0].buttons == []


async def test_delete_message(standin: BotApiStandIn, bot: Bot) -> None:
    message = await bot.send_message(CHAT, "secret")
    assert await bot.delete_message(CHAT, message.message_id)
    assert await bot.delete_message(CHAT, 1)  # the user's own message, in a private chat
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(CHAT, message.message_id)
    assert standin.sent[0].deleted and standin.incoming[0].deleted
    assert standin.messages_for(CHAT, include_deleted=False) == []


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_per_chat_rate_limit_yields_retry_after() -> None:
    async with BotApiStandIn(per_chat_rate=1.0, burst=3) as server:
        server.inject_text(CHAT, "hi")
        server.inject_text(CHAT + 1, "hi")
        async with Bot(server.token, base_url=server.base_url) as real_bot:
            for i in range(3):
                await real_bot.send_message(CHAT, f"burst {i}")
            with pytest.raises(RetryAfter):
                await real_bot.send_message(CHAT, "one too many")
            await real_bot.send_message(CHAT + 1, "another chat is not limited")
        assert server.delivered_count == 4
        assert server.rejected_429_count == 1
        assert server.errors[-1].description == "Too Many Requests: retry after 1"


async def test_blocked_chat_is_forbidden(standin: BotApiStandIn, bot: Bot) -> None:
    standin.block(CHAT)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(CHAT, "hello?")
    standin.unblock(CHAT)
    await bot.send_message(CHAT, "hello again")
    assert [m.text for m in standin.sent] == ["hello again"]


async def test_unknown_chat_wrong_token_and_unknown_method(standin: BotApiStandIn) -> None:
    async with Bot(standin.token, base_url=standin.base_url) as real_bot:
        with pytest.raises(BadRequest, match="Chat not found"):
            await real_bot.send_message(777, "who?")
        with pytest.raises(EndPointNotFound):
            await real_bot.do_api_request("sendNothing", api_kwargs={"chat_id": CHAT})
    with pytest.raises(InvalidToken):
        async with Bot("999:WRONG", base_url=standin.base_url):
            pass


async def test_get_updates_long_poll_returns_injected_update_promptly(
    standin: BotApiStandIn, bot: Bot
) -> None:
    first = await bot.get_updates(timeout=5)
    assert [u.message.text for u in first if u.message] == ["hi"]
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(bot.get_updates(offset=first[-1].update_id + 1, timeout=5))
    await asyncio.sleep(0.1)
    assert not poll.done()
    update_id = standin.inject_text(CHAT, "forwarded", forward_origin_name="Someone")
    (update,) = await poll
    assert loop.time() - started < 2
    assert update.update_id == update_id and update.message is not None
    assert update.message.forward_origin is not None
    assert update.message.forward_origin.type == "hidden_user"


async def test_application_echoes_and_receives_callbacks(standin: BotApiStandIn) -> None:
    async def echo(update: Update, context: CallbackContext) -> None:  # type: ignore[type-arg]
        assert update.effective_message is not None and update.effective_chat is not None
        await context.bot.send_message(
            update.effective_chat.id,
            f"echo: {html.escape(update.effective_message.text or '')}",
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard(("Again", "again")),
        )

    async def pressed(update: Update, context: CallbackContext) -> None:  # type: ignore[type-arg]
        assert update.callback_query is not None
        await update.callback_query.answer(f"got {update.callback_query.data}")

    app: Application = ApplicationBuilder().token(standin.token).base_url(standin.base_url).build()  # type: ignore[type-arg]
    app.add_handler(MessageHandler(filters.TEXT, echo))
    app.add_handler(CallbackQueryHandler(pressed))
    async with app:
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=2)
        await app.start()
        try:
            standin.inject_text(CHAT, "a < b & c", forward_date=datetime(2024, 1, 2, tzinfo=UTC))
            # "hi" from the fixture comes first, then the forwarded text.
            first, second = await standin.wait_for_messages(CHAT, 2, timeout=5)
            assert first.visible_text == "echo: hi"
            assert second.visible_text == "echo: a < b & c"
            callback_id = standin.inject_callback(CHAT, second.message_id, "again")
            answers = await standin.wait_for(lambda: standin.callback_answers, timeout=5)
            assert answers[0].callback_query_id == callback_id
            assert answers[0].text == "got again"
        finally:
            await app.updater.stop()
            await app.stop()
    assert standin.errors == []


async def test_send_document_multipart_upload_is_recorded(standin: BotApiStandIn, bot: Bot) -> None:
    content = b"%PDF-1.4 fake report\n" * 100
    message = await bot.send_document(
        CHAT, content, filename="report.pdf", caption="<b>Your</b> report", parse_mode="HTML"
    )
    assert message.document is not None and message.document.file_name == "report.pdf"
    assert message.caption == "Your report"
    (sent,) = standin.sent
    assert sent.method == "sendDocument" and sent.file is not None
    assert sent.file.filename == "report.pdf"
    assert sent.file.size == len(content) and sent.file.data == content
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_document(CHAT, content, filename="r.pdf", caption="x" * 1025)


async def test_commands_and_menu_button(standin: BotApiStandIn, bot: Bot) -> None:
    await bot.set_my_commands([("start", "Begin"), ("help", "How this works")])
    assert standin.commands == [
        {"command": "start", "description": "Begin"},
        {"command": "help", "description": "How this works"},
    ]
    assert [c.command for c in await bot.get_my_commands()] == ["start", "help"]
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([("Start", "Begin")])
    assert await bot.set_chat_menu_button(CHAT)
    chat = await bot.get_chat(CHAT)
    assert chat.id == CHAT and chat.type == "private"


def test_html_entities_use_utf16_offsets_like_telegram() -> None:
    parsed = parse_html('😀 <b>bold</b> <a href="https://e.org/?a=1&amp;b=2">link</a> &lt;3')
    assert parsed.text == "😀 bold link <3"
    assert parsed.entities == [
        {"offset": 3, "length": 4, "type": "bold"},
        {"offset": 8, "length": 4, "type": "text_link", "url": "https://e.org/?a=1&b=2"},
    ]
    with pytest.raises(HtmlParseError, match='Can\'t find end tag corresponding to start tag "i"'):
        parse_html("<i>open")
