#!/usr/bin/env python3
"""Kernel CPU of writing 2 GiB into new files through the page cache, in the shape of Ferry's parts or a plain writer's.

  python3 bench/page-cache-writes.py DIR BYTES_PER_WRITE THREADS FILES sync|nosync lock|nolock [keep|release] [MB/s]

Each file is created at its size; THREADS take 64 MiB parts in turn and write each in BYTES_PER_WRITE pwrites (under a
lock per file with "lock", as FileDestination's writes are), then fdatasync the file with "sync" (as each part is made
durable before the ledger records it). With "release" each part's pages are handed back as it goes, as rclone's writer
does: every 8 MiB written, the writeback of that chunk starts, and the chunk before it, written back by then, leaves
the page cache (sync_file_range, then POSIX_FADV_DONTNEED), so later writes reuse freed pages. MB/s paces all threads
together to about that rate, as streams from a store are paced (default: as fast as they go). Prints the kernel and
wall seconds. Run the shapes alternately, each some seconds after the last one's files are deleted: on a VM that hands
freed memory back to its host the cost drifts.
"""
import ctypes
import os
import resource
import sys
import threading
import time


def main():
    folder, size_per_write, threads, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    sync, locked = sys.argv[5] == 'sync', sys.argv[6] == 'lock'
    release = len(sys.argv) > 7 and sys.argv[7] == 'release'
    pace = float(sys.argv[8]) * 1e6 / threads if len(sys.argv) > 8 else 0  # bytes per second per thread
    chunk = 8 << 20
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    wait_before, write, wait_after = 1, 2, 4  # SYNC_FILE_RANGE_*
    size, part = (2 << 30) // files, 64 << 20
    fds, locks = [], []
    for f in range(files):
        fd = os.open(os.path.join(folder, 'page-cache-writes-%d' % f), os.O_CREAT | os.O_TRUNC | os.O_RDWR, 0o644)
        os.ftruncate(fd, size)
        fds.append(fd)
        locks.append(threading.Lock())
    parts = [(i, offset) for i in range(files) for offset in range(0, size, part)]
    taking = threading.Lock()
    data = os.urandom(size_per_write)

    def worker():
        while True:
            with taking:
                if not parts:
                    return
                i, offset = parts.pop(0)
            begun = time.time()
            for at in range(offset, offset + part, size_per_write):
                if pace:
                    ahead = begun + (at - offset) / pace - time.time()
                    if ahead > 0:
                        time.sleep(ahead)
                if locked:
                    with locks[i]:
                        os.pwrite(fds[i], data, at)
                else:
                    os.pwrite(fds[i], data, at)
                end = at + size_per_write
                if release and (end - offset) % chunk == 0:
                    libc.sync_file_range(fds[i], end - chunk, chunk, write)
                    if end - offset >= 2 * chunk:
                        before = end - 2 * chunk
                        libc.sync_file_range(fds[i], before, chunk, wait_before | write | wait_after)
                        os.posix_fadvise(fds[i], before, chunk, os.POSIX_FADV_DONTNEED)
            if sync:
                os.fdatasync(fds[i])

    before, started = resource.getrusage(resource.RUSAGE_SELF), time.time()
    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    for f in range(files):
        os.close(fds[f])
        os.remove(os.path.join(folder, 'page-cache-writes-%d' % f))
    print(' '.join(sys.argv[2:]), 'kernel %.2f s, wall %.2f s' % (after.ru_stime - before.ru_stime, time.time() - started))


if __name__ == '__main__':
    main()
