"""Ratings of rated games: OpenSkill (Plackett-Luce, the ``openskill`` package) per game and player
count, for accounts; each AI level plays with a fixed rating measured in the arena
(``data/ai_ratings.json`` in each game's package, computed by ``scripts/ai_ratings.py``), so a player sees which level
matches him.

    GET /api/ratings/{game}?players=n    the leaderboard: accounts by rating, and the AI levels
    GET /api/games/{id}/ratings           a rated game's rating changes (404 if it is not rated)
    GET /ratings/{game}                   the leaderboard page

A rated game (an open table with ``"rated": true``: every person at it has an account) has a
``rated_games`` row from its start. When it ends, one transaction marks the row done (guarded: only
if it was pending) and writes the new ratings, so a game is rated once, also with several server
processes; the rows still pending (a process stopped at the wrong moment) are settled at start-up.
Teams (``GameInfo.teams``, e.g. a game's pairs mode) are rated as teams; seats rank by winning, then by
score (ties share a rank).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from ..core.forfeit import forfeit_result
from ..core.registry import game_info, games
from .hub import ApiError, Hub, Session
from .people_db import rated_games_t, ratings_t, users_t
from .store import StorageError, now

log = logging.getLogger("grimoire.web.ratings")

RATINGS_FILE = "data/ai_ratings.json"     # in each game's package: {"levels": {level: {...}}, "measured": {...}}
STATIC = Path(__file__).parent / "static"
MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma


def ratings_path(game: str) -> Path:
    """The file of the game's measured AI ratings, in the game's package."""
    return Path(importlib.import_module(game_info(game).package).__file__ or "").parent / RATINGS_FILE


@functools.cache
def ai_ratings() -> dict[str, dict[str, dict[str, float]]]:
    """game -> level -> {"mu", "sigma", ...} as measured (scripts/ai_ratings.py), from the file
    ``data/ai_ratings.json`` of each game's package; a game without one rates its levels as newcomers."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for game in games():
        path = ratings_path(game)
        if not path.exists():
            continue
        try:
            out[game] = json.loads(path.read_text(encoding="utf-8"))["levels"]
        except (OSError, ValueError, KeyError) as e:
            log.warning("no AI ratings for %s (%s): its AI levels rate as newcomers", game, e)
    return out


def ai_rating(game: str, level: str) -> tuple[float, float]:
    r = ai_ratings().get(game, {}).get(level)
    return (float(r["mu"]), float(r["sigma"])) if r else (MU, SIGMA)


def shown(mu: float, sigma: float) -> float:
    """The number players see: the conservative estimate (mu - 3 sigma), as OpenSkill's ordinal."""
    return round(mu - 3 * sigma, 1)


def teams_of(game: str, players: int, options: dict) -> list[list[int]]:
    fn = game_info(game).teams
    return fn(players, options) if fn is not None else [[s] for s in range(players)]


def team_ranks(teams: list[list[int]], scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Each team's rank (0 = best; equal results share a rank): winners first, then by best score."""
    keys = [(any(s in winners for s in team), max(scores[s] for s in team)) for team in teams]
    order = sorted(set(keys), reverse=True)
    return [order.index(k) for k in keys]


def new_ratings(teams: list[list[int]], ranks: list[int], current: list[tuple[float, float]]
                ) -> list[tuple[float, float]]:
    """Every seat's rating after the game (``current``: per seat, before)."""
    # (openskill annotates ranks as list[float]; it accepts ints, checking for int or float, and only reads them)
    rated = MODEL.rate([[MODEL.rating(mu=current[s][0], sigma=current[s][1]) for s in team] for team in teams],
                       ranks=ranks)  # type: ignore[arg-type]
    out = list(current)
    for team, after in zip(teams, rated, strict=True):
        for s, r in zip(team, after, strict=True):
            out[s] = (r.mu, r.sigma)
    return out


def final_result(s: Session) -> tuple[Sequence[float], Sequence[int]]:
    """(scores, winners) of an ended game; a seat that lost on time (turns.py) ranks last with its team."""
    if s.forfeit is not None:
        return forfeit_result(s.state, s.forfeit, teams_of(s.game, len(s.seats), dict(s.options)))
    return s.state.scores(), s.state.winners()


class Ratings:
    def __init__(self, hub: Callable[[], Hub]):
        self.hub = hub
        self.tasks: set[asyncio.Task] = set()

    def game_over(self, s: Session) -> None:
        """Hub.on_over: rate the game if it is a rated one (in the background)."""
        task = asyncio.get_running_loop().create_task(self.settle(s.id, *final_result(s), dict(s.options)))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def settle(self, gid: str, scores: Sequence[float], winners: Sequence[int], options: dict) -> None:
        def job(conn):
            # claimed first (guarded): a game is rated once, whichever process sees its end
            claimed = conn.execute(update(rated_games_t).where(rated_games_t.c.game_id == gid,
                                                               rated_games_t.c.status == "pending")
                                   .values(status="done"))
            if claimed.rowcount != 1:
                return
            row = conn.execute(select(rated_games_t).where(rated_games_t.c.game_id == gid)).mappings().first()
            seats = row["seats"] if isinstance(row["seats"], list) else json.loads(row["seats"])
            game, players = row["game"], row["players"]
            current: list[tuple[float, float]] = []
            have: dict[str, Any] = {}
            for who in seats:
                if "user" in who and who["user"]:
                    r = conn.execute(select(ratings_t).where(ratings_t.c.user_id == who["user"],
                                                             ratings_t.c.game == game,
                                                             ratings_t.c.players == players)).mappings().first()
                    have[who["user"]] = r
                    current.append((r["mu"], r["sigma"]) if r else (MU, SIGMA))
                else:
                    current.append(ai_rating(game, who.get("agent", "")))
            teams = teams_of(game, players, options)
            after = new_ratings(teams, team_ranks(teams, scores, winners), current)
            result = []
            t = now()
            for seat, who in enumerate(seats):
                entry = {"seat": seat, "before": shown(*current[seat]), "after": shown(*after[seat])}
                uid = who.get("user")
                if uid:
                    mu, sigma = after[seat]
                    if have[uid] is None:
                        conn.execute(ratings_t.insert().values(user_id=uid, game=game, players=players, mu=mu,
                                                               sigma=sigma, games=1, updated_at=t))
                    else:
                        conn.execute(update(ratings_t).where(
                            ratings_t.c.user_id == uid, ratings_t.c.game == game, ratings_t.c.players == players)
                            .values(mu=mu, sigma=sigma, games=ratings_t.c.games + 1, updated_at=t))
                else:
                    entry["after"] = entry["before"]            # an AI level's rating is fixed
                    entry["agent"] = who.get("agent")
                result.append(entry)
            conn.execute(update(rated_games_t).where(rated_games_t.c.game_id == gid).values(result=result))
        try:
            await asyncio.wrap_future(self.hub().store.writer.submit(job))
        except StorageError as e:               # still pending: settled at the next start or game load
            log.error("game %s: its ratings could not be stored: %s", gid, e)

    async def settle_pending(self) -> None:
        """At start-up: the rated games that ended but were not rated (a process stopped meanwhile)."""
        store = self.hub().store

        def q():
            with store.engine.connect() as conn:
                return [r.game_id for r in conn.execute(select(rated_games_t.c.game_id)
                                                        .where(rated_games_t.c.status == "pending").limit(500))]
        try:
            ids = await asyncio.get_running_loop().run_in_executor(store.readers, q)
        except Exception as e:  # noqa: BLE001 - the database is not answering: try at the next start
            log.error("pending rated games could not be listed: %s", e)
            return
        for gid in ids:
            try:
                s = await self.hub().get(gid)
            except ApiError:
                continue
            if s.status == "over":
                await self.settle(gid, *final_result(s), dict(s.options))

    async def read(self, fn: Callable) -> Any:
        return await self.hub().store.read(fn, "ratings")

    async def board(self, game: str, players: int | None) -> dict:
        if game not in games():
            raise ApiError(404, "unknown_game", f"there is no game {game[:40]!r}")
        info = game_info(game)
        if players is None:
            players = info.default_players
        if players not in info.player_counts:
            raise ApiError(400, "bad_players", f"{info.title} is played by {', '.join(map(str, info.player_counts))}")
        rows = await self.read(lambda conn: conn.execute(
            select(users_t.c.username, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
            .select_from(ratings_t.join(users_t, users_t.c.id == ratings_t.c.user_id))
            .where(ratings_t.c.game == game, ratings_t.c.players == players)
            .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc()).limit(100)).all())
        levels = ai_ratings().get(game, {})
        return {"game": game, "players": players, "player_counts": list(info.player_counts),
                "players_ranked": [{"username": r.username, "rating": shown(r.mu, r.sigma), "mu": round(r.mu, 2),
                                    "sigma": round(r.sigma, 2), "games": r.games} for r in rows],
                "ai": sorted(({"level": lvl, "rating": shown(v["mu"], v["sigma"]), "mu": round(v["mu"], 2),
                               "sigma": round(v["sigma"], 2)} for lvl, v in levels.items()),
                             key=lambda x: -x["rating"])}

    async def of_game(self, gid: str) -> dict:
        row = await self.read(lambda conn: conn.execute(
            select(rated_games_t.c.status, rated_games_t.c.result, rated_games_t.c.seats)
            .where(rated_games_t.c.game_id == gid)).first())
        if row is None:
            raise ApiError(404, "not_rated", "this game is not rated")
        result = row.result if not isinstance(row.result, str) else json.loads(row.result)
        return {"game_id": gid, "status": row.status, "ratings": result or []}


def install(app: FastAPI, hub: Callable[[], Hub]) -> Ratings:
    ratings = Ratings(hub)
    router = APIRouter()

    @router.get("/ratings/{game}", include_in_schema=False)
    async def page(game: str):
        return FileResponse(STATIC / "ratings.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/ratings/{game}")
    async def board(game: str, players: int | None = None):
        return await ratings.board(game, players)

    @router.get("/api/games/{gid}/ratings")
    async def of_game(gid: str):
        return await ratings.of_game(gid)

    app.include_router(router)
    return ratings
