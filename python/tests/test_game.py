"""The Game class against the Rust engine: every rule set, records, chance, pickling, errors."""

import copy
import json
import math
import pickle
import random

import numpy as np
import pytest

import ur_engine as ur
from conftest import ROOT, run_ur

RULES = [r["id"] for r in ur.rules()]


def random_game(rules, seed, steps=None):
    """Plays random decisions with the game's own dice; stops after `steps` steps if given."""
    game = ur.Game(rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_terminal() and (steps is None or n < steps):
        if game.is_chance_node():
            game.roll()
        else:
            game.apply(rng.choice(game.legal_actions()))
        n += 1
    return game


def test_rules_lists_every_rule_set_with_its_family():
    listed = ur.rules()
    assert len(listed) == 17
    families = {r["id"]: r["family"] for r in listed}
    assert families["finkel"] == "race"
    assert families["bens-ur"] == "marker" and families["ludens-akalandung"] == "marker"
    assert {families[t] for t in ("ravensburg-1977", "vizier-4-pyramids", "guard-d6")} == {"tower"}
    assert all(r["name"] for r in listed)


@pytest.mark.parametrize("rules", RULES)
def test_games_played_in_python_replay_in_the_engine(rules, ur_bin, tmp_path):
    """Every move Python made is legal to the `ur` command, and it finds the same winner."""
    for seed in (1, 2):
        game = random_game(rules, seed)
        path = tmp_path / f"{rules}-{seed}.json"
        path.write_text(game.record_json())
        # `ur replay` checks each step and that the recorded end is what replaying gives.
        out = run_ur(ur_bin, "replay", str(path))
        result = [line for line in out.splitlines() if line.startswith("Result:")]
        assert result, out
        record = json.loads(path.read_text())
        assert record.get("winner") == (None if game.winner() is None else ["light", "dark"][game.winner()])
        if game.winner() is None:
            assert "draw" in result[0].lower(), result


# One rule set of each kind: `ur play` saves after every step, which makes long games slow to record.
@pytest.mark.parametrize("rules", ["finkel", "masters", "v1-named-birds", "regency-bell", "bens-ur", "ludens-akalandung", "guard-d6"])
def test_games_of_the_engine_replay_in_python(rules, ur_bin, tmp_path):
    """A game `ur play` made on a seed replays move by move in Python, to the same end."""
    path = tmp_path / "game.json"
    # 3-piece Murray: `ur play` saves after every step, and the full game is long.
    options = ["--option", "pieces=3"] if rules == "regency-murray" else []
    run_ur(ur_bin, "play", "--rules", rules, *options, "--light", "random", "--dark", "random", "--seed", "7", "--quiet", "--save", str(path))
    text = path.read_text()
    record = json.loads(text)
    game = ur.Game.from_record_json(text)
    assert game.is_terminal()
    assert record.get("winner") == (None if game.winner() is None else ["light", "dark"][game.winner()])
    again = json.loads(game.record_json())
    steps = "steps" if "steps" in record else "actions"
    assert again[steps] == record[steps]


@pytest.mark.parametrize("rules", RULES)
def test_chance_outcomes_are_the_dice(rules):
    game = random_game(rules, 3, steps=25)
    while not game.is_chance_node():
        game.apply(game.legal_actions()[0]) if not game.is_terminal() else pytest.skip("the game ended")
    outcomes = game.chance_outcomes()
    assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
    assert len({raw for raw, _ in outcomes}) == len(outcomes)
    assert all(p > 0 for _, p in outcomes)
    assert game.legal_actions() == []
    raw = max(outcomes, key=lambda o: o[1])[0]
    game.apply(raw)
    assert not game.is_chance_node() or game.current_player() >= 0


def test_chance_outcomes_are_the_engines_for_every_rule_set(ur_bin):
    """The start's throws and probabilities, as the `ur engine` protocol gives them."""
    import subprocess

    lines = "".join(json.dumps(c) + "\n" for r in RULES for c in ({"cmd": "new", "rules": r}, {"cmd": "show"}))
    done = subprocess.run([ur_bin, "engine"], input=lines, capture_output=True, text=True, timeout=300)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 2 * len(RULES), done.stderr
    shows = replies[1::2]
    for rules, show in zip(RULES, shows):
        # Named birds start with a declaration, not a throw: no outcomes on either side.
        expected = [(o["raw"], o["probability"]) for o in show.get("outcomes", [])]
        assert ur.Game(rules).is_chance_node() == bool(expected), rules
        assert ur.Game(rules).chance_outcomes() == expected, rules


def test_finkel_dice_are_four_binary_dice():
    assert ur.Game("finkel").chance_outcomes() == [(0, 1 / 16), (1, 4 / 16), (2, 6 / 16), (3, 4 / 16), (4, 1 / 16)]


def test_masters_dice_are_three_binary_dice():
    outcomes = dict(ur.Game("masters").chance_outcomes())
    assert outcomes == {0: 1 / 8, 1: 3 / 8, 2: 3 / 8, 3: 1 / 8}


def test_a_seed_reproduces_a_game():
    a, b = random_game("finkel", 11), random_game("finkel", 11)
    assert a.record_json() == b.record_json()
    assert random_game("finkel", 12).record_json() != a.record_json()


@pytest.mark.parametrize("rules", ["finkel", "v1-named-birds", "bens-ur", "ludens-akalandung", "guard-d6"])
def test_pickling_and_clones_are_independent(rules):
    game = random_game(rules, 5, steps=60)
    for copied in (pickle.loads(pickle.dumps(game)), game.clone(), copy.deepcopy(game)):
        assert copied.position_string() == game.position_string()
        assert copied.record_json() == game.record_json()
        assert copied.legal_actions() == game.legal_actions()
        # The copy throws the same dice, and playing it leaves the original alone.
        before = game.record_json()
        mine = copied.clone()
        while not mine.is_terminal() and not mine.is_chance_node():
            mine.apply(mine.legal_actions()[-1])
        if not mine.is_terminal():
            mine.roll()
        assert game.record_json() == before


def test_illegal_actions_raise_and_leave_the_game_alone():
    game = ur.Game("finkel", seed=1)
    with pytest.raises(ur.IllegalActionError, match="dice cannot show"):
        game.apply(9)
    game.apply(2)  # a throw of 2
    legal = game.legal_actions()
    before = game.record_json()
    with pytest.raises(ur.IllegalActionError, match="legal_actions"):
        game.apply(max(legal) + 1)
    with pytest.raises(ur.IllegalActionError, match="no roll now"):
        game.roll()
    with pytest.raises(OverflowError):
        game.apply(-1)
    assert game.record_json() == before
    assert isinstance(ur.IllegalActionError("x"), ValueError)


def test_bad_rules_and_options_raise():
    with pytest.raises(ur.RulesError, match="unknown"):
        ur.Game("no-such-rules")
    with pytest.raises(ur.RulesError):
        ur.Game("finkel", options={"pieces": 99})
    with pytest.raises(ur.RulesError, match="first"):
        ur.Game("finkel", first="blue")
    with pytest.raises(ur.RecordError):
        ur.Game.from_record_json("{}")


def test_options_and_custom_rules_files():
    game = ur.Game("finkel", options={"pieces": 3})
    assert game.options == {"pieces": "3"}
    custom = ur.Game.from_rules_file(ROOT / "rulesets" / "blitz.toml", seed=2)
    assert custom.rules == "blitz"
    assert custom.chance_outcomes() == ur.Game("blitz").chance_outcomes()


def test_position_strings_round_trip():
    game = random_game("finkel", 8, steps=30)
    while game.is_chance_node() or game.is_terminal():
        game = random_game("finkel", 9, steps=31)
    text = game.position_string()
    again = ur.Game.from_position_string(text, rules="finkel")
    assert again.position_string() == text
    assert again.legal_actions() == game.legal_actions()
    np.testing.assert_array_equal(again.observation(), game.observation())


@pytest.mark.parametrize("rules", RULES)
def test_observation_and_mask_shapes(rules):
    game = random_game(rules, 4, steps=41)
    obs, mask = game.observation(), game.action_mask()
    assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
    assert np.all(np.isfinite(obs))
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == game.legal_actions()
    for a in game.legal_actions():
        assert game.action_to_string(a)


@pytest.mark.parametrize("rules", ["finkel", "v1-named-birds", "ludens-akalandung", "guard-d6"])
def test_rollouts_play_a_copy_to_the_end(rules):
    game = random_game(rules, 6, steps=20)
    before = game.record_json()
    winners = [game.clone().rollout() for _ in range(5)] + [game.rollout() for _ in range(20)]
    assert game.record_json() == before, "a rollout leaves the game as it was"
    assert set(winners) <= {0, 1, None} and len(set(winners)) > 1
    a, b = ur.Game(rules, seed=3), ur.Game(rules, seed=3)
    assert [a.rollout() for _ in range(10)] == [b.rollout() for _ in range(10)], "seeded"
