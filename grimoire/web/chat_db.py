"""The tables of chat and slow games (migrations/versions/0005_chat_turns.py): the messages of each game's
two channels, and the move deadline of a turn-based game."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text

metadata = MetaData()

chat_t = Table(
    "chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), nullable=False),
    Column("channel", String(16), nullable=False),     # seats, spectators
    Column("seat", Integer, nullable=True),            # None: a spectator
    Column("name", String(80), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

turn_rules_t = Table(
    "turn_rules", metadata,
    Column("game_id", String(40), primary_key=True),   # a game's id, or an open table's (its game's id later)
    Column("seconds", Integer, nullable=False),        # the time for one decision
    Column("on_expire", String(16), nullable=False),   # ai: the AI takes the move; forfeit: the seat loses
    Column("created_at", DateTime(timezone=True), nullable=False),
)
