#!/usr/bin/env python3
"""What one durable commit costs the disk, by write pattern (run by hand, next to the benchmark).

Before the paired header layout (session 8), a small realmtui commit wrote its nodes side by
side somewhere in the file and then its 64-byte header slot on page 0: two separate regions
before the one fdatasync. Now it writes them into the commit area right after the slot's page:
one region. SQLite in WAL mode appends one frame. This times each pattern on a 34 MB file in
the current directory
(median of 800 fdatasyncs, patterns interleaved so drift hits them alike):

    python3 Benchmarks/Scripts/fsync_regions.py
"""
import os
import statistics
import time

PATH = "fsync_regions.tmp"
PATTERNS = {
    "nodes far from page 0 + slot (single layout)": [(32856920, 7040), (64, 64)],
    "nodes right after page 0 + slot (paired layout)": [(4096, 7040), (64, 64)],
    "nodes only, one region": [(32856920, 7040)],
    "one 4 KB page (a WAL frame)": [(32854016, 4096)],
}

fd = os.open(PATH, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
try:
    os.write(fd, b"\0" * (34 << 20))
    os.fsync(fd)
    times = {name: [] for name in PATTERNS}
    for _ in range(8):
        for name, writes in PATTERNS.items():
            for i in range(100):
                start = time.perf_counter()
                for offset, size in writes:
                    os.pwrite(fd, bytes([i % 256]) * size, offset)
                os.fdatasync(fd)
                times[name].append(time.perf_counter() - start)
    for name, samples in times.items():
        print(f"{name:46s} median {statistics.median(samples) * 1e6:6.0f} µs")
finally:
    os.close(fd)
    os.unlink(PATH)
