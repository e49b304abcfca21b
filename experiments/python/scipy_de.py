#!/usr/bin/python3
"""scipy's differential evolution on tetrisbench's built-in fitness (docs/python.md).

Usage: scipy_de.py CONFIG FOLDER [--label scipy-de] [--threads N]

CONFIG has an `optimizer = "external"` entry with this label; FOLDER is the results folder
that `tetrisbench compare CONFIG --out FOLDER` made.  Every run of the config is one DE run
until the budget is spent; each writes its run into FOLDER, and `tetrisbench compare --resume
FOLDER` then reports it beside the built-in optimizers.  One generation of DE is one call of
the fitness (vectorized), so DE's population shares the generation's games, as compare's
optimizers do.
"""
import argparse

import numpy as np
from scipy.optimize import differential_evolution

import tetrisbench as tb


def one_run(config, folder, label, run, threads):
    fit = tb.Fitness(config, run=run, label=label, threads=threads)
    bounds = [(-10.0, 10.0)] * fit.dimension

    def minus_fitness(x):  # x: (dimension, population); DE minimizes
        return -fit(np.ascontiguousarray(x.T))

    try:
        differential_evolution(minus_fitness, bounds, vectorized=True, updating="deferred", popsize=5,
                               maxiter=1_000_000, tol=0, polish=False, seed=1000 + run)
        reason = "scipy stopped"
    except tb.BudgetExhausted:
        reason = "Budget"
    result = fit.write_run(folder, stop_reason=reason)
    print(f"{label} run {run}: {fit.generation} generations, {fit.pieces} pieces, "
          f"best training {result['best_training']:.1f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config")
    p.add_argument("folder")
    p.add_argument("--label", default="scipy-de")
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args()
    runs = tb.Fitness(a.config, label=a.label).runs
    for run in range(runs):
        one_run(a.config, a.folder, a.label, run, a.threads)


if __name__ == "__main__":
    main()
