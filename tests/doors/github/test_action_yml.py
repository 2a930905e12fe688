"""action.yml: valid Actions metadata, and its `run:` steps work end to end under bash."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from check_jsonschema.builtin_schemas import get_builtin_schema

from tests.doors.github.test_action import Pr, pr  # noqa: F401 - the fixture
from tests.doors.test_precommit import PIP_CACHE

ROOT = Path(__file__).resolve().parents[3]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_action_metadata_is_valid() -> None:
    schema = get_builtin_schema("vendor.github-actions")
    jsonschema.validate(ACTION, schema)
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) >= {"token", "max-comments", "fail-on", "config", "check-run"}
    assert ACTION["inputs"]["token"]["default"] == "${{ github.token }}"
    assert set(ACTION["outputs"]) == {"report", "findings"}


def test_inputs_reach_the_steps_through_env_only() -> None:
    for step in ACTION["runs"]["steps"]:
        assert "${{ inputs." not in step.get("run", ""), "map inputs through env: instead"


def substitute(value: str, inputs: dict[str, str], github: dict[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        scope, name = m.group(1), m.group(2)
        return inputs[name] if scope == "inputs" else github[name]

    return re.sub(r"\$\{\{\s*(inputs|github)\.([\w-]+)\s*\}\}", one, value)


def test_run_steps_end_to_end(pr: Pr) -> None:  # noqa: F811 - the fixture
    runner_env: dict[str, Any] = {
        k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "REVIEWBOT_"))
    }
    runner_env.update(pr.env())
    for key in [k for k in runner_env if k.startswith("REVIEWBOT_")]:
        del runner_env[key]  # only action.yml decides what reaches reviewbot
    runner_env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{runner_env['PATH']}"
    runner_env["PIP_CACHE_DIR"] = PIP_CACHE
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    github = {"action_path": str(ROOT), "token": "ghs_workflow_token"}
    inputs = {k: substitute(v, inputs, github) for k, v in inputs.items()}
    inputs["max-comments"] = "3"
    for step in ACTION["runs"]["steps"]:
        if "uses" in step:
            assert step["uses"].startswith("actions/setup-python@")
            continue  # this interpreter stands in for setup-python
        env = dict(runner_env)
        env.update({k: substitute(str(v), inputs, github) for k, v in step.get("env", {}).items()})
        proc = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert proc.returncode == 0, f"step {step.get('name')}: {proc.stdout}\n{proc.stderr}"
    s = pr.fake.state
    assert len(s.issue_comments) == 1 and len(s.reviews) == 1
    assert 1 <= len([c for c in s.review_comments if "reviewbot:fp=" in c["body"]]) <= 3
    outputs = dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())
    assert json.loads(Path(outputs["report"]).read_text())["schema"] == "reviewbot.report/1"
    assert s.errors == []
