"""A part of an observation that a game hands out again, unchanged, for later states.

A game may keep a part of its observations (a figure, a player's sheet) from one state to the next
while nothing it shows changed, and return the same object. Marking it ``Kept`` promises that the
object is never changed after it was built; the server then keeps its JSON text while the same object
comes back (web/viewjson.py), instead of writing it again for every seat and every action. It compares,
serializes and copies as the dict it is (``dict(part)`` is a plain, changeable copy).
"""

from __future__ import annotations


class Kept(dict):
    __slots__ = ()
