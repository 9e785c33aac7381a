"""Any placement game of xo as a PettingZoo AEC environment (an optional extra:
``pip install xo[pettingzoo]``, which brings PettingZoo, Gymnasium and NumPy).

The environment plays an :class:`xo.State`: its agents are ``player_0`` (who moves first, X where
players own marks) and ``player_1``; an action is a :meth:`xo.Game.num_distinct_actions` number
(the column under gravity, else the cell, times the letters where the mover chooses one); an
observation is a dict of ``observation``, :meth:`xo.State.observation_tensor` of the observing
agent (``float32``, shape ``(planes, height, width)``), and ``action_mask`` (``int8``, 1 for
each legal action, all 0 for the agent not to move). Rewards come at the end only, +1 to the
winner and -1 to the loser, 0 each for a draw, from the solver's value of the final position.
An illegal action raises :class:`xo.BadInput` naming it (nothing is played). ``env.state`` is
the :class:`xo.State`, for its ``solve()`` and ``value()``.

>>> from xo.pettingzoo import env
>>> e = env("tictactoe")
>>> e.reset(seed=0)
>>> for action in [4, 0, 8, 2, 1, 7, 6, 3, 5]:
...     e.step(action)
>>> [e.terminations[a] for a in e.agents], [e.rewards[a] for a in e.agents]
([True, True], [0.0, 0.0])
"""

import numpy as _numpy
from gymnasium import spaces as _spaces
from pettingzoo import AECEnv as _AECEnv
from pettingzoo.utils import wrappers as _wrappers

import xo as _xo

__all__ = ["env", "raw_env"]


def env(game="tictactoe", render_mode=None):
    """The environment of ``game`` (a name, a rules file or an :class:`xo.Game`; placement games
    only), with PettingZoo's order checks around it (``step`` before ``reset`` refused, and so
    on).

    >>> e = env("connect:5,4,4"); e.reset()
    >>> e.agent_selection, int(e.action_space("player_0").n)
    ('player_0', 5)
    """
    return _wrappers.OrderEnforcingWrapper(raw_env(game, render_mode=render_mode))


class raw_env(_AECEnv):
    """The environment without PettingZoo's wrappers (see the module's documentation).

    >>> e = raw_env("lol:8"); e.reset(); e.step(3); e.agent_selection
    'player_1'
    >>> int(e.observe("player_1")["action_mask"].sum())
    14
    """

    metadata = {"name": "xo_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game="tictactoe", render_mode=None):
        super().__init__()
        self.game = game if isinstance(game, _xo.Game) else _xo.Game(game)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise _xo.BadInput(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"xo_{self.game.name}_v0")
        self.possible_agents = ["player_0", "player_1"]
        actions = self.game.num_distinct_actions()
        shape = self.game.observation_tensor_shape()
        self.action_spaces = {a: _spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: _spaces.Dict({
                "observation": _spaces.Box(0.0, 1.0, shape, dtype=_numpy.float32),
                "action_mask": _spaces.Box(0, 1, (actions,), dtype=_numpy.int8),
            })
            for a in self.possible_agents
        }
        self.state = None

    def observation_space(self, agent):
        """The space of ``agent``'s observations (the same for both agents)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The space of ``agent``'s actions: every action number of the game."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Starts a game from the empty board (``options={"position": text}``: from a position
        of the game instead). The games have no chance: ``seed`` changes nothing."""
        position = (options or {}).get("position")
        self.state = self.game.new_initial_state(position)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, self.state.is_terminal())
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._mover()]

    def _mover(self):
        player = self.state.current_player()
        if player == _xo.TERMINAL:
            # Over: the agents step out in turn, the one who would move first.
            return self.state._mover()
        return player

    def observe(self, agent):
        """What ``agent`` sees: the position's planes from its side, and its legal actions."""
        player = self.possible_agents.index(agent)
        mask = _numpy.zeros(self.game.num_distinct_actions(), dtype=_numpy.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(player), "action_mask": mask}

    def step(self, action):
        """Plays ``action`` for the agent to move (``None`` for an agent stepping out of a game
        that is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(action)
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: returns[i] for i, a in enumerate(self.agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self._accumulate_rewards()
        self.agent_selection = self.agents[self._mover()]
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The position in rows: returned for ``render_mode="ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def close(self):
        """Nothing to release."""
