"""What `manage.py runtests` hands pytest: coverage on the SQLite run, on request elsewhere."""

from continental.bootstrap import coverage_args, worker_args


def test_the_sqlite_run_measures_coverage():
    assert coverage_args({}) == ["--cov", "--cov-report=term"]


def test_the_postgresql_run_skips_coverage_unless_asked():
    url = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/scorepad"}
    assert coverage_args(url) == []
    assert coverage_args({**url, "COVERAGE": "1"}) == ["--cov", "--cov-report=term"]


def test_coverage_zero_skips_it_everywhere():
    assert coverage_args({"COVERAGE": "0"}) == []


def test_the_suite_runs_in_a_worker_per_core_unless_told_otherwise():
    assert worker_args({}, []) == ["-n", "auto"]
    assert worker_args({"TEST_WORKERS": "0"}, []) == ["-n", "0"]
    assert worker_args({"TEST_WORKERS": "3"}, ["tests/engine"]) == ["-n", "3"]
    assert worker_args({}, ["-n", "1"]) == []
    assert worker_args({}, ["-n4"]) == []
    assert worker_args({}, ["--pdb"]) == []
    assert worker_args({}, ["-p", "no:xdist"]) == []
    assert worker_args({}, ["--no-cov", "-q"]) == ["-n", "auto"]
