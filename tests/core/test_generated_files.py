"""Generated files (schemas, field references, bundled examples) are never stale.

``FRACAS_REGEN_DOCS=1 pytest tests/core/test_generated_files.py`` rewrites them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fracas.scenario.reference import generated_files

ROOT = Path(__file__).resolve().parents[2]
FILES = generated_files(ROOT)


def test_there_is_a_schema_a_reference_and_bundled_examples_for_each_rule_set() -> None:
    names = {p.name for p in FILES}
    for ruleset in ("age_of_dragons", "one_ring", "adnd", "battlesystem"):
        assert f"{ruleset}.schema.json" in names and f"{ruleset}-fields.md" in names
    shipped = [p for p in ROOT.glob("examples/*/*.yaml")  # not the template plug-in's
               if p.parent.name in ("age_of_dragons", "one_ring", "adnd", "battlesystem")]
    assert sum(p.suffix == ".yaml" for p in FILES) == len(shipped)


@pytest.mark.parametrize("path", sorted(FILES), ids=lambda p: str(p.relative_to(ROOT)))
def test_generated_file_is_up_to_date(path: Path) -> None:
    want = FILES[path]
    if os.environ.get("FRACAS_REGEN_DOCS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(want, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: run FRACAS_REGEN_DOCS=1 pytest {__file__}"
    assert path.read_text(encoding="utf-8") == want, (
        f"{path} is stale: run FRACAS_REGEN_DOCS=1 pytest {__file__}")


def test_no_bundled_example_is_left_over_from_a_removed_one() -> None:
    bundled = ROOT / "src" / "fracas" / "scenario" / "examples"
    assert set(bundled.glob("*/*.yaml")) <= set(FILES)


@pytest.mark.parametrize("ruleset", ["age_of_dragons", "one_ring", "adnd", "battlesystem"])
def test_every_field_has_a_meaning_and_no_meaning_is_left_over(ruleset: str) -> None:
    from fracas.core.ruleset import find_ruleset
    from fracas.scenario.reference import meanings, scenario_schema

    schema = scenario_schema(find_ruleset(ruleset))
    models = [("scenario", schema), *schema.get("$defs", {}).items()]
    fields = {f"{m}.{f}": p for m, node in models for f, p in node.get("properties", {}).items()}
    assert [k for k, p in fields.items() if not p.get("description")] == []
    assert [k for k in meanings(ruleset) if k not in fields] == []
