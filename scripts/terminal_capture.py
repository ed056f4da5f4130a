"""Terminal captures at 80 columns for the docs: each game's compact board and its numbered actions
as a player sees them in `grimoire play` (English and one other language), saved as SVG.

    .venv/bin/python scripts/terminal_capture.py docs/screenshots
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli import render as renderers
from grimoire.cli.i18n import Translator
from grimoire.cli.play import ActionNumbers, grid, group_actions

GAMES = {
    "zavandor": dict(players=3, seed=3, options={"characters": ["witch", "elf", "druid"]}, moves=12, lang="hu"),
    "zauberschmiede": dict(players=2, seed=5, options={}, moves=3, lang="de"),
}


def capture(game: str, spec: dict, lang: str, out: Path) -> None:
    state = grimoire.new_game(game, spec["players"], spec["seed"], **spec["options"])
    agents = [make_agent(game, "medium", i) for i in range(spec["players"])]
    for _ in range(spec["moves"]):                      # a position a little into the game
        state.apply(agents[state.current_player].choose(state, state.current_player))
    while state.current_player != 0:
        state.apply(agents[state.current_player].choose(state, state.current_player))
    t = Translator(lang)
    console = Console(width=80, record=True, force_terminal=True, color_system="truecolor")
    console.print(renderers.render(game, state.observation(0), 0, state.hints(0), t=t, width=80))
    listed = ActionNumbers().update((0, 1), [str(a) for a in state.legal_actions()])
    console.print(grid(group_actions(listed), 80))
    console.print(t("term.prompt", seat=0) + "help")
    console.save_svg(str(out / f"terminal-{game}-{lang}-80.svg"), title=f"grimoire play {game} (80 columns)")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for game, spec in GAMES.items():
        for lang in ("en", spec["lang"]):
            capture(game, spec, lang, out)
    print(f"captures written to {out}")


if __name__ == "__main__":
    main()
