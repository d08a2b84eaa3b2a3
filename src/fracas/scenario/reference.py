"""Generated from the scenario models: JSON Schema, field reference pages, starting scenarios.

Everything a GM needs to write a scenario without guessing is derived from the rule
set's pydantic model, so it cannot drift from what ``validate`` accepts:

* :func:`scenario_schema`: the JSON Schema (``fracas schema RULESET``; editors use it
  through the ``# yaml-language-server: $schema=...`` line at the top of a file);
* :func:`field_reference`: a Markdown page of every field with its type, range,
  default and meaning (``docs/rules/<ruleset>-fields.md``);
* :func:`starter`: a commented starting scenario that validates (``fracas new``).

A rule set's example scenarios (and its schema file) live in its own package: the
folder its :class:`~fracas.core.ruleset.Ruleset` class names as ``examples``
(:func:`examples_dir`), so a rule set installed through an entry point is found as
the bundled ones are (:func:`plugin_examples` for the console's home).

:func:`generated_files` lists every generated file of a source tree; a test fails when
one is stale, and ``FRACAS_REGEN_DOCS=1`` rewrites them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from fracas.core.errors import FracasError
from fracas.core.ruleset import Ruleset, available_rulesets, find_ruleset
from fracas.scenario.limits import limits_text

__all__ = [
    "bundled_examples",
    "examples_dir",
    "field_reference",
    "generated_files",
    "meanings",
    "modeline",
    "plugin_examples",
    "register_names",
    "relative_schema",
    "ruleset_schema",
    "scenario_schema",
    "schema_path",
    "starter",
]

MODELINE = "# yaml-language-server: $schema="


def meanings(ruleset: str) -> dict[str, str]:
    """One line of meaning for fields whose model gives none, by ``Model.field``.

    They are kept in ``fields/<ruleset>.yaml`` beside this module until the rule set's
    model carries them as ``Field(description=...)`` (which wins).
    """
    path = package_dir() / "fields" / f"{ruleset}.yaml"
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in data.items()}


#: A rule set's catalogue names by ``Model.field`` (a hook: :func:`register_names`).
NameSource = Callable[[], dict[str, list[str]]]
_NAMES: dict[str, NameSource] = {}


def register_names(ruleset: str) -> Callable[[NameSource], NameSource]:
    """Register where ``ruleset``'s catalogue names come from (a decorator): the function
    returns, by ``Model.field``, the names that field takes, which the schema then lists
    (a list's items, a mapping's keys, or the text itself), so an editor completes them."""

    def add(source: NameSource) -> NameSource:
        _NAMES[ruleset] = source
        return source

    return add


def _enumerate(prop: dict[str, Any], names: list[str]) -> None:
    """Put ``names`` where the field's shape takes them (items, keys or the text)."""
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        prop["items"]["enum"] = names
    elif prop.get("type") == "object":
        prop["propertyNames"] = {"enum": names}
    elif prop.get("type") == "string":
        prop["enum"] = names
    else:
        for branch in prop.get("anyOf", ()):
            if branch.get("type") == "string":
                branch["enum"] = names


def scenario_schema(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """The JSON Schema of ``ruleset``'s scenario files, every field with its meaning and,
    where a field takes a name from the rule set's catalogue, the names it takes."""
    schema: dict[str, Any] = ruleset.scenario_model.model_json_schema()
    schema["properties"]["ruleset"] = {"const": ruleset.name, "title": "Ruleset",
                                       "description": "the rule set this scenario is for"}
    known = meanings(ruleset.name)
    models = [("scenario", schema), *schema.get("$defs", {}).items()]
    for model, node in models:
        for field, prop in node.get("properties", {}).items():
            meaning = known.get(f"{model}.{field}")
            if meaning and not prop.get("description"):
                prop["description"] = meaning
    source = _NAMES.get(ruleset.name)
    if source is not None:
        defs = schema.get("$defs", {})
        for key, names in source().items():
            model, _, field = key.partition(".")
            node = defs.get(model, schema if model == "scenario" else {})
            prop = node.get("properties", {}).get(field)
            if prop is not None:
                _enumerate(prop, names)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"fracas:{ruleset.name}.schema.json", **schema}


def schema_text(ruleset: Ruleset[Any]) -> str:
    """The schema as the file ``fracas schema`` prints and the package ships."""
    return json.dumps(scenario_schema(ruleset), indent=2, ensure_ascii=False) + "\n"


def package_dir() -> Path:
    """The folder of this package, installed or in a source tree."""
    return Path(str(resources.files("fracas.scenario")))


def schema_path(ruleset: str) -> Path:
    """The schema file shipped with fracas for ``ruleset``."""
    return package_dir() / "schemas" / f"{ruleset}.schema.json"


def relative_schema(ruleset: Ruleset[Any], folder: Path) -> str | None:
    """The schema shipped for ``ruleset`` as a path relative to ``folder`` (``/`` separated),
    which a scenario written there can name on any machine with the same layout (a
    project that keeps its scenarios beside its sources); a ``file:`` URL only when no
    relative path exists (another drive); ``None`` when the rule set ships no schema."""
    import os

    target = ruleset_schema(ruleset)
    if target is None:
        return None
    try:
        return Path(os.path.relpath(target, folder.absolute())).as_posix()
    except ValueError:
        return target.as_uri()


def bundled_examples() -> Path:
    """The folder of example scenarios shipped with fracas (one subfolder per rule set)."""
    return package_dir() / "examples"


def examples_dir(ruleset: Ruleset[Any]) -> Path:
    """The folder of ``ruleset``'s example scenarios.

    A rule set names it with its class attribute ``examples``, a folder of the package
    that defines the class (``examples = "examples"`` in ``pools/ruleset.py`` is
    ``pools/examples/``), found however the package was installed.  Without one, the
    folder is fracas's own ``examples/<name>`` (the bundled rule sets).
    """
    cls = type(ruleset)
    if cls.examples is None:
        return bundled_examples() / ruleset.name
    module = sys.modules[cls.__module__]
    package = module.__package__ or cls.__module__
    # joinpath, then str: a namespace package's files() is not itself a path.
    return Path(str(resources.files(package).joinpath(cls.examples)))


def ruleset_schema(ruleset: Ruleset[Any]) -> Path | None:
    """The schema file shipped for ``ruleset``, if one is: fracas's own for the bundled
    rule sets, ``<name>.schema.json`` in the examples folder for the others."""
    if type(ruleset).examples is None:
        path = schema_path(ruleset.name)
    else:
        path = examples_dir(ruleset) / f"{ruleset.name}.schema.json"
    return path if path.is_file() else None


def plugin_examples() -> dict[str, Path]:
    """The example folders of the rule sets outside fracas, by rule set name.

    Each rule set registered through the ``fracas.rulesets`` entry point (or by hand)
    whose class names an ``examples`` folder that exists.  One that fails to load is
    left out here; naming it in a scenario still says why.
    """
    from importlib.metadata import entry_points

    from fracas.core import ruleset as registry

    names = {point.name for point in entry_points(group="fracas.rulesets")
             if not point.value.startswith("fracas.")}
    names.update(registry._REGISTERED)
    found: dict[str, Path] = {}
    for name in sorted(names):
        try:
            ruleset = find_ruleset(name)
        except Exception:  # a broken plug-in must not take the console down
            continue
        if type(ruleset).examples is not None and examples_dir(ruleset).is_dir():
            found[name] = examples_dir(ruleset)
    return found


def modeline(target: str) -> str:
    """The first line that points editors (yaml-language-server) at a schema."""
    return f"{MODELINE}{target}"


# -- reading the schema -----------------------------------------------------------

def _deref(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str):
        found: dict[str, Any] = root["$defs"][ref.rsplit("/", 1)[-1]]
        return found
    return node


def _type(node: dict[str, Any], root: dict[str, Any]) -> str:
    """A short, readable type: ``integer``, ``list of Weapon``, ``one of a, b``, ..."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[-1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return "one of " + ", ".join(str(v) for v in node["enum"])
    if "anyOf" in node:
        options = [o for o in node["anyOf"] if o.get("type") != "null"]
        text = " or ".join(_type(o, root) for o in options)
        return text + (" or none" if len(options) < len(node["anyOf"]) else "")
    kind = node.get("type")
    if kind == "array":
        if "prefixItems" in node:
            return "pair of " + " and ".join(_type(i, root) for i in node["prefixItems"])
        return "list of " + _type(node.get("items", {}), root)
    if kind == "object":
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            return "mapping of text to " + _type(extra, root)
        return "mapping"
    return str(kind or "any")


def _range(node: dict[str, Any]) -> str:
    parts: list[str] = []
    for option in node.get("anyOf", [node]):
        low = option.get("minimum", option.get("exclusiveMinimum"))
        high = option.get("maximum", option.get("exclusiveMaximum"))
        if low is not None or high is not None:
            left = "" if low is None else (f"> {low}" if "exclusiveMinimum" in option
                                           else f"≥ {low}")
            right = "" if high is None else (f"< {high}" if "exclusiveMaximum" in option
                                             else f"≤ {high}")
            parts.append(", ".join(p for p in (left, right) if p))
        if "minItems" in option or "maxItems" in option:
            parts.append(f"{option.get('minItems', 0)} to {option.get('maxItems', 'any')} items")
        if "minLength" in option or "maxLength" in option:
            parts.append(f"{option.get('minLength', 0)} to {option.get('maxLength', 'any')} "
                         "characters")
    return "; ".join(parts)


def _models(root: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The top-level model, then each nested model in the order it is first used."""
    seen: list[str] = []
    queue: list[tuple[str, dict[str, Any]]] = [(str(root.get("title", "scenario")), root)]
    while queue:
        name, node = queue.pop(0)
        yield name, node
        for ref in _refs(node):
            if ref not in seen:
                seen.append(ref)
                queue.append((ref, root["$defs"][ref]))


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            elif key != "$defs":
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def field_reference(ruleset: Ruleset[Any]) -> str:
    """The Markdown field reference of ``ruleset``'s scenarios."""
    root = scenario_schema(ruleset)
    title = ruleset.title or ruleset.name
    lines = [
        f"# {title}: scenario fields",
        "",
        "<!-- Generated from the scenario model by fracas.scenario.reference; do not edit. "
        "Regenerate with FRACAS_REGEN_DOCS=1 pytest tests/core/test_generated_files.py -->",
        "",
        f"Every field a `{ruleset.name}` scenario file may hold, as `fracas validate` checks "
        "it. A field without a default is required. Numbers are strict: `true` or `\"9\"` "
        "is not a number. Unknown fields are errors (the nearest known one is suggested).",
        "",
        f"- JSON Schema: `fracas schema {ruleset.name}` (editors: start the file with "
        f"`{MODELINE}<path to the schema>`; `fracas new {ruleset.name}` writes that line).",
        f"- A starting scenario: `fracas new {ruleset.name} my_fight.yaml`.",
        "- Every example under `examples/` validates against this page's fields.",
        "",
        "## Size limits",
        "",
        limits_text(),
        "",
    ]
    for name, node in _models(root):
        heading = "the scenario (top level)" if node is root else f"`{name}`"
        lines += [f"## {heading}", ""]
        if node.get("description"):
            lines += [str(node["description"]).strip().split("\n\n")[0].replace("\n", " "), ""]
        lines += ["| field | type | range | default | meaning |", "|---|---|---|---|---|"]
        required = set(node.get("required", ()))
        for field, prop in node.get("properties", {}).items():
            default = "required" if field in required else (
                f"`{json.dumps(prop.get('default'), ensure_ascii=False)}`"
                if "default" in prop else "")
            meaning = str(prop.get("description", "")) or "-"
            lines.append(f"| `{field}` | {_cell(_type(prop, root))} | {_cell(_range(prop))} "
                         f"| {_cell(default)} | {_cell(meaning)} |")
        lines.append("")
    return "\n".join(lines)


# -- a commented starting scenario ------------------------------------------------

def _scalar(value: Any) -> str:
    if isinstance(value, str):
        value = " ".join(value.split())  # a starter's texts on one line each
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000)
    return text.strip().removesuffix("...").strip()


def _note(prop: dict[str, Any], root: dict[str, Any]) -> str:
    parts = [str(prop["description"])] if prop.get("description") else []
    kind = _type(prop, root)
    bounds = _range(prop)
    parts.append(kind + (f", {bounds}" if bounds else ""))
    return "  # " + "; ".join(parts)


def _emit(value: Any, node: dict[str, Any], root: dict[str, Any], indent: str,
          lines: list[str], first_prefix: str | None = None, others: bool = True) -> None:
    """Append ``value`` (a mapping) as block YAML with a comment on each field.

    With ``others``, the fields it leaves at their defaults follow, commented out.
    """
    node = _deref(node, root)
    props: dict[str, Any] = node.get("properties", {})
    for n, (key, item) in enumerate(value.items()):
        prefix = first_prefix if (n == 0 and first_prefix is not None) else indent
        prop = props.get(key, {})
        target = _item_node(prop, root, item)
        if isinstance(item, dict) and item and target is not None:
            lines.append(f"{prefix}{key}:{_note(prop, root)}")
            _emit(item, target, root, indent + "  ", lines)
        elif (isinstance(item, list) and item and all(isinstance(i, dict) for i in item)
              and target is not None):
            lines.append(f"{prefix}{key}:{_note(prop, root)}")
            for n_item, element in enumerate(item):
                _emit(element, target, root, indent + "    ", lines, indent + "  - ",
                      others and n_item == 0)
        else:
            lines.append(f"{prefix}{key}: {_scalar(item)}{_note(prop, root)}")
    if others:
        for key, prop in props.items():
            if key not in value and "default" in prop:
                lines.append(f"{indent}# {key}: {_scalar(prop['default'])}{_note(prop, root)}")


def _item_node(prop: dict[str, Any], root: dict[str, Any], value: Any) -> dict[str, Any] | None:
    """The model of ``value`` (a mapping or a list of mappings) under ``prop``, if any."""
    options = prop.get("anyOf", [prop])
    for option in options:
        option = _deref(option, root)
        if isinstance(value, list) and option.get("type") == "array" and "items" in option:
            items = _deref(option["items"], root)
            if "properties" in items:
                return items
        if isinstance(value, dict) and "properties" in option:
            return option
    return None


def _smallest_example(ruleset: Ruleset[Any]) -> Path:
    folder = examples_dir(ruleset)
    files = sorted(folder.glob("*.yaml"),
                   key=lambda p: (len(p.read_text(encoding="utf-8")), p.name))
    if not files:
        raise FracasError(
            f"the rule set {ruleset.name} ships no example scenario to start from (no "
            f"YAML file in {folder}); its Ruleset class names that folder as `examples`")
    return files[0]


def starter(ruleset: Ruleset[Any], schema: str | None = None) -> str:
    """A commented starting scenario for ``ruleset`` (the smallest bundled example)."""
    example = _smallest_example(ruleset)
    data = yaml.safe_load(example.read_text(encoding="utf-8"))
    root = scenario_schema(ruleset)
    shipped = ruleset_schema(ruleset)
    if schema is None:
        schema = shipped.as_uri() if shipped else f"{ruleset.name}.schema.json"
    lines = [
        modeline(schema),
        f"# A starting {ruleset.title or ruleset.name} scenario (from the example "
        f"{example.name}).",
        "# Each field's comment gives its type and range; the field reference lists them all:",
        (f"# docs/rules/{ruleset.name}-fields.md, or `fracas schema {ruleset.name}`."
         if type(ruleset).examples is None else f"# `fracas schema {ruleset.name}`."),
        *([] if shipped or schema != f"{ruleset.name}.schema.json" else [
            f"# For an editor's checks: fracas schema {ruleset.name} > "
            f"{ruleset.name}.schema.json"]),
        "# Check it with `fracas validate FILE`; play it with `fracas play FILE --human NAME`.",
    ]
    _emit(data, root, root, "", lines)
    return "\n".join(lines) + "\n"


# -- the generated files of a source tree -----------------------------------------

def generated_files(root: Path) -> dict[Path, str]:
    """Every generated file of the source tree at ``root`` and what it must hold."""
    files: dict[Path, str] = {}
    schemas = root / "src" / "fracas" / "scenario" / "schemas"
    bundled = root / "src" / "fracas" / "scenario" / "examples"
    for name in available_rulesets():
        ruleset = find_ruleset(name)
        if type(ruleset).__module__.split(".")[:2] != ["fracas", "rules"]:
            continue  # a plug-in or test rule set: not part of this tree
        files[schemas / f"{name}.schema.json"] = schema_text(ruleset)
        files[root / "docs" / "rules" / f"{name}-fields.md"] = field_reference(ruleset)
        for example in sorted((root / "examples" / name).glob("*.yaml")):
            text = example.read_text(encoding="utf-8")
            body = text.split("\n", 1)[1] if text.startswith(MODELINE) else text
            files[bundled / name / example.name] = (
                modeline(f"../../schemas/{name}.schema.json") + "\n" + body)
    return files
