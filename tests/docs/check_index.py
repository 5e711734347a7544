"""docs/README.md, the index of the documentation, links every file under
docs/, and every link of it leads to a file that is there. A folder's own
README.md, once linked, stands for the files of its folder it links in
turn (an example's package.json and sources), and so on down.

Usage: python3 tests/docs/check_index.py REPO_ROOT
"""

import os
import re
import subprocess
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
    """Every file under docs/ that belongs to the project, relative to it (the
    index itself aside): git's files, tracked or new, without what git ignores
    (an example's node_modules, generated files); every file when this is not
    a git checkout."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "."],
                            cwd=docs, capture_output=True, text=True)
    if listed.returncode == 0:
        files = [os.path.normpath(line) for line in listed.stdout.splitlines() if line]
    else:
        files = [os.path.normpath(os.path.relpath(os.path.join(folder, name), docs))
                 for folder, _, names in os.walk(docs) for name in names]
    return {f for f in files if f != "README.md" and os.path.exists(os.path.join(docs, f))}


def covered(docs, index, seen=None):
    """The files an index (a README.md, relative to docs/) reaches: those it
    links, and what the folder READMEs among them reach in turn."""
    seen = seen if seen is not None else {index}
    folder = os.path.dirname(index)
    out = set()
    for target in linked(os.path.join(docs, index)):
        path = os.path.normpath(os.path.join(folder, target))
        out.add(path)
        if os.path.basename(path) == "README.md" and path not in seen and \
                os.path.exists(os.path.join(docs, path)):
            seen.add(path)
            out |= covered(docs, path, seen)
    return out


def main():
    docs = os.path.join(sys.argv[1], "docs")
    links = linked(os.path.join(docs, "README.md"))
    missing = sorted(p for p in links if not os.path.exists(os.path.join(docs, p)))
    unlisted = sorted(pages(docs) - covered(docs, "README.md"))
    for p in missing:
        print(f"docs/README.md links {p}, which is not there")
    for p in unlisted:
        print(f"docs/README.md does not lead to docs/{p}")
    return 1 if missing or unlisted else 0


if __name__ == "__main__":
    sys.exit(main())
