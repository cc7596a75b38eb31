"""Kubernetes manifests checked against the API types, strictly.

The official Python client carries a model class per API type, generated from
the Kubernetes OpenAPI spec, with each field's JSON name and type. A manifest
is walked against them: an unknown or misspelt field or a value of the wrong
type is an error (the API server's strict field validation). The client's own
deserializer then builds the objects, which enforces required fields.
"""

from __future__ import annotations

import re

import kubernetes.client as k8s

TYPES = {
    ("v1", "ConfigMap"): "V1ConfigMap",
    ("v1", "Secret"): "V1Secret",
    ("v1", "Service"): "V1Service",
    ("apps/v1", "Deployment"): "V1Deployment",
    ("autoscaling/v2", "HorizontalPodAutoscaler"): "V2HorizontalPodAutoscaler",
    ("policy/v1", "PodDisruptionBudget"): "V1PodDisruptionBudget",
}
_LIST, _DICT = re.compile(r"List\[(.+)\]$"), re.compile(r"Dict\[str, (.+)\]$")
_SCALARS = {"str": (str,), "int": (int,), "float": (int, float), "bool": (bool,), "datetime": (str,),
            "date": (str,), "object": (object,)}


def problems(document: dict) -> list[str]:
    """Everything wrong with one manifest; an empty list if it decodes strictly."""
    type_name = TYPES.get((document.get("apiVersion"), document.get("kind")))
    if type_name is None:
        return [f"no API type for apiVersion {document.get('apiVersion')!r} kind {document.get('kind')!r}"]
    found = _walk(document, type_name, document.get("kind", ""))
    if not found:
        try:
            k8s.ApiClient()._ApiClient__deserialize(document, type_name)
        except (ValueError, TypeError) as error:
            found.append(f"{document['kind']}: {error}")
    return found


def _walk(value, type_name: str, path: str) -> list[str]:
    if type_name in _SCALARS:
        expected = _SCALARS[type_name]
        if type_name in ("int", "float") and isinstance(value, bool) or not isinstance(value, expected):
            return [f"{path}: expected {type_name}, got {type(value).__name__} {value!r}"]
        return []
    if match := _LIST.match(type_name):
        if not isinstance(value, list):
            return [f"{path}: expected a list, got {type(value).__name__}"]
        return [p for i, item in enumerate(value) for p in _walk(item, match.group(1), f"{path}[{i}]")]
    if match := _DICT.match(type_name):
        if not isinstance(value, dict):
            return [f"{path}: expected a mapping, got {type(value).__name__}"]
        return [p for key, item in value.items() for p in _walk(item, match.group(1), f"{path}.{key}")]
    model = getattr(k8s, type_name)
    if not isinstance(value, dict):
        return [f"{path}: expected a {type_name} mapping, got {type(value).__name__}"]
    fields = {json_name: model.openapi_types[attribute] for attribute, json_name in model.attribute_map.items()}
    found = []
    for key, item in value.items():
        if key not in fields:
            found.append(f"{path}.{key}: unknown field of {type_name} (fields: {', '.join(sorted(fields))})")
        elif item is not None:
            found.extend(_walk(item, fields[key], f"{path}.{key}"))
    return found
