"""The notebook in examples/ runs headless as Jupyter runs it (nbclient and Debian's python3 kernel),
its plot is drawn and its numbers are the physics it shows."""

import os
import re

import pytest

from conftest import SOURCE_DIR


def test_the_quick_tour_notebook_runs_and_plots(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="the notebook runs where nbformat, nbclient and ipykernel are (python3-nbclient)")
    nbclient = pytest.importorskip("nbclient", reason="python3-nbclient")
    pytest.importorskip("ipykernel", reason="python3-ipykernel")
    pytest.importorskip("matplotlib", reason="python3-matplotlib")
    nb = nbformat.read(os.path.join(SOURCE_DIR, "examples", "quick_tour.ipynb"), as_version=4)
    first = nb.cells[1]
    first.source = first.source.replace("QUICK = False", "QUICK = True")
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    texts = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "IProgress" not in texts and "Warning" not in texts, texts
    assert any("image/png" in o.get("data", {}) for o in outputs), "no plot drawn"
    assert "finished" in texts and "particles.vtp" in texts and "series_N_N0.csv" in texts, texts
    # N/N0 against the sectional solution: Monte Carlo with 500 particles x 2 runs, within 15 %.
    error = float(re.search(r"largest relative difference from the sectional solution: ([0-9.]+)", texts).group(1))
    assert error < 0.15, texts
