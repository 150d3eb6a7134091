#!/usr/bin/env python3
"""Screenshots of the window for review and documentation: a short real run
of the default profile, then light, dark and 200 % pictures, written to
OUTDIR (ninja -C build ui-shots puts them in build/ui-shots)."""

import os
import sys
import tempfile

import test_gui as t

RUN = ["--profile", "default", "--size", "64MiB", "--passes", "1", "--measure", "1",
       "--warmup", "0", "--interval", "0", "--comment", "Drivemark screenshot", "--autorun",
       "--quit-when-done"]

VARIANTS = {
    "light": {},
    "dark": {"GTK_THEME": "Adwaita:dark"},
    "scale2": {"GDK_SCALE": "2"},
}


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    os.makedirs(t.TMP_BASE, exist_ok=True)
    for name, env in VARIANTS.items():
        path = os.path.join(outdir, name + ".png")
        with tempfile.TemporaryDirectory(prefix="shots-", dir=t.TMP_BASE) as d:
            target = os.path.join(d, "Benchmark")
            os.mkdir(target)
            rc, _, err, _ = t.run_app(["--target", target, "--screenshot", path] + RUN, env=env)
        if rc != 0:
            sys.stderr.write(f"{name}: exit {rc}\n{err}")
            return 1
        w, h = t.check_screenshot(path)
        print(f"{path}: {w}x{h}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "ui-shots"))
