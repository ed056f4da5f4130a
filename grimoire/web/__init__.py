"""Grimoire in the browser: FastAPI app, WebSocket hub, storage (SQLAlchemy + Alembic), AI seats.

``grimoire.web.app.create_app(db_url)`` builds the ASGI app; ``grimoire serve`` runs it with
uvicorn. The web layer uses only the public game contract (``new_game``, ``load_game``, ``apply``,
``legal_actions``, ``observation``, records) and ``grimoire.agents.make_agent`` for AI seats.
"""
