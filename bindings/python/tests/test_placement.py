"""Placement pricing from numpy: one C call for a whole batch, the same
numbers as the single call to the last bit, an error code per bad
placement."""
import numpy as np
import pytest

import tco

POOLS = [
    dict(price_class="on_demand", accelerators_per_node=8, free_accelerators=64, rack=0, zone=0, region=0,
         rate_per_accel_hour=4.0),
    dict(price_class="reserved", accelerators_per_node=8, free_accelerators=32, rack=1, zone=0, region=0,
         rate_per_accel_hour=2.5),
    dict(price_class="spot", accelerators_per_node=8, free_accelerators=64, rack=2, zone=1, region=0,
         rate_per_accel_hour=2.0, interruptions_per_node_hour=0.01),
]
JOB = dict(accelerators=16, interruptible=1, duration_hours=10, comm_share=0.5, checkpoint_bytes=1e11,
           traffic_gb_per_accel_hour=10, delay_cost_per_hour=1)


@pytest.fixture
def pools():
    return tco.Pools(POOLS)


def test_single_placement_parts_add_up(pools, scenario):
    t, _, p = scenario
    price = tco.price_placement(pools, t, p, JOB, [1], [16])
    parts = price.compute + price.slowdown + price.traffic + price.interruptions + price.stranded + price.delay
    assert price.cost == pytest.approx(parts, rel=1e-12)
    # 16 accelerators at 2.5 for 10 hours, no span: compute 400, no slowdown
    assert price.compute == pytest.approx(400) and price.slowdown == 0
    assert price.completion_hours >= 10
    assert len(pools) == 3


def test_batch_matches_single_bit_for_bit(pools, scenario):
    t, _, p = scenario
    rng = np.random.default_rng(5)
    n = 2000
    jobs = tco.jobs_array([JOB, dict(JOB, interruptible=0, accelerators=8, comm_share=0.1)])
    job = rng.integers(0, 2, n)
    first = rng.integers(0, 3, n)
    pool = np.stack([first, (first + 1) % 3], axis=1)
    split = np.where(jobs["accelerators"][job] == 16, 8, 4)
    acc = np.stack([split, split], axis=1)
    start = rng.uniform(0, 5, n)
    cost, done, status = tco.price_placements(pools, t, p, jobs, job, pool, acc, start_hours=start)
    for i in range(0, n, 97):
        job_i = {k: jobs[k][job[i]].item() for k in jobs.dtype.names if k != "size"}
        if status[i]:
            with pytest.raises(tco.Error):
                tco.price_placement(pools, t, p, job_i, list(pool[i]), list(acc[i]), start_hours=start[i])
            assert np.isnan(cost[i])
            continue
        one = tco.price_placement(pools, t, p, job_i, list(pool[i]), list(acc[i]), start_hours=start[i])
        assert cost[i] == one.cost and done[i] == one.completion_hours
    # Jobs that may not be interrupted are refused on spot, and only those.
    on_spot = (pool == 2).any(axis=1) & (jobs["interruptible"][job] == 0)
    assert (status[on_spot] != 0).all() and (status[~on_spot] == 0).all()


def test_threads_give_the_same_bits(pools, scenario):
    t, _, p = scenario
    rng = np.random.default_rng(9)
    n = 70_000
    jobs = tco.jobs_array([JOB, dict(JOB, interruptible=0)])
    job = rng.integers(0, 2, n)
    pool = rng.integers(0, 3, n)
    one = tco.price_placements(pools, t, p, jobs, job, pool, np.full(n, 16), threads=1)
    many = tco.price_placements(pools, t, p, jobs, job, pool, np.full(n, 16), threads=3)
    default = tco.price_placements(pools, t, p, jobs, job, pool, np.full(n, 16))
    for a, b, c in zip(one, many, default):
        assert np.array_equal(a, b, equal_nan=True) and np.array_equal(a, c, equal_nan=True)
    assert one[2].any() and not one[2].all()  # some refused (spot for an uninterruptible job), some priced
    with pytest.raises(tco.Error, match="placement"):
        tco.price_placements(pools, t, p, jobs, job, pool, np.full(n, 16), threads=3, raise_errors=True)
    with pytest.raises(tco.Error, match="threads = -1"):
        tco.price_placements(pools, t, p, jobs, job, pool, np.full(n, 16), threads=-2)


def test_bad_input(pools, scenario):
    t, _, p = scenario
    cost, _, status = tco.price_placements(pools, t, p, [JOB], [0, 0, 0], [0, 7, 0], [16, 16, 999])
    assert status[0] == 0 and status[1] != 0 and status[2] != 0  # unknown pool; more than free
    assert np.isnan(cost[1]) and np.isnan(cost[2])
    with pytest.raises(tco.Error) as info:
        tco.price_placements(pools, t, p, [JOB], [0, 0], [0, 7], [16, 16], raise_errors=True)
    assert "placement 1" in str(info.value)
    with pytest.raises(ValueError, match="shape"):
        tco.price_placements(pools, t, p, [JOB], [0, 0], [0, 1, 2], [16, 16, 16])
    with pytest.raises(TypeError, match="no field"):
        tco.jobs_array([dict(JOB, gpus=3)])
    with pytest.raises(tco.Error):
        tco.price_placement(pools, t, p, dict(JOB, duration_hours=-1), [0], [16])
    with pytest.raises(ValueError, match="price_class"):
        tco.Pools([dict(POOLS[0], price_class="cheap")])
    with pytest.raises(tco.Error):
        tco.Pools([dict(POOLS[0], free_accelerators=-1)])


def test_no_silent_casts(pools, scenario):
    """One set of rules in every binding: what C and Go refuse, Python
    refuses too; nothing is cast to int32 silently (a pool id of 2^32 was
    priced as pool 0, 16.9 accelerators as 16, a job index of 0.7 as 0)."""
    t, _, p = scenario
    with pytest.raises(tco.RangeError, match="pool"):
        tco.price_placements(pools, t, p, [JOB], [0], [2**32], [16])
    with pytest.raises(tco.ParameterTypeError, match="accelerators"):
        tco.price_placements(pools, t, p, [JOB], [0], [0], [16.9])
    with pytest.raises(tco.ParameterTypeError, match="job"):
        tco.price_placements(pools, t, p, [JOB], [0.7], [0], [16])
    with pytest.raises(tco.ParameterTypeError, match="job"):
        tco.price_placements(pools, t, p, [JOB], ["0"], [0], [16])
    with pytest.raises(tco.ParameterTypeError, match="pool"):
        tco.price_placements(pools, t, p, [JOB], [0], [True], [16])
    with pytest.raises(tco.ParameterTypeError, match="jobs.accelerators"):
        tco.jobs_array([dict(JOB, accelerators=16.5)])
    with pytest.raises(tco.ParameterTypeError, match="interruptible"):
        tco.price_placement(pools, t, p, dict(JOB, interruptible=True), [0], [16])
    # Whole numbers given as floats are whole numbers.
    cost, _, status = tco.price_placements(pools, t, p, [JOB], [0.0], [0.0], [16.0])
    assert status[0] == 0 and cost[0] > 0


def test_parameters_as_c_and_go_take_them():
    with pytest.raises(tco.ParameterTypeError, match="mfu"):
        tco.Workload(mfu=True)
    with pytest.raises(tco.ParameterTypeError, match="NUL"):
        tco.Pricing(currency="US\0D")
    assert tco.Workload(count_failures=False).count_failures is False  # a bool parameter takes a bool
