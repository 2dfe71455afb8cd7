"""A fault planted in a compiled module is caught: `python tools/planted_fault.py` (`make planted-fault`).

Copies the source, changes one step in one compiled module (default: the engine's step 3 keeps a
LF it should remove), builds the compiled package from the copy (`tools/compiled.py`), and runs
the differential (`tools/differential.py`, pure = this checkout) and the engine's pairing test
(`tests/test_fast_path.py`) against it. Exit status 0 when both catch the fault (they fail), 1 when
either passes, 2 when the step to change is not found (the source moved: name another with
`--module`, `--old`, `--new`).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import compiled  # noqa: E402

FAULT = ("engine_preprocess", "s = s.replace('\\n', '')", "s = s.replace('\\n', ' ')")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--module", default=FAULT[0])
    p.add_argument("--old", default=FAULT[1])
    p.add_argument("--new", default=FAULT[2])
    a = p.parse_args(argv)
    if a.module not in compiled.compiled_modules():
        print(f"planted_fault: {a.module} is not compiled (settings.ini mypyc_modules)")
        return 2
    with tempfile.TemporaryDirectory(prefix="weburl-planted-") as tmp:
        src = Path(tmp) / "src"
        for path in compiled.source_files(ROOT):
            if path.is_file() and "__pycache__" not in path.parts:
                target = src / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
        module = src / "weburl_nb" / f"{a.module}.py"
        text = module.read_text(encoding="utf-8")
        if text.count(a.old) != 1:
            print(f"planted_fault: {a.old!r} occurs {text.count(a.old)} times in {a.module}, not once")
            return 2
        module.write_text(text.replace(a.old, a.new), encoding="utf-8")
        print(f"planted_fault: {a.module}: {a.old!r} -> {a.new!r}", flush=True)
        python = compiled.build(src)
    caught = {}
    d = subprocess.run([sys.executable, str(ROOT / "tools" / "differential.py"), str(python),
                        "--hypothesis", "500", "--messy", "2000"], capture_output=True, text=True)
    caught["differential"] = d.returncode == 1 and "MISMATCH" in d.stdout
    print("\n".join(d.stdout.splitlines()[-3:]))
    t = subprocess.run([str(python), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                        str(ROOT / "tests" / "test_fast_path.py")], capture_output=True, text=True,
                       cwd=python.parent.parent, env=compiled.clean_env())
    caught["tests/test_fast_path.py"] = t.returncode == 1
    print("\n".join(t.stdout.splitlines()[-2:]))
    for name, ok in caught.items():
        print(f"planted_fault: {name}: {'caught the fault' if ok else 'DID NOT catch the fault'}")
    return 0 if all(caught.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
