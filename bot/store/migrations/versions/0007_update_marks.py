"""users: the newest Telegram update whose step is stored and whose answer was sent, so
that a process taking over after a crash does not apply an update twice.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("update_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("answered_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("update_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("update_at")
        batch_op.drop_column("answered_id")
        batch_op.drop_column("update_id")
