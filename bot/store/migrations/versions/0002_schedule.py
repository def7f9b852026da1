"""The schedule table: next check-in / check-back per user.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "schedule",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("topic", sa.String(length=24), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_schedule_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_schedule")),
        sa.UniqueConstraint(
            "user_id", "kind", "topic", name=op.f("uq_schedule_user_id_kind_topic")
        ),
    )
    with op.batch_alter_table("schedule", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_schedule_status_due_at"), ["status", "due_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("schedule", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_schedule_status_due_at"))

    op.drop_table("schedule")
