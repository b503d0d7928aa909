#!/usr/bin/env python3
"""Learn the passage reader's ranking weights (engine/src/passage/ranker.txt).

For every training item the CLI writes the reader's candidates with their features and
whether each is a gold answer (`gatepath bench --candidates`); a listwise softmax model
(one weight per feature, L2-regularised) is fitted by gradient descent so that a gold
candidate scores highest among the item's unblocked candidates. The regularisation is
chosen by leave-one-set-out: each training set is ranked by weights fitted on the
others, and the strength that ranks the most gold answers first is kept (ties go to the
stronger). Plain Python, no packages.

Usage: train_ranker.py [--gatepath BIN] [--write] SET...
  SET      name=FILE[:work]: an evaluation file, its work half only with ":work"
  --write  write the weights to engine/src/passage/ranker.txt (default: print them)
"""

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "src" / "passage" / "ranker.txt"
STRENGTHS = [0.03, 0.1, 0.3, 1.0]
ITERATIONS = 600
STEP = 0.5


def candidates(gatepath: str, data: str, work_only: bool) -> list:
    """Each item's unblocked candidates that statements count for: (features, gold)."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as out:
        args = [gatepath, "bench", "--data", data, "--candidates", out.name]
        if work_only:
            args += ["--half", "work"]
        subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        items, names = [], None
        for line in Path(out.name).read_text().splitlines():
            item = json.loads(line)
            names = item.get("features", names)
            kept = [(c["features"], c["gold"]) for c in item["candidates"]
                    if not c["blocked"] and c["features"][names.index("log_score")] > 0]
            items.append(kept)
        return items, names


def fit(items: list, strength: float, width: int) -> list:
    """Weights maximising the mean log-probability of the gold candidates, less
    `strength` / 2 times their squared norm (gradient descent; features are read as
    sparse (index, value) pairs, as most are 0)."""
    w = [0.0] * width
    trained = [[([(k, v) for k, v in enumerate(f) if v], g) for f, g in c]
               for c in items if any(g for _, g in c)]
    for _ in range(ITERATIONS):
        grad = [0.0] * width
        for c in trained:
            s = [sum(w[k] * v for k, v in f) for f, _ in c]
            top = max(s)
            e = [math.exp(v - top) for v in s]
            z, zg = sum(e), sum(ei for ei, (_, g) in zip(e, c) if g)
            for ei, (f, g) in zip(e, c):
                d = ei / z - (ei / zg if g else 0.0)
                for k, v in f:
                    grad[k] += d * v
        for k in range(width):
            w[k] -= STEP * (grad[k] / len(trained) + strength * w[k])
    return w


def firsts(items: list, w: list) -> int:
    """How many items the weights rank a gold candidate first in (ties: reader's order)."""
    hits = 0
    for c in items:
        if c:
            s = [sum(a * b for a, b in zip(w, f)) for f, _ in c]
            best = max(range(len(c)), key=lambda i: (s[i], -i))
            hits += c[best][1]
    return hits


def main() -> int:
    args = sys.argv[1:]
    gatepath = str(ROOT / "target" / "release" / "gatepath")
    if "--gatepath" in args:
        at = args.index("--gatepath")
        gatepath = args[at + 1]
        del args[at:at + 2]
    write = "--write" in args
    specs = [a for a in args if a != "--write"]
    if not specs:
        print(__doc__, file=sys.stderr)
        return 2
    sets, names, described = {}, None, []
    for spec in specs:
        name, _, path = spec.partition("=")
        work = path.endswith(":work")
        path = path[: -len(":work")] if work else path
        sets[name], names = candidates(gatepath, path, work)
        described.append(f"{name} ({len(sets[name])}{', work half' if work else ''})")
    width = len(names)
    reader = names.index("reader_best")
    base = sum(sum(1 for c in items if any(g and f[reader] == 1 for f, g in c))
               for items in sets.values())
    scores = {}
    for strength in STRENGTHS:
        scores[strength] = sum(
            firsts(held, fit([c for n, items in sets.items() if n != name for c in items],
                             strength, width))
            for name, held in sets.items())
        print(f"  strength {strength}: leave-one-set-out, gold first in {scores[strength]}"
              f" (the reader's own order: {base})", file=sys.stderr)
    strength = max(STRENGTHS, key=lambda s: (scores[s], s))
    everything = [c for items in sets.values() for c in items]
    w = fit(everything, strength, width)
    total = sum(len(items) for items in sets.values())
    lines = [
        "# The passage reader's learned ranker: one `feature weight` per line (see rank.rs).",
        "# Written by scripts/train_ranker.py from: " + ", ".join(described) + ".",
        f"# {total} items; L2 strength {strength}, chosen by leave-one-set-out: gold ranked",
        f"# first in {scores[strength]} held-out items against {base} by the reader's own order.",
    ]
    lines += [f"{n} {v:.4f}" for n, v in zip(names, w)]
    text = "\n".join(lines) + "\n"
    if write:
        OUT.write_text(text)
        print(f"  wrote {OUT.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
