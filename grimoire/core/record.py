"""Game records: ``{"game", "players", "seed", "options", "actions"}`` — the truth of a game.

Saves, replays, bug reports and tests all use them. A record may also carry ``"result"``
(scores and winners) and ``"state_hash"``; ``replay`` then checks them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import GameConfigError, GrimoireError
from .registry import MAX_SEED, new_game
from .state import GameState

RECORD_KEYS = ("game", "players", "seed", "options", "actions")


def state_hash(state: GameState) -> str:
    blob = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def make_record(state: GameState, with_result: bool = True) -> dict[str, Any]:
    rec = state.record()
    if with_result:
        rec["state_hash"] = state_hash(state)
        if state.is_terminal():
            rec["result"] = {"scores": state.scores(), "winners": state.winners()}
    return rec


def _validate(rec: Any) -> None:
    """Refuse, with one clear line, anything that is not a well-formed record (before any engine code
    sees it: a corrupted file must end in GameConfigError, never in another exception)."""
    if not isinstance(rec, dict):
        raise GameConfigError("a game record must be a JSON object", key="term.err.record.not_object")
    missing = [k for k in RECORD_KEYS if k not in rec]
    if missing:
        raise GameConfigError(f"game record lacks {', '.join(missing)}", key="term.err.record.lacks",
                              params={"keys": ", ".join(missing)})
    if not isinstance(rec["game"], str):
        raise GameConfigError("game record: 'game' must be a game's name", key="term.err.record.game")
    for key, top in (("players", 64), ("seed", MAX_SEED)):
        v = rec[key]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top:
            raise GameConfigError(f"game record: '{key}' must be a whole number from 0 to {top}",
                                  key="term.err.record.number", params={"field": key, "top": top})
    if not isinstance(rec["options"], dict):
        raise GameConfigError("game record: 'options' must be an object", key="term.err.record.options")
    reserved = sorted(set(rec["options"]) & {"players", "seed"})
    if reserved:
        raise GameConfigError(f"game record: {', '.join(reserved)} belong at the top of the record, not in its "
                              "options", key="term.err.record.reserved", params={"keys": ", ".join(reserved)})
    if not isinstance(rec["actions"], list) or not all(isinstance(a, str) for a in rec["actions"]):
        raise GameConfigError("game record: 'actions' must be a list of action texts", key="term.err.record.actions")
    if "state_hash" in rec and not isinstance(rec["state_hash"], str):
        raise GameConfigError("game record: 'state_hash' must be text", key="term.err.record.hash_text")
    if "result" in rec:
        res = rec["result"]
        if not isinstance(res, dict) or not isinstance(res.get("scores"), list) \
                or not isinstance(res.get("winners"), list):
            raise GameConfigError("game record: 'result' must be an object with the lists 'scores' and 'winners'",
                                  key="term.err.record.result_shape")


def replay(rec: dict[str, Any], upto: int | None = None,
           on_action: Callable[[int | None, str], None] | None = None) -> GameState:
    """Rebuild a game from its record (optionally only the first ``upto`` actions); ``on_action(seat,
    text)`` is told who made each action, before it is applied."""
    _validate(rec)
    from .registry import game_info
    options = game_info(rec["game"]).restore_options(rec["options"])
    try:
        state = new_game(rec["game"], rec["players"], rec["seed"], **options)
    except (TypeError, ValueError) as e:
        raise GameConfigError(f"game record: its options do not make a game: {e}", key="term.err.record.bad_options",
                              params={"reason": str(e)}) from None
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    for i, text in enumerate(actions):
        if on_action is not None:
            on_action(state.current_player, text)
        try:
            state.apply(text)
        except GrimoireError as e:
            raise GameConfigError(f"game record: action #{i + 1} {text[:80]!r} is illegal: {e}",
                                  key="term.err.record.illegal",
                                  params={"n": i + 1, "action": repr(text[:80]), "reason": str(e)}) from None
    return state


def verify(rec: dict[str, Any], on_action: Callable[[int | None, str], None] | None = None) -> GameState:
    """Replay and check the stored result and state hash, if the record has them."""
    state = replay(rec, on_action=on_action)
    if "state_hash" in rec and rec["state_hash"] != state_hash(state):
        raise GameConfigError("game record: the replayed state differs from the recorded one",
                              key="term.err.record.hash")
    if "result" in rec:
        res = rec["result"]
        if not state.is_terminal():
            raise GameConfigError("game record: it claims a result but the game is not over",
                                  key="term.err.record.not_over")
        if res.get("scores") != state.scores() or res.get("winners") != state.winners():
            raise GameConfigError(f"game record: recorded result {str(res)[:200]} differs from replayed scores "
                                  f"{state.scores()} winners {state.winners()}", key="term.err.record.result",
                                  params={"result": str(res)[:200], "scores": state.scores(),
                                          "winners": state.winners()})
    return state


def save_record(path: str | Path, rec: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameConfigError(f"no such file: {p}", key="term.err.file.missing", params={"path": str(p)}) from None
    except (OSError, UnicodeDecodeError) as e:
        raise GameConfigError(f"cannot read {p}: {e}", key="term.err.file.unreadable",
                              params={"path": str(p), "reason": str(e)}) from None
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as e:
        raise GameConfigError(f"{p} is not valid JSON ({e.msg} at line {e.lineno})", key="term.err.record.json",
                              params={"path": str(p), "reason": e.msg, "line": e.lineno}) from None
    except ValueError as e:                 # e.g. a number of more than 4,300 digits
        raise GameConfigError(f"{p} is not a game record: {e}", key="term.err.record.not_record",
                              params={"path": str(p), "reason": str(e)}) from None
    except RecursionError:
        raise GameConfigError(f"{p} is not a game record: its JSON is nested too deeply",
                              key="term.err.record.nested", params={"path": str(p)}) from None
    _validate(rec)
    return rec
