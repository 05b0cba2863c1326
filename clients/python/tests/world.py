"""The real `imprint serve` for a test module: a temporary data directory with space
"alpha" and its owner o@a.test (password PASSWORD), made with the CLI, optionally a
`config.json` in it, and the server on a free loopback port. The binary is IMPRINT_BINARY (CTest sets it) or ../../../build/imprint."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time

BINARY = os.environ.get("IMPRINT_BINARY") or os.path.join(os.path.dirname(__file__), "../../../build/imprint")
ENV = dict(os.environ, IMPRINT_ARGON2_LIMITS="min", QT_QPA_PLATFORM="offscreen")
PASSWORD = "password123"

# A card of one colour, variable `bg`, drawn by the takumi engine: what the suites render.
CARD = {
    "name": "Card",
    "width": 160,
    "height": 80,
    "rendererType": "takumi",
    "variables": [{"name": "bg", "type": "color", "default": "#336699"}],
    "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
                                                "backgroundColor": "{{bg}}"}}},
}


def cli(data_dir, *args, stdin=None):
    """`imprint ARGS... --data DATA_DIR` to completion: its stdout (CalledProcessError on failure)."""
    return subprocess.run([BINARY, *args, "--data", data_dir], env=ENV, input=stdin, capture_output=True,
                          text=True, check=True).stdout


class World:
    """Starts the server over a fresh data directory; `url`, `data_dir`; stop() ends it.
    `config` (a dict) is written to DATA/config.json before the server starts (docs/deployment.md,
    "Configuration"); without it there is none."""

    def __init__(self, config=None):
        self.data_dir = tempfile.mkdtemp(prefix="imprint-py-")
        cli(self.data_dir, "user", "add", "--email", "o@a.test", "--space", "alpha", "--create-space", "--role",
            "owner", stdin=f"{PASSWORD}\n{PASSWORD}\n")
        if config is not None:
            with open(os.path.join(self.data_dir, "config.json"), "w", encoding="utf-8") as f:
                json.dump(config, f)
        log_path = os.path.join(self.data_dir, "server.log")
        self.log = open(log_path, "ab")
        self.server = subprocess.Popen([BINARY, "serve", "--listen", "127.0.0.1:0", "--data", self.data_dir],
                                       env=ENV, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        port = None
        while time.time() < deadline and port is None:
            time.sleep(0.05)
            with open(log_path, encoding="utf-8", errors="replace") as f:
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", f.read())
            if m:
                port = int(m.group(1))
            elif self.server.poll() is not None:
                break
        if port is None:
            self.stop()
            raise RuntimeError("the server did not start")
        self.url = f"http://127.0.0.1:{port}"

    def stop(self):
        self.server.terminate()
        try:
            self.server.wait(5)
        except subprocess.TimeoutExpired:
            self.server.kill()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)
