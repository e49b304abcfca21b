#!/usr/bin/python3
"""Stratified two-sided Mann-Whitney U test of two entries over several comparison reports.

Usage: /usr/bin/python3 scripts/stratified_u.py LABEL_A LABEL_B RESULTS_DIR [RESULTS_DIR ...]

Each results folder is one stratum: its per-run held-out means of LABEL_A against LABEL_B.
The statistic is the sum over strata of U (pairs with A > B); its exact null distribution is the
convolution of the strata's exact U distributions, since runs are exchanged only within their
own experiment (Lehmann 1975, "Nonparametrics", 3.3; van Elteren 1960 weights the strata, the
plain sum is used here).  The two-sided p is the probability of a sum at least as far from its
mean as the observed one.  Values must have no ties (tetrisbench's per-run means are doubles).
Also prints the pooled (unstratified) exact U test for comparison (docs/results.md).
"""
import json
import math
import os
import sys


def u_counts(n1, n2):
    """Number of orderings of n1 + n2 distinct values giving each U = 0..n1 n2."""
    table = {(0, j): [1] for j in range(n2 + 1)}
    for i in range(1, n1 + 1):
        table[(i, 0)] = [1]
        for j in range(1, n2 + 1):
            # the largest value is an A (adds j pairs) or a B (adds none)
            a, b = table[(i - 1, j)], table[(i, j - 1)]
            c = [0] * (i * j + 1)
            for u, k in enumerate(a):
                c[u + j] += k
            for u, k in enumerate(b):
                c[u] += k
            table[(i, j)] = c
    return table[(n1, n2)]


def u_stat(a, b):
    if set(a) & set(b):
        sys.exit("tied values across the two entries: this exact test assumes none")
    return sum(1 for x in a for y in b if x > y)


def exact_p(strata):
    dist = [1]
    observed = centre = 0
    for a, b in strata:
        counts = u_counts(len(a), len(b))
        observed += u_stat(a, b)
        centre += len(a) * len(b) / 2
        new = [0] * (len(dist) + len(counts) - 1)
        for s, k in enumerate(dist):
            for u, m in enumerate(counts):
                new[s + u] += k * m
        dist = new
    total = sum(dist)
    extreme = sum(k for s, k in enumerate(dist) if abs(s - centre) >= abs(observed - centre) - 1e-9)
    return observed, extreme / total


def run_means(folder, label):
    with open(os.path.join(folder, "report.json")) as f:
        report = json.load(f)
    for o in report["optimizers"]:
        if o["label"] == label:
            return o["held_out"]["run_means"]
    sys.exit(f"{folder}: no entry labelled {label}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    label_a, label_b, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    strata = [(run_means(f, label_a), run_means(f, label_b)) for f in folders]
    for f, (a, b) in zip(folders, strata):
        u, p = exact_p([(a, b)])
        print(f"{f}: {len(a)} vs {len(b)} runs, U = {u}, exact two-sided p = {p:.4g}")
    u, p = exact_p(strata)
    print(f"stratified: sum of U = {u}, exact two-sided p = {p:.4g}")
    pooled_a = [x for a, _ in strata for x in a]
    pooled_b = [x for _, b in strata for x in b]
    u, p = exact_p([(pooled_a, pooled_b)])
    print(f"pooled (ignores the strata): {len(pooled_a)} vs {len(pooled_b)} runs, U = {u}, exact two-sided p = {p:.4g}")


if __name__ == "__main__":
    main()
