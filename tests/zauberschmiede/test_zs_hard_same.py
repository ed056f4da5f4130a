"""The hard Zauberschmiede player searches exactly as before its speed-ups (the memo of its playouts'
greedy choices, the dust-creator term computed alone): on fixed positions solo, at two and at four
seats, the same move and the same root (every child's visits and mean reward) as the table that
``scripts/zs_hard_choices.py`` printed on the code before them (commit e680faf)."""

from __future__ import annotations

import pytest
from repo_scripts import load_script

_SCRIPT = load_script("zs_hard_choices")
POSITIONS, record = _SCRIPT.POSITIONS, _SCRIPT.record

BEFORE = [
    ((1, 31, 3), 'upgrade green 6', {
        'charge re2 purple 6': (4, 19.8166),
        'charge re2 yellow 6': (4, 19.8166),
        'upgrade green 6': (5, 19.9094),
        'charge bk green 6': (4, 19.3753),
        'charge wa1 green 6': (3, 19.2514),
        'charge wa2 purple 6': (3, 19.25),
        'end': (1, 13.0458),
    }),
    ((1, 32, 20), 'transmute 1 to 4', {
        'transmute 1 to 4': (7, 94.3811),
        'charge am2 purple 2': (3, 87.4016),
        'charge am3 yellow 1': (3, 84.6345),
        'charge po1 green 2': (3, 87.6649),
        'charge po3 yellow 2': (3, 87.6559),
        'unlock 1': (3, 87.388),
        'end': (2, 79.0535),
    }),
    ((2, 41, 5), 'charge re1 green 5', {
        'charge re1 green 5': (6, 49.9156),
        'charge re1 green 6': (2, 40.2802),
        'charge re2 purple 5': (4, 44.4093),
        'upgrade green 5': (4, 43.9349),
        'charge bk green 5': (4, 43.0825),
        'charge wa1 green 5': (3, 45.876),
        'end': (1, 29.0458),
    }),
    ((4, 6601, 0), 'charge re1 green 6', {
        'dust 2': (4, 44.5401),
        'dust 3': (4, 45.1195),
        'charge re1 green 6': (5, 49.0947),
        'charge bk green 6': (2, 30.5322),
        'charge wa1 green 3': (4, 45.5184),
        'charge am1 green 2': (4, 45.5259),
        'end': (1, 0.0),
    }),
    ((4, 6602, 13), 'charge am1 green 2', {
        'charge am1 green 2': (5, 33.8297),
        'charge am2 purple 2': (4, 29.9032),
        'charge am3 yellow 2': (3, 29.9023),
        'charge po1 green 2': (3, 29.4145),
        'charge po3 yellow 2': (3, 29.4136),
        'charge po2 purple 2': (3, 29.412),
        'end': (3, 27.98),
    }),
    ((4, 6603, 40), 'charge am2 purple 2', {
        'charge wa1 green 3': (6, 50.7733),
        'charge re3 yellow 5': (3, 40.9459),
        'charge wa1 purple 3': (2, 40.4005),
        'charge am2 purple 2': (8, 54.8188),
        'charge bk green 5': (2, 40.641),
        'upgrade purple 5': (2, 41.0885),
        'end': (1, 28.1846),
    }),
]


def test_the_table_covers_every_position():
    assert [row[0] for row in BEFORE] == list(POSITIONS)


@pytest.mark.parametrize(("pos", "move", "children"), BEFORE, ids=[str(row[0]) for row in BEFORE])
def test_hard_chooses_and_searches_as_before(pos, move, children):
    got_move, got_children = record(*pos)
    assert got_move == move
    assert got_children == children
