#!/usr/bin/env python3
"""Converts a YAML document (docs/openapi.yaml) to JSON: yaml_to_json.py IN OUT."""
import json
import sys

import yaml

with open(sys.argv[1]) as f:
    document = yaml.safe_load(f)
with open(sys.argv[2], "w") as f:
    # Unquoted YAML dates become text again.
    json.dump(document, f, indent=1, default=str)
