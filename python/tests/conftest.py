import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def ur_bin():
    """The `ur` command the Python games are checked against (UR_BIN, or the build's)."""
    for candidate in (os.environ.get("UR_BIN"), ROOT / "target/debug/ur", ROOT / "target/release/ur", shutil.which("ur")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.fail("no `ur` binary: build it with `cargo build -p ur-cli` or set UR_BIN")


def run_ur(ur_bin, *args):
    args = [str(a) for a in args]
    done = subprocess.run([ur_bin, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"ur {' '.join(args)} failed: {done.stderr}"
    return done.stdout
