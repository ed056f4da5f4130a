"""The balance report: its numbers against hand-computed intervals on a run made by hand, the HTML
(plots inline, nothing fetched), the comparison of two runs, and the report of a real small run."""

from __future__ import annotations

import json
import os
import re

import pytest

from grimoire.sim import simulate
from grimoire.sim.config import SimConfig, write_manifest
from grimoire.sim.report import build, write
from grimoire.sim.store import PartWriter, to_table

from .helpers import small_config

# 95% Wilson score intervals, from the formula by hand (and found in the textbooks' tables):
# (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.96
WILSON_5_OF_10 = (0.2366, 0.7634)
WILSON_0_OF_10 = (0.0, 0.2775)
WILSON_10_OF_10 = (0.7225, 1.0)
WILSON_5_OF_20 = (0.1119, 0.4687)
WILSON_8_OF_10 = (0.4902, 0.9433)


def fake_run(path, witch_wins: int = 5):
    """20 two-player games. Games 0-9: the witch (seat 0) against the elf, the witch wins the first
    ``witch_wins``; games 10-19: the mage (seat 0) against the fairy, the fairy wins all. The winner
    scores 10, the loser 0; only the witch's winning seats hold a cloak."""
    cfg = SimConfig("zavandor", 2, ("medium", "medium"), 20, 1, {}, True, 20)
    path.mkdir()
    write_manifest(path, cfg)
    cols: dict[str, list] = {k: [] for k in ("game", "seed", "players", "seat", "turn_position", "agent",
                                             "agent_seed", "role", "score", "rank", "winner", "win_share", "rounds",
                                             "actions", "decisions", "stat_sentinels", "seat_artifact_cloak",
                                             "seat_artifact_wand", "seat_artifact_belt", "seat_vp")}
    for g in range(20):
        roles = ("witch", "elf") if g < 10 else ("mage", "fairy")
        win0 = g < witch_wins
        for seat in range(2):
            won = win0 if seat == 0 else not win0
            for k, v in (("game", g), ("seed", 100 + g), ("players", 2), ("seat", seat), ("turn_position", seat),
                         ("agent", "medium"), ("agent_seed", 7), ("role", roles[seat]), ("score", 10.0 * won),
                         ("rank", 1 if won else 2), ("winner", won), ("win_share", float(won)), ("rounds", 11 + g % 3),
                         ("actions", 300 + g), ("decisions", 150), ("stat_sentinels", 2.0),
                         ("seat_artifact_cloak", float(won and roles[seat] == "witch")),
                         ("seat_artifact_wand", 0.0), ("seat_artifact_belt", 1.0), ("seat_vp", 10.0 * won)):
                cols[k].append(v)
    w = PartWriter(path)
    w.add(to_table(cols), {"batch": 0, "games": 20, "seconds": 1.0, "pid": 1, "host": "test"})
    w.flush()
    return path


def approx(pair, expected, tol=1e-4):
    return pair[0] == pytest.approx(expected[0], abs=tol) and pair[1] == pytest.approx(expected[1], abs=tol)


def test_win_rates_and_intervals_match_the_hand_computation(tmp_path):
    rep = build([fake_run(tmp_path / "a")])["runs"][0]
    assert rep["par"] == 0.5 and rep["run"]["games"] == 20
    roles = {r["key"]: r for r in rep["by_role"]}
    assert roles["witch"]["rate"] == 0.5 and approx(roles["witch"]["ci95"], WILSON_5_OF_10)
    assert roles["mage"]["rate"] == 0.0 and approx(roles["mage"]["ci95"], WILSON_0_OF_10)
    assert roles["fairy"]["rate"] == 1.0 and approx(roles["fairy"]["ci95"], WILSON_10_OF_10)
    assert not roles["witch"]["significant"] and roles["mage"]["significant"] and roles["fairy"]["significant"]
    seats = {r["key"]: r for r in rep["by_seat"]}
    assert seats[0]["rate"] == 0.25 and approx(seats[0]["ci95"], WILSON_5_OF_20)
    assert seats[0]["significant"] and seats[1]["rate"] == 0.75
    assert roles["fairy"]["score"]["mean"] == 10.0 and roles["mage"]["score"]["mean"] == 0.0
    # the mean score of the witch: 5 of 10 seat-games at 10; sd = sqrt(10*10*5/10 * 10/9) ... by hand:
    sd = (sum((x - 5.0) ** 2 for x in [10.0] * 5 + [0.0] * 5) / 9) ** 0.5
    half = 1.959963984540054 * sd / 10 ** 0.5
    assert approx(roles["witch"]["score"]["ci95"], (5.0 - half, 5.0 + half))
    # items: the cloak is held in 5 of 40 seat-games, always by a winner; the belt by every seat
    items = {r["key"]: r for r in rep["items"]["artifact"]}
    cloak = items["artifact_cloak"]
    assert cloak["with"] == 5 and cloak["popularity"] == 5 / 40
    assert cloak["rate_with"] == 1.0 and cloak["rate_without"] == pytest.approx(15 / 35)
    assert items["artifact_wand"]["popularity"] == 0.0 and items["artifact_wand"]["rate_with"] is None
    assert items["artifact_belt"]["popularity"] == 1.0 and items["artifact_belt"]["rate_without"] is None
    assert rep["game_stats"]["sentinels"]["mean"] == 2.0
    assert rep["length"]["rounds"]["mean"] == pytest.approx((7 * 11 + 7 * 12 + 6 * 13) / 20)   # 11, 12, 13, 11, ...
    text = " ".join(rep["findings"])
    assert "role Mage wins 0.0%" in text and "role Fairy wins 100.0%" in text and "Witch" not in text
    assert "seat 1 wins 25.0% (95% CI 11.2%–46.9%" in text        # seats counted from 1 for people
    assert "artifact: Magic Wand" in text       # never held: rarely taken


def test_two_runs_side_by_side_with_the_differences_and_their_intervals(tmp_path):
    data = build([fake_run(tmp_path / "a", witch_wins=5), fake_run(tmp_path / "b", witch_wins=8)])
    diff = {r["key"]: r for r in data["comparisons"][0]["by_role"]}
    w = diff["witch"]
    assert w["base"] == 0.5 and w["other"] == 0.8 and w["diff"] == pytest.approx(0.3)
    # Newcombe: d - sqrt((p1-l1)² + (u2-p2)²), d + sqrt((u1-p1)² + (p2-l2)²) from the Wilson intervals above
    p1, (l1, u1), p2, (l2, u2) = 0.8, WILSON_8_OF_10, 0.5, WILSON_5_OF_10
    lo = 0.3 - ((p1 - l1) ** 2 + (u2 - p2) ** 2) ** 0.5
    hi = 0.3 + ((u1 - p1) ** 2 + (p2 - l2) ** 2) ** 0.5
    assert approx(w["ci95"], (lo, hi), tol=2e-4)
    assert not w["significant"]                                     # 10 games each: the interval holds 0
    assert diff["mage"]["diff"] == 0.0
    html = write(data, tmp_path / "rep")[1].read_text()
    assert "b minus a" in html and "+30.0 pts" in html


def test_the_html_report_is_one_offline_file_with_its_plots(tmp_path):
    data = build([fake_run(tmp_path / "a")])
    json_path, html_path = write(data, tmp_path / "rep")
    html = html_path.read_text()
    assert html.count("<svg") >= 6          # roles, turn order, seats, scores, rounds, actions, items
    for title in ("Win rate by role", "First-player advantage", "Win rate by seat", "Scores", "Game length",
                  "Items and choices"):
        assert title in html
    assert "<script" not in html and "<link" not in html and "src=" not in html
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert all(u.startswith("http://www.w3.org/") for u in urls), urls     # SVG namespaces only
    assert json.loads(json_path.read_text())["runs"][0]["run"]["games"] == 20


def test_report_of_a_real_run(tmp_path):
    simulate(small_config(games=8), tmp_path / "run", workers=1)
    rep = build([tmp_path / "run"])["runs"][0]
    assert sum(r["seat_games"] for r in rep["by_role"]) == 32
    assert sum(r["wins"] for r in rep["by_seat"]) == pytest.approx(8)      # one win per game
    assert {"artifact", "sentinel", "track"} <= set(rep["items"])
    assert "grimoire simulate zavandor --players 4 --agents random" in rep["run"]["command"]


CHROMIUM = "/usr/bin/chromium"


def test_the_report_renders_in_chromium_with_its_plots(tmp_path):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright
    page_path = write(build([fake_run(tmp_path / "a")]), tmp_path / "rep")[1]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu",
                                                             "--disable-dev-shm-usage"])
        try:
            page = b.new_page()
            page.goto(page_path.as_uri())
            sizes = page.eval_on_selector_all("figure svg", "els => els.map(e => e.getBoundingClientRect().width)")
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            b.close()
    assert len(sizes) >= 6 and all(w > 200 for w in sizes)


def test_newcombe_interval_matches_the_published_example():
    from grimoire.sim.report.stats import newcombe
    # Newcombe (1998), method 10, example (a): 56/70 against 48/80 -> 0.2000 (0.0524, 0.3339)
    d, lo, hi = newcombe(56, 70, 48, 80)
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)


def test_ranks_share_ties_and_put_the_winners_first():
    from grimoire.sim.play import ranks
    assert ranks([30.0, 50.0, 50.0, 10.0], [1, 2]) == [3, 1, 1, 4]
    assert ranks([40.0, 40.0, 20.0], [0]) == [1, 2, 3]          # a tie broken by the game's own rule
    assert ranks([5.0], [0]) == [1]
