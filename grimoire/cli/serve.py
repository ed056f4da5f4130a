"""``grimoire serve``: the web app (lobby, live games, AI seats) on http://HOST:PORT."""

from __future__ import annotations

import typer

from .main import app


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0 for every interface)"),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    db: str = typer.Option(None, "--db", envvar="GRIMOIRE_DB",
                           help="database URL: sqlite:///path.db or postgresql://user:pw@host/db "
                                "(default: an SQLite file in your data directory)"),
    ai_delay: float = typer.Option(0.5, "--ai-delay", help="seconds an AI seat waits before it moves (to follow it)"),
    ai_workers: int = typer.Option(None, "--ai-workers", help="processes for AI levels other than random"),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level: warning, info, debug"),
    ws_compression: bool = typer.Option(True, "--ws-compression/--no-ws-compression",
                                        help="permessage-deflate on WebSockets: ~4x less traffic for ~20% more "
                                             "server CPU per action"),
) -> None:
    """Start the web app: create games, share seat links, play in the browser."""
    import uvicorn

    from ..web.app import create_app
    from ..web.store import normalize_url

    url = normalize_url(db)
    web = create_app(url, ai_delay=ai_delay, ai_workers=ai_workers, freeze_gc=True)
    shown = "localhost" if host in ("127.0.0.1", "localhost") else host
    typer.echo(f"Grimoire is running: open http://{shown}:{port}/   (database: {_safe(url)}; Ctrl+C to stop)")
    uvicorn.run(web, host=host, port=port, log_level=log_level, access_log=log_level == "debug",
                ws_max_size=64 * 1024, ws_per_message_deflate=ws_compression, timeout_graceful_shutdown=3)


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url
    return make_url(url).render_as_string(hide_password=True)
