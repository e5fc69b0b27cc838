"""Exact values from Python against `ur eval`, the environments' exact values, and the example that learns."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import ur_engine as ur
from conftest import run_ur

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables")
    mp = pytest.MonkeyPatch()
    mp.setenv("UR_TABLES", str(path))
    yield path
    mp.undo()


@pytest.fixture(scope="module")
def finkel2(store):
    return ur.solve("finkel", pieces=2)


def test_solve_keeps_the_table_in_the_store(store, finkel2):
    assert finkel2.rules == "finkel" and finkel2.pieces == 2
    assert Path(finkel2.path).parent == store
    again = ur.solve("finkel", pieces=2)
    assert again.path == finkel2.path
    opened = ur.Table.open(finkel2.path)
    assert opened.value(ur.Game("finkel", options={"pieces": 2})) == finkel2.value(ur.Game("finkel", options={"pieces": 2}))


def positions_at_rolls(pieces, count, seed):
    """Position strings of random 2-piece games, each at a roll."""
    game, rng, out = ur.Game("finkel", options={"pieces": pieces}, seed=seed), np.random.default_rng(seed), []
    while len(out) < count and not game.is_terminal():
        if game.is_chance_node():
            if rng.random() < 0.2:
                out.append(game.position_string())
            game.roll()
        else:
            game.apply(int(rng.choice(game.legal_actions())))
    return out


def test_exact_values_agree_with_ur_eval(ur_bin, finkel2):
    positions = [None] + positions_at_rolls(2, 3, seed=4)
    assert len(positions) == 4
    for position in positions:
        args = ["eval", "--table", finkel2.path, "--json"] + ([position] if position else [])
        expected = json.loads(run_ur(ur_bin, *args))
        game = ur.Game("finkel", options={"pieces": 2})
        if position is not None:
            game = ur.Game.from_position_string(position, options={"pieces": 2})
        assert game.is_chance_node()
        assert finkel2.value(game) == pytest.approx(expected["win"], abs=1e-12)
        assert finkel2.values(game.observation()[None, :])[0] == pytest.approx(expected["win"], abs=1e-12)


def test_value_at_a_decision_is_the_best_moves(finkel2):
    game = ur.Game("finkel", options={"pieces": 2}, seed=3)
    game.apply(2)
    best = 0.0
    for a in game.legal_actions():
        after = game.clone()
        after.apply(a)
        v = finkel2.value(after)
        best = max(best, v if after.current_player() == 0 else 1.0 - v)
    assert finkel2.value(game) == pytest.approx(best, abs=1e-12)


def test_a_table_refuses_other_rules(finkel2):
    with pytest.raises(ur.IllegalActionError, match="table is of finkel"):
        finkel2.value(ur.Game("blitz"))
    with pytest.raises(ur.IllegalActionError, match="2 pieces"):
        finkel2.value(ur.Game("finkel"))
    with pytest.raises(ur.IllegalActionError, match="observations of"):
        finkel2.values(np.zeros((1, 5), np.float32))
    with pytest.raises(ur.RulesError):
        ur.solve("guard-d6")


def test_environments_give_exact_values(finkel2):
    env = ur.VecEnv("finkel", num_envs=4, seed=2, options={"pieces": 2}, table=finkel2)
    env.reset()
    assert np.all((env.exact_values > 0) & (env.exact_values < 1))
    gymnasium = pytest.importorskip("gymnasium")
    genv = gymnasium.make("ur/Finkel-v0", options={"pieces": 2}, opponent="random", table=finkel2)
    _, info = genv.reset(seed=1)
    assert 0 < info["exact_value"] < 1
    pytest.importorskip("pettingzoo")
    from ur_engine import pettingzoo_env

    penv = pettingzoo_env.env(rules="finkel", options={"pieces": 2}, table=finkel2)
    penv.reset(seed=1)
    _, _, _, _, info = penv.last()
    assert 0 < info["exact_value"] < 1


def test_afterstates_list_every_open_action(finkel2):
    env = ur.VecEnv("finkel", num_envs=16, seed=5, options={"pieces": 2})
    _, mask = env.reset()
    games, actions, obs, kinds = env.afterstates()
    assert len(games) == mask.sum() == len(obs) == len(kinds)
    for g, a in zip(games, actions):
        assert mask[g, a]
    assert set(kinds.tolist()) <= {1, 2, 3, 4}


def test_the_example_learns(store):
    sys.path.insert(0, str(EXAMPLES))
    try:
        import td_finkel
    finally:
        sys.path.pop(0)
    curve = td_finkel.main(["--pieces", "2", "--decisions", "240000", "--report", "40000", "--threads", "2"])
    assert len(curve) == 6
    first, last = curve[0][1], curve[-1][1]
    assert last < 0.6 * first, f"the regret fell from {first:.3f} to {last:.3f} pp only"
