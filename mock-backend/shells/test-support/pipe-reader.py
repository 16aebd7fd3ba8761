"""Reads a stdio mock the way most non-Node harnesses do: through plain OS pipes.

Usage: python3 pipe-reader.py '<json: {"command": [...], "frame": "...", "waitMs": N, "quietMs": Q}>'

Spawns the command with stdin and stdout as pipes (subprocess.PIPE, never socket pairs), writes
one frame and keeps stdin open, as a persistent harness does. Reads stdout until EOF or waitMs,
then says on its own stdout, as one JSON line, what it saw: the lines, whether EOF came (and
when), whether the process was still running quietMs after EOF (stdout closed, process alive),
and how it ended once stdin was closed.
"""

import json
import os
import select
import subprocess
import sys
import time


def main() -> None:
    config = json.loads(sys.argv[1])
    wait_s = config["waitMs"] / 1000
    child = subprocess.Popen(
        config["command"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    started = time.monotonic()
    child.stdin.write((config["frame"] + "\n").encode())
    child.stdin.flush()
    fd = child.stdout.fileno()
    data = b""
    eof_ms = None
    while time.monotonic() - started < wait_s:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if chunk == b"":
            eof_ms = round((time.monotonic() - started) * 1000)
            break
        data += chunk
    # The exit status follows the end of stdout by a moment; still running after quietMs, the
    # process closed stdout alone.
    running_after_eof = False
    if eof_ms is not None:
        try:
            child.wait(timeout=config["quietMs"] / 1000)
        except subprocess.TimeoutExpired:
            running_after_eof = True
    child.stdin.close()
    try:
        returncode = child.wait(timeout=wait_s)
        killed = False
    except subprocess.TimeoutExpired:
        child.kill()
        returncode = child.wait()
        killed = True
    print(
        json.dumps(
            {
                "lines": [line for line in data.decode("utf-8", "replace").split("\n") if line],
                "eof": eof_ms is not None,
                "eofMs": eof_ms,
                "runningAfterEof": running_after_eof,
                "returncode": returncode,
                "killedByReader": killed,
            }
        )
    )


main()
