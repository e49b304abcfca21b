#!/usr/bin/python3
"""Turns a comparison's report.json into report.md and PNG plots.

Usage: /usr/bin/python3 scripts/report.py RESULTS_DIR
Called by `tetrisbench compare` at the end of a run; safe to rerun by hand.  Needs Debian's
python3-matplotlib and python3-numpy (Agg backend, no display).
"""
import csv
import glob
import json
import math
import os
import sys
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def fmt(v, digits=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if abs(v) >= 1e6:
        return f"{v:.3g}"
    return f"{v:,.{digits}f}"


def load_records(root, label):
    runs = []
    for path in sorted(glob.glob(os.path.join(root, "runs", label, "run-*", "generations.csv"))):
        with open(path) as f:
            rows = list(csv.DictReader(f))
        runs.append(([float(r["pieces"]) for r in rows], [float(r["best"]) for r in rows]))
    return runs


def best_so_far_on(grid, pieces, best):
    """Step function: the best training value after the last generation ending at or before p."""
    idx = np.searchsorted(np.asarray(pieces), grid, side="right") - 1
    vals = np.asarray(best)
    return np.where(idx >= 0, vals[np.clip(idx, 0, None)], np.nan)


def plot_convergence(root, report, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    all_pieces = [p for o in report["optimizers"] for r in load_records(root, o["label"]) for p in r[0]]
    if not all_pieces:
        return False
    grid = np.geomspace(max(min(all_pieces), 1.0), max(all_pieces), 200)
    for o in report["optimizers"]:
        runs = load_records(root, o["label"])
        if not runs:
            continue
        curves = np.array([best_so_far_on(grid, p, b) for p, b in runs])
        with np.errstate(all="ignore"):
            med = np.nanmedian(curves, axis=0)
            lo = np.nanpercentile(curves, 25, axis=0)
            hi = np.nanpercentile(curves, 75, axis=0)
        ax.plot(grid, med, label=o["label"])
        ax.fill_between(grid, lo, hi, alpha=0.2)
    ax.set_xscale("log")
    ax.set_xlabel("pieces simulated")
    ax.set_ylabel("best training fitness so far (mean lines)")
    ax.set_title("Convergence: median and interquartile band over runs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return True


def plot_heldout(report, out):
    """Held-out mean lines per optimizer: per-run means (dots) and the 95% interval (bar)."""
    opts = report["optimizers"]
    fig, ax = plt.subplots(figsize=(7, 0.55 * len(opts) + 1.5))
    for i, o in enumerate(opts):
        h = o["held_out"]
        lo, hi = h["ci95"]
        mean = h["mean_lines"]
        if lo is not None and hi is not None:
            ax.plot([max(lo, 0.1), hi], [i, i], color="tab:blue", linewidth=6, alpha=0.35, solid_capstyle="butt")
        ax.plot([mean], [i], marker="|", color="tab:blue", markersize=18, markeredgewidth=2)
        runs = h.get("run_means", [])
        ax.plot(runs, [i] * len(runs), "o", color="black", markersize=4)
    ax.set_yticks(range(len(opts)))
    ax.set_yticklabels([f"{o['label']} ({o.get('features', report['experiment']['features'])})" for o in opts])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(f"held-out mean lines on {report['experiment']['board']} (log scale)")
    ax.set_title("Held-out: mean (tick), 95% interval (bar), runs (dots)")
    ax.grid(True, which="both", axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return True


def plot_ecdf(root, report, out):
    targets = report["experiment"]["heldout"]["targets"]
    if not targets:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    budget = 1.0
    first = min((p[0] for o in report["optimizers"] for p, _ in load_records(root, o["label"]) if p),
                default=1.0)
    for o in report["optimizers"]:
        hits, pairs = [], 0
        for pieces, best in load_records(root, o["label"]):
            budget = max(budget, max(pieces, default=1.0))
            for t in targets:
                pairs += 1
                for p, b in zip(pieces, best):
                    if b >= t:
                        hits.append(p)
                        break
        if pairs == 0:
            continue
        xs = np.sort(np.asarray(hits))
        ys = np.arange(1, len(xs) + 1) / pairs
        ax.step(np.concatenate([[first], xs, [budget]]), np.concatenate([[0.0], ys, [ys[-1] if len(ys) else 0.0]]),
                where="post", label=o["label"])
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("pieces simulated")
    ax.set_ylabel("fraction of (run, target) pairs reached")
    ax.set_title("Runtime ECDF over targets " + ", ".join(fmt(t, 0) for t in targets))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return True


def main():
    warnings.simplefilter("ignore", RuntimeWarning)  # nan-medians before a run's first record
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    with open(os.path.join(root, "report.json")) as f:
        report = json.load(f)
    exp, meta = report["experiment"], report["metadata"]
    os.makedirs(os.path.join(root, "plots"), exist_ok=True)
    have_conv = plot_convergence(root, report, os.path.join(root, "plots", "convergence.png"))
    have_ecdf = plot_ecdf(root, report, os.path.join(root, "plots", "ecdf.png"))
    have_held = plot_heldout(report, os.path.join(root, "plots", "heldout.png"))
    features = sorted({o.get("features", exp["features"]) for o in report["optimizers"]})
    has_td = any(o["optimizer"] in ("td0", "tdlambda", "ntuple") for o in report["optimizers"])

    runs = exp["runs"]
    md = [f"# {exp['name']}: optimizer comparison", ""]
    feature_text = (f"Feature set `{features[0]}`" if len(features) == 1 else
                    "Feature sets per entry (`learns` below)")
    md.append(f"{feature_text}, rules `{exp['rules']}` on {exp['board']}, "
              f"{runs} independent runs per optimizer, budget per run: "
              f"{fmt(exp['budget']['pieces'], 0)} pieces / {fmt(exp['budget']['games'], 0)} games (0 = none). "
              f"Fitness: {exp['fitness']['statistic']} over {exp['fitness']['games']} games "
              f"(cap {fmt(exp['fitness']['max_pieces'], 0)} pieces), the same streams for every candidate "
              f"of a generation.  Held-out: {exp['heldout']['games']} games per run on fresh streams.")
    cap = exp["fitness"]["max_pieces"]
    if cap and exp["fitness"]["statistic"] == "mean_lines":
        width = int(exp["board"].split("x")[0])
        md.append("")
        md.append(f"Training fitness cannot exceed {fmt(cap * 4 / width, 0)} lines (the piece cap x 4 cells / "
                  f"{width} columns); policies above that level are told apart only by the held-out games.")
    md.append("")
    md.append(f"Built from git `{meta['git']}` ({meta['compiler']}, {meta['build_type']}), "
              f"CPU {meta['cpu']}, kernel {meta['kernel']}, {meta['threads']} threads, {meta['date']}.")
    md += ["", f"## Held-out results on {exp['board']}", "",
           "Mean of the per-run held-out means, with a 95% Student-t interval across runs (with a "
           "single run: across its held-out games); "
           "`vs best` is a two-sided Mann-Whitney U test of the per-run means against the best optimizer.", "",
           "| optimizer | learns | held-out mean lines | 95% CI | median of runs | held-out games | pieces simulated / run "
           "| wall time / run | vs best (U, p) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for o in report["optimizers"]:
        h = o["held_out"]
        lo, hi = h["ci95"]
        vs = "best" if o["vs_best"] is None else f"U={o['vs_best']['u']:g}, p={o['vs_best']['p']:.3g}"
        across = "" if h.get("ci95_across", "runs") == "runs" else " (games)"
        md.append(f"| {o['label']} | {o.get('features', exp['features'])} | {fmt(h['mean_lines'])} | [{fmt(lo)}, {fmt(hi)}]{across} | {fmt(h['median_lines'])} "
                  f"| {h['games']} | {fmt(o['pieces']['mean'], 0)} | {fmt(o['seconds']['mean'], 2)} s | {vs} |")
    boards = [b for b in exp["heldout"]["boards"] if b != exp["board"]]
    for b in boards:
        md += ["", f"### Held-out on {b}", "", "| optimizer | mean lines | 95% CI | games |", "|---|---|---|---|"]
        for o in report["optimizers"]:
            h = o["held_out_boards"][b]
            md.append(f"| {o['label']} | {o.get('features', exp['features'])} | {fmt(h['mean_lines'])} | [{fmt(h['ci95'][0])}, {fmt(h['ci95'][1])}] "
                      f"| {h['games']} |")
    if exp["heldout"]["targets"]:
        md += ["", "## Budget to reach a target (training fitness, COCO style)", "",
               "Pieces simulated until the best training fitness first reached the target: median over the "
               "successful runs, and aRT = all pieces spent by all runs / successes.", "",
               "| optimizer | target | successes | median pieces | aRT |", "|---|---|---|---|---|"]
        for o in report["optimizers"]:
            for t in o["targets"]:
                md.append(f"| {o['label']} | {fmt(t['target'], 0)} | {t['successes']}/{t['runs']} "
                          f"| {fmt(t['median_pieces'], 0)} | {fmt(t['aRT'], 0)} |")
    md += ["", "## Plots", ""]
    if have_held:
        md.append("![held-out mean lines per optimizer, with intervals and per-run means](plots/heldout.png)")
        md.append("")
    if has_td:
        md.append("TD entries (td0, tdlambda, ntuple) learn from self-play: their training curve is the mean "
                  "lines of the training episodes that ended in each 1% of the budget (with exploration), "
                  "not a best candidate's fitness, and their held-out games play the final weights "
                  "(docs/experiments.md).")
        md.append("")
    if have_conv:
        md.append("![best-so-far training fitness against pieces simulated](plots/convergence.png)")
    if have_ecdf:
        md.append("")
        md.append("![runtime ECDF over targets](plots/ecdf.png)")
    md += ["", "## Reproduce", "", "```", f"tetrisbench compare config.toml   # the config.toml of this folder",
           "```", "", "Stop reasons per run: " + "; ".join(
               f"{o['label']}: " + ", ".join("/".join(s) or "-" for s in o["stop_reasons"]) for o in report["optimizers"]),
           ""]
    with open(os.path.join(root, "report.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
