"""The schedule table: when each user's next check-in or check-back is due.

Only what the sweep needs is stored, in plaintext: the random user id, the kind
("checkin" / "checkback"), a check-back topic from a fixed vocabulary, the due time and
the delivery status.  No text, no Telegram id.  The check-in settings themselves stay
encrypted in the user's settings document; the scheduler recomputes ``due_at`` from
them whenever they change and after each check-in.

Status:
- ``pending``  waiting for ``due_at``;
- ``sending``  claimed and committed just before its own Bot API call (a row found in
  this state after a crash is never sent again: at most once);
- ``blocked``  the user blocked the bot; nothing is sent until they write again.

``unsure`` (on a check-in row) says that an earlier check-in or check-back of the user
may not have arrived (the process died while it was in flight, the request timed out
after it was sent, or it failed for good): the next check-in tells the user so.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.models import ID_LENGTH, Base

PENDING = "pending"
SENDING = "sending"
BLOCKED = "blocked"

CHECKIN = "checkin"
CHECKBACK = "checkback"


class ScheduleItem(Base):
    __tablename__ = "schedule"
    __table_args__ = (
        UniqueConstraint("user_id", "kind", "topic"),
        Index(None, "status", "due_at"),
    )

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    kind: Mapped[str] = mapped_column(String(16))
    #: "" for check-ins; the check-back's topic ("urge") otherwise
    topic: Mapped[str] = mapped_column(String(24), default="")
    due_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    claimed_at: Mapped[datetime | None]
    unsure: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
