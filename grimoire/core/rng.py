"""A tiny seeded RNG owned by the game state.

SplitMix64: the whole state is one 64-bit integer, so cloning and serializing it is free and the
sequence is identical on every machine and Python build (``random.Random`` is ~2.5 KB of state).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = self._mix(int(seed) & _MASK)

    @staticmethod
    def _mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        r = cls.__new__(cls)
        r.state = int(state) & _MASK
        return r

    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (Lemire's multiply-shift; bias < n / 2**64)."""
        if n <= 1:
            if n == 1:      # one choice: the draw is made (the sequence goes on the same), not mixed
                self.state = (self.state + _GAMMA) & _MASK
                return 0
            raise ValueError("below(n) needs n > 0")
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (a die: randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def pick_weighted(self, counts: list[int], total: int | None = None) -> int:
        """Index i with probability counts[i] / sum(counts): a draw from a multiset."""
        if total is None:
            total = sum(counts)
        r = self.below(total)
        for i, c in enumerate(counts):
            if r < c:
                return i
            r -= c
        raise ValueError("pick_weighted on an empty multiset")
