"""Chat per game (two channels: seats, spectators) and slow games (a move deadline per game).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_game", "chat_messages", ["game_id", "channel", "id"])
    op.create_table(
        "turn_rules",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("on_expire", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_rules")
    op.drop_index("ix_chat_game", "chat_messages")
    op.drop_table("chat_messages")
