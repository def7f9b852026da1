"""Initial schema: users and their encrypted rows.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("tg_hash", sa.LargeBinary(), nullable=False),
        sa.Column("chat", sa.LargeBinary(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=True),
        sa.Column("settings", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("tg_hash", name=op.f("uq_users_tg_hash")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_chat_messages_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
        sa.UniqueConstraint(
            "user_id", "message_id", name=op.f("uq_chat_messages_user_id_message_id")
        ),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_events_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_user_id_at"), ["user_id", "at"], unique=False)

    op.create_table(
        "evidence",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_evidence_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence")),
    )
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_evidence_user_id_created_at"), ["user_id", "created_at"], unique=False
        )

    op.create_table(
        "reasons",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_reasons_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reasons")),
    )
    with op.batch_alter_table("reasons", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_reasons_user_id_seq"), ["user_id", "seq"], unique=False
        )

    op.create_table(
        "senders",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_senders_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_senders")),
    )
    with op.batch_alter_table("senders", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_senders_user_id_seq"), ["user_id", "seq"], unique=False
        )

    op.create_table(
        "unsent",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_unsent_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unsent")),
    )
    with op.batch_alter_table("unsent", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_unsent_user_id_created_at"), ["user_id", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("unsent", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_unsent_user_id_created_at"))

    op.drop_table("unsent")
    with op.batch_alter_table("senders", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_senders_user_id_seq"))

    op.drop_table("senders")
    with op.batch_alter_table("reasons", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_reasons_user_id_seq"))

    op.drop_table("reasons")
    with op.batch_alter_table("evidence", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_evidence_user_id_created_at"))

    op.drop_table("evidence")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_user_id_at"))

    op.drop_table("events")
    op.drop_table("chat_messages")
    op.drop_table("users")
