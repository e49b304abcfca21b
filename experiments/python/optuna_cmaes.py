#!/usr/bin/python3
"""Optuna's CMA-ES sampler on tetrisbench's built-in fitness (docs/python.md).

Usage: optuna_cmaes.py CONFIG FOLDER [--label optuna-cmaes] [--batch 10] [--threads N]

As scipy_de.py: CONFIG has an `optimizer = "external"` entry with this label and FOLDER is
compare's results folder.  Trials are asked in batches of --batch, and each batch is one
generation of the fitness (its rows play the same games), told back to the study.  (Optuna's
TPE sampler works the same way, but its cost per trial grows with the trials, and a budget in
pieces buys tens of thousands of short early games.)
"""
import argparse

import numpy as np
import optuna

import tetrisbench as tb


def one_run(config, folder, label, run, batch, threads):
    fit = tb.Fitness(config, run=run, label=label, threads=threads)
    sampler = optuna.samplers.CmaEsSampler(seed=2000 + run)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    names = [f"w{i}" for i in range(fit.dimension)]
    try:
        while True:
            trials = [study.ask() for _ in range(batch)]
            x = np.array([[t.suggest_float(n, -10.0, 10.0) for n in names] for t in trials])
            for t, value in zip(trials, fit(x)):
                study.tell(t, float(value))
    except tb.BudgetExhausted:
        for t in trials:  # the batch the budget had no room for
            study.tell(t, state=optuna.trial.TrialState.FAIL)
    result = fit.write_run(folder, stop_reason="Budget")
    print(f"{label} run {run}: {fit.generation} generations, {fit.pieces} pieces, "
          f"best training {result['best_training']:.1f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("config")
    p.add_argument("folder")
    p.add_argument("--label", default="optuna-cmaes")
    p.add_argument("--batch", type=int, default=10)
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args()
    if not 1 <= a.batch <= 10000:
        p.error("--batch must be in 1..10000")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    runs = tb.Fitness(a.config, label=a.label).runs
    for run in range(runs):
        one_run(a.config, a.folder, a.label, run, a.batch, a.threads)


if __name__ == "__main__":
    main()
