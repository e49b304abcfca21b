"""Issue 47's Python classes (docs/python.md "Errors and limits"): the module is an input
boundary like the command line.  One regression test per class of bad input, and a property
test over random argument values.

Environment: as test_module.py (PYTHONPATH holds the built module, TINY_CONFIG
tests/data/tiny-compare.toml).  Calls that could crash, run for minutes or take gigabytes
before the fix run in a child interpreter with a timeout or an address-space limit, so that a
regression fails the test instead of the test run or the machine.
"""
import os
import random
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import tetrisbench as tb

TINY = os.environ["TINY_CONFIG"]


def one_line(kind, call):
    """The message of the `kind` that call() raises; it must be one line."""
    with pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    assert message and "\n" not in message and "\r" not in message, repr(message)
    return message


def child(script, timeout=20, address_space=None):
    """Runs `script` in a child interpreter with the module; its stdout.  A crash (abort,
    signal) or a timeout fails the test."""
    prelude = ""
    if address_space:
        prelude = (f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({address_space}, {address_space}))\n")
    run = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(script)], capture_output=True,
                         text=True, timeout=timeout)
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    return run.stdout.strip()


# Class 4: one Fitness called from several threads at once.
def test_threads_never_overrun_the_budget_and_get_their_own_generations():
    # 8 rows x 3 games x 10 pieces: every game reaches the cap, so a generation is 240 pieces
    # and a budget of 300 has room for exactly one.
    kw = dict(features="lee", board="6x8", games=3, max_pieces=10, seed=5)
    x = np.tile([[-1.0, 1.0, -1.0, -1.0]], (8, 1)) + np.random.default_rng(2).normal(scale=0.3, size=(8, 4))

    def race(fit):
        barrier = threading.Barrier(4)
        outcomes = [None] * 4

        def work(k):
            barrier.wait()
            try:
                outcomes[k] = fit(x)
            except tb.BudgetExhausted:
                outcomes[k] = "spent"

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return outcomes

    tight = tb.Fitness.from_keywords(budget_pieces=300, threads=1, **kw)
    outcomes = race(tight)
    assert sum(isinstance(o, np.ndarray) for o in outcomes) == 1
    assert tight.generation == 1 and tight.pieces == 240

    # With room for all four, each call is a generation of its own, on that generation's streams.
    roomy = tb.Fitness.from_keywords(budget_pieces=10**7, threads=1, **kw)
    outcomes = race(roomy)
    assert roomy.generation == 4
    expected = [roomy.evaluate(x, generation=t) for t in range(4)]
    assert all(not np.array_equal(expected[0], e) for e in expected[1:])  # the streams differ
    played = sorted(next(t for t in range(4) if np.array_equal(o, expected[t])) for o in outcomes)
    assert played == [0, 1, 2, 3]


# Class 5: a value written into a line of a policy file must read back as itself.
@pytest.mark.parametrize("name", ["evil\nweights 1 1 1 1 1 1 1 1", "cr\rname", "#comment", " padded", "tab\t",
                                  "nul\0byte"])
def test_format_policy_refuses_names_that_would_change_the_file(name):
    message = one_line(ValueError, lambda: tb.format_policy([0.0] * 8, "bcts", name=name))
    assert "name" in message


def test_format_policy_names_that_read_back_are_written(tmp_path):
    path = tmp_path / "p.policy"
    path.write_text(tb.format_policy([1.0] * 8, "bcts", name="my policy (v2)"))
    assert tb.read_policy(str(path))["name"] == "my policy (v2)"


# Class 8: out of memory is a MemoryError (or the limits refuse the call first), never an abort.
# The address space is limited to a little more than the child has after a first call, so
# that the games fit and their results may not: before the fix, freeing the results' JSON
# there was std::terminate.
def test_play_out_of_memory_is_a_memory_error():
    out = child("""
        import resource
        import tetrisbench as tb
        tb.play(games=4, board="6x8", max_pieces=1, threads=1)
        size = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")) * 1024
        for games, extra in ((10**7, 30), (200000, 30), (200000, 60)):
            resource.setrlimit(resource.RLIMIT_AS, (size + (extra << 20), resource.RLIM_INFINITY))
            try:
                tb.play(games=games, board="6x8", max_pieces=1, threads=1)
                print("played")
            except MemoryError:
                print("MemoryError")
            except ValueError as e:
                print("ValueError", e)
    """)
    outcomes = out.splitlines()
    assert len(outcomes) == 3 and outcomes[0] == "MemoryError", out
    assert all(o in ("MemoryError", "played") or o.startswith("ValueError") for o in outcomes), out


# Class 9: Ctrl-C stops a long call.  The call runs in the main thread of a child interpreter
# (where Python handles signals); a timer thread sends SIGINT after half a second.
@pytest.mark.parametrize("call", [
    'tb.play(board="10x10", games=10**6, threads=1)',
    'fit = tb.Fitness.from_keywords(features="lee", board="6x8", games=100, threads=1, budget_pieces=10**12)\n'
    'x = np.tile([[-1.0, 1.0, -1.0, -1.0]], (10**5, 1))\n'
    'try:\n'
    '    fit(x)\n'
    'finally:\n'
    '    print("generation", fit.generation, "pieces", fit.pieces)',
])
def test_ctrl_c_interrupts_a_long_call(call):
    out = child(f"""
        import os, signal, threading, time
        import numpy as np
        import tetrisbench as tb
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
{textwrap.indent(call, " " * 12)}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", time.monotonic() - start)
    """, timeout=20)
    last = out.splitlines()[-1].split()
    assert last[0] == "interrupted", out
    assert float(last[1]) < 2.5, out
    if "generation" in out:  # an interrupted generation counts nothing
        assert "generation 0 pieces 0" in out, out


def test_blocks_give_the_numbers_of_one_call():
    # Enough games that the calls are cut into several blocks; game g is still game g.
    played = tb.play(board="6x8", games=3000, seed=9, threads=2)
    assert [g["index"] for g in played["games"]] == list(range(3000))
    assert played["games"][1234] == tb.play(board="6x8", games=1235, seed=9, threads=1)["games"][1234]
    fit = tb.Fitness(TINY, threads=2)
    x = np.random.default_rng(4).normal(size=(400, fit.dimension))
    whole = fit.evaluate(x, generation=3)
    assert [whole[k] for k in (0, 199, 399)] == [fit.evaluate(x[k:k + 1], generation=3)[0] for k in (0, 199, 399)]


# Class 11: the command line's limits.
def test_the_command_lines_game_limits_hold():
    message = one_line(ValueError, lambda: tb.play(policy="no-such-policy", games=10**7 + 1))
    assert "games" in message and "[1, 10000000]" in message
    fit = tb.Fitness.from_keywords(features="lee", board="6x8", games=100000, max_pieces=10, budget_pieces=10**12)
    # 101 x 100,000 games: more than a generation may play.  The last row is not even finite:
    # the limit is checked first, before the weights are read.
    x = np.zeros((101, 4))
    x[-1, 0] = np.nan
    for call in (lambda: fit.evaluate(x, generation=0), lambda: fit(x)):
        assert "10000000-game limit" in one_line(ValueError, call)
    assert fit.generation == 0 and fit.pieces == 0


# Class 13: numbers are checked by the command line's parser, as ValueErrors of one line.
@pytest.mark.parametrize("call, words", [
    (lambda: tb.play(games=2**70), "games must be an integer in [1, 10000000]"),
    (lambda: tb.play(games=3.5), "games must be an integer"),
    (lambda: tb.play(games=True), "games must be an integer"),
    (lambda: tb.play(seed=-1), "seed must be an integer in [0, 18446744073709551615]"),
    (lambda: tb.play(seed=2**64), "seed"),
    (lambda: tb.play(threads=2**31), "threads must be an integer in [0, 1024]"),
    (lambda: tb.play(max_pieces=-1), "max_pieces"),
    (lambda: tb.Fitness(TINY, run=2**63), "run must be an integer in [0, 1]"),
    (lambda: tb.Fitness(TINY, threads=None), "threads"),
    (lambda: tb.Fitness(TINY).evaluate(np.zeros((1, 4)), generation=2.0), "generation"),
    (lambda: tb.Fitness.from_keywords(runs=2**63), "runs"),
    (lambda: tb.Fitness.from_keywords(heldout_boards=["6x10", 7]), "heldout_boards"),
])
def test_bad_numbers_are_one_line_value_errors(call, words):
    assert words in one_line(ValueError, call)


def test_numpy_integers_are_integers():
    assert tb.play(board="6x8", games=np.int64(2), seed=np.uint64(2**64 - 1), threads=np.int32(1))["seed"] == 2**64 - 1


# Class 16: weights are checked for shape and type before they are converted or copied.
def test_format_policy_checks_the_weights():
    assert "8 on a 10-wide board" in one_line(ValueError, lambda: tb.format_policy([0.0] * 7, "bcts"))
    assert "complex" in one_line(ValueError, lambda: tb.format_policy(np.ones(8, dtype=complex), "bcts"))
    assert "complex" in one_line(ValueError, lambda: tb.format_policy([1j] * 8, "bcts"))
    one_line(ValueError, lambda: tb.format_policy(np.zeros((2, 8)), "bcts"))


def test_huge_arrays_are_refused_before_they_are_copied():
    # 20000 x 20000 zero-stride arrays take no memory; a copy would take 3.2 GB, more than the
    # child's address space.
    out = child("""
        import numpy as np
        import tetrisbench as tb
        huge = np.broadcast_to(np.zeros(1), (20000, 20000))
        fit = tb.Fitness.from_keywords(features="lee", board="6x8", games=3, budget_pieces=10**6)
        for call in (lambda: fit(huge), lambda: fit.evaluate(huge, generation=0),
                     lambda: tb.format_policy(huge, "bcts")):
            try:
                call()
            except ValueError as e:
                print("ValueError", e)
            except MemoryError:
                print("MemoryError")
    """, address_space=2 << 30)
    assert out.splitlines() == [line for line in out.splitlines() if line.startswith("ValueError")] and \
        len(out.splitlines()) == 3, out


# Every numeric parameter of play and Fitness, given random values of every kind: each call
# succeeds or raises a one-line ValueError or TypeError, never anything else, never a crash.
def random_values(rng):
    values = [0, 1, -1, 2, True, False, None, 3.5, 1.0, float("nan"), float("inf"), -0.0, "5", "", b"5", [1],
              1j, np.int64(3), np.float64(2.0), 2**31, 2**32, 2**63 - 1, 2**63, -2**63 - 1, 2**64 - 1, 2**64,
              2**200, -(2**200), 10**5000]
    values += [rng.randrange(-10**k, 10**k) for k in range(1, 40) for _ in range(2)]
    values += [rng.uniform(-1e6, 1e6) for _ in range(5)]
    return values


def affordable(name, value):
    """A valid value whose call would play too long for a unit test: skipped, not called."""
    if isinstance(value, (bool, float, complex)) or not isinstance(value, (int, np.integer)):
        return True
    limits = {"games": 2000, "threads": 4}
    return not (name in limits and limits[name] < value <= 10**7)


def test_random_arguments_give_one_line_value_or_type_errors():
    rng = random.Random(47)
    fit = tb.Fitness(TINY, threads=1)
    row = np.zeros((1, fit.dimension))
    calls = {
        "games": lambda v: tb.play(board="6x8", games=v, max_pieces=50, threads=1),
        "seed": lambda v: tb.play(board="6x8", games=2, seed=v, max_pieces=50, threads=1),
        "max_pieces": lambda v: tb.play(board="6x8", games=2, max_pieces=v, threads=1),
        "threads": lambda v: tb.play(board="6x8", games=2, max_pieces=50, threads=v),
        "run": lambda v: tb.Fitness(TINY, run=v),
        "threads ": lambda v: tb.Fitness(TINY, threads=v),
        "generation": lambda v: fit.evaluate(row, generation=v),
        "runs": lambda v: tb.Fitness.from_keywords(runs=v),
        "heldout_games": lambda v: tb.Fitness.from_keywords(heldout_games=v),
        "budget_pieces": lambda v: tb.Fitness.from_keywords(budget_pieces=v),
        "seed ": lambda v: tb.Fitness.from_keywords(seed=v),
        "run ": lambda v: tb.Fitness.from_keywords(run=v),
    }
    tried = 0
    for name, call in calls.items():
        for value in random_values(rng):
            if not affordable(name.strip(), value):
                continue
            tried += 1
            try:
                call(value)
            except (ValueError, TypeError) as e:
                assert str(e) and "\n" not in str(e), (name, value, str(e))
    assert tried > 500


# features, afterstates and read_policy: their arguments go through the same layer, so a wrong
# type is a one-line ValueError, and a board is checked for shape and dtype before it is copied.
@pytest.mark.parametrize("call, words", [
    (lambda: tb.features(np.zeros((20, 10)) + 0.5, "bcts"), "a float board holds 0 or 1"),
    (lambda: tb.features(np.full((20, 10), np.nan), "bcts"), "a float board holds 0 or 1"),
    (lambda: tb.features(np.zeros((20, 10), dtype=complex), "bcts"), "0/1 floats"),
    (lambda: tb.features(np.zeros((20, 10), dtype=int), 5), "feature_set must be a str"),
    (lambda: tb.features(np.zeros((20, 10), dtype=int), "bcts", size=10), "size must be a str"),
    (lambda: tb.features(np.zeros((3, 3), dtype=int), "bcts"), "20 x 10 array"),
    (lambda: tb.features("board", "bcts"), "20 x 10 array"),
    (lambda: tb.afterstates(np.zeros((20, 10), dtype=int), 3), "piece must be a str"),
    (lambda: tb.afterstates(np.zeros((20, 10), dtype=int), "T", rules=None), "rules must be a str"),
    (lambda: tb.read_policy(5), "path must be a str"),
])
def test_building_blocks_check_their_arguments(call, words):
    assert words in one_line(ValueError, call)


def test_a_huge_board_is_refused_before_it_is_copied():
    out = child("""
        import numpy as np
        import tetrisbench as tb
        try:
            tb.features(np.broadcast_to(np.zeros(1, dtype=np.int64), (20000, 20000)), "bcts")
        except ValueError as e:
            print("ValueError", e)
    """, address_space=2 << 30)
    assert out.startswith("ValueError") and len(out.splitlines()) == 1, out
