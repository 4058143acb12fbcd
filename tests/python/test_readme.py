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


# The README's names, kept true: every file and folder it links or names, every shipped preset it
# names, every option of kinetic-run, kinetic-studio or the build it names, and every KS_ variable.
def _readme():
    with open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8") as f:
        return f.read()


def _sources(*folders):
    text = []
    for folder in folders:
        for root, _, files in os.walk(os.path.join(SOURCE_DIR, folder)):
            for name in files:
                if name.endswith((".cpp", ".hpp", ".cu", ".txt", ".cmake", ".sh", ".py", ".json")):
                    with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                        text.append(f.read())
    return "\n".join(text)


_TOP = ("app/", "engine/", "bench/", "scripts/", "docs/", "examples/", "presets/", "tests/", "python/", "packaging/")


def test_every_file_the_readme_links_or_names_is_in_the_repository():
    readme = _readme()
    named = set(re.findall(r"\]\(([^)#:]+)\)", readme))  # relative links (not http:)
    for token in re.findall(r"`([^`\s]+)`", readme):
        if token.startswith(_TOP) and not re.search(r"[<*\[]", token):
            named.add(token.split(":")[0])
    assert len(named) > 20
    missing = sorted(n for n in named if not os.path.exists(os.path.join(SOURCE_DIR, n)))
    assert not missing, f"the README names files that are not in the repository: {missing}"


def test_every_preset_the_readme_names_is_shipped():
    names = set(re.findall(r"(?<![\w/.-])((?:bgk|dvm|lbm|radiation|coagulation)/[a-z0-9][a-z0-9.-]*[a-z0-9])(?![\w/])",
                           _readme()))
    assert len(names) >= 5
    missing = sorted(n for n in names if not os.path.isfile(os.path.join(SOURCE_DIR, "presets", n + ".json")))
    assert not missing, f"the README names presets that are not shipped: {missing}"


def test_every_option_and_variable_the_readme_names_exists():
    readme = _readme()
    app = _sources("app", "python/kinetic_studio")
    # Options of the tools around the project (pip, cmake, apt, mpirun, srun) the README also names.
    others = {"--config-settings", "--prefix", "--install", "--build", "--target", "--no-install-recommends", "--hostfile", "--ntasks-per-node"}
    options = {t.split("=")[0].split()[0] for t in re.findall(r"`(--[a-z][a-z-]*[^`]*)`", readme)}
    assert len(options) > 15
    unknown = sorted(o for o in options if o not in others and not re.search(re.escape(o) + r"\b", app))
    assert not unknown, f"the README names options that neither kinetic-run nor kinetic-studio has: {unknown}"
    code = _sources("app", "engine", "python", "cmake", "scripts", "bench") + open(
        os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8").read()
    variables = set(re.findall(r"\b(KS_[A-Z0-9_]+)", readme))
    assert len(variables) > 5
    unknown = sorted(v for v in variables if v not in code)
    assert not unknown, f"the README names KS_ variables or options the code does not read: {unknown}"
