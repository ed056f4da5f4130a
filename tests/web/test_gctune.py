"""GcKeeper: survivors leave the scanned generations; frozen cyclic garbage is reclaimed by the rare
full pass, so freezing cannot leak without bound."""

from __future__ import annotations

import gc
import weakref

from grimoire.web.gctune import GcKeeper


class Node:
    pass


def test_survivors_are_frozen_and_frozen_cycles_are_reclaimed_by_a_full_pass():
    keeper = GcKeeper(every=3600, full_every=0.0, growth=0.0)
    try:
        gc.collect()
        gc.freeze()
        keeper._base = keeper._frozen = gc.get_freeze_count()
        kept = [Node() for _ in range(1000)]             # live objects made after start
        a, b = Node(), Node()                            # a reference cycle, alive for now
        a.other, b.other = b, a
        gone = weakref.ref(a)
        keeper.full_every = 10**9                        # a normal tick: the survivors are frozen
        keeper.tick()
        assert gc.get_freeze_count() >= keeper._base + 1000
        del a, b                                         # now garbage, but frozen: young passes skip it
        gc.collect(1)
        keeper.tick()
        assert gone() is not None
        keeper.full_every = 0.0                          # then the full pass reclaims it
        keeper.tick()
        assert gone() is None and keeper.full_passes == 1
        assert all(isinstance(n, Node) for n in kept)
    finally:
        gc.unfreeze()
