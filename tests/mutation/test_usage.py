"""mutate.py's usage errors: a source that does not exist, named by
--files or by a --mutant name, is refused with a message naming it and exit
code 2 (argparse's), never a traceback. Nothing is built."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutate.py")

for args, named in ((["--mutant", "lib/no_such_room/none.c:1:1:lt-to-le"], "--mutant"),
                    (["--files", "lib/no_such_room", "--list"], "lib/no_such_room")):
    r = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (args, r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "no such file or folder: 'lib/no_such_room" in r.stderr, r.stderr
    assert named in r.stderr, r.stderr
print("ok")
