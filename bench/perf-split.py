#!/usr/bin/env python3
"""Where a benchmark run's CPU went, by process, thread and system call, from a system-wide perf recording.

  perf record -a -F 199 -g -o perf.data -- env FERRY_BENCH_TOOLS=ferry ... bash bench/run.sh
  perf script -i perf.data -F pid,tid,comm,ip,dso,sym > perf.txt
  python3 bench/perf-split.py perf.txt [199]

A process is named by its threads: Ferry's have ferry-stream threads, S3Proxy's its Jetty threads, rclone's its own
name. CPU-s are samples over the frequency; "kernel" is a sample whose innermost frame is the kernel's. Java frames
are not resolved (no perf map), so the user side is split by thread only; JFR tells what runs inside them.
"""
import collections
import re
import sys

HEADER = re.compile(r'\s*(.+?)\s+(\d+)/(\d+)')
FRAME = re.compile(r'\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$')
# kernel functions worth naming wherever they are on the stack: ext4's inode allocation (a create's search of the
# inode bitmap) and the socket paths
MARKS = ['find_inode_bit', 'tcp_recvmsg', 'tcp_sendmsg']


def main():
    path = sys.argv[1]
    hz = float(sys.argv[2]) if len(sys.argv) > 2 else 199.0
    comms = collections.defaultdict(set)
    samples = []
    for block in open(path, errors='replace').read().split('\n\n'):
        lines = block.strip('\n').split('\n')
        header = HEADER.match(lines[0]) if lines and lines[0].strip() else None
        if not header:
            continue
        comm, pid = header.group(1), int(header.group(2))
        frames = [(m.group(1), 'kernel' in m.group(2)) for m in map(FRAME.match, lines[1:]) if m]
        comms[pid].add(comm)
        samples.append((pid, re.sub(r'\d+', 'N', comm), frames))

    def process(pid):
        names = comms[pid]
        if pid == 0:
            return 'idle'
        if any(n.startswith('ferry-stream') for n in names):
            return 'ferry'
        if any(n.startswith('rclone') for n in names):
            return 'rclone'
        if any(n.startswith('S3Proxy') for n in names):
            return 's3proxy'
        return 'other'

    by_process = collections.Counter()
    kernel = collections.Counter()
    threads = collections.defaultdict(collections.Counter)
    thread_kernel = collections.defaultdict(collections.Counter)
    calls = collections.defaultdict(collections.Counter)
    marks = collections.defaultdict(collections.Counter)
    for pid, comm, frames in samples:
        p = process(pid)
        in_kernel = bool(frames) and frames[0][1]
        by_process[p] += 1
        threads[p][comm] += 1
        if in_kernel:
            kernel[p] += 1
            thread_kernel[p][comm] += 1
            names = [f for f, k in frames if k]
            call = next((n for n in names if n.startswith('__x64_sys_') or n.startswith('__do_sys_')), 'no system call')
            calls[p][call.replace('__x64_sys_', '').replace('__do_sys_', '')] += 1
            for mark in MARKS:
                if mark in names:
                    marks[p][mark] += 1

    print(f'{"process":10} {"CPU-s":>7} {"kernel":>7} {"user":>7}')
    for p, n in by_process.most_common():
        print(f'{p:10} {n / hz:7.1f} {kernel[p] / hz:7.1f} {(n - kernel[p]) / hz:7.1f}')
    for p in ('ferry', 'rclone'):
        if p not in by_process:
            continue
        print(f'\n{p}: threads (CPU-s, kernel CPU-s)')
        for comm, n in threads[p].most_common(12):
            print(f'  {comm:24} {n / hz:6.2f} {thread_kernel[p][comm] / hz:6.2f}')
        print(f'{p}: kernel by system call (CPU-s)')
        for call, n in calls[p].most_common(10):
            print(f'  {call:24} {n / hz:6.2f}')
        print(f'{p}: kernel functions anywhere on the stack (CPU-s)')
        for mark in MARKS:
            print(f'  {mark:24} {marks[p][mark] / hz:6.2f}')


if __name__ == '__main__':
    main()
