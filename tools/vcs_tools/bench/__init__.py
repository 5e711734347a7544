"""benchmarks/run: the Bench (core.py), its scenarios looked up by name
(scenarios.py), how it measures (measure.py, load.py, soak.py), side by side
(side.py, peers.py), scale (scale.py), its tables and command line."""
