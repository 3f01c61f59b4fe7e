"""Scenario files and fingerprints: the golden files give C's results in
Python, bit for bit; JSON and CBOR describe the same scenario."""
import json

import pytest

import tco

NAMES = ["default", "owned", "moe", "multisite"]


@pytest.mark.parametrize("name", NAMES)
def test_golden_results_bit_for_bit(golden, name):
    t, w, p = tco.load(golden / f"{name}.cbor")
    e = tco.estimate(t, w, p)
    assert e.to_cbor() == (golden / f"{name}.result.cbor").read_bytes()
    expected = json.loads((golden / f"{name}.result.json").read_text())
    assert e.total == expected["total"]


@pytest.mark.parametrize("name", NAMES)
def test_json_and_cbor_agree(golden, name):
    from_cbor = tco.load(golden / f"{name}.cbor")
    from_json = tco.load(golden / f"{name}.json")
    assert tco.scenario_fingerprint(*from_cbor) == tco.scenario_fingerprint(*from_json)
    assert tco.to_cbor(*from_json) == (golden / f"{name}.cbor").read_bytes()


def test_save_and_load_round_trip(tmp_path, scenario):
    t, w, p = scenario
    t = t.replace(accelerators=2048)
    for suffix in (".cbor", ".json"):
        path = tmp_path / f"s{suffix}"
        tco.save(path, t, w, p)
        back = tco.load(path)
        assert back[0].accelerators == 2048
        assert tco.scenario_fingerprint(*back) == tco.scenario_fingerprint(t, w, p)
    data = tco.to_cbor(t, w, p)
    assert tco.to_cbor(*tco.load(data)) == data  # load then save: the same bytes


def test_fingerprints_identify_contents(scenario):
    t, w, p = scenario
    assert t.fingerprint == tco.Topology().fingerprint
    assert t.fingerprint != t.replace(pue=1.3).fingerprint
    assert tco.scenario_fingerprint(t, w, p) != tco.scenario_fingerprint(t, w.replace(mfu=0.5), p)


def test_bad_files(tmp_path):
    with pytest.raises(tco.Error):
        tco.load(b"\xa1\x61x\x01")  # a map with an unknown key
    with pytest.raises(tco.Error):
        tco.load(b"\xff\x00")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "libtco-scenario", "version": 1, "workload": {"mfu": 3}}))
    with pytest.raises(tco.RangeError):
        tco.load(bad)
    bad.write_text(json.dumps({"format": "libtco-scenario", "version": 99}))
    with pytest.raises(ValueError, match="version"):
        tco.load(bad)
    bad.write_text('{"format": "libtco-scenario", "version": 1, "version": 1}')
    with pytest.raises(ValueError, match="duplicate"):
        tco.load(bad)
    # as the command has it: a real whose double loses its digits is refused
    bad.write_text('{"format": "libtco-scenario", "version": 1, "workload": {"mfu": 0.80000000000000000001}}')
    with pytest.raises(ValueError, match=r"bad.json: the number 0.80000000000000000001 does not fit .* reads as 0.8 "):
        tco.load(bad)
    bad.write_text('{"format": "libtco-scenario", "version": 1, "workload": {"mfu": 1e-400}}')
    with pytest.raises(ValueError, match="below the smallest double"):
        tco.load(bad)
    bad.write_text('{"format": "libtco-scenario", "version": 1, "workload": {"mfu": 0.50000000000000000000}}')
    assert tco.load(bad)[1].mfu == 0.5
    with pytest.raises(tco.RangeError, match="does not fit a double exactly"):
        tco.Workload(tokens=2 ** 53 + 1)
    assert tco.Workload(tokens=2 ** 53).tokens == 2.0 ** 53
