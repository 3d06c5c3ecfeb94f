"""schemathesis against the pit's own OpenAPI document: generated requests, valid and not,
never get a 5xx, and every answer matches the document (status, content type, schema)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from pit.app import create_app, open_pit


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_the_api_answers_as_its_document_says(tmp_path: Path, mode: str) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("T1")
    state.configs.publish("T1", "[chips]\nsmallest = 10\n", "test")  # a 200 to check too
    state.rate.rate, state.rate.burst = 1e6, 10**6  # generated requests come fast
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", create_app(state))
    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance]
    seen: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 7  # health, head, config, rows, anchor, anchors, hash
    for operation in operations:
        if mode == "negative" and operation.path.endswith("/health"):
            continue  # nothing there to get wrong

        @given(case=operation.as_strategy(generation_mode=GenerationMode(mode)))
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
        def call(case: Any) -> None:
            response = case.call_and_validate(
                headers={"Authorization": f"Bearer {token}"}, checks=checks)
            seen.append(response.status_code)

        call()
    assert not [code for code in seen if code >= 500]
    assert 403 in seen  # T1's credential on the generated table ids
