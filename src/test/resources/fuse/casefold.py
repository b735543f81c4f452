#!/usr/bin/env python3
"""A case-insensitive filesystem for tests: every name under MOUNT is looked up in BACKING without regard to case, as
on vfat, APFS or ext4 with casefold; a name keeps the case it was created with. Usage: casefold.py BACKING MOUNT
(foreground; unmount with fusermount3 -u MOUNT, or kill it)."""
import errno
import os
import sys

try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's python3-fusepy
except ImportError:
    from fuse import FUSE, FuseOSError, Operations


class CaseFold(Operations):
    def __init__(self, backing):
        self.backing = os.path.realpath(backing)

    def _real(self, path):
        """The backing path of `path`, each component matched without regard to case; a missing last one as given."""
        real = self.backing
        parts = [p for p in path.split('/') if p]
        for i, part in enumerate(parts):
            exact = os.path.join(real, part)
            if os.path.lexists(exact):
                real = exact
                continue
            match = None
            if os.path.isdir(real):
                for name in os.listdir(real):
                    if name.casefold() == part.casefold():
                        match = name
                        break
            real = os.path.join(real, match if match is not None else part)
        return real

    def getattr(self, path, fh=None):
        st = os.lstat(self._real(path))
        return {k: getattr(st, k) for k in ('st_atime', 'st_ctime', 'st_gid', 'st_mode', 'st_mtime', 'st_nlink', 'st_size',
                                            'st_uid', 'st_ino')}

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._real(path))

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self._real(path), uid, gid)

    def readlink(self, path):
        return os.readlink(self._real(path))

    def mkdir(self, path, mode):
        os.mkdir(self._real(path), mode)

    def rmdir(self, path):
        os.rmdir(self._real(path))

    def unlink(self, path):
        os.unlink(self._real(path))

    def symlink(self, name, target):
        os.symlink(target, self._real(name))

    def link(self, target, name):
        os.link(self._real(name), self._real(target))

    def rename(self, old, new):
        os.rename(self._real(old), self._real(new))

    def utimens(self, path, times=None):
        os.utime(self._real(path), ns=None if times is None else tuple(int(t * 1e9) for t in times), follow_symlinks=False)

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        return {k: getattr(st, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files',
                                            'f_flag', 'f_frsize', 'f_namemax')}

    def open(self, path, flags):
        return os.open(self._real(path), flags)

    def create(self, path, mode, fi=None):
        return os.open(self._real(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)

    def read(self, path, length, offset, fh):
        return os.pread(fh, length, offset)

    def write(self, path, buf, offset, fh):
        return os.pwrite(fh, buf, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            os.ftruncate(fh, length)
        else:
            os.truncate(self._real(path), length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)

    def fsync(self, path, datasync, fh):
        if fh is None:
            return 0
        os.fdatasync(fh) if datasync else os.fsync(fh)

    def fsyncdir(self, path, datasync, fh):
        return 0


if __name__ == '__main__':
    FUSE(CaseFold(sys.argv[1]), sys.argv[2], foreground=True, nothreads=False, use_ino=True)
