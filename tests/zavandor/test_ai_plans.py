"""The AI's per-character plans: each character's projection uses its own constants, and only its own."""

from __future__ import annotations

from dataclasses import replace

import grimoire
from grimoire.games.zavandor.ai.evaluate import DEFAULT, Ctx, for_char, value
from grimoire.games.zavandor.data import CHARACTERS, DRUID, WITCH

PLAN = ((DRUID, (("round_plan", ("gems", "advance")), ("fire_step", 1.0))),)


def test_for_char_applies_a_characters_overrides_only_to_him():
    params = replace(DEFAULT, by_char=PLAN)
    druid = for_char(params, DRUID)
    witch = for_char(params, WITCH)
    assert druid.round_plan == ("gems", "advance") and druid.fire_step == 1.0
    assert witch == replace(params, by_char=())
    assert druid.by_char == () and witch.by_char == ()


def test_every_default_plan_names_a_real_character_and_real_fields():
    fields = set(DEFAULT.__dataclass_fields__)
    for char, overrides in DEFAULT.by_char:
        assert 0 <= char < len(CHARACTERS)
        for name, _v in overrides:
            assert name in fields and name != "by_char"


def test_a_plan_changes_the_projection_of_that_character_and_no_other():
    s = grimoire.new_game("zavandor", 2, 3, characters=["druid", "witch"])
    plain = Ctx(s, replace(DEFAULT, by_char=()))
    planned = Ctx(s, replace(DEFAULT, by_char=PLAN))
    druid, witch = s.players
    assert druid.char == DRUID and witch.char == WITCH
    assert value(witch, plain) == value(witch, planned)
    assert value(druid, plain) != value(druid, planned)
