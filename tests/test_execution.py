"""Executors: same results in every backend, ordered map, BLAS limited to one thread inside jobs."""

import pytest
from threadpoolctl import threadpool_info

from tvbo_verify.execution import get_executor, single_threaded_blas


def _square(x: int) -> int:
    return x * x


def _blas_threads(_: int) -> int:
    with single_threaded_blas():
        return max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"), default=1)


@pytest.mark.parametrize("kind", ["serial", "process"])
def test_map_is_ordered_and_unordered_map_has_the_same_results(kind):
    with get_executor(kind, workers=2) as ex:
        assert ex.map(_square, range(7)) == [x * x for x in range(7)]
        assert sorted(ex.map_unordered(_square, range(7))) == sorted(x * x for x in range(7))
        assert ex.map(_blas_threads, range(3)) == [1, 1, 1]


def test_executor_objects_pass_through_and_unknown_names_are_refused():
    ex = get_executor("serial")
    assert get_executor(ex) is ex
    with pytest.raises(ValueError, match="executor must be one of"):
        get_executor("threads")
