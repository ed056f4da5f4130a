"""``python -m grimoire`` is the ``grimoire`` command."""

from grimoire.cli.main import run

run()
