"""docs/README.md, the index of the documentation, links every file under
docs/, and every link of it leads to a file that is there.

Usage: python3 tests/docs/check_index.py REPO_ROOT
"""

import os
import re
import sys


def linked(index_path):
    """The files the index links, as paths relative to its folder."""
    with open(index_path, encoding="utf-8") as f:
        text = f.read()
    out = set()
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if "://" not in target:
            out.add(os.path.normpath(target))
    return out


def pages(docs):
    """Every file under docs/, relative to it (the index itself aside)."""
    out = set()
    for folder, _, files in os.walk(docs):
        for name in files:
            path = os.path.relpath(os.path.join(folder, name), docs)
            if path != "README.md":
                out.add(os.path.normpath(path))
    return out


def main():
    docs = os.path.join(sys.argv[1], "docs")
    links = linked(os.path.join(docs, "README.md"))
    missing = sorted(p for p in links if not os.path.exists(os.path.join(docs, p)))
    unlisted = sorted(pages(docs) - links)
    for p in missing:
        print(f"docs/README.md links {p}, which is not there")
    for p in unlisted:
        print(f"docs/README.md does not link docs/{p}")
    return 1 if missing or unlisted else 0


if __name__ == "__main__":
    sys.exit(main())
