"""The grimoire command, run as a real process: play, replay, bench, rules, and clear errors."""

import json
import subprocess
import sys

import pytest


def grimoire(*args, input_text=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "grimoire", *args], input=input_text,
                          capture_output=True, text=True, timeout=timeout,
                          env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})


def test_ai_only_game_records_and_replays(tmp_path):
    rec = tmp_path / "game.json"
    r = grimoire("play", "zavandor", "--agents", "random,random,random", "--seed", "5", "--max-rounds", "4",
                 "--quiet", "--record", str(rec))
    assert r.returncode == 0, r.stderr
    assert "winners:" in r.stdout
    data = json.loads(rec.read_text())
    assert data["game"] == "zavandor" and data["players"] == 3 and data["seed"] == 5 and data["actions"]
    assert "result" in data
    r = grimoire("replay", str(rec))
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr


def test_ai_only_game_without_max_rounds_ends_at_the_round_cap(tmp_path):
    """Random Zavandor seats never reach the goal: without --max-rounds an AI-only game would run on
    forever. It ends after the game's round cap (60 in its learning data), and says so at the start."""
    rec = tmp_path / "game.json"
    r = grimoire("play", "zavandor", "--agents", "random,random,random", "--seed", "5", "--quiet",
                 "--record", str(rec), timeout=60)
    assert r.returncode == 0, r.stderr
    assert "ends after round 60" in r.stdout and "winners:" in r.stdout
    data = json.loads(rec.read_text())
    assert data["options"]["max_rounds"] == 60
    r = grimoire("replay", str(rec))            # the record replays to the same end
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr


def test_a_human_seat_keeps_the_rules_own_end(tmp_path):
    r = grimoire("play", "zavandor", "--agents", "human,random", "--seed", "5", input_text="quit\n")
    assert r.returncode == 0, r.stderr
    assert "ends after round" not in r.stdout


def test_replay_detects_a_tampered_record(tmp_path):
    rec = tmp_path / "game.json"
    grimoire("play", "zavandor", "--agents", "random,random", "--seed", "2", "--max-rounds", "2", "--quiet",
             "--record", str(rec))
    data = json.loads(rec.read_text())
    data["result"]["scores"] = [100, 100]
    rec.write_text(json.dumps(data))
    r = grimoire("replay", str(rec))
    assert r.returncode != 0
    assert "error:" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("args,needle", [
    (("play", "chess"), "unknown game"),
    (("play", "zavandor", "--players", "9"), "2-6 players"),
    (("play", "zavandor", "-o", "characters=witch,bob", "-p", "2"), "unknown character"),
    (("play", "zavandor", "-o", "no_such=1"), "unknown option"),
    (("play", "zavandor", "--agents", "human,genius"), "unknown agent"),
    (("replay", "/nonexistent/file.json"), "no such file"),
    (("rules", "chess"), "unknown game"),
])
def test_bad_input_gives_one_clear_line_and_nonzero_exit(args, needle):
    r = grimoire(*args)
    assert r.returncode != 0
    assert needle in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_corrupt_save_file_is_refused(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"game": "zavandor", "players": 2, "seed": 1, "options": {}, "actions": ["end", "fly"]}')
    for cmd in (("replay", str(p)), ("play", "--resume", str(p))):
        r = grimoire(*cmd)
        assert r.returncode != 0 and "illegal" in r.stderr and "Traceback" not in r.stderr


def test_human_session_help_rules_undo_log_save_and_quit(tmp_path):
    save = tmp_path / "s.json"
    script = "\n".join(["help", "rules curse", "buy opal", "undo", "undo", "buy opal", "log", "fly to the moon",
                        "99", f"save {save}", "quit"]) + "\n"
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", "human,random", "-o", "characters=witch,elf",
                 input_text=script)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Commands" in out                      # help
    assert "Curse of the 9 Sages" in out          # rules curse
    assert "Undone." in out and "Nothing to undo" in out
    assert "seat 1: buys 1 Opal" in out           # log: seats from 1, the action in words
    assert "cannot read 'fly to the moon'" in out  # a clear rejection, the game goes on
    assert "There is no action 99" in out
    rec = json.loads(save.read_text())
    assert rec["actions"] == ["buy opal"]
    # the saved game resumes where it was
    r = grimoire("play", "--resume", str(save), "--agents", "human,random", input_text="log\nquit\n")
    assert r.returncode == 0 and "seat 1: buys 1 Opal" in r.stdout


def test_undo_is_refused_across_another_seats_decision(tmp_path):
    # ending the turn hands the game to the next seat: that cannot be undone
    r = grimoire("play", "zavandor", "--seed", "4", "--agents", "human,human", "-o", "characters=witch,elf",
                 input_text="end\n\nundo\nquit\n")
    assert r.returncode == 0
    assert "Nothing to undo" in r.stdout


def test_curse_bid_asks_for_confirmation():
    # open an auction, then type a bid far beyond the player's means: the CLI warns and cancels
    import grimoire as g

    state = g.new_game("zavandor", 2, 3, characters=["mage", "elf"])
    first = state.current_player
    item = next(str(a) for a in state.legal_actions() if str(a).startswith("auction"))
    agents = ["random", "random"]
    agents[first] = "human"
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", ",".join(agents), "-o", "characters=mage,elf",
                 input_text=f"{item}\nbid 100000\nno\nquit\n")
    assert "curse of the 9 Sages" in r.stdout


def test_bench_prints_the_figures():
    r = grimoire("bench", "zavandor", "--games", "3", "--players", "3")
    assert r.returncode == 0, r.stderr
    for needle in ("games/s", "actions/s", "clones/s"):
        assert needle in r.stdout


def test_rules_topics():
    r = grimoire("rules", "zavandor")
    assert r.returncode == 0 and "auction" in r.stdout
    r = grimoire("rules", "zavandor", "gems")
    assert "emerald" in r.stdout


def test_secret_choices_of_other_seats_are_not_printed():
    # Zauberschmiede: seat 0 (AI) decides on the roll before the human at seat 1; its choices stay
    # secret until the round is over — neither the move lines nor the log show them.
    r = grimoire("play", "zauberschmiede", "--players", "2", "--seed", "8", "--agents", "random,human",
                 input_text="log\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "secret" in r.stdout
    for line in r.stdout.splitlines():
        if line.startswith("seat 0 (random):"):
            assert "secret" in line, line


# --- one seed scheme: bench and play derive their seeds with grimoire.derive_seed ---------------------------

def test_bench_plays_the_games_of_its_seed():
    from grimoire import derive_seed, new_game, run_episode
    from grimoire.agents import make_agent
    from grimoire.cli.bench import bench_games

    game, players = "zauberschmiede", 2
    first = bench_games(game, players, 3, 7, 2, None, {})
    again = bench_games(game, players, 3, 7, 2, None, {})
    assert first["actions"] == again["actions"]
    # game g has the seed derive_seed(7, g), its seat i a random agent seeded derive_seed(7, g, 2, i)
    expected = 0
    for g in range(3):
        state = new_game(game, players, derive_seed(7, g), max_rounds=2)
        expected += run_episode(state, [make_agent(game, "random", derive_seed(7, g, 2, i))
                                        for i in range(players)]).actions
    assert first["actions"] == expected


def test_play_seeds_each_agent_from_the_game_seed():
    from grimoire import derive_seed
    from grimoire.cli.play import build_agents
    from grimoire.core.rng import Rng

    agents = build_agents("zavandor", 3, 1, ["random", "human", "random"], 99)
    assert agents[1] is None
    for i in (0, 2):
        assert agents[i].rng.next64() == Rng(derive_seed(99, "agent", i)).next64()


def test_same_seed_same_ai_game_in_the_terminal(tmp_path):
    recs = []
    for k in range(2):
        path = tmp_path / f"g{k}.json"
        r = grimoire("play", "zauberschmiede", "--agents", "random,easy", "--seed", "12", "--max-rounds", "2",
                     "--quiet", "--record", str(path))
        assert r.returncode == 0, r.stderr
        recs.append(json.loads(path.read_text()))
    assert recs[0]["actions"] == recs[1]["actions"] and recs[0]["actions"]


@pytest.mark.parametrize("args", [("play",), ("bench",), ("arena", "--agents", "random,random")])
def test_a_missing_game_lists_the_games(args):
    import grimoire as g

    r = grimoire(*args)
    assert r.returncode != 0 and "Traceback" not in r.stderr + r.stdout
    assert all(name in r.stderr + r.stdout for name in g.games())


# --- the terminal of issue 15: 80 columns, languages, stable numbers, clear exits -------------------------

def grimoire_env(*args, input_text=None, columns=80, lang=None, timeout=120):
    env = {"COLUMNS": str(columns), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    if lang:
        env["LANG"] = lang
    return subprocess.run([sys.executable, "-m", "grimoire", *args], input=input_text, capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.mark.parametrize("args,needle", [
    (("rules", "zavandor", "nosuchtopic"), "no rules topic 'nosuchtopic'"),
    (("bench", "zavandor", "--players", "0"), "2-6 players, not 0"),
    (("bench", "zauberschmiede", "--games", "0"), "--games must be at least 1"),
    (("play", "zavandor", "--lang", "xx"), "no language 'xx'"),
])
def test_bad_arguments_exit_2_with_one_line(args, needle):
    r = grimoire(*args)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_whole_session_fits_80_columns():
    script = "help\nboard full\nhand\nmarket\nrules gems\nbuy opal\nlog\nquit\n"
    for game, extra in (("zavandor", ["-o", "characters=witch,elf"]), ("zauberschmiede", ["--players", "2"])):
        r = grimoire_env("play", game, "--seed", "3", "--agents", "human,random", *extra, input_text=script)
        assert r.returncode == 0, r.stderr
        # (piped input is not echoed: the prompt and the next output share a line; take the prompt away)
        long = [line for line in r.stdout.replace("seat 1> ", "").splitlines() if len(line) > 80
                and "grimoire play --resume" not in line and "It was not saved" not in line]
        assert not long, long[:3]
        assert "…" not in r.stdout


def test_help_keeps_its_brackets_and_rules_are_formatted():
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", "human,random", input_text="help\nrules curse\nquit\n")
    out = r.stdout
    assert "rules [topic]" in out and "log [n]" in out and "quit [FILE]" in out   # not eaten as Rich markup
    assert "board full" in out                                  # the game's detail views are listed
    assert "Curse of the 9 Sages (7.5)" in out and "# Curse" not in out         # Markdown, rendered


def test_the_terminal_speaks_the_language_of_lang_or_the_locale():
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", "human,random", "--lang", "de",
                 input_text="help\nrules curse\nquit\n")
    assert "Befehle" in r.stdout and "Fluch der 9 Weisen" in r.stdout and "Zugreihenfolge" in r.stdout
    r = grimoire_env("play", "zauberschmiede", "--seed", "3", input_text="quit\n", lang="hu_HU.UTF-8")
    assert "Kockák" in r.stdout and "Üst" in r.stdout and "befejezetlen" in r.stdout
    r = grimoire("rules", "zauberschmiede", "harmony", "--lang", "zh")
    assert r.returncode == 0 and "和諧" in r.stdout


def test_quit_says_what_happened_and_can_save(tmp_path):
    save = tmp_path / "left.json"
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", "human,random", input_text=f"buy opal\nquit {save}\n")
    assert r.returncode == 0
    assert "Game left unfinished after" in r.stdout and f"grimoire play --resume {save}" in r.stdout
    assert json.loads(save.read_text())["actions"][-1] == "buy opal"
    r = grimoire("play", "zavandor", "--seed", "3", "--agents", "human,random", input_text="quit\n")
    assert "It was not saved" in r.stdout


def test_ctrl_c_leaves_with_a_word(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from grimoire.cli import play
    from grimoire.cli.main import _register_commands, app

    def interrupted(self, prompt, words=None, seat=None):
        raise KeyboardInterrupt
    monkeypatch.setattr(play.LineReader, "read", interrupted)
    _register_commands()
    rec = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["play", "zavandor", "--seed", "3", "--agents", "human,random", "--record", str(rec)])
    assert r.exit_code == 130
    assert "Game left unfinished after 0 actions" in r.output and rec.exists()


def test_action_numbers_keep_their_meaning_within_a_turn():
    from grimoire.cli.play import ActionNumbers, group_actions

    nums = ActionNumbers()
    first = dict(nums.update(("seat 0", 1), ["buy opal", "buy sapphire", "end"]))
    # after a purchase the list changes: the old numbers keep their texts, new texts get new numbers
    second = dict(nums.update(("seat 0", 1), ["buy opal", "pay", "end"]))
    assert first[1] == second[1] == "buy opal" and first[3] == second[3] == "end"
    assert second[4] == "pay" and 2 not in second and nums.lookup(2) is None
    # the next turn numbers afresh
    assert dict(nums.update(("seat 0", 2), ["end"])) == {1: "end"}
    cells = group_actions([(1, "pass"), (2, "bid 20"), (3, "bid 21"), (4, "bid 22"), (5, "bid 23")])
    assert cells == ["[dim]1[/] pass", "[dim]2-5[/] bid 20..23"]


def test_typed_numbers_play_the_listed_action_even_after_the_list_changed():
    # "buy opal" is listed as some number; after buying, that number still means "buy opal" (or nothing)
    import grimoire as g
    from grimoire.cli.play import ActionNumbers

    state = g.new_game("zavandor", 2, 3, characters=["witch", "elf"])
    seat = state.current_player
    nums = ActionNumbers()
    listed = dict(nums.update((seat, 1), [str(a) for a in state.legal_actions()]))
    n = next(k for k, v in listed.items() if v == "buy opal")
    state.apply("buy opal")
    nums.update((seat, 1), [str(a) for a in state.legal_actions()])
    assert nums.lookup(n) in ("buy opal", None)


def test_review_of_a_finished_game(tmp_path):
    rec = tmp_path / "g.json"
    r = grimoire("play", "zauberschmiede", "--agents", "easy,random", "--seed", "3", "--max-rounds", "1",
                 "--quiet", "--record", str(rec))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "review.json"
    r = grimoire_env("review", str(rec), "--seat", "1", "--think", "0.05", "--playouts", "1", "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert "Review of seat 1" in r.stdout and "Projected score of every seat" in r.stdout
    data = json.loads(out.read_text())
    assert data["seat"] == 0 and data["decisions"] and data["chart"][-1]["final"]    # the JSON counts from 0
    for bad, needle in (("0", "counts from 1"), ("3", "seats 1-2")):                  # people count from 1
        r = grimoire("review", str(rec), "--seat", bad)
        assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr
    losses = [m["loss"] for m in data["mistakes"]]
    assert losses == sorted(losses, reverse=True)              # biggest mistakes first
    # never during a game: an unfinished record is refused with one line
    running = json.loads(rec.read_text())
    running["actions"] = running["actions"][:3]
    for k in ("result", "state_hash"):
        running.pop(k, None)
    (tmp_path / "running.json").write_text(json.dumps(running))
    r = grimoire("review", str(tmp_path / "running.json"))
    assert r.returncode == 2 and "once it is over" in r.stderr


def test_a_solo_game_says_one_player():
    r = grimoire("play", "zauberschmiede", "--agents", "random", "--seed", "4", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "1 player, seed 4." in r.stdout and "1 players" not in r.stdout


def test_every_command_has_a_one_line_summary_for_the_command_list():
    """The command list shows a docstring's first paragraph with its line breaks: a summary that wraps in
    the source breaks mid-sentence on screen."""
    from grimoire.cli.main import _register_commands, app
    _register_commands()
    assert len(app.registered_commands) >= 10
    for command in app.registered_commands:
        summary = (command.callback.__doc__ or "").strip().split("\n\n")[0]
        assert summary and "\n" not in summary, (command.callback.__name__, summary)
