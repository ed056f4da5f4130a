"""Rules help topics (data/rules.md) and the probe vocabulary for the conformance suite."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import ZauberschmiedeState
from .actions import vocabulary
from .sheet import DATA_DIR, SHEET

_HEADING = re.compile(r"^# (.+?) \{#([\w-]+)\}$")       # "# Magic dust {#dust}": the title, the topic's name


@cache
def _topics() -> dict[str, str]:
    """Topic name -> its text, which starts with its title (as the translations do)."""
    text = (DATA_DIR / "rules.md").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    name = None
    buf: list[str] = []
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            if name:
                out[name] = "\n".join(buf).strip()
            name, buf = m.group(2), [f"# {m.group(1)}", ""]
        else:
            buf.append(line)
    if name:
        out[name] = "\n".join(buf).strip()
    return out


def rules_topics() -> dict[str, str]:
    return dict(_topics())


@cache
def _fixed_probes() -> tuple[str, ...]:
    extra = ["end now", "charge", "charge am1", "charge am1 green", "charge am1 green 7", "charge am1 green 0",
             "charge zz9 green 3", "charge am1 red 3", "pay", "pay zz9", "pay am1 r0", "pay am1 r8", "pay am1 2",
             "pay am1 r2 r1", "pay am1 r1 r1", "amplify", "amplify am1", "amplify am1 7", "upgrade green",
             "upgrade green 3", "upgrade green 1", "upgrade red 5", "unlock", "unlock 0", "unlock 7", "unlock 1 2",
             "dust", "dust 0", "dust 7", "dust 1 2", "transmute 1 1", "transmute 1", "transmute 1 to 1",
             "transmute 1 to 7", "transmute 0 to 3", "transmute 2 into 3"]
    for a in SHEET.artifacts:
        for r in range(1, SHEET.rounds + 1):
            extra.append(f"pay {a.key} r{r}")
        extra.append(f"pay {a.key} r1 r2")
        for c in SHEET.colours:
            if c not in (SHEET.colours[x] for x in a.colours):
                extra.append(f"charge {a.key} {c} 6")
    return tuple(vocabulary() + extra)


def probe_texts(state: ZauberschmiedeState) -> list[str]:
    """The listed-action vocabulary for this state plus near misses (all must be rejected unless legal)."""
    out = list(_fixed_probes())
    p = state.players[state.cur] if not state.is_terminal() else None
    if p is not None:
        rounds = [r for r, _ in p.unspent_stocks()]
        for a in SHEET.artifacts:
            for i in range(len(rounds)):
                for j in range(i + 1, len(rounds)):
                    out.append(f"pay {a.key} r{rounds[i]} r{rounds[j]}")
    return out
