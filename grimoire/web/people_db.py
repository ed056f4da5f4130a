"""The tables of playing with people (migrations/versions/0004_tables.py): open tables and their seats,
accounts, their sessions and seats, ratings and the rated games still to rate."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, Integer, MetaData, String, Table

metadata = MetaData()

tables_t = Table(
    "open_tables", metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("status", String(16), nullable=False),      # open, started, closed
    Column("creator", String(64), nullable=False),     # client_key of the creating address
    Column("owner_hash", String(64), nullable=False),  # the hash of the creator's seat token
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

table_seats_t = Table(
    "open_table_seats", metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("agent", String(40), nullable=False),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=True),   # None: a free seat (or an AI's)
    Column("user_id", String(40), nullable=True),
    Column("joined_at", DateTime(timezone=True), nullable=True),
)

users_t = Table(
    "users", metadata,
    Column("id", String(40), primary_key=True),
    Column("username", String(80), nullable=False),
    Column("username_key", String(80), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions_t = Table(
    "user_sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", String(40), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

user_seats_t = Table(
    "user_seats", metadata,
    Column("user_id", String(40), primary_key=True),
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

ratings_t = Table(
    "ratings", metadata,
    Column("user_id", String(40), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rated_games_t = Table(
    "rated_games", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seats", JSON, nullable=False),             # per seat {"user": id} or {"agent": level}
    Column("status", String(16), nullable=False),      # pending, done
    Column("result", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
