"""Game packages. Each registers itself with the core registry when imported.

The contract wants ``grimoire.games()`` to list the games, while ``grimoire.games`` is also this
package; so this module is made callable (calling it returns the registered game names).
"""

import importlib
import sys
import types

from ..core.registry import games as _registered_games

GAME_PACKAGES = ("zavandor", "zauberschmiede", "shuluri")


def load_all() -> None:
    for name in GAME_PACKAGES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            # a game that does not exist yet is simply absent from grimoire.games()
            if e.name != f"{__name__}.{name}":
                raise


class _CallableGamesModule(types.ModuleType):
    def __call__(self) -> list[str]:
        return _registered_games()


sys.modules[__name__].__class__ = _CallableGamesModule
