"""The Shuluri terminal at 80 columns in four languages: the board, the map and its coordinates, the
zoomed view, the grouped picker and the action words, from the decisions of a whole game."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.cells import cell_len
from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli import picker
from grimoire.cli import render as R
from grimoire.cli.i18n import Translator
from grimoire.cli.play import Session
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri import render_map as M

LANGS = ("en", "hu", "de", "zh")
RAW_KEY = re.compile(r"\b(?:shuluri|term|zavandor|zauberschmiede)\.[a-z_]+")
# English that would show an untranslated text; none of these is a word of Hungarian, German or Chinese
ENGLISH = re.compile(
    r"\b(?:the|and|with|your|you|round|step|seat|warlock|crossbowman|dagger|strategist|secrets|events|gates|"
    r"figure|field|effects|begins|ends|names|rolls|against|hit|miss|casts|moves|attacks|loses|choose|who|what|"
    r"which|deploy|move|attack|shoot|cast|spell|heap|body|wall|marked|cards|discs|won|draw|poison|amulet|"
    r"lightning|level|trap|gate|closed|open|north|south|east|west|acting|hiding|sneaking|dead|over|winners?|"
    r"medium|easy|hard|human|player|score|result)\b",
    re.IGNORECASE)


def _console() -> Console:
    return Console(file=io.StringIO(), width=80, record=True, color_system=None)


def _lines(console: Console) -> list[str]:
    return console.export_text().splitlines()


@pytest.fixture(scope="module")
def decisions() -> dict[str, object]:
    """A state for every kind of decision a two-player game between medium AIs meets, and its end
    (the first state of each kind; the seat to render is the deciding one)."""
    s = grimoire.new_game("shuluri", 2, 8)
    agents = [make_agent("shuluri", "medium", 1), make_agent("shuluri", "medium", 2)]
    out: dict[str, object] = {}
    for _ in range(3000):
        if s.is_terminal():
            out["end"] = s.clone()
            break
        kind = s.stack.top.kind
        out.setdefault(kind, s.clone())
        seat = s.current_player
        s.apply(agents[seat].choose(s, seat))
    assert {"traps", "amulets", "resist", "side", "weapon", "deploy", "name", "act", "end"} <= set(out)
    return out


def _screens(state, lang: str) -> list[str]:
    """Everything the terminal shows at this decision: the board, its views, the picker's first levels
    (the root, every option under it and the first path down to an action) and every legal action in
    words."""
    seat = state.current_player if state.current_player is not None else 0
    t = Translator(lang)
    con = _console()
    sess = Session(state, [None] * state.num_players, con, t=t)
    sess.show(seat)
    for view in ("map", "zoom", "full", "zoom agl", "zoom 3,-2"):
        sess.show(seat, view)
    if not state.is_terminal():
        texts = [str(a) for a in state.legal_actions()]
        root = picker.level(texts)
        sess.show_level(seat, root)
        for option in root.options:
            if option not in root.plays:
                sess.show_level(seat, picker.level(texts, root.prefix + (option,)))
        lv = root
        while not lv.flat and lv.options and lv.options[0] not in lv.plays:
            lv = picker.level(texts, lv.prefix + (lv.options[0],))
            sess.show_level(seat, lv)
        for text in texts:
            con.print(R.label("shuluri", text, t))
    return _lines(con)


@pytest.mark.parametrize("lang", LANGS)
def test_every_decision_fits_80_columns_with_no_raw_key_and_no_english(decisions, lang):
    for kind, state in decisions.items():
        lines = _screens(state, lang)
        assert lines, kind
        wide = [x for x in lines if cell_len(x) > 80]
        assert not wide, (lang, kind, wide[:3])
        text = "\n".join(lines)
        keys = RAW_KEY.findall(text)
        assert not keys, (lang, kind, keys[:5])
        if lang != "en":
            # figure names and action codes (agl, bwl) and the game's abbreviations are the same everywhere
            found = sorted({m.group(0) for m in ENGLISH.finditer(text)})
            assert not found, (lang, kind, found, [x for x in lines if ENGLISH.search(x)][:4])


def test_the_english_list_would_catch_english(decisions):
    """The check above can fail: the English board is full of the words it looks for."""
    text = "\n".join(_screens(decisions["act"], "en"))
    assert len({m.group(0).lower() for m in ENGLISH.finditer(text)}) > 20


# --- the map ------------------------------------------------------------------------------------------------------
def test_the_map_has_every_field_with_r_on_its_rows_and_q_on_the_lines(decisions):
    s = decisions["act"]
    obs = s.observation(None)
    con = _console()
    con.print(M.arena_map(obs))
    lines = _lines(con)
    top = max(r for _q, r in B.COORDS)
    rows = {int(x[:4]): x for x in lines[1:-1]}          # every map row starts with its r
    assert sorted(rows) == list(range(-top, top + 1))
    for r, line in rows.items():
        assert line.rstrip().endswith(f"{r}")            # ... and ends with it
        q_of_row = sorted(q for q, rr in B.COORDS if rr == r)
        cells = line[4:4 + 2 * len(q_of_row) + 60]
        # a field (q, r) is at column 4 + 2q + r + 24: an empty field on a q line draws the line
        for q in q_of_row:
            f = B.INDEX[(q, r)]
            ch = line[4 + 2 * q + r + 24]
            if q % 5 == 0 and ch not in "GWXZ12gwxz+H●○" and f not in B.TRAP_NUMBER_AT:
                assert ch == "╱", (q, r, cells)
    # the lines' q at their ends
    labels = "\n".join(lines)
    for q in (-10, -5, 0, 5, 10):
        assert f"q={q}" in labels
    assert max(cell_len(x) for x in lines) <= 62               # room for the figure list beside it


def test_figures_stand_where_the_map_and_the_list_say():
    s = grimoire.new_game("shuluri", 2, 3)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    obs = s.observation(0)
    con = _console()
    con.print(M.map_with_list(obs, Translator("en"), 0, 80))
    lines = _lines(con)
    for f in obs["shuluri"]["figures"]:
        q, r = map(int, f["field"].split(","))
        row = next(x for x in lines if x[:4].strip() == str(r))
        assert row[4 + 2 * q + r + 24] in (M.symbol(f), M.symbol(f).lower()) or any(
            g["field"] == f["field"] for g in obs["shuluri"]["figures"] if g is not f)   # shared fields show one
        assert re.search(rf"\b{f['name']}\s+{re.escape(f['field'])}\s+\d+", "\n".join(lines))


def test_zoom_names_every_figure_and_field_around_the_centre():
    s = grimoire.new_game("shuluri", 2, 3)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    obs = s.observation(0)
    centre = M.zoom_centre(obs, "agl", 0)
    assert B.field_name(centre) == next(f["field"] for f in obs["shuluri"]["figures"] if f["name"] == "agl")
    con = _console()
    con.print(M.zoom_map(obs, centre, Translator("en")))
    text = con.export_text()
    q0, r0 = B.COORDS[centre]
    for dq, dr in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
        if (q0 + dq, r0 + dr) in B.INDEX:
            assert f"{q0 + dq},{r0 + dr}" in text
    assert "agl" in text
    assert max(cell_len(x) for x in text.splitlines()) <= 80
    assert M.zoom_centre(obs, "nowhere", 0) is None and M.zoom_centre(obs, "99,99", 0) is None
    assert B.field_name(M.zoom_centre(obs, "wl", 0)) == next(f["field"] for f in obs["shuluri"]["figures"]
                                                             if f["name"] == "awl")


# --- the picker: the engine's actions, composed level by level ------------------------------------------------------
def test_trap_cards_are_given_one_by_one_and_compose_the_engines_action():
    s = grimoire.new_game("shuluri", 2, 3)
    texts = [str(a) for a in s.legal_actions()]
    assert len(texts) == 125                                   # the engine's action stays "traps <r> <r> <r>"
    obs = s.observation(0)
    hand = [h["card"] for h in obs["shuluri"]["teams"][0]["hand"]]
    lv = picker.level(texts)
    chosen = []
    for i, role in enumerate(("d1", "wl", "gl")):
        assert lv.prefix == ("traps", *chosen) and len(lv.options) == 5       # one question per card
        words = R.menu("shuluri", obs, list(lv.prefix), [lv.continuation(o) for o in lv.options],
                       t=Translator("en"))
        assert f"number {hand[i]}" in words["title"] and f"Trap card {i + 1} of 3" in words["title"]
        choice = picker.resolve(texts, lv, role, {n + 1: o for n, o in enumerate(lv.options)}, {})
        if choice.play:
            assert i == 2 and choice.play == "traps d1 wl gl"
            break
        chosen.append(role)
        lv = picker.level(texts, choice.go)
    s.apply("traps d1 wl gl")                                  # what the picker composed is legal
    holders = [h["holder"] for h in s.observation(0)["shuluri"]["teams"][0]["hand"]]
    assert holders == ["ad1", "awl", "agl"]


def test_amulets_cannot_be_given_twice_to_one_character():
    s = grimoire.new_game("shuluri", 2, 3)
    s.apply("traps gl gl gl")
    texts = [str(a) for a in s.legal_actions()]
    lv = picker.level(texts)
    assert lv.prefix == ("amulets",) and len(lv.options) == 5
    second = picker.level(texts, ("amulets", "wl"))
    assert "wl" not in second.options and len(second.options) == 4


def test_the_picker_reads_numbers_words_whole_texts_and_goes_back():
    s = grimoire.new_game("shuluri", 2, 8)
    agents = [make_agent("shuluri", "medium", 1), make_agent("shuluri", "medium", 2)]
    while not (s.stack.top.kind == "act" and s.current_player == 0):
        s.apply(agents[s.current_player].choose(s, s.current_player))
    texts = [str(a) for a in s.legal_actions()]
    root = picker.level(texts)
    assert not root.flat and "end" in root.plays and len(root.options) < 8    # figures, then the verbs
    numbers = {n + 1: o for n, o in enumerate(root.options)}
    figure = next(o for o in root.options if o not in root.plays)
    n = next(k for k, v in numbers.items() if v == figure)
    assert picker.resolve(texts, root, str(n), numbers, {}).go == (figure,)
    assert picker.resolve(texts, root, figure.upper(), numbers, {}).go == (figure,)
    assert picker.resolve(texts, root, "end", numbers, {}).play == "end"
    assert picker.resolve(texts, root, texts[0], numbers, {}).play == texts[0]      # a whole text anywhere
    assert picker.resolve(texts, root, "0", numbers, {}).back
    bad = picker.resolve(texts, root, "99", numbers, {})
    assert bad.error == "term.no_action_n" and bad.params["hi"] == max(numbers)
    assert picker.resolve(texts, root, "fly to the moon", numbers, {}).error == "term.pick.unknown"
    sub = picker.level(texts, (figure,))
    verb = texts[[t.split()[0] for t in texts].index(figure)].split()[1]
    rest = [t for t in texts if t.split()[:2] == [figure, verb]]
    deeper = picker.resolve(texts, sub, verb, {}, {})
    assert deeper.go == (figure, verb) or deeper.play == rest[0]
    tail = " ".join(rest[0].split()[1:])                      # the rest of a text from the level it is at
    assert picker.resolve(texts, sub, tail, {}, {}).play == rest[0]


def test_a_level_with_few_actions_lists_them_whole():
    texts = ["pass", "pass all", "trap 9", "trap 12"]
    lv = picker.level(texts)
    assert lv.flat and lv.options == texts and lv.plays["trap 9"] == "trap 9"


def test_every_action_has_words_and_the_words_differ_from_the_text(decisions):
    t = Translator("en")
    for state in decisions.values():
        if state.is_terminal():
            continue
        for a in state.legal_actions():
            words = R.label("shuluri", str(a), t)
            assert words != str(a) and "{" not in words, str(a)
    assert R.label("shuluri", "wl cast acid 3,-2", t) == "Warlock casts Acid Cloud at 3,-2"
    assert R.label("shuluri", "traps d1 d2 gl", t) == ("Trap cards, in card order, to: Dagger thrower (deasta), "
                                                       "Dagger thrower (laeva), Gladiator")
    assert R.label("shuluri", "xb shoot bgl", t) == "Crossbowman shoots at Gladiator bgl"


def test_help_for_an_action_says_it_in_words_and_gives_the_rules_in_the_language():
    en = R.describe("shuluri", "wl cast acid 3,-2", t=Translator("en"))
    assert en.startswith("**Warlock casts Acid Cloud at 3,-2**")
    hu = R.describe("shuluri", "wl cast acid 3,-2", t=Translator("hu"))
    assert "Boszorkánymester" in hu and not ENGLISH.search(hu.split("\n", 1)[0])
    assert "Topics" in R.describe("shuluri", "nonsense", t=Translator("en"))


# --- seats count from 1 ---------------------------------------------------------------------------------------------
def test_seats_are_counted_from_1_on_the_board_and_in_the_events(decisions):
    for kind, state in decisions.items():
        text = "\n".join(_screens(state, "en")[:200])
        assert not re.search(r"\bseat 0\b", text, re.IGNORECASE), kind
    end = decisions["end"]
    con = _console()
    con.print(R.render("shuluri", end.observation(0), 0, t=Translator("en"), width=80))
    head = _lines(con)[1]
    winners = end.winners()
    for w in winners:
        assert f"seat {w + 1}" in head
    assert "The contest is over" in head


# --- a whole game through the picker -------------------------------------------------------------------------------
class RandomPlayer:
    """Answers every prompt of the terminal like a person who reads the list: a listed number, the word
    of an option, or a field typed as q,r where the list is a map; now and then a wrong number first."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.session: Session | None = None
        self.prompts = 0

    def read(self, prompt: str, words: list[str] | None = None, seat: int | None = None) -> str | None:
        self.prompts += 1
        assert self.session is not None and self.prompts < 20000
        lv = self.session.current_level
        assert lv is not None
        listed = self.session.listed_now
        if self.rng.random() < 0.05:
            return "999"
        if not listed:                                       # a map of fields: type one
            return lv.continuation(self.rng.choice(lv.options))
        n = self.rng.choice(sorted(listed))
        return str(n) if self.rng.random() < 0.7 else lv.continuation(listed[n])


@pytest.mark.parametrize("players,mode", [(2, "ffa"), (4, "pairs")])
def test_a_person_plays_a_whole_game_through_the_picker(players, mode):
    s = grimoire.new_game("shuluri", players, 4, mode=mode, max_rounds=2)
    agents = [None] + [make_agent("shuluri", "medium", i) for i in range(1, players)]
    reader = RandomPlayer(players)
    con = _console()
    sess = Session(s, agents, con, t=Translator("hu" if players == 4 else "de"), reader=reader)
    reader.session = sess
    assert sess.loop()
    sess.result()
    out = con.export_text()
    assert s.is_terminal() or sess.state.is_terminal()
    assert reader.prompts > 20
    assert max(cell_len(x) for x in out.splitlines()) <= 80
    assert not RAW_KEY.search(out)
    found = sorted({m.group(0) for m in ENGLISH.finditer(out)})      # the AI's moves and the result too
    assert not found, found
