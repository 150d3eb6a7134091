#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes drivemark.ico from the app's SVG icon: PNG-compressed entries at
# the sizes Windows asks for (Explorer, the taskbar, Alt+Tab). Run by hand
# when the SVG changes (needs python3-gi and librsvg's gdk-pixbuf loader):
#   platform/windows/res/make-ico.py resources/icons/io.github.drivemark.drivemark.svg platform/windows/res/drivemark.ico
import struct
import sys

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

SIZES = (16, 24, 32, 48, 64, 256)


def png_at(svg, size):
    pixbuf = GdkPixbuf.Pixbuf.new_from_file_at_size(svg, size, size)
    ok, data = pixbuf.save_to_bufferv("png", [], [])
    assert ok
    return data


def main(svg, out):
    images = [png_at(svg, s) for s in SIZES]
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for size, data in zip(SIZES, images):
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    with open(out, "wb") as f:
        f.write(head + entries + b"".join(images))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
