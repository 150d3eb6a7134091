# SPDX-License-Identifier: GPL-3.0-or-later
"""A private D-Bus "system" bus for a test (tests/ui/test_udisks.py,
tests/integration/test_udisks.py): a dbus-daemon of its own, listening on
a socket under a test directory, with a config that lets anyone own and
call anything, so a mock udisksd or a real one can be started on it and
the client pointed at it by DBUS_SYSTEM_BUS_ADDRESS. The machine's own
system bus is never touched."""

import os
import shutil
import subprocess

import dmktest

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


class PrivateBus:
    """with PrivateBus(d) as address: a bus until the block ends."""

    def __init__(self, d):
        self.dir = d
        self.proc = None

    def __enter__(self):
        if not shutil.which("dbus-daemon"):
            raise dmktest.Skip("needs dbus-daemon (package dbus-daemon)")
        socket = os.path.join(self.dir, "system_bus_socket")
        conf = os.path.join(self.dir, "bus.conf")
        with open(conf, "w") as f:
            f.write(CONFIG.format(socket=socket))
        self.proc = subprocess.Popen(
            ["dbus-daemon", f"--config-file={conf}", "--nofork", "--nopidfile",
             "--print-address=1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # (Its stderr is read only once it has ended: a pipe nobody reads
        # holds the few warnings it writes, never blocks it.)
        # The address line comes once the socket listens: no wait guessed.
        self.address = self.proc.stdout.readline().strip()
        if not self.address.startswith("unix:"):  # it ended: its stderr says why
            raise AssertionError(f"dbus-daemon gave no address: {self.proc.stderr.read()}")
        # A socket that is not readable by other users would keep a test
        # that runs its client as another user off the bus.
        os.chmod(self.dir, 0o755)
        return self.address

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=30)
