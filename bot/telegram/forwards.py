"""Where a forwarded message came from, as a keyed reference the flows can compare.

Telegram says who first sent a forwarded message (``Message.forward_origin``): a user
(their id), a user who hides their account (only the name they show), a group writing
as itself, or a channel (the chat's id).  The escalation watch needs to tell "the same
account as before" from "a new one", and nothing more, so the origin becomes
``flows.channels.forwarded`` of the user's keyed reference to its kind and id (or name):
an HMAC under a key derived from the user's own data key, shortened to 16 characters.
The origin's id or name is never stored, logged or handed to the flows; after /wipe the
references cannot be linked to anything.
"""

from __future__ import annotations

from telegram import (
    MessageOrigin,
    MessageOriginChannel,
    MessageOriginChat,
    MessageOriginHiddenUser,
    MessageOriginUser,
)

from bot.store.facade import Store
from flows.channels import forwarded

#: the purpose the references are made for (part of what is keyed)
PURPOSE = "forward-origin"


def origin_key(origin: MessageOrigin) -> str | None:
    """What identifies ``origin``: its kind and id, or for a hidden user the name shown
    (spaces and case folded, as Telegram shows the same name).  None for a kind of origin
    this version does not know.  Kept in memory only, to make the reference."""
    match origin:
        case MessageOriginUser(sender_user=user):
            return f"user:{user.id}"
        case MessageOriginHiddenUser(sender_user_name=name):
            folded = " ".join(name.casefold().split())
            return f"hidden:{folded}" if folded else None
        case MessageOriginChat(sender_chat=chat):
            return f"chat:{chat.id}"
        case MessageOriginChannel(chat=chat):
            return f"channel:{chat.id}"
    return None


async def forward_channel(store: Store, user_id: str, origin: MessageOrigin | None) -> str | None:
    """The channel of a forward from ``origin`` for this user, or None."""
    key = origin_key(origin) if origin is not None else None
    if key is None:
        return None
    return forwarded(await store.keyed_reference(user_id, PURPOSE, key))
