#!/usr/bin/python3
"""Turns a comparison's report.json into report.md and PNG plots.

Usage: /usr/bin/python3 scripts/report.py RESULTS_DIR
Called by `tetrisbench compare` at the end of a run; safe to rerun by hand: the same
report.json always gives the same report.md (tests/report_regen_test.sh checks every committed
report).  Needs Debian's python3-matplotlib and python3-numpy (Agg backend, no display).
Every statistic is computed by tetrisbench into report.json; this script only lays it out
(docs/experiments.md "Statistics").
"""
import csv
import glob
import io
import json
import math
import os
import sys
import warnings

from report_files import Folder

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

TD_LEARNERS = ("td0", "tdlambda", "ntuple")
PNG_METADATA = {"Software": None}  # no version stamp: the same data gives the same file


def fmt(v, digits=1):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if abs(v) >= 1e6:
        return f"{v:.3g}"
    return f"{v:,.{digits}f}"


def fmt_p(p):
    return "n/a" if p is None else f"{p:.3g}"


def interval(ci):
    """A bootstrap interval cell, or n/a (fewer than two values)."""
    if ci is None or ci["low"] is None:
        return "n/a"
    return f"[{fmt(ci['low'])}, {fmt(ci['high'])}]"


def mean_cell(h, cap):
    """The mean, marked when some games stopped at the piece cap (then it is a restricted mean)."""
    if h["capped_games"] == 0:
        return fmt(h["mean_lines"])
    return f"{fmt(h['mean_lines'])} (restricted: {h['capped_games']} capped at {fmt(cap, 0)} pieces)"


def games_cell(h):
    return f"{h['games']} ({h['capped_games']} capped)"


def learns(o, exp):
    return o.get("features", exp["features"])


def load_records(root, label):
    """Per run: pieces and progress lines of the rows that have a progress evaluation."""
    runs = []
    for path in sorted(glob.glob(os.path.join(root, "runs", label, "run-*", "generations.csv"))):
        with open(path) as f:
            rows = [r for r in csv.DictReader(f) if r.get("progress_lines")]
        if rows:
            runs.append(([float(r["pieces"]) for r in rows], [float(r["progress_lines"]) for r in rows]))
    return runs


def save(fig, out):
    """`out` is (Folder, file name): the PNG goes through the folder's atomic writer."""
    folder, name = out
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120, metadata=PNG_METADATA)
    plt.close(fig)
    folder.write(name, png.getvalue())


def latest_on(grid, pieces, values):
    """Step function: the last progress value recorded at or before each grid point."""
    idx = np.searchsorted(np.asarray(pieces), grid, side="right") - 1
    vals = np.asarray(values)
    return np.where(idx >= 0, vals[np.clip(idx, 0, None)], np.nan)


def plot_progress(records, report, out):
    all_pieces = [p for runs in records.values() for r in runs for p in r[0]]
    if not all_pieces:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    grid = np.geomspace(max(min(all_pieces), 1.0), max(all_pieces), 200)
    for o in report["optimizers"]:
        runs = records[o["label"]]
        if not runs:
            continue
        curves = np.array([latest_on(grid, p, v) for p, v in runs])
        with np.errstate(all="ignore"):
            med = np.nanmedian(curves, axis=0)
            lo = np.nanpercentile(curves, 25, axis=0)
            hi = np.nanpercentile(curves, 75, axis=0)
        ax.plot(grid, med, label=o["label"])
        ax.fill_between(grid, lo, hi, alpha=0.2)
    prog = report["experiment"]["progress"]
    ax.set_xscale("log")
    ax.set_xlabel("pieces simulated in training")
    ax.set_ylabel(f"progress: mean lines, {prog['games']} fixed games")
    ax.set_title("Progress: median and interquartile band over runs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    save(fig, out)
    return True


def plot_heldout(report, out):
    """Per-run held-out means (dots), their mean (tick) and the bootstrap interval over runs
    (bar; over games, hatched, for an entry with one run)."""
    opts = report["optimizers"]
    exp = report["experiment"]
    fig, ax = plt.subplots(figsize=(7, 0.55 * len(opts) + 1.5))
    values = []
    for i, o in enumerate(opts):
        h = o["held_out"]
        ci, hatch = h["ci95_runs"], None
        if ci is None:
            ci, hatch = h["ci95_games"], "//"
        if ci is not None and ci["low"] is not None:
            ax.barh(i, ci["high"] - ci["low"], left=ci["low"], height=0.5, color="tab:blue", alpha=0.35,
                    hatch=hatch)
            values += [ci["low"], ci["high"]]
        ax.plot([h["mean_lines"]], [i], marker="|", color="tab:blue", markersize=18, markeredgewidth=2)
        ax.plot(h["run_means"], [i] * len(h["run_means"]), "o", color="black", markersize=4)
        values += [h["mean_lines"]] + h["run_means"]
    ax.set_yticks(range(len(opts)))
    ax.set_yticklabels([f"{o['label']} ({learns(o, exp)}"
                        + (f", {o['held_out']['capped_games']} capped" if o["held_out"]["capped_games"] else "")
                        + ")" for o in opts])
    ax.invert_yaxis()
    log = min(values, default=0) > 0  # a log axis only when every value can be shown on it
    if log:
        ax.set_xscale("log")
    ax.margins(x=0.08)
    ax.set_xlabel(f"held-out mean lines on {exp['board']}" + (" (log scale)" if log else ""))
    ax.set_title("Held-out: mean (tick), 95% bootstrap interval (bar; hatched: over games), runs (dots)",
                 fontsize=9)
    ax.grid(True, which="both", axis="x", alpha=0.3)
    save(fig, out)
    return True


def plot_ecdf(records, report, out):
    targets = report["experiment"]["heldout"]["targets"]
    if not targets or not any(records.values()):
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    first = min(p[0] for runs in records.values() for p, _ in runs)
    budget = max(max(p) for runs in records.values() for p, _ in runs)
    for o in report["optimizers"]:
        runs = records[o["label"]]
        if not runs:
            continue
        hits = [next((p for p, v in zip(pieces, vals) if v >= t), None) for pieces, vals in runs for t in targets]
        xs = np.sort(np.asarray([h for h in hits if h is not None]))
        ys = np.arange(1, len(xs) + 1) / len(hits)
        ax.step(np.concatenate([[first], xs, [budget]]), np.concatenate([[0.0], ys, [ys[-1] if len(ys) else 0.0]]),
                where="post", label=o["label"])
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("pieces simulated in training")
    ax.set_ylabel("fraction of (run, target) pairs reached")
    ax.set_title("Runtime ECDF of the progress games over targets " + ", ".join(fmt(t, 0) for t in targets))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    save(fig, out)
    return True


def returned_note(exp):
    """The entries whose progress games play other weights than the best candidate (none in older reports)."""
    mean = [o["label"] for o in exp["optimizers"] if o.get("final") == "mean"]
    cbmpi = [o["label"] for o in exp["optimizers"] if o["optimizer"] == "cbmpi"]
    note = ""
    if mean:
        note += f" (its distribution's mean for {', '.join(mean)})"
    if cbmpi:
        note += f"; for CBMPI ({', '.join(cbmpi)}) the iterate it would return"
    return note


def entry_notes(exp):
    """Entries that train on a proxy board, return their distribution's mean, or learn by CBMPI."""
    notes = []
    for o in exp["optimizers"]:
        if o.get("train_board"):
            notes.append(f"`{o['label']}` plays its fitness games on {o['train_board']} (a proxy board); its "
                         f"held-out and progress games are on {exp['board']} like every entry's.")
        if o.get("final") == "mean":
            notes.append(f"`{o['label']}` returns its search distribution's mean, not its best training candidate.")
        if o["optimizer"] == "cbmpi":
            notes.append(f"`{o['label']}` is CBMPI (docs/cbmpi.md): its pieces are its sampled games' and "
                         "rollouts'; it plays no fitness games.")
    return ["", " ".join(notes)] if notes else []


def header(report):
    exp, meta = report["experiment"], report["metadata"]
    features = sorted({learns(o, exp) for o in report["optimizers"]})
    feature_text = (f"Feature set `{features[0]}`" if len(features) == 1 else
                    "Feature sets per entry (`learns` below)")
    md = [f"# {exp['name']}: optimizer comparison", "",
          f"{feature_text}, rules `{exp['rules']}` on {exp['board']}, "
          f"{exp['runs']} independent runs per optimizer, budget per run: "
          f"{fmt(exp['budget']['pieces'], 0)} pieces / {fmt(exp['budget']['games'], 0)} games (0 = none). "
          f"Fitness: {exp['fitness']['statistic']} over {exp['fitness']['games']} games "
          f"(cap {fmt(exp['fitness']['max_pieces'], 0)} pieces), the same streams for every candidate "
          f"of a generation.  Held-out: {exp['heldout']['games']} games per run on fresh streams, "
          f"capped at {fmt(exp['heldout']['max_pieces'], 0)} pieces (0 = no cap)."]
    cap = exp["fitness"]["max_pieces"]
    if cap and exp["fitness"]["statistic"] == "mean_lines":
        width = int(exp["board"].split("x")[0])
        md += ["", f"Training fitness cannot exceed {fmt(cap * 4 / width, 0)} lines (the piece cap x 4 cells / "
                   f"{width} columns); policies above that level are told apart only by the held-out games."]
    md += entry_notes(exp)
    md += ["", f"Built from git `{meta['git']}` ({meta['compiler']}, {meta['build_type']}), "
               f"CPU {meta['cpu']}, kernel {meta['kernel']}, {meta['threads']} threads, {meta['date']}."]
    return md


def boot_text(report):
    """What the intervals are, with their method and seed (every interval of a report has the same)."""
    for o in report["optimizers"]:
        for h in o["held_out_boards"].values():
            for ci in (h["ci95_runs"], h["ci95_games"]):
                if ci is not None:
                    return f"{ci['resamples']:,} resamples, BCa where defined, else percentile"
    return "none: too few values"


def heldout_section(report):
    exp = report["experiment"]
    cap = exp["heldout"]["max_pieces"]
    md = ["", f"## Held-out results on {exp['board']}", "",
          "`mean` is the mean of the per-run held-out means.  Intervals are 95% bootstrap intervals of the mean "
          f"({boot_text(report)}; the seeds are in report.json): **over runs** resamples the per-run means and "
          "is n/a with one run; **over games** resamples all held-out games of the entry pooled, so it leaves "
          "out run-to-run variation.  A game stopped by the held-out piece cap counts the lines it had at the "
          "cap, so a mean over capped games is a restricted mean (a lower bound of the uncapped mean); the "
          "capped count is given wherever that happens.  `vs top` tests the entry's per-run means against the "
          "entry with the highest mean (two-sided Mann-Whitney U, exact for up to 20 runs): p, its Holm "
          "adjustment over the report's comparisons, and the smallest p the run counts allow.", "",
          "| optimizer | learns | runs | mean lines | 95% CI over runs | 95% CI over games | median of runs "
          "| games (capped) | pieces simulated / run | wall time / run | vs top: U, p, Holm p (smallest possible p) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for o in report["optimizers"]:
        h, v = o["held_out"], o["vs_top"]
        vs = ("top mean" if v is None else
              f"U={v['u']:g}, p={fmt_p(v['p'])}, Holm p={fmt_p(v['p_holm'])} ({fmt_p(v['min_p'])})")
        md.append(f"| {o['label']} | {learns(o, exp)} | {h['runs']} | {mean_cell(h, cap)} | {interval(h['ci95_runs'])} "
                  f"| {interval(h['ci95_games'])} | {fmt(h['median_lines'])} | {games_cell(h)} "
                  f"| {fmt(o['pieces']['mean'], 0)} | {fmt(o['seconds']['mean'], 2)} s | {vs} |")
    md += verdict(report)
    md += censoring(report, exp["board"], cap)
    for b in [b for b in exp["heldout"]["boards"] if b != exp["board"]]:
        md += ["", f"### Held-out on {b}", "",
               "| optimizer | learns | mean lines | 95% CI over runs | 95% CI over games | games (capped) |",
               "|---|---|---|---|---|---|"]
        for o in report["optimizers"]:
            h = o["held_out_boards"][b]
            md.append(f"| {o['label']} | {learns(o, exp)} | {mean_cell(h, cap)} | {interval(h['ci95_runs'])} "
                      f"| {interval(h['ci95_games'])} | {games_cell(h)} |")
        md += censoring(report, b, cap)
    return md


def verdict(report):
    c = report["comparison"]
    if c["comparisons"] == 0:
        return ["", "One entry: nothing to compare."]
    m = c["comparisons"]
    if c["best"] is not None:
        text = (f"**Best: {c['best']}.** Its per-run held-out means are higher than every other entry's with "
                f"Holm-adjusted p < {c['alpha']:g} over {m} comparison(s).")
    else:
        others = [o for o in report["optimizers"] if o["vs_top"] is not None]
        apart = [o["label"] for o in others if o["vs_top"]["significant"]]
        close = [o["label"] for o in others if not o["vs_top"]["significant"]]
        text = (f"**No significant difference** between the highest mean ({c['top']}) and "
                f"{', '.join(close)} at {c['alpha']:g} after Holm's adjustment over {m} comparison(s), so no entry "
                f"is named best.")
        if apart:
            text += f"  {c['top']} is separated from {', '.join(apart)} (Holm-adjusted p < {c['alpha']:g})."
    md = ["", text]
    if c["largest_min_p"] is not None and c["largest_min_p"] > c["alpha"] / m:
        md += ["", f"The run counts of this design cannot reach significance: the smallest two-sided p some "
                   f"comparison could give is {fmt_p(c['largest_min_p'])}, above the {c['alpha']:g} / {m} that "
                   f"Holm's first step asks."]
    if any(o["runs"] < 2 for o in report["optimizers"]):
        md += ["", "Some entry has a single run: its spread across runs is unknown, so no power estimate can be "
                   "made for it, and its interval over games says nothing about what another run would give."]
    needed = [(o["label"], o["vs_top"]["runs_needed"]) for o in report["optimizers"]
              if o["vs_top"] is not None and not o["vs_top"]["significant"] and o["vs_top"]["runs_needed"]]
    if needed:
        md += ["", f"More runs are needed.  From the observed spread of the run means, the runs per entry that "
                   f"would separate each entry from {c['top']} at {c['alpha']:g} / {m} with 80% power (normal "
                   f"approximation, U-test efficiency 3/pi; a planning estimate, docs/experiments.md): "
                   + ", ".join(f"{label} {n:,}" for label, n in needed) + "."]
    return md


def censoring(report, board, cap):
    """Kaplan-Meier summaries of the pooled games of every entry with capped games."""
    rows = []
    for o in report["optimizers"]:
        h = o["held_out_boards"][board]
        k = h["censoring"]
        if k["capped_games"]:
            median = fmt(k["median_lines"]) if k["median_reached"] else f">= {fmt(k['median_lines'])} (not reached)"
            rows.append(f"| {o['label']} | {k['capped_games']} of {h['games']} | {fmt(k['restricted_mean_lines'])} "
                        f"| {median} |")
    if not rows:
        return []
    return ["", f"Capped games on {board} (stopped at the {fmt(cap, 0)}-piece cap): Kaplan-Meier estimates over "
                f"the pooled games, the capped ones right-censored.  The restricted mean is the mean up to the "
                f"largest line count seen; the median is the Kaplan-Meier median.", "",
            "| optimizer | capped games | restricted mean lines | median lines |", "|---|---|---|---|"] + rows


LOG_RANK_SOURCE = "Mantel 1966; Peto & Peto 1972"


def targets_section(report):
    exp = report["experiment"]
    if not exp["heldout"]["targets"]:
        return []
    prog = exp["progress"]
    tested = "target_comparisons" in report  # reports made before the log-rank test have none
    md = ["", "## Budget to reach a target (progress games, COCO style)", "",
          f"Progress is measured the same way for every entry: after the first generation (black-box) or "
          f"period (TD) that ends at or past each 1% of the budget, the weights the run would return at that "
          f"point play the same {prog['games']} fixed progress games, capped at {fmt(prog['max_pieces'], 0)} "
          f"pieces, greedily.  For a black-box optimizer those weights are its best training candidate so far"
          f"{returned_note(exp)}; "
          f"for a TD learner its current weights, without exploration.  Pieces are counted at the record, so "
          f"a target is placed up to 1% of the budget late.  `median pieces` is over the successful runs only "
          f"(one success: that run); aRT = all training pieces of all runs / successes.  External entries "
          f"record no progress." + (tested_text() if tested else ""), ""]
    if tested:
        md += ["| optimizer | target | successes | median pieces | aRT | log-rank p | Holm p |",
               "|---|---|---|---|---|---|---|"]
    else:
        md += ["| optimizer | target | successes | median pieces | aRT |", "|---|---|---|---|---|"]
    for o in report["optimizers"]:
        for i, t in enumerate(o["targets"]):
            if t["successes"] is None:
                row = f"| {o['label']} | {fmt(t['target'], 0)} | not recorded | n/a | n/a |"
            else:
                one = " (1 run)" if t["successes"] == 1 else ""
                row = (f"| {o['label']} | {fmt(t['target'], 0)} | {t['successes']}/{t['runs']} "
                       f"| {fmt(t['median_pieces'], 0)}{one} | {fmt(t['aRT'], 0)} |")
            md.append(row + (vs_fastest_cells(o["label"], t, report["target_comparisons"][i]) if tested else ""))
    if tested:
        md += [""] + [target_verdict(i, report) for i in range(len(report["target_comparisons"]))]
    return md


def tested_text():
    """What the log-rank columns are (reports made since the test was added)."""
    return ("  `log-rank p` compares the entry's runs with the leader's (the most successes, then the smallest "
            "aRT): the training pieces each run took to reach the target, a run that never did counted as "
            f"censored at the pieces it spent; two-sided log-rank test ({LOG_RANK_SOURCE}).  `Holm p` adjusts "
            "it over the target's comparisons (the entries with progress records, less the leader).")


def vs_fastest_cells(label, t, comparison):
    """The log-rank p and its Holm adjustment against the target's leader: `leader` on its own row,
    n/a where nothing was compared."""
    v = t["vs_fastest"]
    if v is None:
        return " leader | - |" if label == comparison["leader"] else " n/a | n/a |"
    return f" {fmt_p(v['p'])} | {fmt_p(v['p_holm'])} |"


def reach(labels):
    return "reaches" if len(labels) == 1 else "reach"


def target_verdict(i, report):
    """One line for target i: the fastest entry, or why none is named."""
    v = report["target_comparisons"][i]
    name, leader, m = fmt(v["target"], 0), v["leader"], v["comparisons"]
    if leader is None:
        return f"- Target {name}: no entry reached it, so none is named fastest."
    if m == 0:
        return f"- Target {name}: {leader} is the only entry with progress records: nothing to compare."
    test = f"log-rank test, {LOG_RANK_SOURCE}; Holm's adjustment over {m} comparison(s)"
    if v["fastest"] is not None:
        return (f"- Target {name}: **fastest: {leader}**; every other entry's runs reach it later, Holm-adjusted "
                f"p < {v['alpha']:g} ({test}).")
    rows = [(o["label"], o["targets"][i]["vs_fastest"]) for o in report["optimizers"]
            if o["targets"][i]["vs_fastest"] is not None]
    close = [label for label, s in rows if not s["significant"]]
    sooner = [label for label, s in rows if s["significant"] and s["observed_minus_expected"] > 0]
    later = [label for label, s in rows if s["significant"] and s["observed_minus_expected"] < 0]
    parts = []
    if close:
        parts.append(f"**no significant difference** between the leader {leader} and {', '.join(close)}")
    if later:
        parts.append(f"{', '.join(later)} {reach(later)} it significantly later than {leader}")
    if sooner:
        parts.append(f"{', '.join(sooner)} {reach(sooner)} it significantly sooner than {leader}, with fewer "
                     f"successes or a larger aRT")
    return f"- Target {name}: {'; '.join(parts)} ({test}), so no entry is named fastest."


def main():
    warnings.simplefilter("ignore", RuntimeWarning)  # nan-medians before a run's first record
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    with open(os.path.join(root, "report.json")) as f:
        report = json.load(f)
    if report.get("schema_version") != 2:
        sys.exit(f"{root}/report.json: schema_version {report.get('schema_version')} is not 2; this script "
                 f"reads the reports of tetrisbench 0.2 (rebuild report.json with tetrisbench compare --resume)")
    folder = Folder(root)
    plots = folder.sub("plots")
    records = {o["label"]: load_records(root, o["label"]) for o in report["optimizers"]}
    have_prog = plot_progress(records, report, (plots, "progress.png"))
    have_ecdf = plot_ecdf(records, report, (plots, "ecdf.png"))
    have_held = plot_heldout(report, (plots, "heldout.png"))
    md = header(report) + heldout_section(report) + targets_section(report)
    md += ["", "## Plots", ""]
    if have_held:
        md += ["![held-out mean lines per optimizer, with intervals and per-run means](plots/heldout.png)", ""]
    if any(o["optimizer"] in TD_LEARNERS for o in report["optimizers"]):
        md += ["TD entries (td0, tdlambda, ntuple) learn from self-play; their held-out games play the final "
               "weights greedily (docs/experiments.md).", ""]
    if have_prog:
        md.append("![progress-game mean lines against training pieces](plots/progress.png)")
    if have_ecdf:
        md += ["", "![runtime ECDF of the progress games over targets](plots/ecdf.png)"]
    md += ["", "## Reproduce", "", "```", "tetrisbench compare config.toml   # the config.toml of this folder",
           "```", "", "Stop reasons per run: " + "; ".join(
               f"{o['label']}: " + ", ".join("/".join(s) or "-" for s in o["stop_reasons"])
               for o in report["optimizers"]), ""]
    folder.write("report.md", "\n".join(md))


if __name__ == "__main__":
    main()
