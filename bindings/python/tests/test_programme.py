"""A programme of stages from Python: the hand-worked programmes of
tests/api/test_programme.c (doc/model.md, section 21), the figures that are
the estimate's read through tco.estimate, the charts, and the library's
errors naming the stage."""
import pytest
from matplotlib.axes import Axes

import tco

MONTH = 8766 / 12  # the library's month, in hours
HOT = 0.02         # cur per GB-month
CKPT = 1e12        # B per checkpoint


def work(job, flops, runs=1):
    return tco.Workload(job_accelerators=job, params_total=1e9, params_active=1e9, tensor_parallel=4,
                        pipeline_parallel=1, total_flops=flops, runs=runs, checkpoint_bytes=CKPT)


@pytest.fixture
def cluster():
    return tco.Topology(accelerators=16, accelerators_per_node=8), tco.Pricing(storage_hot_per_gb_month=HOT)


def test_sequential(cluster):
    t, p = cluster
    wa, wb = work(16, 1e21), work(8, 2e20)
    a, b = tco.estimate(t, wa, p), tco.estimate(t, wb, p)
    g = tco.programme(t, p, [tco.Stage("pretraining", wa, versions_kept=3, name="pretrain"),
                             tco.Stage("supervised_fine_tuning", wb, after="pretrain", versions_kept=1, name="sft")])
    df = g.stages
    # Alone on the cluster, each stage pays its estimate exactly.
    assert df.loc["pretrain", "total"] == a.total and df.loc["sft", "total"] == b.total
    assert df["cluster_share"].tolist() == [1, 1]
    ha, hb = a.held_hours, b.held_hours
    assert df.loc["sft", "start_hours"] == ha and df.loc["sft", "after"] == "pretrain"
    # 3 versions of 1,000 GB kept for the fine-tune's hours at 0.02 a GB-month.
    assert g.storage_lifecycle == pytest.approx(3000 * hb / MONTH * HOT, rel=1e-14)
    assert g.total == g.stages_total + g.storage_lifecycle
    assert g.total == pytest.approx(a.total + b.total + 3000 * hb / MONTH * HOT, rel=1e-15)
    assert g.store_gb == pytest.approx(4000) and g.store_growth_gb_per_month == pytest.approx(4000 / ((ha + hb) / MONTH))
    assert g.utilisation == pytest.approx((16 * ha + 8 * hb) / (16 * (ha + hb)))
    assert g.cost_per_experiment == pytest.approx(g.total / 2)
    assert sum(g.share.values()) == pytest.approx(1)
    assert isinstance(g.plot(), Axes) and isinstance(g.timeline(), Axes)
    assert "programme" in repr(g).lower()


def test_parallel_shares(cluster):
    t, p = cluster
    wa, wb, wc = work(8, 2e20), work(8, 1e21), work(8, 3e20)
    ha, hb, hc = (tco.estimate(t, w, p).held_hours for w in (wa, wb, wc))
    assert ha + hc < hb
    g = tco.programme(t, p, [tco.Stage("context_extension", wa, name="a"), tco.Stage("preference_tuning", wb, name="b"),
                             tco.Stage("evaluation", wc, after=0, name="c")])
    df = g.stages
    # Half the cluster each while they overlap (section 21, (1)).
    assert df["cluster_share"].tolist() == pytest.approx([0.5, (hb - ha / 2 - hc / 2) / hb, 0.5], rel=1e-14)
    assert g.makespan_hours == hb and g.peak_accelerators == 16


def test_sweep_waves(cluster):
    t, p = cluster
    w = work(4, 1e20, runs=5)
    e = tco.estimate(t, w, p)
    g = tco.programme(t, p, [tco.Stage("sweep", w)])
    row = g.stages.iloc[0]
    # 16 / 4 = 4 runs side by side, 2 waves: 2/5 of the estimate's hours.
    assert (row["concurrent_runs"], row["waves"], row["accelerators"]) == (4, 2, 16)
    assert row["total"] == pytest.approx(0.4 * e.total, rel=1e-14)
    assert g.cost_per_experiment == pytest.approx(0.4 * e.total / 5, rel=1e-14)


def test_errors(cluster):
    t, p = cluster
    big, full = work(32, 1e21), work(16, 1e21)
    with pytest.raises(tco.InconsistentError, match=r'stages\[1\] \("big"\) needs 32 accelerators'):
        tco.programme(t, p, [tco.Stage("pretraining", full), tco.Stage("evaluation", big, after=0, name="big")])
    with pytest.raises(tco.InconsistentError, match=r'stages\[1\] \("two"\) and stages\[0\] \("one"\) hold 32'):
        tco.programme(t, p, [tco.Stage("pretraining", full, name="one"), tco.Stage("evaluation", full, name="two")])
    with pytest.raises(tco.RangeError) as bad:
        tco.programme(t, p, [tco.Stage("pretraining", full), tco.Stage("evaluation", full, after=1)])
    assert bad.value.param == "stages[1].after"
    with pytest.raises(tco.RangeError, match="allowed 1 to 256"):
        tco.programme(t, p, [])
    with pytest.raises(tco.RangeError, match=r"stages\[0\].versions_kept = -1"):
        tco.programme(t, p, [tco.Stage("pretraining", full, versions_kept=-1)])
    with pytest.raises(tco.ParameterTypeError):
        tco.Stage("pretrain", full)
    with pytest.raises(tco.ParameterTypeError):
        tco.programme(t, p, [tco.Stage("pretraining", full, after="nothing")])
    with pytest.raises(TypeError):
        tco.Stage("pretraining", t)
    assert tco.STAGE_KINDS[0] == "pretraining" and tco.STAGE_KINDS[-1] == "serving"


# The data pipeline and serving as stages: the case of
# tests/api/test_programme.c, test_pipeline_and_serving (doc/model.md,
# section 21). 2 PB raw at 10 node-h/TB on 50 nodes, 2 a node-hour; half
# kept, 0.8 compressed; NAT 0.045 a GB; 0.0004 per 1,000 reads of 16 MiB.
PIPELINE = dict(raw_bytes=2e15, preprocess_cpu_node_hours_per_tb=10, cpu_node_hour_price=2, dedup_kept_share=0.5,
                compression_ratio=0.8, nat_per_gb=0.045, request_price_per_1000=0.0004)


@pytest.fixture
def story():
    t = tco.Topology(accelerators=16, accelerators_per_node=8)
    p = tco.Pricing(storage_hot_per_gb_month=HOT, on_demand_per_accel_hour=4, reserved_per_accel_hour=2.5)
    train = work(16, 1e21)
    model = tco.Workload(job_accelerators=16, params_total=1e9, params_active=1e9, tensor_parallel=4,
                         pipeline_parallel=1, total_flops=1e21, checkpoint_bytes=CKPT, layers=24,
                         interruptible_share=0)
    return t, p, train, model


def test_pipeline_and_serving(story):
    t, p, train, model = story
    a = tco.estimate(t, train, p)
    served = tco.serve(t, model, p, requests_per_second=[1], interval_seconds=MONTH * 3600)
    g = tco.programme(t, p, [tco.Stage("data_pipeline", train, name="web data", pipeline=PIPELINE, cpu_nodes=50),
                             tco.Stage("pretraining", train, after="web data", versions_kept=3, name="pretrain"),
                             tco.Stage("serving", model, after="pretrain", name="serve",
                                       serving=dict(requests_per_second=1, hours=MONTH))])
    df = g.stages
    reads = a.tokens * 4 * 0.8 / 2 ** 24 / 1000 * 0.0004  # the tokens read, 4 B each, compressed
    web, serve = df.loc["web data"], df.loc["serve"]
    assert web["end_hours"] == pytest.approx(2000 * 10 / 50) and web["cpu_node_hours"] == pytest.approx(20000)
    assert web["compute"] == pytest.approx(40000) and web["network"] == pytest.approx(90000)
    assert web["storage"] == pytest.approx(reads, rel=1e-14) and web["store_gb"] == pytest.approx(800000)
    assert df.loc["pretrain", "start_hours"] == web["end_hours"] and df.loc["pretrain", "total"] == a.total
    assert serve["start_hours"] == df.loc["pretrain", "end_hours"]
    assert serve["total"] == served.total_cost and serve["compute"] == served.total_cost
    assert serve["cost_per_million_tokens"] == served.cost_per_million_tokens
    assert serve["tokens"] == served.prompt_tokens + served.output_tokens
    assert serve["fleet_peak_accelerators"] == served.peak_accelerators and serve["accelerators"] == 0
    ha = a.held_hours
    assert g.cluster_hours == pytest.approx(ha) and g.utilisation == pytest.approx(1)
    assert g.storage_lifecycle == pytest.approx((800000 * (ha + MONTH) + 3000 * MONTH) / MONTH * HOT, rel=1e-12)
    assert g.serving_total == served.total_cost and g.pipeline_total == web["total"]
    assert g.cost_per_experiment == pytest.approx(g.total - served.total_cost)
    assert g.total == g.stages_total + g.storage_lifecycle
    # The charts take the stages off the cluster in.
    ax = g.plot()
    assert [x.get_text() for x in ax.get_xticklabels()][:3] == ["web data", "pretrain", "serve"]
    labels = [x.get_text() for x in g.timeline().texts]
    assert labels[0] == " 20,000 CPU node-h" and labels[2].startswith(" fleet of ")
    # A series instead: a day of hourly rates.
    day = tco.programme(t, p, [tco.Stage("pretraining", train, name="pretrain"),
                               tco.Stage("serving", model, after=0, serving=dict(
                                   requests_per_second=[1, 2, 3] * 8, interval_seconds=3600))])
    assert day.stages.loc["serving", "end_hours"] - day.stages.loc["serving", "start_hours"] == pytest.approx(24)


def test_story_errors(story):
    t, p, train, model = story
    with pytest.raises(tco.Error) as bad:
        tco.programme(t, p, [tco.Stage("data_pipeline", train, cpu_nodes=50)])
    assert bad.value.param == "stages[0].pipeline"
    with pytest.raises(tco.RangeError) as bad:
        tco.programme(t, p, [tco.Stage("data_pipeline", train, pipeline=dict(dedup_kept_share=2), cpu_nodes=50)])
    assert bad.value.param == "stages[0].pipeline.dedup_kept_share"
    with pytest.raises(tco.RangeError) as bad:
        tco.programme(t, p, [tco.Stage("data_pipeline", train, pipeline=PIPELINE)])
    assert bad.value.param == "stages[0].cpu_nodes"
    with pytest.raises(tco.InconsistentError) as bad:
        tco.programme(t, p, [tco.Stage("pretraining", train, pipeline=PIPELINE)])
    assert bad.value.param == "stages[0].pipeline"
    with pytest.raises(tco.InconsistentError) as bad:
        tco.programme(t, p, [tco.Stage("serving", model, serving=dict(requests_per_second=1, hours=10,
                                                                      time_per_output_token=1e-6))])
    assert bad.value.param == "stages[0].serving.time_per_output_token"
    with pytest.raises(tco.ParameterTypeError, match="hours goes with one constant rate"):
        tco.programme(t, p, [tco.Stage("serving", model, serving=dict(requests_per_second=[1, 2], hours=10))])
    with pytest.raises(TypeError, match="unknown pipeline input"):
        tco.programme(t, p, [tco.Stage("data_pipeline", train, pipeline=dict(colour=1), cpu_nodes=1)])
    with pytest.raises(TypeError):
        tco.Stage("serving", model, serving=[1, 2])
    with pytest.raises(tco.ParameterTypeError):
        tco.Stage("data_pipeline", train, cpu_nodes="many")


def test_also_after(cluster):
    """tests/api/test_programme.c, test_also_after: C (16) after B and A
    starts when the longer A has ended."""
    t, p = cluster
    wa, wb, wc = work(8, 1e21), work(8, 2e20), work(16, 2e20)
    ha = tco.estimate(t, wa, p).held_hours
    with pytest.raises(tco.InconsistentError, match="hold 24 accelerators"):
        tco.programme(t, p, [tco.Stage("pretraining", wa, name="a"), tco.Stage("sweep", wb, name="b"),
                             tco.Stage("supervised_fine_tuning", wc, after="b", name="c")])
    g = tco.programme(t, p, [tco.Stage("pretraining", wa, name="a"), tco.Stage("sweep", wb, name="b"),
                             tco.Stage("supervised_fine_tuning", wc, after=["b", 0], name="c")])
    row = g.stages.loc["c"]
    assert row["start_hours"] == ha and row["after"] == "b" and row["also_after"] == ["a"]
    assert g.stages.loc["a", "also_after"] == []
    with pytest.raises(tco.RangeError) as bad:
        tco.programme(t, p, [tco.Stage("pretraining", wa, name="a"), tco.Stage("sweep", wb, after=["a", 1])])
    assert bad.value.param == "stages[1].also_after[0]"
    with pytest.raises(tco.ParameterTypeError):
        tco.programme(t, p, [tco.Stage("pretraining", wa, after=[])])


def test_tiers():
    """tests/api/test_programme.c, test_tiers: 3,000 GB kept HB hours, warm
    after d days and cold after 2 d, at 0.02, 0.01 and 0.004 a GB-month."""
    t = tco.Topology(accelerators=16, accelerators_per_node=8)
    p = tco.Pricing(storage_hot_per_gb_month=0.02, storage_warm_per_gb_month=0.01, storage_cold_per_gb_month=0.004)
    wa, wb = work(16, 1e21), work(8, 2e21)
    hb = tco.estimate(t, wb, p).held_hours
    d = hb // 96
    g = tco.programme(t, p, [tco.Stage("pretraining", wa, versions_kept=3, warm_after_days=d, cold_after_days=2 * d),
                             tco.Stage("supervised_fine_tuning", wb, after=0)])
    want = 3000 * (24 * d * 0.02 + 24 * d * 0.01 + (hb - 48 * d) * 0.004) / MONTH
    assert g.storage_lifecycle == pytest.approx(want, rel=1e-12)
    with pytest.raises(tco.RangeError) as bad:
        tco.programme(t, p, [tco.Stage("pretraining", wa, warm_after_days=2, cold_after_days=1)])
    assert bad.value.param == "stages[0].cold_after_days"
