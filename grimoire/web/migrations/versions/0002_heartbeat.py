"""The heartbeat row the health check rewrites (a real write through the writer).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
    )
    op.bulk_insert(table, [{"id": 1, "at": None}])


def downgrade() -> None:
    op.drop_table("heartbeat")
