"""A Gymnasium environment: the learner plays one seat against a built-in bot.

`gymnasium.make("ur/Finkel-v0", opponent="level3")`; one id per rule set
(`ur_engine.gym_env.ENV_IDS`). The dice are thrown inside `step`, and the
bot's turns are played there too, so every observation asks the learner to
decide. `info["action_mask"]` marks the open actions, and with a `table` of
the rules `info["exact_value"]` is the learner's exact win probability. An action that is not
open loses the game (reward -1), so that random exploration cannot crash a run.
The learner's seat is drawn at each reset (from the reset's seed) unless
`seat` is given.
"""

from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from ._ur import Bot, Game, Table, rules


def env_id(rule_id: str) -> str:
    """`finkel` -> `ur/Finkel-v0`, `v1-named-birds` -> `ur/V1NamedBirds-v0`."""
    return "ur/" + "".join(part.capitalize() for part in rule_id.split("-")) + "-v0"


ENV_IDS = {env_id(r["id"]): r["id"] for r in rules()}


class UrEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str = "finkel", opponent: str = "level3", options: Optional[dict] = None,
                 seat: Optional[int] = None, table: Optional[Table] = None, render_mode: Optional[str] = None):
        self.rules, self.opponent_name, self.rule_options, self.seat = rules, opponent, options, seat
        self.table = table
        self.render_mode = render_mode
        probe = Game(rules, options=options)
        self.observation_space = spaces.Box(-np.inf, np.inf, (probe.observation_size,), np.float32)
        self.action_space = spaces.Discrete(probe.num_actions)
        self.game: Game = probe
        self.bot = Bot(opponent, 0)
        self.learner = 0

    def _play_until_learner(self) -> None:
        g = self.game
        while not g.is_terminal():
            if g.is_chance_node():
                g.roll()
            elif g.current_player() != self.learner:
                g.apply(self.bot.choose(g))
            else:
                return

    def _reward(self) -> float:
        w = self.game.winner()
        return 0.0 if w is None else (1.0 if w == self.learner else -1.0)

    def _info(self) -> dict:
        info = {"action_mask": self.game.action_mask(), "seat": self.learner}
        if self.table is not None and not self.game.is_terminal():
            info["exact_value"] = self.table.value(self.game)
        return info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.learner = self.seat if self.seat is not None else int(self.np_random.integers(0, 2))
        self.game = Game(self.rules, options=self.rule_options, seed=game_seed)
        self.bot = Bot(self.opponent_name, game_seed)
        self._play_until_learner()
        return self.game.observation(), self._info()

    def step(self, action: Any):
        action = int(action)
        if action not in self.game.legal_actions():
            info = self._info()
            info["illegal_action"] = True
            return self.game.observation(), -1.0, True, False, info
        self.game.apply(action)
        self._play_until_learner()
        done = self.game.is_terminal()
        return self.game.observation(), self._reward() if done else 0.0, done, False, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return self.game.board()
        return None


def register_all() -> None:
    """Registers one environment per rule set (done on importing `ur_engine` when Gymnasium is installed)."""
    for gid, rule_id in ENV_IDS.items():
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point="ur_engine.gym_env:UrEnv", kwargs={"rules": rule_id})
