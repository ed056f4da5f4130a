"""Rules help by topic (data/rules.md, in our own words; sections '# topic: Title')."""

from __future__ import annotations

from functools import cache

from .data import DATA_DIR


@cache
def _topics() -> dict[str, str]:
    text = (DATA_DIR / "rules.md").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    name = None
    buf: list[str] = []
    for line in text.splitlines():
        if line.startswith("# "):
            if name:
                out[name] = "\n".join(buf).strip()
            name, title = (x.strip() for x in line[2:].split(":", 1))
            buf = [f"# {title}"]
        else:
            buf.append(line)
    if name:
        out[name] = "\n".join(buf).strip()
    return out


def rules_topics() -> dict[str, str]:
    return dict(_topics())
