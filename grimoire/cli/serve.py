"""``grimoire serve``: the web app (lobby, live games, AI seats) on http://HOST:PORT."""

from __future__ import annotations

import json
import os

import typer

from .common import say
from .main import app, fail


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8000, "--port"),
    db: str = typer.Option(None, "--db", envvar="GRIMOIRE_DB"),
    ai_delay: float = typer.Option(0.5, "--ai-delay"),
    ai_workers: int = typer.Option(None, "--ai-workers"),
    log_level: str = typer.Option("info", "--log-level"),
    ws_compression: bool = typer.Option(True, "--ws-compression/--no-ws-compression"),
    ws_patches: bool = typer.Option(False, "--ws-patches/--no-ws-patches"),
    allow_seeds: bool = typer.Option(False, "--allow-seeds"),
    lock_timeout: float = typer.Option(10.0, "--lock-timeout"),
    games_per_hour: int = typer.Option(120, "--games-per-client-hour"),
    max_ai_games: int = typer.Option(32, "--max-ai-games"),
    max_connections: int = typer.Option(5000, "--max-connections"),
    forwarded_allow_ips: str = typer.Option(None, "--forwarded-allow-ips"),
    api_docs: bool = typer.Option(False, "--api-docs"),
    workers: int = typer.Option(1, "--workers", min=1),
    ai_only_per_client: int = typer.Option(2, "--max-ai-games-per-client"),
    connections_per_client: int = typer.Option(64, "--max-connections-per-client"),
    allow_origin: list[str] = typer.Option([], "--allow-origin"),
    header_timeout: float = typer.Option(10.0, "--header-timeout"),
) -> None:
    """Start the web app: create games, share seat links, play in the browser."""
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from ..web.protocols import BoundedWebSocketProtocol, TimedHttpProtocol
    from ..web.store import NotGrimoireDatabase, Store, normalize_url
    from .serve_checks import check_db, check_options, check_port, connect_reason

    log_level = check_options(port, log_level, ai_delay, ai_workers)
    check_db(db)
    url = normalize_url(db)
    if workers > 1 and not url.startswith("postgresql"):
        raise fail(say("term.err.sqlite_workers"))
    try:                      # refuse an empty, foreign or unreachable database with one line, before uvicorn starts
        Store(url, lock_timeout=lock_timeout).close()
    except NotGrimoireDatabase as e:
        raise fail(str(e)) from None
    except (SQLAlchemyError, OSError) as e:
        raise fail(say("term.err.db_connect", url=_safe(url), reason=connect_reason(e))) from None
    check_port(host, port)
    _raise_file_limit()
    config = {"db": url, "ai_delay": ai_delay, "ai_workers": ai_workers, "allow_seeds": allow_seeds,
              "ws_patches": ws_patches,
              "lock_timeout": lock_timeout, "api_docs": api_docs, "allowed_origins": list(allow_origin),
              "limits": {"games_per_client_hour": games_per_hour or None, "max_ai_only_games": max_ai_games or None,
                         "max_ai_only_games_per_client": ai_only_per_client or None,
                         "max_connections": max_connections,
                         "max_connections_per_client": connections_per_client or None}}
    os.environ["GRIMOIRE_SERVE_CONFIG"] = json.dumps(config)      # each worker process builds its app from it
    os.environ["GRIMOIRE_HEADER_TIMEOUT"] = str(header_timeout)
    TimedHttpProtocol.header_timeout = header_timeout
    shown = "localhost" if host in ("127.0.0.1", "localhost") else host
    typer.echo(say("term.serve.running_workers" if workers > 1 else "term.serve.running",
                   url=f"http://{shown}:{port}/", db=_safe(url), workers=workers))
    proxy = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips \
        else {"proxy_headers": False}
    from ..web.logs import log_config
    uvicorn.run("grimoire.web.app:app_from_env", factory=True, workers=workers if workers > 1 else None,
                host=host, port=port, log_level=log_level, access_log=log_level == "debug",
                log_config=log_config(log_level),
                http=TimedHttpProtocol, ws=BoundedWebSocketProtocol,
                ws_max_size=64 * 1024, ws_per_message_deflate=ws_compression, timeout_graceful_shutdown=3,
                server_header=False, **proxy)


def _raise_file_limit() -> None:
    """Every WebSocket is a file descriptor: take the hard limit, not the common soft 1,024."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url
    return make_url(url).render_as_string(hide_password=True)
