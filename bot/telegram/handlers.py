"""Telegram handlers: turn updates into flow input and flow output into messages.

Private chats only, one person each: every update first passes :func:`on_any`, which
answers groups and refuses what is not one person in their own private chat
(``bot.telegram.identity``); the handlers after it read and send for that one person.
Nothing a user typed is logged; errors are logged by type only.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime

from telegram import CallbackQuery, Message, Update
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import metrics
from bot.engine.actions import carry_out, ends_account
from bot.engine.conversation import StepResult
from bot.engine.runtime import Runtime
from bot.logging_setup import place_of
from bot.telegram import callbacks
from bot.telegram.autodelete import delete_after
from bot.telegram.chat import TelegramChat
from bot.telegram.forwards import forward_channel
from bot.telegram.identity import Origin, origin_of, sender_of
from bot.telegram.media import media_of, send_media
from bot.telegram.send import send_replies
from flows.commands import COMMANDS
from flows.types import Input, Reply

log = logging.getLogger(__name__)

PRIVATE_ONLY = (
    "I only work in private chats, so that what you tell me stays between us. "
    "Please open a private chat with me."
)
#: the pop-up on a button of an old menu
EXPIRED_POPUP = "That menu has expired."
#: the message above the current step, shown again after such a button
EXPIRED = f"{EXPIRED_POPUP} Here is where you are now:"
INVALID_BUTTON = "That button doesn't work any more. Send /help to see what I can do."
SORRY = (
    "Sorry, something went wrong on my side. Please try that again, or use /cancel to "
    "start afresh. Nothing you saved before is lost."
)
#: the pop-up on a button whose press failed on our side
SORRY_POPUP = "Sorry, that didn't work. Please try again."

#: Kinds of message content that are not text, by the attribute PTB exposes.
_MEDIA = (
    "sticker",
    "photo",
    "voice",
    "video",
    "video_note",
    "animation",
    "audio",
    "document",
    "location",
    "contact",
    "poll",
    "dice",
    "venue",
)


def runtime_of(context: ContextTypes.DEFAULT_TYPE) -> Runtime:
    runtime: Runtime = context.application.bot_data["runtime"]
    return runtime


def message_input(message: Message, now: datetime, channel: str | None = None) -> Input:
    """Map a Telegram message to flow input; ``channel``: a forward's keyed origin
    (``bot.telegram.forwards``)."""
    text = message.text or message.caption or ""
    original = None
    if message.forward_origin is not None:
        original = message.forward_origin.date
        if original.tzinfo is None:
            original = original.replace(tzinfo=UTC)
    media = media_of(message)
    if media is not None:
        return Input(
            kind="media", now=now, text=text, forwarded_at=original, media=media, channel=channel
        )
    if original is not None:
        return Input(kind="forward", now=now, text=text, forwarded_at=original, channel=channel)
    if message.text and message.text.startswith("/"):
        head, _, args = message.text.partition(" ")
        name = head[1:].split("@", 1)[0].lower()
        if name:
            return Input(kind="command", now=now, text=name, args=args.strip())
    if text:
        return Input(kind="text", now=now, text=text)
    kind = next((k for k in _MEDIA if getattr(message, k, None)), "message")
    return Input(kind="media", now=now, text=kind)


async def deliver(
    runtime: Runtime,
    context: ContextTypes.DEFAULT_TYPE,
    user_id: str,
    chat_id: int,
    result: StepResult,
    incoming_ids: tuple[int, ...] = (),
    update_id: int | None = None,
) -> None:
    """Send a step's replies (and carry out what only the adapter can do).  Once they
    are sent, ``update_id`` is marked answered (``bot.engine.replays``), with the message
    ids kept for /hide, in one write."""
    chat = TelegramChat(runtime, context.bot, chat_id, incoming_ids)
    replies = list(result.replies)
    if result.stale:
        replies.insert(0, Reply(EXPIRED))
    sent = await carry_out(chat, user_id, result.actions, first=True)
    for ask in result.media_out:
        sent += await send_media(runtime.store, context.bot, chat_id, user_id, ask)
    sent += await send_replies(context.bot, chat_id, replies, result.seq)
    sent += await carry_out(chat, user_id, result.actions, first=False)
    if not ends_account(result.actions):
        now = runtime.now()
        async with runtime.store.unit(user_id):
            await runtime.store.remember_messages(
                user_id,
                [*chat.incoming, *sent],
                now,
                delete_after=delete_after(now, result.autodelete_minutes),
            )
            if update_id is not None:
                await runtime.store.mark_answered(user_id, update_id)


async def on_any(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Before any other handler: a group gets :func:`on_group`; an update that is not one
    person in their own private chat is refused (nothing read, nothing sent)."""
    if not isinstance(update, Update):
        raise ApplicationHandlerStop
    origin = origin_of(update)
    if origin is Origin.GROUP:
        await on_group(update)
    if origin is Origin.REFUSED:
        log.warning("refused an update that is not one person in their own private chat")
    if origin is not Origin.PERSON:
        raise ApplicationHandlerStop


async def on_group(update: Update) -> None:
    """Any update from a group or channel: say so once, touch no data."""
    if update.callback_query is not None:
        await update.callback_query.answer(PRIVATE_ONLY, show_alert=True)
    elif update.effective_message is not None and update.effective_message.text:
        # only messages someone wrote (not "X joined the group") get the answer
        try:
            await update.effective_message.reply_text(PRIVATE_ONLY)
        except TelegramError as exc:
            log.info("could not answer in a group: %s", type(exc).__name__)
    raise ApplicationHandlerStop


async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.message
    sender = sender_of(update)
    if message is None or sender is None:
        return
    runtime = runtime_of(context)
    # in a private chat the chat is the person: one id for whose data and which chat
    user_id, created = await runtime.store.ensure_user(sender, sender)
    if runtime.conversation.hooks is not None:
        await runtime.conversation.hooks.user_seen(user_id)
    channel = await forward_channel(runtime.store, user_id, message.forward_origin)
    inp = message_input(message, runtime.now(), channel)
    update_id = update.update_id
    result = await runtime.conversation.step(user_id, inp, is_new=created, update_id=update_id)
    if result.replayed and result.ignored:
        return  # applied and answered by a process that died before confirming it
    await deliver(runtime, context, user_id, sender, result, (message.message_id,), update_id)


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    sender = sender_of(update)
    if query is None or sender is None:
        return
    data = callbacks.decode(query.data)
    runtime = runtime_of(context)
    user_id = await runtime.store.find_user(sender)
    if data is None or user_id is None:
        # nothing follows (an unknown or wiped user): the pop-up only
        await query.answer(INVALID_BUTTON if data is None else EXPIRED_POPUP)
        return
    if runtime.conversation.hooks is not None:
        await runtime.conversation.hooks.user_seen(user_id)
    update_id = update.update_id
    result = await runtime.conversation.choice(
        user_id, data.seq, data.value, runtime.now(), update_id=update_id
    )
    if result.replayed:
        await answer_again(query)
        if not result.ignored:
            await deliver(runtime, context, user_id, sender, result, update_id=update_id)
        return
    if result.ignored:
        await query.answer()
        return
    await query.answer(EXPIRED_POPUP if result.stale else None)
    await deliver(runtime, context, user_id, sender, result, update_id=update_id)


async def answer_again(query: CallbackQuery) -> None:
    """Answer a press a process that died may have answered already (Telegram refuses a
    second answer, and one too late: nothing to tell the person then)."""
    with contextlib.suppress(BadRequest):
        await query.answer()


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the error's type and place, never the update (it holds the user's text).
    A failed getUpdates is not an error of the bot: a warning."""
    error = context.error
    if isinstance(error, Forbidden):
        log.info("a user has blocked the bot")
        return
    if update is None and isinstance(error, TelegramError):
        # from getUpdates (PTB's run_polling passes its errors here without an update):
        # a passing network or Bot API fault; PTB tries again, waiting longer each time
        log.warning("polling for updates failed, trying again: %s", type(error).__name__)
        return
    where = place_of(error) if error is not None else ""
    log.error("error while handling an update: %s at %s", type(error).__name__, where)
    if isinstance(update, Update) and update.callback_query is not None:
        # the pressed button stops spinning (unless the query was answered already)
        try:
            await update.callback_query.answer(SORRY_POPUP)
        except TelegramError:
            pass
    sender = sender_of(update) if isinstance(update, Update) else None
    if sender is not None:
        try:
            await context.bot.send_message(sender, SORRY)
        except TelegramError:
            pass


def register(application: Application) -> None:  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
    application.add_handler(TypeHandler(Update, on_any), group=-1)
    message = metrics.timed("message")(on_message)
    application.add_handler(CommandHandler([c.name for c in COMMANDS], message))
    application.add_handler(MessageHandler(filters.ALL, message))
    application.add_handler(CallbackQueryHandler(metrics.timed("button")(on_callback)))
    application.add_error_handler(on_error)
