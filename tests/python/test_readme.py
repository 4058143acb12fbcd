"""The README's Python section works as written: its example block runs as it stands."""

import os
import re

from conftest import SOURCE_DIR


def test_the_readme_python_block_runs_as_written(tmp_path, monkeypatch):
    with open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme[readme.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    monkeypatch.chdir(tmp_path)  # it writes out/couette and couette.ksc
    scope = {}
    exec(compile(blocks[0], "README.md (## Python)", "exec"), scope)
    assert (tmp_path / "out" / "couette" / "summary.json").is_file()
    assert (tmp_path / "couette.ksc").is_file()
    sim = scope["sim"]
    assert sim.pending_params["n_s"] == 8000 and sim.params["t_end"] == 500.0
    sim.close()
