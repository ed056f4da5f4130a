"""Game packages. Each registers itself with the core registry when imported."""

import importlib

GAME_PACKAGES = ("zavandor", "zauberschmiede", "shuluri")


def load_all() -> None:
    for name in GAME_PACKAGES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            # a game that does not exist yet is simply absent from grimoire.games()
            if e.name != f"{__name__}.{name}":
                raise
