"""Helpers shared by the commands: parsing options, building games and agents."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..core.errors import GameConfigError, GrimoireError
from ..core.options import split_option_pair
from ..core.registry import GameInfo, game_info, games


def parse_option_pairs(pairs: list[str]) -> dict[str, Any]:
    """'key=value' pairs; the value is read as JSON when it can be (true, 3, ["a","b"]), else text."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, value = split_option_pair(pair)
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def split_list(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [x.strip().lower() for x in text.replace(";", ",").split(",") if x.strip()]


def require_game(game: str | None, t=None) -> GameInfo:
    """The descriptor of the game a command was given; a clear line listing the games if none was (or an
    unknown one), in the reader's language."""
    if game is None:
        raise GameConfigError(say("term.err.which_game", t, games=", ".join(games())))
    if game not in games():
        raise GameConfigError(say("term.err.unknown_game", t, game=game, games=", ".join(games())))
    return game_info(game)


def player_counts(info: GameInfo, t) -> str:
    """"2-6 players", or "2, 4 players" when the counts have a gap, in the reader's language."""
    counts = list(info.player_counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return t("term.players_range", low=counts[0], high=counts[-1])
    return t("term.players_list", counts=", ".join(map(str, counts)))


def check_player_count(info: GameInfo, players: int | None, t=None) -> None:
    """A player count the game does not allow: one line in the reader's language (None: the default)."""
    if players is not None and players not in info.player_counts:
        from .labels import game_title
        t = t or _translator()
        raise GameConfigError(t("term.err.player_count", title=game_title(t, info.name, info.title),
                                allowed=player_counts(info, t), players=players))


def _translator():
    """This run's translator (``--lang``, else the locale), English if neither names a language we have."""
    from .i18n import Translator, translator
    try:
        return translator(None)
    except GrimoireError:
        return Translator("en")


def say(key: str, t=None, **params) -> str:
    """A message of the terminal's catalog in the player's language (``t``, else the locale's)."""
    return (t or _translator())(key, **params)


def check_output_path(path: str | os.PathLike | None, option: str, t=None) -> None:
    """Refuse, in one line and before any work, an output file that could not be written at the end."""
    if path is None:
        return
    p = Path(path).expanduser()
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise GameConfigError(say("term.err.out_is_dir", t, option=option, path=str(path)))
    if not folder.is_dir():
        raise GameConfigError(say("term.err.out_no_dir", t, option=option, path=str(path), dir=str(folder)))
    target = p if p.exists() else folder
    if not os.access(target, os.W_OK):
        raise GameConfigError(say("term.err.out_denied", t, option=option, path=str(path)))


def split_agents(text: str | None) -> list[str] | None:
    """The agents of ``--agents``, one per seat: names, or names with parameters
    (``hard:iterations=150,time=0,medium``: a ``key=value`` continues the agent before it); ``;`` also separates."""
    from ..agents import split_specs
    if text is None:
        return None
    return split_specs(text.replace(";", ","))


def check_agent_names(game: str, names: list[str], humans: bool = False, t=None) -> None:
    """Every name an agent of the game (and 'human' only where a person can sit), and its parameters ones
    the agent takes, before counting seats (so a typo never costs a game that was already played)."""
    from ..agents import agent_names, parse_agent
    known = agent_names(game)
    for spec in names:
        name = spec.partition(":")[0].strip().lower()
        if name == "human" and not humans:
            raise GameConfigError(say("term.err.arena_human", t, game=game))
        if name not in known and name != "human":
            raise GameConfigError(say("term.err.unknown_agent", t, agent=name, game=game,
                                      agents=", ".join((["human"] if humans else []) + known)))
        parse_agent(game, spec)               # the parameters: names, types and values (a human takes none)
