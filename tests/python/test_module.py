"""The `tetrisbench` Python module (docs/python.md), run by ctest with pytest.

Environment: PYTHONPATH holds the built module, TETRISBENCH the command line, TINY_CONFIG
tests/data/tiny-compare.toml.
"""
import json
import os
import subprocess
import threading

import numpy as np
import pytest

import tetrisbench as tb

CLI = os.environ["TETRISBENCH"]
TINY = os.environ["TINY_CONFIG"]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """One uninterrupted `tetrisbench compare` of the tiny config, its folder."""
    out = tmp_path_factory.mktemp("cmp") / "tiny"
    subprocess.run([CLI, "compare", TINY, "--out", str(out), "--threads", "2"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def test_fitness_equals_compare_bit_for_bit(compared):
    # Each run's best weights were first seen in generation t, with the training statistic the
    # CLI recorded: the Python fitness of those weights as generation t is that number exactly.
    checked = 0
    for result in sorted(compared.glob("runs/*/run-*/result.json")):
        r = json.loads(result.read_text())
        run = r["run"]
        fit = tb.Fitness(TINY, run=run, threads=2)
        t = next(i for i, rec in enumerate(r["records"]) if rec["gen_best"] == r["best_training"])
        got = fit.evaluate(np.array([r["weights"]]), generation=t)
        assert got.shape == (1,)
        assert got[0] == r["best_training"], (result, t)
        # And the held-out games of those weights are the run's.
        assert fit.heldout(np.array(r["weights"])) == r["held_out"]
        checked += 1
    assert checked == 4


def test_budget_is_counted_as_compare_counts_it():
    fit = tb.Fitness.from_toml(open(TINY).read().replace("pieces = 150000", "pieces = 20000"), threads=1)
    x = np.zeros((5, fit.dimension))
    first = fit(x)
    assert fit.generation == 1 and fit.games == 5 * 3 and fit.pieces > 0
    # The same generation again gives the same numbers (common random numbers, no hidden state).
    assert np.array_equal(fit.evaluate(x, generation=0), first)
    with pytest.raises(tb.BudgetExhausted):
        while True:
            fit(x)
    assert fit.pieces <= 20000 and fit.generation >= 2


def test_rows_are_independent_of_the_population():
    fit = tb.Fitness(TINY, threads=1)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, fit.dimension))
    whole = fit.evaluate(x, generation=4)
    alone = [fit.evaluate(x[k:k + 1], generation=4)[0] for k in range(6)]
    assert whole.tolist() == alone


@pytest.mark.parametrize("bad, message", [
    (np.zeros(4), "2-D"),
    (np.zeros((2, 3)), "columns"),
    (np.zeros((0, 4)), "no rows"),
    (np.array([[0.0, np.nan, 0.0, 0.0]]), "not finite"),
    (np.array([[0.0, np.inf, 0.0, 0.0]]), "not finite"),
])
def test_bad_weights_are_value_errors(bad, message):
    fit = tb.Fitness(TINY, threads=1)
    with pytest.raises(ValueError, match=message):
        fit(bad)
    assert fit.generation == 0 and fit.pieces == 0


def test_bad_arguments_are_value_errors(tmp_path):
    with pytest.raises(ValueError):
        tb.Fitness(str(tmp_path / "missing.toml"))
    with pytest.raises(ValueError):
        tb.Fitness.from_toml("features = 'nope'")
    with pytest.raises(ValueError, match="run"):
        tb.Fitness(TINY, run=-1)
    with pytest.raises(ValueError, match="threads"):
        tb.Fitness(TINY, threads=-2)
    with pytest.raises(ValueError, match="kernel"):
        tb.Fitness(TINY, kernel="mmx")
    with pytest.raises(ValueError, match="generation"):
        tb.Fitness(TINY).evaluate(np.zeros((1, 4)), generation=-1)
    with pytest.raises(ValueError):
        tb.play(policy="no-such-policy", games=1)
    with pytest.raises(ValueError, match="games"):
        tb.play(games=0)
    with pytest.raises(ValueError, match="board"):
        tb.features(np.zeros((5, 5)), "bcts")
    with pytest.raises(ValueError, match="feature set"):
        tb.features(np.zeros((20, 10)), "nope")
    with pytest.raises(ValueError, match="piece"):
        tb.afterstates(np.zeros((20, 10)), "Q")


def test_gil_is_released_while_games_run():
    # Two Python threads evaluate at once, and the main thread keeps running Python meanwhile:
    # both calls return the single-threaded numbers.  A call that held the GIL would leave the
    # main thread no tick while it runs, however long it ran; the population doubles until the
    # calls last long enough to see the ticks (a fast machine finishes small ones at once).
    fit_a, fit_b = tb.Fitness(TINY, threads=1), tb.Fitness(TINY, threads=1)
    row = np.array([[-1.0, 1.0, -1.0, -1.0]])
    for doubling in range(14):
        x = np.tile(row, (40 << doubling, 1))
        expected = fit_a.evaluate(x, generation=2)
        results = {}

        def work(name, fit):
            results[name] = fit.evaluate(x, generation=2)

        threads = [threading.Thread(target=work, args=(n, f)) for n, f in (("a", fit_a), ("b", fit_b))]
        ticks = 0
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            ticks += 1
        for t in threads:
            t.join()
        assert np.array_equal(results["a"], expected) and np.array_equal(results["b"], expected)
        if ticks > 1000:
            return
    pytest.fail("the main thread did not run while the games played")


def test_policy_file_round_trip(tmp_path):
    rng = np.random.default_rng(7)
    w = rng.normal(size=8) * 10 ** rng.uniform(-300, 300, size=8)
    path = tmp_path / "p.policy"
    path.write_text(tb.format_policy(w.tolist(), "bcts", name="round-trip"))
    back = tb.read_policy(str(path))
    assert back["features"] == "bcts" and back["name"] == "round-trip"
    assert np.array_equal(np.array(back["weights"]), w)  # bit for bit
    with pytest.raises(ValueError, match="finite"):
        tb.format_policy([0.0] * 5 + [float("nan")], "dellacherie")


def test_play_equals_cli():
    ours = tb.play(policy="bcts", board="8x10", games=12, seed=3, threads=2)
    cli = json.loads(subprocess.run([CLI, "play", "--policy", "bcts", "--board", "8x10", "--games", "12",
                                     "--seed", "3", "--format", "json"], check=True,
                                    capture_output=True, text=True).stdout)
    assert [g["lines"] for g in ours["games"]] == [g["lines"] for g in cli["games"]]
    assert ours["summary"]["mean_lines"] == cli["summary"]["mean_lines"]


def test_features_and_afterstates_agree():
    # The afterstate features of each placement equal the board features of its resulting
    # board, for every board feature (the move features only exist for a move).
    rng = np.random.default_rng(11)
    board = np.zeros((20, 10), dtype=np.int64)
    for c in range(10):
        h = rng.integers(0, 8)
        board[20 - h:, c] = rng.integers(0, 2, size=h)
        if h:
            board[20 - h, c] = 1
    for piece in "IOTSZJL":
        a = tb.afterstates(board, piece, feature_set="bcts")
        n = len(a["lines"])
        assert a["placements"].shape == (n, 3) and a["boards"].shape == (n, 20, 10)
        for k in range(n):
            if a["game_over"][k]:
                continue
            f = tb.features(a["boards"][k], "bcts")
            board_only = ~np.isnan(f)
            assert np.array_equal(f[board_only], a["features"][k][board_only]), (piece, k)
            added = a["boards"][k].sum() - board.sum()
            assert added == 4 - 10 * a["lines"][k]


EXTERNAL = os.path.join(os.path.dirname(TINY), "tiny-compare-external.toml")


def random_search(fit, seed):
    """A stand-in outside optimizer: random populations until the budget is spent."""
    rng = np.random.default_rng(seed)
    try:
        while True:
            fit(rng.normal(size=(10, fit.dimension)))
    except tb.BudgetExhausted:
        pass


def test_external_runs_join_the_report(tmp_path):
    out = tmp_path / "ext"
    first = subprocess.run([CLI, "compare", EXTERNAL, "--out", str(out), "--threads", "2"],
                           capture_output=True, text=True)
    assert first.returncode == 2 and "write_run" in first.stderr
    assert not (out / "report.json").exists()
    with pytest.raises(ValueError, match="external"):
        tb.Fitness(EXTERNAL, run=0, label="ce")  # compare trains that one itself
    with pytest.raises(ValueError, match="label"):
        tb.Fitness(TINY, run=0).write_run(str(out))
    results = []
    for run in range(2):
        fit = tb.Fitness(EXTERNAL, run=run, label="random-search", threads=2)
        with pytest.raises(ValueError, match="nothing"):
            fit.write_run(str(out))
        random_search(fit, run)
        results.append(fit.write_run(str(out), stop_reason="Budget"))
        with pytest.raises(ValueError, match="not replaced"):
            fit.write_run(str(out))
        assert results[-1]["pieces"] == fit.pieces and results[-1]["generations"] == fit.generation
    subprocess.run([CLI, "compare", "--resume", str(out), "--threads", "2"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = json.loads((out / "report.json").read_text())
    labels = [o["label"] for o in report["optimizers"]]
    assert labels == ["ce", "pso-article1", "random-search"]
    ours = report["optimizers"][2]
    assert ours["optimizer"] == "external"
    # The report's held-out numbers of the external runs are the ones write_run computed.
    assert (out / "runs/random-search/run-1/generations.csv").read_text().startswith("generation,")
    assert (out / "report.md").read_text().count("random-search") >= 1


def test_write_run_refuses_another_experiment(tmp_path, compared):
    fit = tb.Fitness(EXTERNAL, run=0, label="random-search", threads=1)
    fit(np.zeros((2, fit.dimension)))
    with pytest.raises(ValueError, match="another experiment|does not exist"):
        fit.write_run(str(compared))


def test_fitness_from_keywords_equals_the_config():
    kw = dict(features="lee", board="6x8", runs=2, seed=5, games=3, max_pieces=300, budget_pieces=150000,
              heldout_games=8, heldout_max_pieces=2000, heldout_boards=["6x10"])
    x = np.random.default_rng(1).normal(size=(5, 4))
    for run in (0, 1):
        by_keywords = tb.Fitness.from_keywords(run=run, threads=1, **kw)
        by_config = tb.Fitness(TINY, run=run, threads=1)
        assert by_keywords.seed == by_config.seed
        assert np.array_equal(by_keywords.evaluate(x, generation=3), by_config.evaluate(x, generation=3))
    # Names go into the config text only as plain tokens; everything is range-checked.
    for bad, message in [({"features": 'bcts"\nruns = 7'}, "name"), ({"nope": 1}, "unknown keyword"),
                         ({"games": True}, "number"), ({"games": 0}, "games"), ({"board": "99x99"}, "board")]:
        with pytest.raises(ValueError, match=message):
            tb.Fitness.from_keywords(**bad)
