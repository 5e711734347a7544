"""The project's Python tooling, shared by its entry points: benchmarks/run
(vcs_tools.bench) and scripts/reliability (vcs_tools.drills), which put
<repo>/tools on sys.path and call their main(). tools/README.md shows the
layout."""

import os

# The checkout: tools/vcs_tools/ is two folders below it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
