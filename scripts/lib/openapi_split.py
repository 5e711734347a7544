#!/usr/bin/env python3
"""Publishes docs/openapi.yaml as two documents, one per listener.

    openapi_split.py SOURCE PUBLIC_OUT OPERATOR_OUT

The source describes both planes. Each operation is tagged with its
resource and names the listener that serves it in `x-listener`: `public`,
`operator` or `both` (health and this reference). The public document keeps
the `public` and `both` operations and the webhook events (`x-webhooks`);
the operator document keeps the `operator` and `both` operations. Each keeps
only the components its operations reach, so a client generated from the
public document has no operator call or type, and lists only the tags its
operations use. `x-listener` is not published. Both are written as JSON.
"""
import copy
import json
import re
import sys

import yaml

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
LISTENERS = {"public", "operator", "both"}

PLANES = {
    "public": {
        "listeners": {"public", "both"},
        "title": "Voice Campaign Service: public API",
        "server": "public listener",
        "security": [{"apiKey": []}, {"memberSession": []}],
        "webhooks": True,
        "lead": "The public API, for tenants' dialers (Bearer API key). The operator API is a separate document.",
    },
    "operator": {
        "listeners": {"operator", "both"},
        "title": "Voice Campaign Service: operator API",
        "server": "operator listener",
        "security": [{"operatorToken": []}],
        "webhooks": False,
        "lead": "The operator API, for provisioning (Bearer operator token, operator listener only). Tenants use the public API, a separate document.",
    },
}


def refs(node):
    """Every `#/components/<kind>/<name>` referenced under `node`."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                m = re.fullmatch(r"#/components/([^/]+)/([^/]+)", v)
                if m:
                    yield m.group(1), m.group(2)
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


def plane_document(source, plane):
    spec = PLANES[plane]
    doc = copy.deepcopy(source)
    paths = {}
    for path, item in source["paths"].items():
        kept = {}
        for key, value in item.items():
            if key in METHODS:
                listener = value.get("x-listener")
                if listener not in LISTENERS:
                    sys.exit(f"openapi_split: {key.upper()} {path}: x-listener {listener!r} "
                             f"is not one of {', '.join(sorted(LISTENERS))}")
                if listener in spec["listeners"]:
                    op = copy.deepcopy(value)
                    del op["x-listener"]
                    kept[key] = op
            else:
                kept[key] = copy.deepcopy(value)
        if any(k in METHODS for k in kept):
            paths[path] = kept
    doc["paths"] = paths
    if not spec["webhooks"]:
        doc.pop("x-webhooks", None)
    doc["info"]["title"] = spec["title"]
    # The source's first paragraph introduces both planes; each document
    # opens with its own.
    rest = source["info"]["description"].split("\n\n", 1)[1]
    doc["info"]["description"] = spec["lead"] + "\n\n" + rest
    doc["servers"] = [s for s in source["servers"] if s.get("description") == spec["server"]]
    doc["security"] = spec["security"]
    # The tags of the kept operations and webhook events, in the source's
    # order; one no operation uses would show as an empty section.
    items = list(paths.values()) + list(doc.get("x-webhooks", {}).values())
    used = {tag for item in items for key, op in item.items() if key in METHODS
            for tag in op.get("tags", [])}
    undeclared = used - {t["name"] for t in source["tags"]}
    if undeclared:
        sys.exit(f"openapi_split: tags not in the top-level list: {', '.join(sorted(undeclared))}")
    doc["tags"] = [t for t in source["tags"] if t["name"] in used]

    # The components the kept operations (and their security) reach.
    components = source["components"]
    reached = {("securitySchemes", name) for req in spec["security"] for name in req}
    for item in paths.values():
        for op in item.values():
            if isinstance(op, dict):
                for req in op.get("security", []):
                    reached.update(("securitySchemes", name) for name in req)
    todo = list(refs({"paths": paths, "x-webhooks": doc.get("x-webhooks", {})}))
    while todo:
        kind, name = todo.pop()
        if (kind, name) in reached:
            continue
        reached.add((kind, name))
        todo.extend(refs(components[kind][name]))
    doc["components"] = {
        kind: {name: value for name, value in entries.items() if (kind, name) in reached}
        for kind, entries in components.items()
    }
    doc["components"] = {k: v for k, v in doc["components"].items() if v}
    return doc


def main():
    source_path, public_out, operator_out = sys.argv[1:4]
    with open(source_path) as f:
        source = yaml.safe_load(f)
    for plane, out in (("public", public_out), ("operator", operator_out)):
        with open(out, "w") as f:
            # Unquoted YAML dates become text again.
            json.dump(plane_document(source, plane), f, indent=1, default=str)


if __name__ == "__main__":
    main()
