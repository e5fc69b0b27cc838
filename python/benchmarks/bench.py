"""Throughput from Python, side by side (BENCHMARKS.md, "Python"):

1. random Finkel games a second on one thread: `ur_engine.Game` driven step by
   step from Python, `Game.rollout()` (the game played in Rust), and the
   step-by-step loop in `royalur` (PyPI), if installed;
2. `ur_engine.VecEnv` random steps a second, the actions drawn in numpy from
   the masks, on the threads given;
3. OpenSpiel's backgammon (PyPI `open_spiel`), random steps a second through
   its Python API, if installed, for scale.

    python benchmarks/bench.py --seconds 10 --threads 2
"""

import argparse
import os
import random
import time

# numpy's BLAS threads spin between calls and take a core from the steps.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import ur_engine as ur  # noqa: E402


def timed(seconds, one):
    """Calls `one()` (which returns a count) until `seconds` pass; returns count per second."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += one()
    return done / (time.perf_counter() - start)


def ur_game(seed=[0]):
    seed[0] += 1
    game, rng = ur.Game("finkel", seed=seed[0]), random.Random(seed[0])
    while not game.is_terminal():
        if game.is_chance_node():
            game.roll()
        else:
            game.apply(rng.choice(game.legal_actions()))
    return 1


def ur_rollout(game=ur.Game("finkel", seed=1)):
    """A whole random game from the start (the start game is left as it is; its dice move on)."""
    game.rollout()
    return 1


def royalur_game(rng=random.Random(1)):
    from royalur import Game

    game = Game.create_finkel()
    while not game.is_finished():
        if game.is_waiting_for_roll():
            game.roll_dice()
        else:
            game.make_move(rng.choice(game.find_available_moves()))
    return 1


def vecenv_steps(threads, envs, seconds):
    env = ur.VecEnv("finkel", num_envs=envs, seed=1, threads=threads)
    _, mask = env.reset()
    rng = np.random.default_rng(0)

    def one():
        env.step((rng.random(mask.shape) * mask).argmax(1))
        return envs

    return timed(seconds, one)


def open_spiel_steps(seconds):
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(1)

    def one():
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return timed(seconds, one)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--envs", type=int, default=4096)
    args = p.parse_args()
    ours = timed(args.seconds, ur_game)
    print(f"ur_engine.Game, random Finkel games/s, one thread, each step called from Python: {ours:,.0f}")
    rollouts = timed(args.seconds, ur_rollout)
    print(f"ur_engine.Game.rollout(), random Finkel games/s, one thread, the game played in Rust: {rollouts:,.0f}")
    try:
        theirs = timed(args.seconds, royalur_game)
        print(f"royalur, random Finkel games/s, one thread: {theirs:,.1f} "
              f"(ratio: step by step {ours / theirs:.1f}, rollout() {rollouts / theirs:.0f})")
    except ImportError:
        print("royalur is not installed (pip install royalur)")
    for threads in sorted({1, args.threads}):
        print(f"ur_engine.VecEnv, random Finkel steps/s, {threads} thread(s), {args.envs} games: "
              f"{vecenv_steps(threads, args.envs, args.seconds):,.0f}")
    try:
        print(f"OpenSpiel backgammon, random steps/s through pyspiel, one thread: {open_spiel_steps(args.seconds):,.0f}")
    except ImportError:
        print("open_spiel is not installed (pip install open_spiel)")


if __name__ == "__main__":
    main()
