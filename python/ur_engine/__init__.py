"""The Royal Game of Ur from a Rust engine: every rule set, exact values, fast environments.

    >>> import ur_engine as ur
    >>> game = ur.Game("finkel", seed=1)
    >>> game.roll(); game.legal_actions()

See docs/python.md for the API, the observation and the action numbering.
"""

from ._ur import (
    Bot,
    Game,
    IllegalActionError,
    RecordError,
    RulesError,
    Table,
    VecEnv,
    arena,
    rules,
    solve,
)

__all__ = ["Bot", "Game", "Table", "VecEnv", "rules", "solve", "arena", "IllegalActionError", "RulesError", "RecordError"]

try:  # Registers `ur/Finkel-v0` and the others when Gymnasium is installed.
    from .gym_env import register_all as _register_all
except ImportError:
    pass
else:
    _register_all()
