#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Validates Retrylab's shipped JSON files against the JSON Schemas that document their formats.

The C++ readers are the authority; this keeps the published schemas honest: every built-in preset,
scenario and stored session fixture must validate, and so must the policy JSON that `retrylab policy show
--json` writes. Usage: check_schemas.py SOURCE_DIR [RETRYLAB_BINARY]
"""
import json
import pathlib
import subprocess
import sys

import jsonschema


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def local_store(schema_dir):
    """Every schema by its $id, so a $ref between them resolves locally (CI has no network)."""
    store = {}
    for path in schema_dir.glob("*.schema.json"):
        schema = load(path)
        if "$id" in schema:
            store[schema["$id"]] = schema
    return store


def check(schema_path, documents, label):
    schema = load(schema_path)
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = jsonschema.RefResolver.from_schema(schema, store=local_store(schema_path.parent))
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    failures = 0
    for name, document in documents:
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        for error in errors[:5]:
            where = "/".join(str(p) for p in error.path) or "(root)"
            print(f"FAIL {label} {name}: {where}: {error.message}")
        failures += 1 if errors else 0
    print(f"{label}: {len(documents) - failures} of {len(documents)} valid against {schema_path.name}")
    return failures


# Policy documents the schema and the reader (`retrylab policy validate`, exit 2) must both refuse.
REFUSED_POLICIES = [
    ("an empty object (issue 15: was reported valid)", {}),
    ("no version", {"format": "retrylab-policy"}),
    ("no format", {"version": 1}),
    ("another format", {"format": "har", "version": 1}),
    ("a future version", {"format": "retrylab-policy", "version": 3}),
]


def check_refused_by_both(schema_path, binary):
    import tempfile

    schema = load(schema_path)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, document in REFUSED_POLICIES:
            path = pathlib.Path(tmp) / "policy.json"
            path.write_text(json.dumps(document), encoding="utf-8")
            reader = subprocess.run([binary, "policy", "validate", str(path)], capture_output=True, text=True)
            schema_ok = validator.is_valid(document)
            if reader.returncode != 2 or schema_ok:
                print(f"FAIL refused policy {label}: reader exit {reader.returncode}, schema valid {schema_ok}")
                failures += 1
    print(f"refused policies: {len(REFUSED_POLICIES) - failures} of {len(REFUSED_POLICIES)} refused by schema and reader")
    return failures


# Steps of issue 28 §4 (outage, latency_ramp): the schema and the reader (`retrylab serve --scenario FILE`:
# exit 2 when refused, 0 after --duration when played) must agree on each.
ACCEPTED_STEPS = [
    ("an outage, 503 by default", {"kind": "outage", "duration_ms": 10000}),
    ("an outage with its answer", {"kind": "outage", "duration_ms": 1000, "status": 502, "retry_after": 10, "json": {"e": 1}}),
    ("an outage that resets", {"kind": "outage", "duration_ms": 1000, "mode": "reset", "delay_ms": 50}),
    ("a ramp over time", {"kind": "respond", "status": 503, "latency_ramp": {"from_ms": 20, "to_ms": 2000, "over_ms": 30000}}),
    ("a falling ramp over requests", {"kind": "forward", "latency_ramp": {"from_ms": 900, "to_ms": 0, "over_requests": 50}}),
]
REFUSED_STEPS = [
    ("an outage without a duration", {"kind": "outage"}),
    ("an outage of 0 ms", {"kind": "outage", "duration_ms": 0}),
    ("an outage of -5 ms", {"kind": "outage", "duration_ms": -5}),
    ("an outage mode that does not exist", {"kind": "outage", "duration_ms": 10, "mode": "crash"}),
    ("a reset outage with a status", {"kind": "outage", "duration_ms": 10, "mode": "reset", "status": 503}),
    ("an outage that applies", {"kind": "outage", "duration_ms": 10, "applied": True}),
    ("a mode on a respond step", {"kind": "respond", "mode": "status"}),
    ("a ramp without to_ms", {"kind": "respond", "latency_ramp": {"over_ms": 10}}),
    ("a ramp over time and requests", {"kind": "respond", "latency_ramp": {"to_ms": 1, "over_ms": 10, "over_requests": 3}}),
    ("a ramp over one request", {"kind": "respond", "latency_ramp": {"to_ms": 1, "over_requests": 1}}),
    ("a ramp with an unknown key", {"kind": "respond", "latency_ramp": {"to_ms": 1, "over_ms": 10, "over": 3}}),
    ("a ramp and delay_ms", {"kind": "respond", "delay_ms": 5, "latency_ramp": {"to_ms": 1, "over_ms": 10}}),
    ("a ramp on a hang", {"kind": "hang", "latency_ramp": {"to_ms": 1, "over_ms": 10}}),
    ("a ramp on an outage", {"kind": "outage", "duration_ms": 10, "latency_ramp": {"to_ms": 1, "over_ms": 10}}),
]


def check_steps_by_both(schema_path, binary):
    import tempfile

    schema = load(schema_path)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for accepted, cases in ((True, ACCEPTED_STEPS), (False, REFUSED_STEPS)):
            for label, step in cases:
                document = {"format": 1, "name": "steps", "upstream": "http://127.0.0.1:9",
                            "routes": [{"path": "/**", "steps": [step]}]}
                path = pathlib.Path(tmp) / "scenario.json"
                path.write_text(json.dumps(document), encoding="utf-8")
                reader = subprocess.run([binary, "serve", "--scenario", str(path), "--duration", "0.1"],
                                        capture_output=True, text=True, timeout=60)
                schema_ok = validator.is_valid(document)
                if schema_ok != accepted or reader.returncode != (0 if accepted else 2):
                    print(f"FAIL step {label}: schema valid {schema_ok}, reader exit {reader.returncode} "
                          f"({reader.stderr.strip()}), expected {'accepted' if accepted else 'refused'}")
                    failures += 1
    total = len(ACCEPTED_STEPS) + len(REFUSED_STEPS)
    print(f"outage and latency_ramp steps: {total - failures} of {total} judged alike by schema and reader")
    return failures


def check_serve_json(schema_path, binary):
    """`retrylab serve --json --max-requests 3`: three exchanges sent with urllib (one a malformed request
    line), each a valid exchange line on stdout, no secret in them, and the lab exits 0 by itself."""
    import re
    import socket
    import urllib.error
    import urllib.request

    lab = subprocess.Popen([binary, "serve", "--json", "--max-requests", "3", "--duration", "60"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = lab.stderr.readline()
        match = re.match(r"listening on (http://127\.0\.0\.1:(\d+))", first)
        if not match:
            print(f"FAIL serve --json: first stderr line {first!r}")
            return 1
        base, port = match.group(1), int(match.group(2))
        for path in ("/v1/payments", "/v1/other"):
            request = urllib.request.Request(base + path, data=b"{}", method="POST",
                                             headers={"Authorization": "Bearer sekrit-0", "X-Trace": "t1"})
            try:
                urllib.request.urlopen(request, timeout=10).read()
            except (urllib.error.HTTPError, urllib.error.URLError, ConnectionError, OSError):
                pass  # the scenario fails on purpose
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            raw.recv(4096)
        out, _ = lab.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        lab.kill()
        print("FAIL serve --json --max-requests 3 did not stop by itself")
        return 1
    lines = [line for line in out.split("\n") if line]
    documents = [(f"serve --json line {i + 1}", json.loads(line)) for i, line in enumerate(lines)]
    failures = check(schema_path, documents, "exchanges")
    if len(lines) != 3 or lab.returncode != 0 or "sekrit" in out:
        print(f"FAIL serve --json: {len(lines)} lines, exit {lab.returncode}, secret shown: {'sekrit' in out}")
        failures += 1
    elif ["X-Trace", "t1"] not in documents[0][1]["request_headers"] or documents[2][1]["outcome"] != "rejected":
        print(f"FAIL serve --json: unexpected exchanges {lines}")
        failures += 1
    return failures


def session_with_policy_changes(binary):
    """A session recorded under a preset changed by --set: its policy_changes must be in the schema too."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "set.json"
        subprocess.run([binary, "run", "--policy", "curl-7.88", "--set", "limits.max_retries=1", "--set",
                        "backoff.base_ms=10", "--set", 'rules[4].when.methods=["GET"]', "--scenario", "seed-001-slen",
                        "--quiet", "--export", str(path)], capture_output=True, text=True)
        document = load(path) if path.exists() else {}
    if "policy_changes" not in document:
        print("FAIL run --set --export wrote no policy_changes")
        document = {"policy_changes": "missing"}
    return ("run --set … --export", document)


def session_with_hedges(binary):
    """A hedged request recorded against the lab (issue 28): its copies' hedge, hedge_won and the lost copy's
    abort_reason hedge-lost must be in the schema."""
    import tempfile

    scenario = {"format": 1, "name": "slow-first", "routes": [{"name": "pay", "method": "POST", "path": "/pay",
                "operation": "charge", "mode": "sequence", "steps": [
                    {"kind": "late", "delay_ms": 800, "status": 201}, {"kind": "respond", "status": 201}]}]}
    with tempfile.TemporaryDirectory() as tmp:
        scenario_path = pathlib.Path(tmp) / "slow-first.json"
        scenario_path.write_text(json.dumps(scenario))
        path = pathlib.Path(tmp) / "hedged.json"
        subprocess.run([binary, "run", "--policy", "ms-http-hedging", "--set", "pipeline[1].delay_ms=100",
                        "--scenario", str(scenario_path), "--data", '{"amount":5}', "--quiet", "--export", str(path)],
                       capture_output=True, text=True)
        text = path.read_text() if path.exists() else ""
        document = json.loads(text) if text else {}
    for needed in ('"hedge":"delay"', '"hedge_won":true', '"abort_reason":"hedge-lost"'):
        if needed not in text.replace(" ", ""):
            print(f"FAIL a hedged session without {needed}")
            document = {"hedge": "missing"}
    return ("run --policy ms-http-hedging --export", document)


def main():
    source = pathlib.Path(sys.argv[1])
    binary = sys.argv[2] if len(sys.argv) > 2 else None
    schemas = source / "resources" / "schemas"
    failures = 0
    checked = 0

    presets = [(p.name, load(p)) for p in sorted((source / "resources" / "presets").glob("*.json"))]
    if binary:
        names = subprocess.run([binary, "policy", "list"], capture_output=True, text=True, check=True).stdout.split("\n")
        for line in filter(None, names):
            name = line.split()[0]
            written = subprocess.run([binary, "policy", "show", name, "--json"], capture_output=True, text=True, check=True)
            presets.append((f"{name} (as written by policy show --json)", json.loads(written.stdout)))
    if not presets:
        print("FAIL no presets found")
        return 1
    failures += check(schemas / "policy.schema.json", presets, "policies")
    checked += len(presets)

    scenario_schema = schemas / "scenario.schema.json"
    scenarios = [(p.name, load(p)) for p in sorted((source / "resources" / "scenarios").glob("*.json"))]
    if scenario_schema.exists() and scenarios:
        failures += check(scenario_schema, scenarios, "scenarios")
        checked += len(scenarios)

    suite_schema = schemas / "suite.schema.json"
    suites = [(p.name, load(p)) for p in sorted((source / "resources" / "suites").glob("*.json"))]
    if suite_schema.exists() and suites:
        failures += check(suite_schema, suites, "suites")
        checked += len(suites)

    if binary:
        failures += check_refused_by_both(schemas / "policy.schema.json", binary)
        if scenario_schema.exists():
            failures += check_steps_by_both(scenario_schema, binary)

    herd_schema = schemas / "herd.schema.json"
    if binary and herd_schema.exists():
        import tempfile
        herds = []
        with tempfile.TemporaryDirectory() as folder:
            names = subprocess.run([binary, "herd", "--list"], capture_output=True, text=True, check=True).stdout
            for name in [line for line in names.split("\n") if line and not line.startswith(" ")]:
                path = pathlib.Path(folder) / (name + ".json")
                # --save writes the experiment, then runs it: a small run keeps this quick.
                subprocess.run([binary, "herd", "--experiment", name, "--save", str(path), "--clients", "10", "--runs", "1",
                                "--json"], capture_output=True, check=True)
                herds.append((f"{name} (as written by herd --save)", load(path)))
        failures += check(herd_schema, herds, "herd experiments")
        checked += len(herds)

    session_schema = schemas / "session.schema.json"
    fixtures = [(p.name, load(p)) for p in sorted((source / "tests" / "data" / "sessions").glob("*v1*.json"))]
    if session_schema.exists() and fixtures:
        failures += check(session_schema, fixtures, "sessions")
        checked += len(fixtures)

    if binary and session_schema.exists():
        failures += check(session_schema, [session_with_policy_changes(binary)], "sessions written with --set")
        checked += 1
        failures += check(session_schema, [session_with_hedges(binary)], "hedged sessions")
        checked += 1

    exchange_schema = schemas / "exchange.schema.json"
    if binary:
        failures += check_serve_json(exchange_schema, binary)
        checked += 3

    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
