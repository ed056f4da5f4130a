"""A masked PPO in plain NumPy on ``grimoire.rl.vector_env`` (docs/rl.md, "Training at speed").

    .venv/bin/python examples/ppo_vector.py --game zavandor --players 2 --backend native \\
        --envs 256 --updates 60 --plot docs/screenshots/ppo-zavandor.png

One learning seat against random opponents; the policy is a one-hidden-layer network whose logits
of illegal ids are set to -1e9 before the softmax (the mask travels with each transition, so the
update recomputes the same masked distribution). Steps after an episode's end (Gymnasium's NEXT_STEP
autoreset: an all-zero mask) are not learned from. Prints and returns the mean return per update.
"""

from __future__ import annotations

import argparse

import numpy as np

import grimoire.rl as rl


class Net:
    """obs -> tanh hidden layer -> (masked logits, value), trained with Adam."""

    def __init__(self, n_in: int, n_act: int, hidden: int, rng: np.random.Generator):
        s = 1.0 / np.sqrt(n_in)
        self.p = {"w1": rng.normal(0, s, (n_in, hidden)), "b1": np.zeros(hidden),
                  "wp": rng.normal(0, 0.01, (hidden, n_act)), "bp": np.zeros(n_act),
                  "wv": rng.normal(0, 0.1, (hidden, 1)), "bv": np.zeros(1)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray):
        h = np.tanh(x @ self.p["w1"] + self.p["b1"])
        logits = h @ self.p["wp"] + self.p["bp"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        probs = e / np.maximum(e.sum(axis=1, keepdims=True), 1e-12)
        value = (h @ self.p["wv"] + self.p["bv"])[:, 0]
        return h, probs, value

    def step(self, grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def sample(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    """One id per row from its probabilities (rows without legal ids: 0, ignored by the env)."""
    c = probs.cumsum(axis=1)
    u = rng.random((len(probs), 1)) * c[:, -1:]
    return np.minimum((c <= u).sum(axis=1), probs.shape[1] - 1)


def ppo_update(net: Net, batch: dict[str, np.ndarray], args, rng: np.random.Generator) -> None:
    n = len(batch["obs"])
    for _ in range(args.epochs):
        order = rng.permutation(n)
        for start in range(0, n, args.minibatch):
            idx = order[start:start + args.minibatch]
            x, mask, a = batch["obs"][idx], batch["mask"][idx], batch["act"][idx]
            adv, ret, old = batch["adv"][idx], batch["ret"][idx], batch["logp"][idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            h, probs, value = net.forward(x, mask)
            m = len(idx)
            pa = probs[np.arange(m), a]
            ratio = np.exp(np.log(pa + 1e-12) - old)
            # d(-min(r A, clip(r) A))/d log p: -r A where the unclipped term is the smaller one
            active = np.where(adv >= 0, ratio <= 1 + args.clip, ratio >= 1 - args.clip)
            g_logp = -adv * ratio * active / m
            onehot = np.zeros_like(probs)
            onehot[np.arange(m), a] = 1.0
            d_logits = g_logp[:, None] * (onehot - probs)
            logp_all = np.log(np.where(probs > 0, probs, 1.0))
            ent = -(probs * logp_all).sum(axis=1)
            d_logits += args.entropy * probs * (logp_all + ent[:, None]) / m     # - c * d entropy
            d_value = args.value_coef * (value - ret) / m
            grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(axis=0),
                     "wv": h.T @ d_value[:, None], "bv": np.array([d_value.sum()])}
            dz = (d_logits @ net.p["wp"].T + d_value[:, None] @ net.p["wv"].T) * (1 - h * h)
            grads["w1"] = x.T @ dz
            grads["b1"] = dz.sum(axis=0)
            net.step(grads, args.lr)


def train(args) -> list[float]:
    env = rl.vector_env(args.game, num_envs=args.envs, players=args.players, backend=args.backend,
                        seed=args.seed, observation="flat", opponents="random", max_rounds=args.max_rounds)
    rng = np.random.default_rng(args.seed)
    obs, info = env.reset()
    mask = info["action_mask"]
    net = Net(obs.shape[1], mask.shape[1], args.hidden, rng)
    ep_return = np.zeros(args.envs)
    curve: list[float] = []
    for update in range(args.updates):
        buf: dict[str, list] = {k: [] for k in ("obs", "mask", "act", "logp", "val", "rew", "done", "valid")}
        finished: list[float] = []
        for _ in range(args.steps):
            _, probs, value = net.forward(obs, mask)
            a = sample(rng, probs)
            buf["obs"].append(obs)
            buf["mask"].append(mask)
            buf["act"].append(a)
            buf["logp"].append(np.log(probs[np.arange(args.envs), a] + 1e-12))
            buf["val"].append(value)
            buf["valid"].append(mask.any(axis=1))      # an all-zero mask: the autoreset step
            obs, r, term, trunc, info = env.step(a)
            mask = info["action_mask"]
            done = term | trunc
            ep_return += r
            finished += ep_return[done].tolist()
            ep_return[done] = 0.0
            buf["rew"].append(r)
            buf["done"].append(done)
        _, _, last_value = net.forward(obs, mask)
        b = {k: np.array(v) for k, v in buf.items()}
        adv = np.zeros_like(b["rew"])
        gae = np.zeros(args.envs)
        for t in reversed(range(args.steps)):
            nxt = last_value if t == args.steps - 1 else b["val"][t + 1]
            live = 1.0 - b["done"][t]
            delta = b["rew"][t] + args.gamma * nxt * live - b["val"][t]
            gae = delta + args.gamma * args.lam * live * gae
            adv[t] = gae
        keep = b["valid"].reshape(-1)
        flat = {"obs": b["obs"].reshape(-1, obs.shape[1])[keep], "mask": b["mask"].reshape(-1, mask.shape[1])[keep],
                "act": b["act"].reshape(-1)[keep], "logp": b["logp"].reshape(-1)[keep],
                "adv": adv.reshape(-1)[keep], "ret": (adv + b["val"]).reshape(-1)[keep]}
        ppo_update(net, flat, args, rng)
        mean = float(np.mean(finished)) if finished else float("nan")
        curve.append(mean)
        print(f"update {update + 1:3d}: {len(finished):4d} episodes, mean return {mean:.3f}")
    return curve


def plot(curve: list[float], path: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    ax.plot(range(1, len(curve) + 1), curve, lw=1.5)
    ax.axhline(curve[0] if curve else 0, ls=":", c="grey", lw=1)
    ax.set_xlabel("PPO update")
    ax.set_ylabel("mean return (win share)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> list[float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zavandor")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--backend", default="auto", help="native (Zavandor's batched core), python or auto")
    ap.add_argument("--max-rounds", type=int, default=6)
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--steps", type=int, default=64, help="steps per env per update")
    ap.add_argument("--updates", type=int, default=40)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--gamma", type=float, default=0.997)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--value-coef", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", default=None, help="write the learning curve to this PNG")
    args = ap.parse_args(argv)
    curve = train(args)
    if args.plot:
        plot(curve, args.plot, f"masked PPO, {args.game} {args.players}p vs random, {args.envs} envs x "
                               f"{args.steps} steps per update")
    return curve


if __name__ == "__main__":
    main()
