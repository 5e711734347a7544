"""Charts for the benchmark reports: gnuplot drawing inline SVG."""

import os
import subprocess
import tempfile


def gnuplot_svg(script, data):
    """An SVG drawn by gnuplot from `script`, with `data` as the file
    $DATA holds (whitespace-separated columns)."""
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        program = ("set terminal svg size 640,320 fixed font 'sans,11' background '#ffffff'\n"
                   f"DATA = '{path}'\nset termoption noenhanced\nset grid\nset key top left\n" + script)
        out = subprocess.run(["gnuplot"], input=program, capture_output=True, text=True,
                             check=True).stdout
        return out[out.index("<svg"):]
    finally:
        os.unlink(path)
