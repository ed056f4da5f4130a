"""What the interfaces read from the game: the terminal rendering, the hints, the browser board's files
and static tables, and the translation catalogs."""

from __future__ import annotations

import io
import json
import re

from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.render import describe, render

from .helpers import arena, fig, setup_done

INFO = game_info("shuluri")


def _text(obs, seat, hints=None, width=100) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(render(obs, seat, hints))
    return out.getvalue()


def _midgame(seed: int = 8, actions: int = 90):
    s = grimoire.new_game("shuluri", 2, seed)
    agents = [make_agent("shuluri", "medium", 1), make_agent("shuluri", "medium", 2)]
    for _ in range(actions):
        if s.is_terminal():
            break
        cp = s.current_player
        s.apply(agents[cp].choose(s, cp))
    return s


# --- the terminal (more in test_terminal.py) -----------------------------------------------------------------------
def test_the_terminal_shows_the_dice_and_the_own_secrets_only():
    s = _midgame()
    mine = _text(s.observation(0), 0, width=80)
    theirs = _text(s.observation(1), 1, width=80)
    assert "Your secrets" in mine and "Your secrets" in theirs
    cards0 = {h["card"] for h in s.observation(0)["shuluri"]["teams"][0]["hand"]}
    cards1 = {h["card"] for h in s.observation(1)["shuluri"]["teams"][1]["hand"]}
    secrets = theirs[theirs.index("Your secrets"):theirs.index("Events and dice")]
    for c in cards0 - cards1:                      # seat 1's screen names none of seat 0's cards in hand
        assert f"trap {c} (" not in secrets
    assert re.search(r"rolls \d+: \d+", mine) or "Round" in mine


def test_rendering_a_spectator_and_the_setup():
    s = grimoire.new_game("shuluri", 4, 3, mode="pairs")
    assert "Round" in _text(s.observation(None), None)
    assert "Your secrets" not in _text(s.observation(None), None)
    assert "Waiting for seat 1" in _text(s.observation(1), 1)


def test_help_by_action_finds_the_rules_topic():
    assert "block" in describe("shoot bxb").lower() or "ranged" in describe("xb shoot bxb").lower()
    assert "MAN" in describe("move")
    assert "Topics" in describe("nonsense")


def test_rules_topics_cover_the_game():
    topics = INFO.rules_topics()
    assert {"arena", "rounds", "man", "movement", "melee", "ranged", "magic", "spells", "traps", "victory",
            "board"} <= set(topics)


# --- hints --------------------------------------------------------------------------------------------------------
def test_hints_give_the_reach_of_the_acting_characters():
    s = arena({"axb": (2, 5), "bwl": (-4, 9)}, active=0, named=("xb",))
    h = s.hints(0)
    assert h["man"]["axb"] == 3 + 4     # one named: a step pool of 3 (M7.6), and the strategist's 4 (M7.9)
    reach = h["reach"]["axb"]
    assert reach["2,5"] == 0
    # every field one move away that a legal move reaches costs 1 MAN
    for a in s.legal_actions():
        w = a.text.split()
        if w[:2] == ["xb", "move"]:
            n = B.NEIGHBOURS[B.parse_field("2,5")][B.DIR_INDEX[w[2]]]
            assert reach[B.field_name(n)] == 1
    assert max(reach.values()) <= 7
    assert s.hints(1) == {}                          # only the deciding seat gets hints


def test_hints_do_not_depend_on_hidden_information():
    s = _midgame(5, 70)
    for _ in range(40):
        if s.is_terminal():
            break
        seat = s.current_player
        det = s.sample_hidden(seat, Rng(3))
        assert det.hints(seat) == s.hints(seat)
        s.apply(s.legal_actions()[-1])


# --- the browser board --------------------------------------------------------------------------------------------
def test_the_board_is_declared_and_its_files_exist():
    assert INFO.board is not None
    assert (INFO.package_dir / INFO.board.module).is_file()
    assert (INFO.package_dir / INFO.board.stylesheet).is_file()
    js = (INFO.package_dir / INFO.board.module).read_text()
    for export in ("export function render", "export async function setup", "export function title"):
        assert export in js


def test_static_tables_for_the_board():
    d = INFO.static_data()
    assert d["line_nudge"] == [1e-6, 2e-6, -3e-6]                     # 20.1.10
    assert d["ranges"]["crossbow"] == 4 and d["ranges"]["daggers"] == 2   # C11.1
    assert d["ranges"]["javelin"] == 2 and d["ranges"]["net"] == 1       # W18.2
    assert {s["key"] for s in d["spells"]} >= {"bolt", "chain", "dance"} and len(d["spells"]) == 31
    chain = next(s for s in d["spells"] if s["key"] == "chain")
    assert chain["lightning"] == [[11, 6], [9, 4], [7, 3]]                # spell 30
    json.dumps(d)


def test_the_board_draws_lines_of_fire_like_the_engine():
    """The browser computes lines of fire itself (hover); its rounding must give the engine's field
    sequence. The port's arithmetic is mirrored here in Python with JavaScript's Math.round."""
    import math

    def js_round(x: float) -> int:
        return math.floor(x + 0.5)

    def line(a: int, b: int):
        (qa, ra), (qb, rb) = B.COORDS[a], B.COORDS[b]
        n = B.distance(a, b)
        e = INFO.static_data()["line_nudge"]
        ax, ay, az = qa + e[0], -qa - ra + e[1], ra + e[2]
        bx, by, bz = qb + e[0], -qb - rb + e[1], rb + e[2]
        out = []
        for i in range(n + 1):
            t = i / n
            x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
            rx, ry, rz = js_round(x), js_round(y), js_round(z)
            dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
            if dx > dy and dx > dz:
                rx = -ry - rz
            elif dy > dz:
                ry = -rx - rz
            else:
                rz = -rx - ry
            out.append((rx, rz))
        return out

    rng = Rng(4)
    for _ in range(400):
        a, b = rng.below(B.N_FIELDS), rng.below(B.N_FIELDS)
        if a != b:
            assert line(a, b) == B.hex_line(a, b)


# --- catalogs -----------------------------------------------------------------------------------------------------
def test_catalogs_have_the_same_keys_in_four_languages():
    cats = {lang: INFO.catalog(lang) for lang in ("en", "hu", "de", "zh")}
    assert set(INFO.languages()) >= set(cats)
    keys = set(cats["en"])
    topics = {f"shuluri.rules.{t}" for t in INFO.rules_topics()}   # English: data/rules.md; the others translate it
    for lang, c in cats.items():
        assert set(c) == (keys if lang == "en" else keys | topics), lang
        assert all(isinstance(v, str) and v for v in c.values()), lang
        # the placeholders of a text are the same in every language
        for k, v in c.items():
            if k not in topics:
                assert set(re.findall(r"\{(\w+)\}", v)) == set(re.findall(r"\{(\w+)\}", cats["en"][k])), (lang, k)


def test_every_key_the_board_uses_exists():
    js = (INFO.package_dir / INFO.board.module).read_text()
    en = INFO.catalog("en")
    for key in re.findall(r'tr\("(shuluri\.[a-z0-9_.]+)"', js):
        assert key in en, key
    for kind in ("act", "name", "react", "dodge", "push", "shove", "effect", "enemy", "chain", "order", "traps",
                 "amulets", "resist", "vials", "potions", "side", "weapon", "deploy"):
        assert f"shuluri.do.{kind}" in en and f"shuluri.what.{kind}" in en
    from grimoire.games.shuluri.data import SPELLS, TRAPS
    for sp in SPELLS:
        assert f"shuluri.spell.{sp.key}" in en and f"shuluri.spell.{sp.key}.short" in en
    for n in TRAPS:
        assert f"shuluri.trap.{n}" in en and f"shuluri.trap.{n}.effect" in en


def test_hungarian_uses_the_rulebooks_terms():
    hu = INFO.catalog("hu")
    assert hu["shuluri.role.wl"] == "Boszorkánymester" and hu["shuluri.role.xb"] == "Számszeríjász"
    assert hu["shuluri.amulet.lightning"] == "villámtagadó" and hu["shuluri.skill.sneaking"] == "Lopakodás"
    from grimoire.games.shuluri.data import SPELLS
    for sp in SPELLS:                               # the spell names of the rulebook (data/spells.toml)
        assert hu[f"shuluri.spell.{sp.key}"] == sp.hu


def test_option_labels_for_the_lobby():
    en = INFO.catalog("en")
    for name in INFO.options.model_fields:
        if name in ("max_rounds", "dice", "gladiator_types"):
            continue
        assert f"shuluri.option.{name}" in en, name


def test_dead_figures_are_shown_as_dead():
    s = arena({"axb": (2, 5)}, active=0, named=("xb",))
    f = fig(s, "axb")
    f.alive = False
    f.ep = -2
    assert "0/12" in _text(s.observation(0), 0)
    assert setup_done(2, 1).observation(0)["shuluri"]["phase"] == "play"
