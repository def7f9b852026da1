"""How a message reached the user: the ``channel`` of an input and of a saved message.

A channel is ``fwd:<ref>``: a forwarded message's origin (the account, group or channel
it was first sent from) as a *keyed reference* the adapter makes, a per-user HMAC of
the origin, shortened.  It tells two origins apart and nothing else: the origin itself
(a Telegram id or a name) is never in it, and the flows never see it.

The escalation watch (``flows.analysis.escalation_watch``) compares them: a sender who
turns up on an account not seen before may be working around a block (the seeds:
"contacting you from new numbers ... should not be dismissed", 000).
"""

from __future__ import annotations

import re

FORWARD = "fwd:"
#: a keyed reference: base32 text (the adapter's are 16 characters)
_REF = re.compile(r"[a-z2-7]{8,40}")


def forwarded(ref: str) -> str:
    """The channel of a forward whose origin has the keyed reference ``ref``."""
    if not _REF.fullmatch(ref):
        raise ValueError("a keyed reference is lower-case base32 text")
    return FORWARD + ref


def valid(raw: object) -> str | None:
    """``raw`` if it is a channel (read leniently from stored state), else None."""
    if isinstance(raw, str) and raw.startswith(FORWARD) and _REF.fullmatch(raw[len(FORWARD) :]):
        return raw
    return None
