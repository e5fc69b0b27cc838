"""Self-play generation across Ray actors: each actor owns a VecEnv and plays
games under the current numpy policy; the driver gathers the results and
could train on them, then send new weights.

    python examples/ray_selfplay.py --actors 2 --rounds 3        # on this machine
    RAY_ADDRESS=... python examples/ray_selfplay.py --actors 64  # on a cluster

The same code runs on one machine and on many: only `ray.init` changes.
"""

import argparse

import numpy as np
import ray

import ur_engine as ur


@ray.remote
class SelfPlayWorker:
    def __init__(self, rules: str, envs: int, seed: int):
        self.env = ur.VecEnv(rules, num_envs=envs, seed=seed, threads=1)
        self.env.reset()
        self.rng = np.random.default_rng(seed)

    def play(self, weights: np.ndarray, steps: int):
        """Plays `steps` steps choosing by the afterstate values of `weights`; returns finished games' rewards."""
        finished = []
        for _ in range(steps):
            games, actions, obs, kinds = self.env.afterstates()
            v = 1.0 / (1.0 + np.exp(-(obs @ weights[:-1] + weights[-1])))
            mine = np.where(kinds == 2, v, 1.0 - v) + (kinds == 3) + self.rng.random(len(v)) * 1e-6
            order = np.lexsort((-mine, games))
            first = order[np.r_[0, np.flatnonzero(np.diff(games[order])) + 1]]
            step = np.zeros(self.env.num_envs, dtype=np.int64)
            step[games[first]] = actions[first]
            _, _, rewards, dones = self.env.step(step)
            finished += rewards[dones].tolist()
        return finished


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="finkel")
    p.add_argument("--actors", type=int, default=2)
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=200)
    args = p.parse_args(argv)
    # A local Ray on this machine, or the cluster at RAY_ADDRESS. (Ray 2.x dropped
    # its single-process local mode; a local Ray is the way to run on one machine.)
    ray.init(include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    size = ur.Game(args.rules).observation_size
    weights = np.zeros(size + 1)
    workers = [SelfPlayWorker.remote(args.rules, args.envs, seed) for seed in range(args.actors)]
    total = 0
    for r in range(args.rounds):
        results = ray.get([w.play.remote(weights, args.steps) for w in workers])
        games = sum(len(x) for x in results)
        total += games
        print(f"round {r + 1}: {games} games finished by {args.actors} actors")
        # A learner would update `weights` from the trajectories here, then send them with the next round.
    ray.shutdown()
    return total


if __name__ == "__main__":
    main()
