#!/usr/bin/env bash
# Sourced by the benches that write files: fresh_ext4 DIR mounts a fresh ext4 with a journal at DIR for the rest of
# the calling script (a loop device over an image beside DIR, removed at exit) and sets FERRY_BENCH_FS_LABEL to say
# which filesystem the runs wrote on. This VM's root filesystem has no journal, and without one ext4 skips every inode
# freed in the last 60-360 s when it creates a file (recently_deleted), so 20,000 creates right after a run's 20,000
# deletes cost 4.5 kernel CPU-s instead of 0.5 (bench/results); a mounted volume or an NFS export has a journal.
# FERRY_BENCH_FS=host writes into DIR wherever it is; FERRY_BENCH_FS_GIB sizes the image (24).
fresh_ext4() {
  local work=$1 image="$1.img" loop=""
  mkdir -p "$work"
  export FERRY_BENCH_FS_LABEL="host filesystem"
  if [ "${FERRY_BENCH_FS:-ext4}" != ext4 ]; then echo "filesystem of the runs: $FERRY_BENCH_FS_LABEL"; return; fi
  if mountpoint -q "$work"; then umount -l "$work"; fi # left by a run that was killed
  for stale in $(losetup -n -O NAME -j "$image" 2>/dev/null); do losetup -d "$stale"; done
  if fallocate -l "${FERRY_BENCH_FS_GIB:-24}G" "$image" && loop=$(losetup -f --show --direct-io=on "$image" 2>/dev/null) \
      && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" && mount "$loop" "$work"; then
    # lazily: servers the bench started may still be exiting; the loop device goes when the filesystem is let go
    trap "umount -l '$work'; losetup -d '$loop' 2>/dev/null; rm -f '$image'" EXIT
    FERRY_BENCH_FS_LABEL="fresh ext4 with a journal"
  else
    [ -n "$loop" ] && losetup -d "$loop"
    rm -f "$image"
    echo "WARNING: cannot mount a fresh ext4 (needs root and a loop device): the runs write into $work as it is" >&2
  fi
  echo "filesystem of the runs: $FERRY_BENCH_FS_LABEL"
}
