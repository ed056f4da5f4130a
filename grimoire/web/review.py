"""Looking back at a game: the replay viewer, the post-game review and hints in practice games.

    GET  /replay/{id}                     the replay viewer (step through the game as a seat or spectator)
    GET  /review/{id}                     the review page
    GET  /api/games/{id}/replay?seq=n     the game after its first n actions, as one seat saw it then
                                          (Bearer token: that seat; none: a spectator). While the game
                                          runs only one's own seat (or the spectators' view), up to now;
                                          once it is over, any seat (the log of a finished game is public)
    POST /api/games/{id}/review           {"seat": s}: start the hard AI's review of a finished game
    GET  /api/games/{id}/review?seat=s    its progress and results so far (404 if never started)
    GET  /api/games/{id}/hint             practice games only: the hard AI's advice for the token's seat

It knows no game: everything comes from the contract and ``grimoire.agents.review``. Reviews and
hints run in their own single worker process (an ``AIRunner`` pool of one), one decision per task,
so they never delay the AI seats of running games and report progress after each decision.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response

from ..agents.review import Decision, ReviewSettings, chart_indexes, check_reviewable, hint, judge, summarize
from ..core.errors import GrimoireError
from ..core.record import make_record
from ..core.registry import load_game, new_game
from ..core.state import GameState
from . import fastjson
from .ai import AIRunner
from .hub import ApiError, Hub, Session, TokenBucket, client_key

log = logging.getLogger("grimoire.web.review")

STATIC = Path(__file__).parent / "static"
CHECKPOINT_EVERY = 25          # replay: a copy of the state every this many actions
MAX_REPLAYS = 16               # games whose replay checkpoints are kept
MAX_REVIEWS = 64               # reviews kept in memory (recomputed after a restart)
# the web's review budget: a long game of ~150 decisions takes a few minutes on one core
WEB_SETTINGS = ReviewSettings(think=0.5, playouts=4, max_steps=120, chart_points=30)


# --- work in the review process ---------------------------------------------------------------------
def _judge_in_worker(state_dict: dict, seat: int, index: int, played: str, settings: dict, chart: bool) -> dict:
    return asdict(judge(load_game(state_dict), seat, index, played, ReviewSettings(**settings), chart))


def _hint_in_worker(state_dict: dict, seat: int, settings: dict) -> dict:
    return hint(load_game(state_dict), seat, ReviewSettings(**settings))


def _points_in_worker(record: dict, seat: int) -> list[tuple[int, dict, str]]:
    """The seat's decisions with a choice: (index, state before it, the action played). Rebuilding a long
    game takes tens of milliseconds: it is done here, in the review process, never on the event loop."""
    check_reviewable(record, seat)
    state = new_game(record["game"], record["players"], record["seed"], **record["options"])
    points: list[tuple[int, dict, str]] = []
    for i, text in enumerate(record["actions"]):
        if state.current_player == seat and len(state.legal_actions()) > 1:
            points.append((i, state.to_dict(), text))
        state.apply(text)
    return points


@dataclass
class ReviewJob:
    seat: int
    total: int
    decisions: list[Decision] = field(default_factory=list)
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    task: asyncio.Task | None = None

    @property
    def status(self) -> str:
        return "failed" if self.error else ("done" if self.finished is not None else "running")


class Lookback:
    """Replay checkpoints, review jobs and hints of the server's games."""

    def __init__(self, hub: Callable[[], Hub], settings: ReviewSettings = WEB_SETTINGS):
        self.hub = hub
        self.settings = settings
        self.runner = AIRunner(workers=1)
        self.replays: OrderedDict[str, list[GameState]] = OrderedDict()
        self.jobs: OrderedDict[tuple[str, int], ReviewJob] = OrderedDict()
        self.preparing: dict[tuple[str, int], asyncio.Future] = {}
        self.starts: dict[str, TokenBucket] = {}      # client -> reviews it may start (no database: SQLite)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task:
                job.task.cancel()
        self.runner.close()

    async def _run(self, fn, *args):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.runner._get_pool(), fn, *args)

    # --- replay ---------------------------------------------------------------------------------------
    def state_at(self, s: Session, n: int) -> GameState:
        """The game after its first ``n`` actions: rebuilt from the seed, walking from the last
        checkpoint (a copy every CHECKPOINT_EVERY actions, added on the way; one that is no longer a
        prefix of the game, after an undo, is dropped)."""
        history = s.state.history
        marks = self.replays.get(s.id)
        if marks is None:
            marks = [new_game(s.game, len(s.seats), s.seed, **s.options)]
        k = min(n // CHECKPOINT_EVERY, len(marks) - 1)
        # an undo (undo.py) shortens the history: checkpoints past an action taken back are dropped
        while k > 0 and marks[k].history != history[:k * CHECKPOINT_EVERY]:
            del marks[k:]
            k -= 1
        st = marks[k].clone()
        done = k * CHECKPOINT_EVERY
        while done < n:
            st.apply(history[done])
            done += 1
            if done % CHECKPOINT_EVERY == 0 and done // CHECKPOINT_EVERY == len(marks):
                marks.append(st.clone())
        self.replays[s.id] = marks
        self.replays.move_to_end(s.id)
        while len(self.replays) > MAX_REPLAYS:
            self.replays.popitem(last=False)
        return st

    def replay_view(self, s: Session, seat: int | None, n: int) -> dict[str, Any]:
        st = self.state_at(s, n)
        entries = s.log[:n]
        vis = st.visible_history(seat)
        shown = [e if vis[e["seq"] - 1] is not None else {**e, "text": None} for e in entries]
        return {"game_id": s.id, "game": s.game, "seq": n, "total": s.seq, "seat": seat,
                "status": "over" if st.is_terminal() else "active", "game_status": s.status,
                "seats": s.seat_info(), "log": shown, "obs": st.observation(seat), "hints": {}, "replay": True}

    # --- reviews ----------------------------------------------------------------------------------------
    async def start_review(self, s: Session, seat: int) -> ReviewJob:
        """Start (or find) the review of ``seat`` (checked by the caller: a seat of the game). The game is
        rebuilt in the review process; one preparation per game and seat at a time."""
        key = (s.id, seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        pending = self.preparing.get(key)
        if pending is None:
            record = make_record(s.state, False)
            pending = self.preparing[key] = asyncio.ensure_future(self._run(_points_in_worker, record, seat))
        try:
            points = await asyncio.shield(pending)
        finally:
            self.preparing.pop(key, None)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        job = ReviewJob(seat, len(points))
        chart = chart_indexes([p[0] for p in points], self.settings)
        job.task = asyncio.create_task(self._review(job, points, chart))
        self.jobs[key] = job
        while len(self.jobs) > MAX_REVIEWS:
            _k, old = self.jobs.popitem(last=False)
            if old.task:
                old.task.cancel()
        return job

    async def _review(self, job: ReviewJob, points: list[tuple[int, dict, str]], chart: set[int]) -> None:
        settings = asdict(self.settings)
        try:
            for i, state_dict, text in points:
                d = await self._run(_judge_in_worker, state_dict, job.seat, i, text, settings, i in chart)
                job.decisions.append(Decision(**d))
            job.finished = time.monotonic()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - reported to the page, logged here
            log.exception("review failed")
            job.error = f"{type(e).__name__}: {e}"

    def review_body(self, s: Session, job: ReviewJob) -> dict[str, Any]:
        body = summarize(s.state, job.seat, list(job.decisions), self.settings, total=job.total,
                         seconds=(job.finished or time.monotonic()) - job.started)
        body["status"] = job.status
        if job.error:
            body["error"] = job.error
        return body

    async def hint(self, s: Session, seat: int) -> dict[str, Any]:
        seq = s.seat_seq(seat)
        out = await self._run(_hint_in_worker, s.state.to_dict(), seat, asdict(self.settings))
        return {**out, "seq": seq}


def install(app: FastAPI, hub: Callable[[], Hub], bearer: Callable[[Request], str | None]) -> Lookback:
    """Add the replay, review and hint routes and pages to the app."""
    look = Lookback(hub)
    router = APIRouter()

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    @router.get("/replay/{gid}", include_in_schema=False)
    async def replay_page(gid: str):
        return page("replay.html")

    @router.get("/review/{gid}", include_in_schema=False)
    async def review_page(gid: str):
        return page("review.html")

    @router.get("/api/games/{gid}/replay")
    async def replay_view(gid: str, request: Request, seq: int | None = None, seat: int | None = None):
        s = await hub().get(gid)
        mine = hub().seat_for_token(s, bearer(request))
        over = s.status == "over"          # also a game a seat lost on time (turns.py): its log is public too
        if seat is None:
            seat = mine
        if seat is not None and not 0 <= seat < len(s.seats):
            raise ApiError(400, "bad_seat", f"seat must be 0-{len(s.seats) - 1}")
        if not over and seat != mine:
            raise ApiError(403, "game_running", "while the game runs you may look back only as your own seat "
                           "(your seat's link) or as a spectator")
        # a running game: only as far as everything is visible to the seat (an action still secret to it
        # must not show, nor how many there are)
        vis = None if over else s.visibility(seat)
        top = s.seq if vis is None else next((i for i, t in enumerate(vis) if t is None), s.seq)
        n = top if seq is None else seq
        if isinstance(n, bool) or not 0 <= n <= top:
            raise ApiError(400, "bad_seq", f"seq must be 0-{top}")
        body = await asyncio.get_running_loop().run_in_executor(None, look.replay_view, s, seat, n)
        body["total"] = top
        return Response(fastjson.dumps(body), media_type="application/json")

    async def _finished(gid: str) -> Session:
        s = await hub().get(gid)
        if not s.state.is_terminal():
            raise ApiError(409, "game_running", "a game is reviewed once it is over (never during play)")
        return s

    @router.post("/api/games/{gid}/review", status_code=202)
    async def start_review(gid: str, request: Request):
        # the cheap checks first (the body is bounded by the app's RequestGuard): the seat, then the
        # client's rate; the game is rebuilt in the review process, never on the event loop
        try:
            body = fastjson.loads(await request.body() or b"{}")
        except ValueError:
            raise ApiError(400, "bad_json", "the body is not valid JSON") from None
        seat = body.get("seat") if isinstance(body, dict) else None
        s = await _finished(gid)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(s.seats):
            raise ApiError(400, "bad_seat", f"seat must be 0-{len(s.seats) - 1}")
        job = look.jobs.get((s.id, seat))
        if job is None or job.status == "failed":
            await _review_allowance(request)
        try:
            job = await look.start_review(s, seat)
        except GrimoireError as e:
            raise ApiError(400, "bad_seat", str(e)) from None
        return look.review_body(s, job)

    async def _review_allowance(request: Request) -> None:
        """Reviews a client may start: ``Limits.reviews_per_client_minute`` (shared by every server process
        on PostgreSQL)."""
        h = hub()
        per_minute = h.limits.reviews_per_client_minute
        if per_minute is None:
            return
        rate, burst = per_minute / 60, max(1.0, per_minute)
        key = client_key(request.client.host if request.client else None)
        if h.cluster is not None:
            wait = await h.cluster.take_token(f"review:{key}", rate, burst)
        else:
            bucket = look.starts.get(key)
            if bucket is None:
                bucket = look.starts[key] = TokenBucket(rate, burst)
                if len(look.starts) > 10_000:
                    look.starts.pop(next(iter(look.starts)))
            wait = None if bucket.take() else max(1.0, bucket.wait())
        if wait is not None:
            w = math.ceil(wait)
            raise ApiError(429, "too_many_reviews", f"this address has started too many reviews (at most "
                           f"{per_minute:g} a minute); try again in {w} s", headers={"Retry-After": str(w)},
                           retry_after=w)

    @router.get("/api/games/{gid}/review")
    async def get_review(gid: str, seat: int):
        s = await _finished(gid)
        job = look.jobs.get((s.id, seat))
        if job is None:
            raise ApiError(404, "no_review", "no review of this seat yet: POST to start one")
        return look.review_body(s, job)

    @router.get("/api/games/{gid}/hint")
    async def get_hint(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, bearer(request))
        if not s.practice:
            raise ApiError(403, "not_practice", "hints are for practice games (a lobby option) only")
        if seat is None or s.state.is_terminal() or s.state.current_player != seat:
            raise ApiError(409, "not_your_decision", "a hint is for your own decision, when it is yours")
        return await look.hint(s, seat)

    app.include_router(router)
    app.state.lookback = look
    return look

