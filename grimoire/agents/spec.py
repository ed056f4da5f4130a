"""Agent specifications with parameters: ``hard:iterations=100,time=0``, parsed once, checked with
one clear line, and written back in one canonical form (the label a run stores in its rows).

Which parameters an agent takes:

- a search level (``hard`` built from the game's ``SearchSpec``, the generic ``hard`` and ``mcts``):
  ``iterations`` (per decision), ``time`` (seconds per decision; 0 = no time limit, so the budget
  is the iterations alone and the agent plays the same moves on every machine) and ``c``
  (exploration constant);
- the generic ``easy`` level: ``epsilon`` (the share of random moves);
- a game's own agent: the keyword parameters of its factory after the seed (their defaults give the
  types), e.g. ``easy:noise=0.1`` where a game's easy agent takes ``noise``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameConfigError

SEARCH_PARAMS: dict[str, type] = {"iterations": int, "time": float, "c": float}
EPSILON_PARAMS: dict[str, type] = {"epsilon": float}


@dataclass(frozen=True)
class AgentSpec:
    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The canonical text: the name, then the parameters sorted by key (``hard:iterations=100,time=0``)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in sorted(self.params.items()))


def _fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def split_specs(text: str) -> list[str]:
    """Comma-separated agent specifications; a ``key=value`` item without its own name continues the
    parameters of the agent before it (``medium,hard:iterations=100,time=0`` is two agents)."""
    items: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        if "=" in item and ":" not in item and items:
            items[-1] += "," + item
        else:
            items.append(item)
    return items


def parse_text(text: str) -> AgentSpec:
    """The name and raw parameters of one specification (values still text), syntax checked only."""
    name, sep, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise GameConfigError(f"agent specification {text!r} has no agent name", key="term.err.agent.no_name",
                              params={"text": text})
    params: dict[str, Any] = {}
    if sep:
        for pair in rest.split(","):
            key, eq, value = pair.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not eq or not key or not value.strip():
                raise GameConfigError(f"agent parameters are key=value, not {pair.strip()!r} (in {text!r})",
                                      key="term.err.agent.pair", params={"pair": pair.strip(), "text": text})
            if key in params:
                raise GameConfigError(f"agent parameter {key!r} is given twice in {text!r}", key="term.err.agent.twice",
                                      params={"param": key, "text": text})
            params[key] = value.strip()
    return AgentSpec(name, params)


def convert(agent: str, key: str, value: Any, kind: type) -> Any:
    """``value`` (text or already typed) as ``kind``; one line naming the parameter when it is not."""
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("true", "1", "yes"):
                return True
            if str(value).lower() in ("false", "0", "no"):
                return False
            raise ValueError(value)
        if kind is int and isinstance(value, str) and not value.lstrip("-").isdigit():
            raise ValueError(value)
        out = kind(value)
    except (TypeError, ValueError):
        what = "integer" if kind is int else "number" if kind is float else "yes_no"
        raise GameConfigError(f"agent {agent}: {key}={value} is not {'an integer' if kind is int else 'a number'}"
                              if kind in (int, float) else f"agent {agent}: {key}={value} is not a {kind.__name__}",
                              key=f"term.err.agent.not_{what}", params={"agent": agent, "param": key, "value": value}
                              ) from None
    if kind in (int, float) and out < 0:
        raise GameConfigError(f"agent {agent}: {key}={value} must not be negative", key="term.err.agent.negative",
                              params={"agent": agent, "param": key, "value": value})
    return out


def factory_params(factory: Any) -> dict[str, type]:
    """The keyword parameters a game's agent factory takes after the seed, typed by their defaults."""
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}
    out: dict[str, type] = {}
    for i, (name, p) in enumerate(sig.parameters.items()):
        if i == 0 or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.default is p.empty:
            continue
        if isinstance(p.default, (bool, int, float, str)):
            out[name] = type(p.default)
    return out


def check_params(spec: AgentSpec, accepted: dict[str, type]) -> AgentSpec:
    """``spec`` with typed parameters; one line naming what is wrong when one is not accepted."""
    unknown = sorted(set(spec.params) - set(accepted))
    if unknown:
        takes = f"it takes {', '.join(sorted(accepted))}" if accepted else "it takes no parameters"
        raise GameConfigError(f"agent {spec.name!r} has no parameter {unknown[0]!r}: {takes}",
                              key="term.err.agent.unknown_param" if accepted else "term.err.agent.no_params",
                              params={"agent": spec.name, "param": unknown[0], "takes": ", ".join(sorted(accepted))})
    typed = {k: convert(spec.name, k, v, accepted[k]) for k, v in spec.params.items()}
    if typed.get("iterations") == 0:
        raise GameConfigError(f"agent {spec.name}: iterations must be at least 1", key="term.err.agent.iterations",
                              params={"agent": spec.name})
    if "epsilon" in typed and typed["epsilon"] > 1:
        raise GameConfigError(f"agent {spec.name}: epsilon is a share between 0 and 1", key="term.err.agent.epsilon",
                              params={"agent": spec.name})
    return AgentSpec(spec.name, typed)
