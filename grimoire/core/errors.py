"""Errors of the public contract. Every message is meant for a person, not a programmer."""


class GrimoireError(Exception):
    """Base of every error Grimoire raises on purpose."""


class GameConfigError(GrimoireError, ValueError):
    """Unknown game, invalid option or player count, or a corrupt saved game / record."""


class IllegalAction(GrimoireError, ValueError):
    """An action that is malformed or not legal now. ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str | None = None):
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)
