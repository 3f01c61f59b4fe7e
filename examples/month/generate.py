"""A realistic month of usage records for the 128-accelerator cluster of
cluster.json: November 2026, five teams, a few hundred jobs submitted in
working hours (so the nights are idle), failures run again, notebooks left
holding GPUs, over-sized requests, a run past its deadline, checkpoints and
datasets (one kept twice, one left by a finished project).

    python3 examples/month/generate.py > examples/month/month.csv

The output is the CSV of doc/records.md. It is the same on every run (a
seeded generator, standard library only); tests check that month.csv is
what this script writes.
"""
import csv
import random
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2026, 11, 1, tzinfo=timezone.utc)
DAYS = 30
COLUMNS = ["start", "end", "accelerators", "utilisation", "price_class", "state",
           "storage_hot_gb_hours", "traffic_cross_region_gb",
           "tag.team", "tag.project", "tag.user", "tag.job_id", "tag.job_name",
           "tag.kind", "tag.name", "tag.fingerprint", "tag.deadline"]

# team: (project, users, jobs per working day, accelerators, hours, utilisation)
TEAMS = {
    "llm": ("llama-ft", ["ana", "raj"], 3, [32, 64], (6, 16), (0.55, 0.85)),
    "vision": ("detector", ["bo", "li"], 4, [8, 16], (2, 8), (0.45, 0.8)),
    "speech": ("asr-v2", ["eva"], 2, [8, 16], (3, 9), (0.5, 0.8)),
    "recsys": ("ranker", ["kai", "mo"], 3, [4, 8], (1, 5), (0.35, 0.7)),
    "research": ("ablations", ["zoe", "sam", "ida"], 5, [1, 2, 4], (0.5, 3), (0.3, 0.75)),
}


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def main(out):
    rng = random.Random(20261101)
    rows, job = [], 41000

    def add(start, hours, acc, util, cls, state, team, user, name, **extra):
        nonlocal job
        job += acc > 0  # storage is no job
        project = extra.pop("project", TEAMS[team][0])
        rows.append({"start": iso(start), "end": iso(start + timedelta(hours=hours)),
                     "accelerators": acc, "utilisation": util, "price_class": cls, "state": state,
                     "tag.team": team, "tag.project": project, "tag.user": user,
                     "tag.job_id": str(job) if acc > 0 else "", "tag.job_name": name, **extra})

    for day in range(DAYS):
        date = START + timedelta(days=day)
        weekend = date.weekday() >= 5
        for team, (project, users, per_day, sizes, hours, util) in TEAMS.items():
            for k in range(rng.randint(0, 1) if weekend else per_day):
                start = date + timedelta(hours=rng.uniform(8, 19))  # submitted in working hours
                h = round(rng.uniform(*hours), 2)
                acc = rng.choice(sizes)
                u = round(rng.uniform(*util), 3)
                user = rng.choice(users)
                name = f"{project}-{rng.randint(1, 40)}"
                cls = "spot" if team == "research" else "reserved" if acc >= 16 else "on_demand"
                if rng.random() < 0.08:  # a node or the code failed: run again an hour or two later
                    lost = round(h * rng.uniform(0.2, 0.9), 2)
                    add(start, lost, acc, u, cls, "failed", team, user, name)
                    start += timedelta(hours=lost + rng.uniform(0.5, 2))
                add(start, h, acc, u, cls, "completed", team, user, name)
        if not weekend and day % 3 == 0:  # a notebook left holding a node overnight
            start = date + timedelta(hours=17)
            add(start, 14, 8, round(rng.uniform(0.0, 0.03), 3), "on_demand", "completed", "vision",
                "li", "notebook")

    # Over-sized: 64 accelerators asked, a quarter of them busy.
    add(START + timedelta(days=9, hours=9), 20, 64, 0.18, "reserved", "completed", "llm", "raj", "llama-ft-eval")
    # Past its deadline: meant to be done by the 20th at 18:00, ran on to the 21st.
    add(START + timedelta(days=18, hours=8), 40, 32, 0.7, "reserved", "completed", "llm", "ana", "llama-ft-final",
        **{"tag.deadline": "2026-11-20T18:00:00Z"})

    # Storage: each team's checkpoints and datasets, held all month.
    def keep(team, kind, name, gb, fingerprint, days=DAYS, since=0, **extra):
        start = START + timedelta(days=since)
        add(start, 24 * days, 0, "", "owned", "completed", team, TEAMS[team][1][0], "",
            **{"storage_hot_gb_hours": round(gb * 24 * days, 1), "tag.kind": kind, "tag.name": name,
               "tag.fingerprint": fingerprint}, **extra)
    for team in TEAMS:
        keep(team, "dataset", f"{team}-train", rng.choice([2000, 5000, 12000]), f"d-{team}")
        for step in range(3):
            keep(team, "checkpoint", f"{team}-step{step}", rng.choice([300, 800, 1600]), f"c-{team}-{step}")
    # Checkpoints from the summer, past any retention.
    add(START - timedelta(days=120), 24 * (120 + DAYS), 0, "", "owned", "completed", "llm", "ana", "",
        **{"storage_hot_gb_hours": 4000 * 24 * (120 + DAYS), "tag.kind": "checkpoint",
           "tag.name": "llama-summer", "tag.fingerprint": "c-llm-summer"})
    # The vision dataset copied again by another user.
    keep("vision", "dataset", "vision-train-copy", 5000, "d-vision", since=4, days=DAYS - 4)
    # asr-v1 is finished (its last job ended on the 2nd); its data stayed.
    add(START + timedelta(days=1, hours=9), 10, 16, 0.7, "reserved", "completed", "speech", "eva", "asr-v1-last",
        project="asr-v1")
    keep("speech", "dataset", "asr-v1-audio", 8000, "d-asr-v1", project="asr-v1")

    rows.sort(key=lambda r: (r["start"], r["tag.job_id"], r["tag.name"] if "tag.name" in r else ""))
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)


if __name__ == "__main__":
    main(sys.stdout)
