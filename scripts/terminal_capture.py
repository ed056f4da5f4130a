"""Terminal captures at 80 columns for the docs: each game's compact board and its actions as a player
sees them in `grimoire play` (English and one other language), saved as SVG; for a game whose
terminal groups the actions (Shuluri) the first level of that list, and its zoomed view.

    .venv/bin/python scripts/terminal_capture.py docs/screenshots
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli import picker
from grimoire.cli import render as renderers
from grimoire.cli.i18n import Translator
from grimoire.cli.play import Session

GAMES = {
    "zavandor": dict(players=3, seed=3, options={"characters": ["witch", "elf", "druid"]}, moves=12, lang="hu",
                     kind=None),
    "zauberschmiede": dict(players=2, seed=5, options={}, moves=3, lang="de", kind=None),
    # a step of seat 0 (the acting characters named): the grouped list starts with the figures
    "shuluri": dict(players=2, seed=3, options={}, moves=0, lang="hu", kind="act"),
}


def position(game: str, spec: dict):
    """The game a little way in, at a decision of seat 0 (of the kind ``spec["kind"]`` if given)."""
    state = grimoire.new_game(game, spec["players"], spec["seed"], **spec["options"])
    agents = [make_agent(game, "medium", i) for i in range(spec["players"])]
    for _ in range(spec["moves"]):
        state.apply(agents[state.current_player].choose(state, state.current_player))
    kind = spec["kind"]
    while state.current_player != 0 or (kind and state.observation(0)[game]["decision"]["kind"] != kind):
        state.apply(agents[state.current_player].choose(state, state.current_player))
    return state


def capture(game: str, spec: dict, lang: str, out: Path) -> None:
    state = position(game, spec)
    t = Translator(lang)
    console = Console(width=80, record=True, force_terminal=True, color_system="truecolor", file=io.StringIO())
    session = Session(state, [None] * state.num_players, console, t=t)
    session.show(0)
    texts = [str(a) for a in state.legal_actions()]
    if renderers.has_menu(game):
        session.show_level(0, picker.level(texts))
    else:
        session.show_flat(0, texts)
    console.print(t("term.prompt", seat=1) + "help", highlight=False)
    console.save_svg(str(out / f"terminal-{game}-{lang}-80.svg"), title=f"grimoire play {game} (80 columns)")
    if "zoom" in renderers.views(game) and lang == "en":
        console = Console(width=80, record=True, force_terminal=True, color_system="truecolor", file=io.StringIO())
        session = Session(state, [None] * state.num_players, console, t=t)
        console.print(t("term.prompt", seat=1) + "zoom", highlight=False)
        session.show(0, "zoom")
        console.print(t("term.prompt", seat=1), highlight=False)
        console.save_svg(str(out / f"terminal-{game}-zoom-{lang}-80.svg"), title=f"grimoire play {game}: zoom")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for game, spec in GAMES.items():
        for lang in ("en", spec["lang"]):
            capture(game, spec, lang, out)
    print(f"captures written to {out}")


if __name__ == "__main__":
    main()
