"""A PettingZoo AEC environment for two agents, `light` and `dark`.

`ur_engine.pettingzoo_env.env(rules="finkel")`, after PettingZoo's module
convention (`env`, `raw_env`). Each agent observes
`{"observation": float32 features, "action_mask": int8}`; the dice are thrown
between decisions, so the agent selected always has a decision to make (an
extra roll can select the same agent again). An action that is not open loses
the game for the agent that took it. With a `table` of the rules, the info of
the agent to play holds `exact_value`, its exact win probability.
"""

from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._ur import Game, Table

AGENTS = ["light", "dark"]


def env(**kwargs):
    """The environment with PettingZoo's standard wrappers."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "ur_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "finkel", options: Optional[dict] = None, table: Optional[Table] = None,
                 render_mode: Optional[str] = None):
        super().__init__()
        self.rules, self.rule_options, self.render_mode, self.table = rules, options, render_mode, table
        probe = Game(rules, options=options)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (probe.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (probe.num_actions,), np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(probe.num_actions) for a in AGENTS}
        self.game = probe
        self._seed = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _roll_to_decision(self) -> None:
        while self.game.is_chance_node():
            self.game.roll()

    def observe(self, agent):
        # Each agent sees the game from its own side: the features are the mover's, so the
        # agent not to move sees the position as its opponent does, with an empty mask.
        mask = self.game.action_mask().astype(np.int8) if agent == self.agent_selection else np.zeros(self.game.num_actions, np.int8)
        return {"observation": self.game.observation(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self.game = Game(self.rules, options=self.rule_options, seed=self._seed)
        self._seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._roll_to_decision()
        self.agent_selection = AGENTS[self.game.current_player()]
        self._exact_value()

    def _exact_value(self) -> None:
        """With a table, the exact win probability of the agent to play, in its info."""
        if self.table is not None and not self.game.is_terminal():
            self.infos[self.agent_selection]["exact_value"] = self.table.value(self.game)

    def step(self, action):
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0
        self.game.apply(int(action))
        self._roll_to_decision()
        if self.game.is_terminal():
            returns = self.game.returns()
            for i, a in enumerate(AGENTS):
                self.rewards[a] = returns[i]
                self.terminations[a] = True
        else:
            self.agent_selection = AGENTS[self.game.current_player()]
            self._exact_value()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.game.board()
        return None

    def close(self):
        pass
