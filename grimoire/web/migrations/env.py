"""Alembic environment: migrations run on the engine the server hands over (Store.migrate)."""

from alembic import context

from grimoire.web.store import metadata

config = context.config
target_metadata = metadata


def run_migrations_online() -> None:
    engine = config.attributes.get("connection_engine")
    if engine is None:  # `alembic` on the command line: -x url=...
        from grimoire.web.store import make_engine, normalize_url
        engine = make_engine(normalize_url(context.get_x_argument(as_dictionary=True).get("url")))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        context.run_migrations()


run_migrations_online()
