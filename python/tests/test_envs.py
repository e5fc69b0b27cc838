"""The vectorised environment, and the Gymnasium and PettingZoo adapters under their own checkers."""

import numpy as np
import pytest

import ur_engine as ur


def random_actions(rng, mask):
    return (rng.random(mask.shape) * mask).argmax(1)


def test_vecenv_masks_are_the_open_actions_and_games_restart():
    env = ur.VecEnv("finkel", num_envs=8, seed=3, threads=2)
    obs, mask = env.reset()
    assert obs.shape == (8, env.observation_size) and obs.dtype == np.float32
    assert mask.shape == (8, env.num_actions) and mask.dtype == np.bool_
    assert mask.any(axis=1).all(), "every game waits for a decision"
    rng = np.random.default_rng(0)
    finished = 0
    rewards_at_end = []
    for _ in range(3000):
        obs2, mask2, rewards, dones = env.step(random_actions(rng, mask))
        assert obs2 is not None and mask2.any(axis=1).all()
        finished += int(dones.sum())
        rewards_at_end += rewards[dones].tolist()
        assert (rewards[~dones] == 0).all()
    assert finished > 20, "games end and start again by themselves"
    assert set(rewards_at_end) == {1.0}, "in self-play the seat that ends the game has won it"


def test_vecenv_writes_in_place_and_is_deterministic():
    a = ur.VecEnv("masters", num_envs=4, seed=9, threads=1)
    b = ur.VecEnv("masters", num_envs=4, seed=9, threads=2)
    oa, ma = a.reset()
    ob, mb = b.reset()
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(200):
        ra = a.step(random_actions(rng_a, ma))
        rb = b.step(random_actions(rng_b, mb))
        assert ra[0] is a.observations and ra[1] is a.masks
        np.testing.assert_array_equal(ra[0], rb[0])
        np.testing.assert_array_equal(ra[2], rb[2])


def test_vecenv_against_a_bot_rewards_the_learner():
    env = ur.VecEnv("blitz", num_envs=16, seed=1, opponent="greedy")
    _, mask = env.reset()
    rng = np.random.default_rng(2)
    seen = []
    for _ in range(2000):
        _, mask, rewards, dones = env.step(random_actions(rng, mask))
        seen += rewards[dones].tolist()
        assert (env.players >= 0).all()
    assert set(seen) == {1.0, -1.0}
    assert np.mean(seen) < 0, "a random learner loses to greedy more often than not"


def test_vecenv_explicit_chance_asks_for_the_throws():
    env = ur.VecEnv("finkel", num_envs=2, seed=1, explicit_chance=True)
    _, mask = env.reset()
    assert mask[:, :5].all() and not mask[:, 5:].any(), "a roll: the throws 0 to 4"
    _, mask, _, _ = env.step(np.array([2, 3]))
    assert mask.any(axis=1).all()


def test_vecenv_refuses_what_is_not_open():
    env = ur.VecEnv("finkel", num_envs=2, seed=1)
    env.reset()
    with pytest.raises(ur.IllegalActionError, match="one per game"):
        env.step(np.array([0]))
    with pytest.raises(ur.IllegalActionError, match="not open"):
        env.step(np.array([18, 18]))
    with pytest.raises(ur.RulesError):
        ur.VecEnv("finkel", opponent="no-such-bot")


def test_bots_choose_open_actions():
    game = ur.Game("guard-d6", seed=4)
    bot = ur.Bot("level2", seed=1)
    while not game.is_terminal():
        if game.is_chance_node():
            game.roll()
        else:
            a = bot.choose(game)
            assert a in game.legal_actions()
            game.apply(a)
    with pytest.raises(ur.IllegalActionError):
        bot.choose(game)


def test_gymnasium_checker_passes():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    for gid in ("ur/Finkel-v0", "ur/GuardD6-v0", "ur/BensUr-v0"):
        env = gymnasium.make(gid, opponent="random")
        check_env(env.unwrapped, skip_render_check=True)
        obs, info = env.reset(seed=1)
        assert info["action_mask"].any()
    assert "ur/RegencyMurray-v0" in gymnasium.registry and "ur/V1NamedBirds-v0" in gymnasium.registry


def test_gymnasium_episode_against_a_bot_ends_with_the_result():
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("ur/Blitz-v0", opponent="greedy")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total in (1.0, -1.0)


def test_pettingzoo_api_test_passes():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from ur_engine import pettingzoo_env

    for rules in ("finkel", "ludens-akalandung", "vizier-4-pyramids"):
        api_test(pettingzoo_env.env(rules=rules), num_cycles=200)


def test_arena_reports_scores_with_intervals_as_ur_arena(ur_bin):
    import json

    from conftest import run_ur

    report = ur.arena(["greedy", "random"], rules="blitz", games=40, seed=3)
    expected = json.loads(run_ur(ur_bin, "arena", "--rules", "blitz", "--bots", "greedy,random", "--games", "40", "--seed", "3", "--json", "--quiet"))
    assert report["pairs"] == expected["pairs"]
    pair = report["pairs"][0]
    assert pair["a_score_ci95"][0] < pair["a_score"] < pair["a_score_ci95"][1]
    with pytest.raises(ur.RulesError, match="even"):
        ur.arena(["greedy", "random"], games=3)
