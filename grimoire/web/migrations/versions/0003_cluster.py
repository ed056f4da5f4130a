"""Many server processes on one database: who created a game, what the public sees of its progress,
the AI moves to compute (taken by one process at a time), shared rate limits, live processes and
their WebSockets.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # the creating client (a hash of its address): the per-client limits count its games
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("ai_only", sa.Boolean, nullable=False, server_default=sa.false()))
        # the progress as a spectator sees it (the listing): actions secret to spectators do not count
        batch.add_column(sa.Column("public_seq", sa.Integer, nullable=True))
        batch.add_column(sa.Column("public_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_games_creator", "games", ["creator"])
    op.execute("UPDATE games SET public_seq = seq, public_at = updated_at")
    op.execute("UPDATE games SET ai_only = (SELECT COUNT(*) = 0 FROM seats "
               "WHERE seats.game_id = games.id AND seats.agent = 'human')")
    op.create_index("ix_games_public_at", "games", ["public_at"])
    op.create_table(
        "ai_jobs",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
    )
    op.create_index("ix_ai_jobs_due_at", "ai_jobs", ["due_at"])
    op.execute("INSERT INTO ai_jobs (game_id, seq, seat, due_at) SELECT id, seq, current_player, updated_at "
               "FROM games WHERE status = 'active' AND ai_turn AND current_player IS NOT NULL")
    op.create_table(
        "buckets",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sockets",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("process", sa.String(40), nullable=False, index=True),
        sa.Column("game_id", sa.String(40), nullable=False, index=True),
        sa.Column("client", sa.String(64), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("sockets")
    op.drop_table("processes")
    op.drop_table("buckets")
    op.drop_table("ai_jobs")
    op.drop_index("ix_games_public_at", "games")
    op.drop_index("ix_games_creator", "games")
    with op.batch_alter_table("games") as batch:
        for name in ("public_at", "public_seq", "ai_only", "creator"):
            batch.drop_column(name)
