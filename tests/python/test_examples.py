"""The Python examples (experiments/python) end to end on a tiny config: each writes its runs
into compare's results folder, and the resumed compare reports them beside the built-in ones."""
import json
import os
import subprocess
import sys

CLI = os.environ["TETRISBENCH"]
CONFIG = os.path.join(os.path.dirname(os.environ["TINY_CONFIG"]), "tiny-compare-python.toml")
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "experiments", "python")


def test_scipy_and_optuna_runs_join_the_report(tmp_path):
    out = str(tmp_path / "py")
    first = subprocess.run([CLI, "compare", CONFIG, "--out", out, "--threads", "2"], capture_output=True, text=True)
    assert first.returncode == 2 and "scipy-de" in first.stderr and "optuna-cmaes" in first.stderr
    for script in ("scipy_de.py", "optuna_cmaes.py"):
        done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), CONFIG, out, "--threads", "2"],
                              capture_output=True, text=True, env=os.environ)
        assert done.returncode == 0, done.stderr
        assert "run 1:" in done.stdout
    subprocess.run([CLI, "compare", "--resume", out, "--threads", "2"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = json.load(open(os.path.join(out, "report.json")))
    assert [o["label"] for o in report["optimizers"]] == ["ce", "pso-article1", "scipy-de", "optuna-cmaes"]
    for o in report["optimizers"][2:]:
        assert o["optimizer"] == "external"
