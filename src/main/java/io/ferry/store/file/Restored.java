package io.ferry.store.file;

import io.ferry.store.ObjectMetadata;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a directory destination restores of a file beyond its bytes, as a source tells it in rclone's user metadata:
 * its modification time ({@code mtime}, seconds with nine decimals), permission bits ({@code mode} in octal), owner
 * ({@code uid}, {@code gid}). Any may be absent (-1): a bucket object written by another tool has none, and its time
 * is then its listed one. Only the permission bits (0777) are restored; set-id and sticky bits never are (a copied file
 * does not gain privileges).
 *
 * <p>It travels from the write of an object's first range to its completion as that range's receipt ({@link
 * #receipt}), which the ledger keeps, so a completion in a later run restores it too.
 */
record Restored(int mode, long uid, long gid, long mtime) {
  /** A time the source does not tell. */
  static final long NO_TIME = Long.MIN_VALUE;
  static final Restored NONE = new Restored(-1, -1, -1, NO_TIME);
  private static final String PREFIX = "unix";

  /** From user metadata, names matched case-insensitively (S3 lower-cases them); a value that does not parse is absent. */
  static Restored of(Map<String, String> userMetadata) {
    int mode = -1;
    long uid = -1;
    long gid = -1;
    long mtime = NO_TIME;
    for (Map.Entry<String, String> e : userMetadata.entrySet()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      String value = e.getValue().trim();
      if (name.equals(ObjectMetadata.MODE)) mode = permissions(value);
      if (name.equals(ObjectMetadata.UID)) uid = number(value, 10);
      if (name.equals(ObjectMetadata.GID)) gid = number(value, 10);
      if (name.equals(ObjectMetadata.MTIME)) mtime = ObjectMetadata.mtimeMillis(value);
    }
    return new Restored(mode, uid, gid, mtime);
  }

  /** The time to give the file: the source's own ({@code mtime}) where it tells one, else {@code listed}. */
  long time(long listed) {
    return mtime != NO_TIME ? mtime : listed;
  }

  /** The permission bits of an octal mode (rclone's holds the file type too: 100644), or -1. */
  private static int permissions(String octal) {
    long n = number(octal, 8);
    return n < 0 ? -1 : (int) (n & 0777);
  }

  /** A number in {@code radix} of at most 32 bits, or -1. */
  private static long number(String text, int radix) {
    try {
      long n = Long.parseLong(text, radix);
      return n < 0 || n > 0xFFFF_FFFFL ? -1 : n;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  Restored {
    if (mode < 0 && mode != -1 || mode > 0777) throw new IllegalArgumentException("mode " + mode);
  }

  private static long millis(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return NO_TIME;
    }
  }

  boolean isNone() {
    return mode < 0 && uid < 0 && gid < 0 && mtime == NO_TIME;
  }

  /** "unix mode=644 uid=1000 gid=1000 mtime=1700000000000" (absent ones left out); "" when none. */
  String receipt() {
    if (isNone()) return "";
    StringBuilder s = new StringBuilder(PREFIX);
    if (mode >= 0) s.append(" mode=").append(Integer.toOctalString(mode));
    if (uid >= 0) s.append(" uid=").append(uid);
    if (gid >= 0) s.append(" gid=").append(gid);
    if (mtime != NO_TIME) s.append(" mtime=").append(mtime);
    return s.toString();
  }

  /** The first receipt that is one of these; NONE where none is (an object written before Ferry kept them). */
  static Restored fromReceipts(Iterable<String> receipts) {
    for (String r : receipts) {
      if (r == null || !r.startsWith(PREFIX + " ")) continue;
      int mode = -1;
      long uid = -1;
      long gid = -1;
      long mtime = NO_TIME;
      for (String field : r.substring(PREFIX.length() + 1).split(" ")) {
        int eq = field.indexOf('=');
        if (eq < 0) continue;
        String value = field.substring(eq + 1);
        switch (field.substring(0, eq)) {
          case "mode" -> mode = permissions(value);
          case "uid" -> uid = number(value, 10);
          case "gid" -> gid = number(value, 10);
          case "mtime" -> mtime = millis(value);
          default -> { }
        }
      }
      return new Restored(mode, uid, gid, mtime);
    }
    return NONE;
  }

  /**
   * Sets the owner, then the mode, of {@code file} (a link is never followed), with {@code ownerBits} (0600 for a file
   * still to be completed, 0700 for a folder still to be written into) kept for now, so that the process may open it
   * again (a completion retried); {@link #exact} sets the mode itself, once nothing more is to be done to it. The owner
   * is changed only where it differs; where the system does not permit it (not root), it is left and said. Returns what
   * was not restored, "" when all was.
   */
  String restore(Path file, int ownerBits) throws IOException {
    return apply(file, mode < 0 ? -1 : mode | ownerBits, true);
  }

  /** The mode itself, where it lacks bits {@link #restore} kept; "" or what was not set. */
  String exact(Path file, int ownerBits) throws IOException {
    return mode < 0 || (mode & ownerBits) == ownerBits ? "" : apply(file, mode, false);
  }

  private String apply(Path file, int mode, boolean owner) throws IOException {
    long uid = owner ? this.uid : -1;
    long gid = owner ? this.gid : -1;
    List<String> not = new ArrayList<>();
    if (uid >= 0 || gid >= 0) {
      try {
        Map<String, Object> now = Files.readAttributes(file, "unix:uid,gid", LinkOption.NOFOLLOW_LINKS);
        if (uid >= 0 && uid != ((Integer) now.get("uid") & 0xFFFF_FFFFL)) {
          Files.setAttribute(file, "unix:uid", (int) uid, LinkOption.NOFOLLOW_LINKS);
        }
        if (gid >= 0 && gid != ((Integer) now.get("gid") & 0xFFFF_FFFFL)) {
          Files.setAttribute(file, "unix:gid", (int) gid, LinkOption.NOFOLLOW_LINKS);
        }
      } catch (FileSystemException e) {
        not.add("owner " + uid + ":" + gid + " (" + reason(e) + ")");
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        not.add("owner " + uid + ":" + gid + " (the filesystem keeps no Unix owner)");
      }
    }
    if (mode >= 0) {
      try {
        Files.setAttribute(file, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
      } catch (FileSystemException e) {
        not.add("mode " + Integer.toOctalString(mode) + " (" + reason(e) + ")");
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        not.add("mode " + Integer.toOctalString(mode) + " (the filesystem keeps no Unix mode)");
      }
    }
    return String.join(", ", not);
  }

  private static String reason(FileSystemException e) {
    return e.getReason() == null ? e.getClass().getSimpleName() : e.getReason();
  }
}
