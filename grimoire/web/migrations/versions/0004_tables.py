"""Playing with people: open tables (games waiting for players), optional accounts with sessions,
the seats an account holds, and ratings per game and player count.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        # the table's id is the game's id once it starts
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_open_tables_status", "open_tables", ["status", "created_at"])
    op.create_index("ix_open_tables_creator", "open_tables", ["creator"])
    op.create_table(
        "open_table_seats",
        sa.Column("table_id", sa.String(40), sa.ForeignKey("open_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("agent", sa.String(40), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("user_id", sa.String(40), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("username", sa.String(80), nullable=False),
        sa.Column("username_key", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(40), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "user_seats",
        sa.Column("user_id", sa.String(40), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        # the seat's secret, so that the account finds the game on any device (the database holds the
        # seeds too: it is as secret as the games)
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.String(40), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        # per seat: {"user": id} or {"agent": level}
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for name in ("rated_games", "ratings", "user_seats", "user_sessions", "users", "open_table_seats"):
        op.drop_table(name)
    op.drop_index("ix_open_tables_creator", "open_tables")
    op.drop_index("ix_open_tables_status", "open_tables")
    op.drop_table("open_tables")
