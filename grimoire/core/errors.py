"""Errors of the public contract. Every message is meant for a person, not a programmer."""


class GrimoireError(Exception):
    """Base of every error Grimoire raises on purpose. ``key`` and ``params``, when given, name the same
    message in the terminal's catalogs (``grimoire/cli/i18n``), so that the terminal says it in the
    reader's language; the message itself (the API's) stays English."""

    def __init__(self, *args: object, key: str | None = None, params: dict | None = None):
        super().__init__(*args)
        self.key = key
        self.params = params or {}


class GameConfigError(GrimoireError, ValueError):
    """Unknown game, invalid option or player count, or a corrupt saved game / record."""


class IllegalAction(GrimoireError, ValueError):
    """An action that is malformed or not legal now. ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str | None = None):
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)


def agent_value_error(agent: str, param: str, value: object, allowed: str) -> GameConfigError:
    """An agent parameter outside the values the agent takes, in one line in the reader's language
    (``allowed``: those values as typed, e.g. ``0-1`` or ``turn, round``)."""
    return GameConfigError(f"agent {agent}: {param}={value} is not accepted; it takes {allowed}",
                           key="term.err.agent.value",
                           params={"agent": agent, "param": param, "value": value, "allowed": allowed})


def agent_budget_error(agent: str) -> GameConfigError:
    """A search level given no limit at all: time=0 without iterations."""
    return GameConfigError(f"agent {agent}: time=0 needs an iteration budget (iterations=N)",
                           key="term.err.agent.budget", params={"agent": agent})
