"""The game descriptor and the registry. Games register themselves; the core never imports a game.

``GameInfo`` is the one registration point of a game (modelled on OpenSpiel's GameType/GameInfo):
what it is (titles, player counts, typed options, information and chance type), how learning
algorithms see it (action codec, observation tensor, maximum game length, utilities) and the plug-in
slots that every consumer reads — agents and search hooks, arena statistics, terminal renderer,
browser board, hints, translation catalogs, rules help. The CLI, the web app, the arena, the
simulation runner and the RL adapters read only this; a game needs no file outside its package.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .codec import ActionCodec
from .errors import GameConfigError, GrimoireError
from .options import GameOptions, options_help, validate_options
from .search import SearchSpec
from .state import GameState
from .tensor import TensorSpec


@dataclass(frozen=True)
class ArenaHooks:
    """What the arena and the simulation runner record beyond scores and winners. (Hooks take the
    game's own state class, hence ``Any`` for the state in these signatures.)"""

    role_option: str | None = None          # the option rotated per seat (e.g. "characters")
    roles: tuple[str, ...] = ()             # its pool
    roles_of: Callable[[Any], list[str]] | None = None        # the role of each seat in a game
    stats: Callable[[Any], dict[str, float]] | None = None    # numbers per game (rounds, ...)
    seat_stats: Callable[[Any], list[dict[str, float]]] | None = None   # numbers per seat


@dataclass(frozen=True)
class BrowserBoard:
    """The game's board in the browser: an ES module and a stylesheet, files of the game's package
    (served under ``/games/<name>/``). The module exports ``render(ctx)``."""

    module: str                     # path inside the package, e.g. "web/board.js"
    stylesheet: str | None = None


@dataclass(frozen=True)
class Backend:
    """Another engine of a game (e.g. a compiled core) behind the same contract, move for move identical
    to the game's Python engine (the reference, backend "python"). ``available()`` is False where it
    was not built; then asking for it is a GameConfigError."""

    new: Callable[..., GameState]                   # as GameInfo.new
    load: Callable[[dict], GameState]               # as GameInfo.load
    available: Callable[[], bool] = lambda: True
    build_id: Callable[[], str] | None = None       # identifies the build (e.g. a hash of the compiled module)
    # many games stepped in one call (grimoire.rl.vector): batch(num_envs, players, options, seat or None
    # for self-play, length bound, invalid-action reward, key ints of "episode" and "opponent") -> an
    # object with reset(seeds, *arrays) and step(actions, *arrays) writing into the caller's arrays
    batch: Callable[..., Any] | None = None
    # whether backend="auto" (and --engine auto) may choose it: False for an engine not faster yet
    # (e.g. one that still plays part of the rules on the Python engine)
    auto: bool = True


@dataclass(frozen=True, eq=False)   # hashed by identity: the tensor layouts are cached per descriptor
class GameInfo:
    name: str
    titles: Mapping[str, str]                       # language -> title; "en" is required
    new: Callable[..., GameState]                   # new(players, seed, **normalized options) -> state
    load: Callable[[dict], GameState]               # load(to_dict output) -> state
    player_counts: tuple[int, ...]
    default_players: int
    options: type[GameOptions] = GameOptions        # typed options (pydantic), validated by the core
    # options added after games were stored, with the value that reproduces the old behaviour: a saved
    # game or record without the key was played under that value (restore_options)
    legacy_options: Mapping[str, Any] = field(default_factory=dict)
    package: str = ""                               # the game's package (its files: board, catalogs)
    information: str = "imperfect"                  # "perfect" or "imperfect"
    chance: str = "sampled"                         # "deterministic", or "sampled": by the state's RNG in apply
    # --- for learning algorithms ---------------------------------------------------------------------
    codec: ActionCodec | None = None
    tensor: Callable[[int, dict], TensorSpec] | None = None       # (players, options) -> layout
    max_game_length: Callable[[int, dict], int] | None = None     # (players, options) -> bound on actions
    round_cap: int | None = None            # max_rounds the adapters use when none is given (bounds the game)
    score_bounds: tuple[int, int] = (0, 100)   # a seat's score lies within (solo utility)
    # what a seat's score is: "points" (scored games), or "win" (1 for a winner, 0 otherwise): then a review
    # projects win chances, not points
    outcome: str = "points"
    summary: Callable[[dict], str] | None = None                   # observation -> one short line
    # --- plug-in slots ---------------------------------------------------------------------------------
    agents: Mapping[str, Callable[[int], Any]] = field(default_factory=dict)   # name -> factory(seed)
    search: SearchSpec | None = None                # how to build the search (hard) agent
    # the shipped networks of the learned ``expert`` level: players -> file in the package (core/net.py's
    # format); the level is offered when there is one, and plays as ``hard`` at a count without one
    networks: Mapping[int, str] = field(default_factory=dict)
    arena: ArenaHooks = field(default_factory=ArenaHooks)
    hints: Callable[[Any, int], dict[str, Any]] | None = None   # UI help for the deciding seat
    renderer: str | None = None                     # module with render(obs, seat, hints) (terminal)
    board: BrowserBoard | None = None
    i18n: str | None = None                         # folder of catalogs <lang>.json in the package
    rules_topics: Callable[[], dict[str, str]] | None = None
    static_data: Callable[[], dict[str, Any]] | None = None       # fixed tables for interfaces
    # options that fix what chance would draw (preset dice, cards): whoever sets them knows the game's
    # future like whoever chooses its seed (the web server allows them where it allows seeds, and shows them)
    chance_options: tuple[str, ...] = ()
    # the seats that win or lose together, by (players, options); None: everyone for himself (ratings)
    teams: Callable[[int, Mapping[str, Any]], list[list[int]]] | None = None
    # --- for the conformance suite -----------------------------------------------------------------------
    probe_texts: Callable[[Any], list[str]] | None = None
    # a refusal's text (IllegalAction) -> (catalog key, values) so interfaces show it in the reader's
    # language; a value {"key": k} is itself the catalog text k (grimoire.core.text.reason_text)
    reason: Callable[[str], tuple[str, dict[str, Any]] | None] | None = None
    conformance_options: Mapping[str, Any] = field(default_factory=dict)
    # --- other engines ---------------------------------------------------------------------------------
    backends: Mapping[str, Backend] = field(default_factory=dict)   # name -> engine, besides "python"

    def __post_init__(self):
        if "en" not in self.titles:
            raise ValueError(f"game {self.name!r}: an English title is required")
        if self.information not in ("perfect", "imperfect"):
            raise ValueError(f"game {self.name!r}: information is 'perfect' or 'imperfect'")
        if self.chance not in ("deterministic", "sampled"):
            raise ValueError(f"game {self.name!r}: chance is 'deterministic' or 'sampled'")
        if self.outcome not in ("points", "win"):
            raise ValueError(f"game {self.name!r}: outcome is 'points' or 'win'")

    # --- derived ---------------------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self.titles["en"]

    def title_in(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles["en"]

    @property
    def min_players(self) -> int:
        return self.player_counts[0]

    @property
    def max_players(self) -> int:
        return self.player_counts[-1]

    @property
    def options_help(self) -> dict[str, str]:
        return options_help(self.options)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.num_distinct_actions if self.codec else 0

    @property
    def package_dir(self) -> Path:
        file = importlib.import_module(self.package).__file__
        if file is None:
            raise GameConfigError(f"the package of {self.name!r} has no files")
        return Path(file).parent

    def validate(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """The normalized options for ``players`` (GameConfigError for bad ones)."""
        check_players(self, players)
        return validate_options(self.name, self.options, players, options)

    def restore_options(self, stored: dict[str, Any]) -> dict[str, Any]:
        """The options of a stored game (a record, a save, a database row): an option it lacks that
        was added later takes its legacy value, so the game replays exactly as it was played."""
        if not isinstance(stored, dict):
            raise GameConfigError("stored options must be an object")
        return {**{k: v for k, v in self.legacy_options.items() if k not in stored}, **stored}

    def action_id(self, action, state: GameState | None = None) -> int:
        """The id of an action (relative kinds need the state). IllegalAction if it has none."""
        from .errors import IllegalAction
        if self.codec is None:
            raise IllegalAction(f"{self.title} has no action ids")
        i = self.codec.encode(action, state)
        if i is None:
            raise IllegalAction(f"{str(action)!r} has no action id (play it by its text)")
        return i

    def action_from_id(self, i: int, state: GameState | None = None):
        from .errors import IllegalAction
        if self.codec is None:
            raise IllegalAction(f"{self.title} has no action ids")
        return self.codec.decode(i, state)

    def tensor_spec(self, players: int, options: dict[str, Any] | None = None) -> TensorSpec:
        if self.tensor is None:
            raise GameConfigError(f"{self.title} declares no observation tensor")
        opts = self.validate(players, dict(options or {}))
        return _tensor_spec(self, players, json.dumps(opts, sort_keys=True))

    def observation_shape(self, players: int, options: dict[str, Any] | None = None) -> tuple[int, ...]:
        return self.tensor_spec(players, options).shape

    def game_length_bound(self, players: int, options: dict[str, Any] | None = None) -> int:
        """The maximum number of actions of a game with these options (the round cap applied when no
        max_rounds is given)."""
        if self.max_game_length is None:
            raise GameConfigError(f"{self.title} declares no maximum game length")
        opts = self.validate(players, with_round_cap(self, options or {}))
        return self.max_game_length(players, opts)

    def utility_bounds(self, players: int) -> tuple[float, float]:
        """Returns (``returns(state)``) lie within these: a share of the win with 2+ players, the score alone."""
        if players == 1:
            return float(self.score_bounds[0]), float(self.score_bounds[1])
        return 0.0, 1.0

    def utility_sum(self, players: int) -> float | None:
        return None if players == 1 else 1.0

    def catalog(self, lang: str) -> dict[str, str]:
        """The game's translation catalog for a language ({} if it has none)."""
        if self.i18n is None:
            return {}
        path = self.package_dir / self.i18n / f"{lang}.json"
        if not path.exists():
            return {}
        return json.loads(path.read_text(encoding="utf-8"))

    def languages(self) -> list[str]:
        if self.i18n is None:
            return ["en"]
        return sorted(p.stem for p in (self.package_dir / self.i18n).glob("*.json"))


@functools.lru_cache(maxsize=64)
def _tensor_spec(info: GameInfo, players: int, opts_json: str) -> TensorSpec:
    assert info.tensor is not None
    return info.tensor(players, json.loads(opts_json))


_SPEC_BY_OPTIONS: dict[int, tuple[dict, int, TensorSpec]] = {}


def spec_for_state(state: GameState) -> TensorSpec:
    """The tensor layout of a state's game, player count and options. A state's options dict is
    immutable and shared by its clones, so the layout is looked up by the dict's identity (the cache
    keeps the dict alive, so the identity cannot be reused while it is cached)."""
    opts = state.options
    hit = _SPEC_BY_OPTIONS.get(id(opts))
    if hit is not None and hit[0] is opts and hit[1] == state.num_players:
        return hit[2]
    info = game_info(state.game)
    if info.tensor is None:
        raise NotImplementedError(f"{info.title} declares no observation tensor")
    spec = _tensor_spec(info, state.num_players, json.dumps(opts, sort_keys=True))
    if len(_SPEC_BY_OPTIONS) >= 256:
        _SPEC_BY_OPTIONS.clear()
    _SPEC_BY_OPTIONS[id(opts)] = (opts, state.num_players, spec)
    return spec


def with_round_cap(info: GameInfo, options: dict[str, Any]) -> dict[str, Any]:
    """The options with ``max_rounds`` set to the game's round cap when none is given."""
    out = dict(options)
    if out.get("max_rounds") is None and info.round_cap is not None:
        out["max_rounds"] = info.round_cap
    return out


def returns(state: GameState) -> list[float]:
    """The utility of each seat at the end: with 2+ players its share of the win (1 for a sole
    winner, 1/k for k tied winners, 0 otherwise); alone, the score. Zeros before the end."""
    n = state.num_players
    if not state.is_terminal():
        return [0.0] * n
    if n == 1:
        return [float(state.scores()[0])]
    w = state.winners()
    share = 1.0 / len(w) if w else 0.0
    return [share if i in w else 0.0 for i in range(n)]


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    _GAMES[info.name] = info


def games() -> list[str]:
    return sorted(_GAMES)


def game_info(name: str) -> GameInfo:
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(games()) or "none"
        raise GameConfigError(f"unknown game {name!r}; available: {known}", key="term.err.unknown_game",
                              params={"game": name, "games": known})
    return _GAMES[name]


def check_players(info: GameInfo, players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise GameConfigError(f"players must be a whole number, not {players!r}", key="term.err.players_number",
                              params={"players": repr(players)})
    if players not in info.player_counts:
        counts = info.player_counts
        allowed = (f"{counts[0]}-{counts[-1]}" if counts == tuple(range(counts[0], counts[-1] + 1))
                   else ", ".join(map(str, counts)))
        raise GameConfigError(f"{info.title} is played by {allowed} players, not {players}",
                              key="term.err.players_count",
                              params={"game": info.title, "allowed": allowed, "players": players})


MAX_SEED = 2**63 - 1


def backends(name: str) -> list[str]:
    """The engines of a game that can be used here: "python" and every other one that was built."""
    info = game_info(name)
    return ["python"] + [b for b, eng in info.backends.items() if eng.available()]


def _backend(info: GameInfo, backend: str | None) -> Backend | None:
    """None for the Python engine; "auto" is the first other engine that was built and may be chosen by auto,
    else Python."""
    if backend is None or backend == "python":
        return None
    if backend == "auto":
        return next((eng for eng in info.backends.values() if eng.auto and eng.available()), None)
    eng = info.backends.get(backend)
    if eng is None:
        known = ", ".join(["python", *info.backends, "auto"])
        raise GameConfigError(f"{info.title} has no {backend!r} engine; choose from {known}",
                              key="term.err.engine_unknown", params={"game": info.title, "engine": backend,
                                                                     "engines": known})
    if not eng.available():
        raise GameConfigError(f"the {backend} engine of {info.title} is not built here (install with its toolchain, "
                              "see docs/native.md); use backend='python'", key="term.err.engine_not_built",
                              params={"game": info.title, "engine": backend})
    return eng


def new_game(name: str, players: int | None = None, seed: int | None = None, *, backend: str | None = None,
             **options: Any) -> GameState:
    """A new game. ``backend``: "python" (the default, the reference engine), another engine the game
    declares (``GameInfo.backends``, e.g. "native"), or "auto" (a built one if any, else Python)."""
    info = game_info(name)
    eng = _backend(info, backend)
    if players is None:
        players = info.default_players
    opts = info.validate(players, options)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        shown = f"a {seed.bit_length()}-bit number" if isinstance(seed, int) and seed.bit_length() > 256 \
            else repr(str(seed)[:40])          # (str() of a huge int raises: Python limits its digits)
        raise GameConfigError(f"seed must be a whole number from 0 to {MAX_SEED}, not {shown}", key="term.err.seed",
                              params={"top": MAX_SEED, "seed": shown})
    return (eng.new if eng is not None else info.new)(players, seed, **opts)


def load_game(d: dict, backend: str | None = None) -> GameState:
    """Inverse of ``state.to_dict()`` (on the engine ``backend``, as in new_game). A damaged dict raises
    GameConfigError, never anything else."""
    if not isinstance(d, dict):
        raise GameConfigError("a saved game must be a JSON object", key="term.err.save.not_object")
    info = game_info(d.get("game"))  # type: ignore[arg-type]
    eng = _backend(info, backend)
    try:
        return (eng.load if eng is not None else info.load)(d)
    except GrimoireError as e:
        raise GameConfigError(f"corrupt saved game: {e}", key="term.err.save.corrupt", params={"reason": str(e)}) \
            from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        raise GameConfigError(f"corrupt saved game: {type(e).__name__}: {e}", key="term.err.save.corrupt",
                              params={"reason": f"{type(e).__name__}: {e}"}) from None
