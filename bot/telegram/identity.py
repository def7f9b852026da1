"""Who an update is from: the one place that decides it.

The bot serves people in their own private chat with it, where the chat id is the
person's Telegram id.  Every read (whose data) and every send (which chat) of an update
is keyed to the one id :func:`sender_of` returns.  An update whose sender is not the
private chat it comes from (``from.id != chat.id``) is never sent by Telegram; it is
refused rather than letting one person's data reach another person's chat.
"""

from __future__ import annotations

from enum import Enum

from telegram import Chat, Update, User


class Origin(Enum):
    #: one person writing in their own private chat with the bot
    PERSON = "person"
    #: a group, supergroup or channel
    GROUP = "group"
    #: a message or button press with no sender, or a sender other than the private chat
    REFUSED = "refused"
    #: no message and no button press (an update that could not be read arrives so)
    NOTHING = "nothing"


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _chat_of(update: Update) -> Chat | None:
    if update.callback_query is not None:
        message = update.callback_query.message
        return message.chat if message is not None else None
    message = update.effective_message
    return message.chat if message is not None else None


def origin_of(update: Update) -> Origin:
    """Where ``update`` comes from (see :class:`Origin`)."""
    return _origin(update)[0]


def sender_of(update: Update) -> int | None:
    """The Telegram id of the person a private-chat update is from, which is also their
    chat; None for anything that is not :attr:`Origin.PERSON`."""
    return _origin(update)[1]


def _origin(update: Update) -> tuple[Origin, int | None]:
    chat = _chat_of(update)
    user: User | None
    if chat is not None and chat.type != Chat.PRIVATE:
        return Origin.GROUP, None
    if update.callback_query is not None:
        user = update.callback_query.from_user
        # a button press on no message (inline mode, which the bot does not use) has
        # no chat to compare with: the person's private chat is their id
    elif update.message is not None:
        user = update.message.from_user
    elif update.effective_message is None:
        return Origin.NOTHING, None
    else:  # an edited message, a channel post: not what the bot asked for
        return Origin.REFUSED, None
    if user is None or not _is_id(user.id) or user.is_bot:
        return Origin.REFUSED, None
    if (chat is None and update.message is not None) or (chat is not None and chat.id != user.id):
        return Origin.REFUSED, None
    return Origin.PERSON, user.id
