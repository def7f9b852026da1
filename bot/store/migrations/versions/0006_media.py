"""media_chunks: the encrypted pieces of the files kept with evidence items.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "media_chunks",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("evidence_id", sa.String(length=32), nullable=False),
        sa.Column("media_id", sa.String(length=32), nullable=False),
        sa.Column("idx", sa.BigInteger(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_media_chunks_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_media_chunks")),
        sa.UniqueConstraint("media_id", "idx", name=op.f("uq_media_chunks_media_id_idx")),
    )
    op.create_index(op.f("ix_media_chunks_user_id"), "media_chunks", ["user_id"], unique=False)
    op.create_index(
        op.f("ix_media_chunks_evidence_id"), "media_chunks", ["evidence_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_media_chunks_evidence_id"), table_name="media_chunks")
    op.drop_index(op.f("ix_media_chunks_user_id"), table_name="media_chunks")
    op.drop_table("media_chunks")
