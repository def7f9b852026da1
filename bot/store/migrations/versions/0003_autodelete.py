"""Auto-delete: when a remembered chat message is to be deleted.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("delete_after", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_chat_messages_delete_after"), ["delete_after"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_delete_after"))
        batch_op.drop_column("delete_after")
