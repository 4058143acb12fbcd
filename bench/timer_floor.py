#!/usr/bin/env python3
"""The machine's own floor for bench/gui_liveness.sh: how late a 5 ms sleep wakes while two nice-19
processes touch fresh memory (as a solver setting up or stepping through new arrays does), with no
app at all, and the CPU time the hypervisor took from this machine meanwhile (steal, /proc/stat).
On a virtual machine first touches of memory can hold every virtual CPU at once; a window's timer
then wakes late however little its own thread does.
usage: bench/timer_floor.py [SECONDS]   (default 20)"""
import argparse
import mmap
import os
import subprocess
import sys
import time

CHUNK = 1 << 30  # bytes mapped, touched page by page and unmapped, over and over


def touch_memory(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        m = mmap.mmap(-1, CHUNK)
        for offset in range(0, CHUNK, mmap.PAGESIZE):
            m[offset] = 1
        m.close()


def steal_seconds():
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("usage:")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seconds", nargs="?", type=float, default=20.0, help="how long to watch (default 20)")
    parser.add_argument("--load", action="store_true", help=argparse.SUPPRESS)  # a memory-touching process it starts
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error(f"SECONDS must be positive, not {args.seconds:g}")
    if args.load:
        touch_memory(args.seconds)
        return
    loads = [subprocess.Popen(["nice", "-n", "19", sys.executable, __file__, "--load", str(args.seconds + 1)]) for _ in range(2)]
    steal0, longest, last = steal_seconds(), 0.0, time.monotonic()
    end = last + args.seconds
    while last < end:
        time.sleep(0.005)
        now = time.monotonic()
        longest = max(longest, now - last - 0.005)
        last = now
    steal = steal_seconds() - steal0
    for p in loads:
        p.kill()
        p.wait()
    print(f"timer floor: longest_gap_ms={1e3 * longest:.1f} over {args.seconds:g} s steal_s={steal:.2f}")


if __name__ == "__main__":
    main()
