"""pip's build backend for kinetic_studio (PEP 517): `pip install .` builds the module with CMake.

No package beyond the standard library and CMake is needed, so the build runs offline and with
Debian's packages alone (scikit-build-core is not in Debian 12). The wheel holds what
`cmake --install` puts under a prefix, laid out as pip installs it under its own (a venv, ~/.local):

    kinetic_studio/            the package and its compiled _core module (lib/python3.X/site-packages)
    <name>.data/data/share/    presets/ and resources/, found five folders above _core (data_dir.hpp)
    <name>.data/scripts/       kinetic-run

pip's --config-settings (-C from pip 23.1) choose the build:
    build-dir=DIR      build there (kept, so a second install only rebuilds what changed; default
                       build/pip under the source); a configured build tree is used as it is
    cmake.define.X=V   -DX=V when configuring (KS_CUDA=OFF, CMAKE_CUDA_ARCHITECTURES=90, ...)
    jobs=N             parallel build jobs (default: every core)
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]
NAME = "kinetic_studio"


def _version():
    text = (SOURCE / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\w+ VERSION ([0-9.]+)", text)
    if not match:
        raise RuntimeError(f"{SOURCE / 'CMakeLists.txt'}: no 'project(... VERSION x.y.z' to take the version from")
    return match.group(1)


def _tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{platform}"


def _metadata():
    readme = (SOURCE / "README.md").read_text()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: kinetic-studio\nVersion: {_version()}\n"
        "Summary: Kinetic and Monte Carlo transport solvers (radiation, BGK, Shakhov DVM, coagulation, "
        "binary LBM) on CPU and GPU\n"
        "Requires-Python: >=3.9\nRequires-Dist: numpy\n"
        "Description-Content-Type: text/markdown\n\n" + readme
    )


def _setting(config_settings, key, default=None):
    value = (config_settings or {}).get(key, default)
    return value[-1] if isinstance(value, list) else value


def _run(command, **kwargs):
    print("kinetic_studio_wheel:", " ".join(str(c) for c in command), file=sys.stderr, flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def _cmake():
    cmake = shutil.which("cmake")
    if not cmake:
        raise RuntimeError("pip install of kinetic_studio needs CMake 3.24 or later on PATH "
                           "(Debian, Ubuntu: sudo apt-get install cmake; or scripts/install-deps.sh)")
    return cmake


def _build(config_settings, staging):
    """Configures (unless the build folder is configured already), builds and installs into staging."""
    cmake = _cmake()
    build = Path(_setting(config_settings, "build-dir", SOURCE / "build" / "pip")).resolve()
    if not (build / "CMakeCache.txt").exists():
        defines = {"CMAKE_BUILD_TYPE": "Release", "KS_PYTHON": "ON", "KS_GUI": "OFF", "KS_TESTS": "OFF",
                   "KS_BENCH": "OFF", "KS_MPI": "OFF", "Python_EXECUTABLE": sys.executable,
                   "KS_PYTHON_INSTALL_DIR": f"lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"}
        for key in config_settings or {}:
            if key.startswith("cmake.define."):
                defines[key[len("cmake.define."):]] = _setting(config_settings, key)
        _run([cmake, "-S", SOURCE, "-B", build] + [f"-D{k}={v}" for k, v in defines.items()])
    jobs = _setting(config_settings, "jobs", str(os.cpu_count() or 1))
    _run([cmake, "--build", build, "--target", "ks_python_package", "kinetic-run", "--parallel", jobs])
    _run([cmake, "--install", build, "--prefix", staging])


def _package_dir(staging):
    found = [p.parent for p in Path(staging).glob(f"lib/python*/*-packages/{NAME}/__init__.py")]
    if len(found) != 1:
        raise RuntimeError(f"the install under {staging} holds {len(found)} copies of {NAME} (one expected): "
                           "is the build folder configured with KS_PYTHON=ON?")
    if not list(found[0].glob("_core*.so")):
        raise RuntimeError(f"{found[0]} has no compiled _core module: the build did not make it")
    return found[0]


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _wheel_file():
    return f"Wheel-Version: 1.0\nGenerator: kinetic_studio_wheel\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The metadata without building (pip asks for it first)."""
    folder = Path(metadata_directory) / _dist_info()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "METADATA").write_text(_metadata())
    (folder / "WHEEL").write_text(_wheel_file())
    return folder.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    dist_info = _dist_info()
    data = f"{NAME}-{version}.data"
    wheel_name = f"{NAME}-{version}-{_tag()}.whl"
    with tempfile.TemporaryDirectory(prefix="kinetic_studio_wheel_") as staging:
        _build(config_settings, staging)
        files = []  # (name in the wheel, path)
        package = _package_dir(staging)
        files += [(f"{NAME}/{p.relative_to(package)}", p) for p in sorted(package.rglob("*")) if p.is_file()
                  and "__pycache__" not in p.parts]
        share = Path(staging) / "share" / "kinetic-studio"
        files += [(f"{data}/data/share/kinetic-studio/{p.relative_to(share)}", p) for p in sorted(share.rglob("*"))
                  if p.is_file()]
        run = Path(staging) / "bin" / "kinetic-run"
        if run.exists():
            files.append((f"{data}/scripts/kinetic-run", run))
        meta = {
            f"{dist_info}/METADATA": _metadata().encode(),
            f"{dist_info}/WHEEL": _wheel_file().encode(),
        }
        record = []
        os.makedirs(wheel_directory, exist_ok=True)
        with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
            for arcname, path in files:
                content = path.read_bytes()
                info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (path.stat().st_mode & 0o777 | 0o100000) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                wheel.writestr(info, content)
                record.append(_record_line(arcname, content))
            for arcname, content in meta.items():
                wheel.writestr(arcname, content)
                record.append(_record_line(arcname, content))
            record.append(f"{dist_info}/RECORD,,")
            wheel.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return wheel_name


def get_requires_for_build_wheel(config_settings=None):
    return []  # CMake, a compiler, pybind11 and Python's headers are system packages (scripts/install-deps.sh)
