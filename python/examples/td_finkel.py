"""TD(lambda) self-play on small Finkel, in plain numpy, judged by the exact table as it learns.

The learner is TD-Gammon's recipe at its smallest: a value V(x) = sigmoid(w . x)
of the position after a move (the afterstate), from the side that rolls
there; each move picks the afterstate the learner values most (with a little
exploration); and TD(lambda) moves V toward the value of the next afterstate
of the same game. Many games run at once in `ur_engine.VecEnv`; the exact
table gives each decision's regret: how much win probability the chosen move
gave up against the best one.

    python examples/td_finkel.py --pieces 3 --decisions 400000

prints the mean regret (percentage points per decision with a choice) as it
goes. docs/python.md records a run.
"""

import argparse
import time

import numpy as np

import ur_engine as ur


def mover_values(v, kinds):
    """The mover's win probability after each option, from the side-to-roll values `v`."""
    out = np.where(kinds == 2, v, 1.0 - v)
    out = np.where(kinds == 3, 1.0, out)
    return np.where(kinds == 4, 0.5, out)


def first_in_group(groups, scores):
    """For each game, the index (into the flat arrays) of its highest score."""
    order = np.lexsort((-scores, groups))
    starts = np.r_[0, np.flatnonzero(np.diff(groups[order])) + 1]
    return order[starts], groups[order[starts]]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pieces", type=int, default=3)
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--decisions", type=int, default=400_000, help="decisions to learn from, in all")
    p.add_argument("--alpha", type=float, default=0.1)
    p.add_argument("--lam", type=float, default=0.7)
    p.add_argument("--explore", type=float, default=0.05)
    p.add_argument("--report", type=int, default=50_000, help="decisions between two reports")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0)
    args = p.parse_args(argv)

    options = {"pieces": args.pieces}
    table = ur.solve("finkel", pieces=args.pieces)
    env = ur.VecEnv("finkel", num_envs=args.envs, seed=args.seed, threads=args.threads, options=options)
    env.reset()
    rng = np.random.default_rng(args.seed)
    n = env.observation_size
    w = np.zeros(n + 1)
    traces = np.zeros((args.envs, n + 1))
    prev_u = np.full(args.envs, np.nan)  # light's value of each game's last afterstate
    decisions, regret_sum, choices, started = 0, 0.0, 0, time.time()
    curve = []
    print(f"finkel, {args.pieces} pieces: {args.envs} games at once; mean regret in pp per decision with a choice")
    while decisions < args.decisions:
        games, actions, obs, kinds = env.afterstates()
        x = np.hstack([obs, np.ones((len(obs), 1))])
        v = 1.0 / (1.0 + np.exp(-(x @ w)))
        mine = mover_values(v, kinds)
        noise = rng.random(len(mine)) * (rng.random(args.envs) < args.explore)[games]
        pick, who = first_in_group(games, mine + noise)
        greedy, _ = first_in_group(games, mine)
        # The regret of the learner's own choice (exploration aside) against
        # the exact table, on decisions with more than one option.
        exact = mover_values(table.values(obs), kinds)
        best_exact = np.full(args.envs, -1.0)
        np.maximum.at(best_exact, games, exact)
        options_per_game = np.bincount(games, minlength=args.envs)
        real = options_per_game[who] > 1
        regret_sum += float(np.sum((best_exact[who] - exact[greedy])[real]))
        choices += int(real.sum())
        # TD(lambda) in light's terms: U = V if light rolls next, else 1 - V.
        movers = env.players[who]
        k = kinds[pick]
        viewer_light = np.where(k == 2, movers == 0, movers == 1)
        u = np.where(viewer_light, v[pick], 1.0 - v[pick])
        u = np.where(k == 3, (movers == 0).astype(float), u)
        u = np.where(k == 4, 0.5, u)
        delta = np.where(np.isnan(prev_u[who]), 0.0, u - prev_u[who])
        w += args.alpha * (delta[:, None] * traces[who]).mean(axis=0)
        grad = (v[pick] * (1.0 - v[pick]))[:, None] * x[pick] * np.where(viewer_light, 1.0, -1.0)[:, None]
        ended = k >= 3
        traces[who] = np.where(ended[:, None], 0.0, args.lam * traces[who] + grad)
        prev_u[who] = np.where(ended, np.nan, u)
        step = np.zeros(args.envs, dtype=np.int64)
        step[who] = actions[pick]
        env.step(step)
        decisions += len(who)
        if choices and decisions // args.report != (decisions - len(who)) // args.report:
            mean = 100.0 * regret_sum / choices
            curve.append((decisions, mean))
            print(f"{decisions:>9} decisions  {time.time() - started:6.1f} s  regret {mean:.3f} pp", flush=True)
            regret_sum, choices = 0.0, 0
    return curve


if __name__ == "__main__":
    main()
