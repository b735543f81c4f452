package io.ferry.store.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Maps object keys to paths under a destination directory, safely: a key can never name a path outside it.
 * Rejected: NUL, a leading '/', empty segments ("a//b"), "." and ".." segments, segments longer than a file name may
 * be, names this JVM cannot encode as file names, and names of the form of Ferry's own temp files and markers (a
 * later run would take such a file for a leftover). Each rejection is a per-object error that says why.
 */
public final class KeyPaths {
  /** The longest file name most filesystems (ext4, XFS, NFS) accept, in bytes. */
  static final int NAME_MAX = 255;
  /** What an opening adds to its temp file's name: 12 hex digits. */
  static final int NONCE_LENGTH = 12;
  /**
   * ".name.ferry-TAG.tmp" (an object written whole), ".name.ferry-TAG.NONCE.tmp" (one opened for a write in parts),
   * and the same with ".ferry-DIGEST-" in front where the name would be too long; ".ferry-TAG.marker".
   */
  private static final Pattern TEMP =
      Pattern.compile("\\.(.+\\.ferry-|ferry-[0-9a-f]{32}-)(.+?)(\\.[0-9a-f]{12})?\\.tmp|\\.ferry-(.+)\\.marker",
      Pattern.DOTALL);

  private KeyPaths() {}

  public static Path resolve(Path root, String relativeKey) throws UnsafeKeyException {
    if (relativeKey.isEmpty()) throw new UnsafeKeyException("the key is empty relative to the source prefix");
    if (relativeKey.indexOf('\0') >= 0) throw new UnsafeKeyException("the key contains a NUL character");
    if (relativeKey.startsWith("/")) throw new UnsafeKeyException("the key starts with '/' (it would be an absolute path)");
    if (relativeKey.endsWith("/")) throw new UnsafeKeyException("the key ends with '/' but holds bytes (a file cannot have that name)");
    Path resolved = root;
    for (String segment : relativeKey.split("/", -1)) {
      if (segment.isEmpty()) throw new UnsafeKeyException("the key has an empty path segment ('//')");
      if (segment.equals(".") || segment.equals("..")) {
        throw new UnsafeKeyException("the key has a '" + segment + "' segment (it could escape the destination directory)");
      }
      // at most 3 bytes of UTF-8 per char: only a long segment is encoded to be measured
      if (segment.length() > NAME_MAX / 3 && segment.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
        throw new UnsafeKeyException("a path segment of the key is longer than " + NAME_MAX + " bytes");
      }
      try {
        resolved = resolved.resolve(segment);
      } catch (InvalidPathException e) {
        throw new UnsafeKeyException("the key cannot be a file name in this JVM's file name encoding (sun.jnu.encoding = "
            + System.getProperty("sun.jnu.encoding") + "): run Ferry under a UTF-8 locale, e.g. LC_ALL=C.UTF-8");
      }
    }
    if (isTempName(resolved.getFileName().toString())) {
      throw new UnsafeKeyException("the key's file name has the form of Ferry's own temp files and markers, which a later run"
          + " would remove as a leftover");
    }
    Path normalizedRoot = root.toAbsolutePath().normalize();
    if (!resolved.toAbsolutePath().normalize().startsWith(normalizedRoot)) {
      throw new UnsafeKeyException("the key resolves outside the destination directory");
    }
    return resolved;
  }

  /**
   * The temp file an object is written into before its commit: beside the final file (so the rename is atomic on
   * one filesystem), named for the job ({@code tag}), and hidden; {@code nonce} tells one opening of an object for a
   * write in parts from another, and an object written whole from another key ({@link #keyNonce}). A name that would
   * grow too long is replaced by a digest.
   */
  public static Path tempPath(Path finalPath, String tag, String nonce) {
    String name = finalPath.getFileName().toString();
    String suffix = (nonce.isEmpty() ? "" : "." + nonce) + ".tmp";
    String temp = "." + name + ".ferry-" + tag + suffix;
    if (temp.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
      temp = ".ferry-" + sha256(name).substring(0, 32) + "-" + tag + suffix;
    }
    return finalPath.resolveSibling(temp);
  }

  /**
   * The nonce of an object written whole, from its exact key: its attempts share one temp file, and keys that one folder
   * folds together ("README", "readme") never do (lower-case hex is the same in any case).
   */
  public static String keyNonce(String relativeKey) {
    long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits: distinct keys of one folder meet with odds of 2^-48
    for (int i = 0; i < relativeKey.length(); i++) {
      h ^= relativeKey.charAt(i);
      h *= 0x100000001b3L;
    }
    return hex48(h);
  }

  /** A fresh nonce for {@link #tempPath}. */
  static String nonce() {
    return hex48(ThreadLocalRandom.current().nextLong());
  }

  /** The low 48 bits as 12 lower-case hex digits ({@code %012x}, without the formatter's cost: 2% of a flat job's CPU). */
  static String hex48(long v) {
    return HEX.toHexDigits(v).substring(4);
  }

  private static final HexFormat HEX = HexFormat.of();

  /** True for the names {@link #tempPath} and {@link #markerName} make, for any tag: staging of some job, never an object. */
  public static boolean isTempName(String fileName) {
    return TEMP.matcher(fileName).matches();
  }

  /** True for a marker's name ({@link #markerName}), of any job. */
  public static boolean isMarkerName(String fileName) {
    return fileName.startsWith(".ferry-") && fileName.endsWith(".marker");
  }

  /** Whether the file's name, as this JVM decoded it, names the same bytes again (false for a name that is not UTF-8). */
  static boolean decodes(Path file) {
    return Path.of(file.toString()).toUri().getRawPath().equals(file.toUri().getRawPath());
  }

  /**
   * The file's path under {@code root} by its bytes: each byte that is not printable ASCII as {@code \xNN}, and a
   * backslash as two, as {@code ls -b} shows a name (a name that is not UTF-8 has no key to name it by).
   */
  static String escapedBytes(Path root, Path file) {
    String rootRaw = root.toUri().getRawPath(), raw = file.toUri().getRawPath();
    String relative = raw.startsWith(rootRaw) ? raw.substring(rootRaw.length()) : raw;
    if (relative.startsWith("/")) relative = relative.substring(1);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < relative.length(); i++) {
      char c = relative.charAt(i);
      int b = c;
      if (c == '%' && i + 2 < relative.length()) {
        b = Integer.parseInt(relative.substring(i + 1, i + 3), 16);
        i += 2;
      }
      if (b == '\\') out.append("\\\\");
      else if (b >= 0x20 && b < 0x7f) out.append((char) b);
      else out.append(String.format(Locale.ROOT, "\\x%02x", b));
    }
    return out.toString();
  }

  /** The marker file a run of job {@code tag} leaves in the destination while it runs (the shared-mount check). */
  public static String markerName(String tag) {
    return ".ferry-" + tag + ".marker";
  }

  /**
   * True for the names {@link #tempPath} and {@link #markerName} make for {@code tag}: what cleanup may remove, and
   * nothing else.
   */
  public static boolean isTempNameOf(String fileName, String tag) {
    if (fileName.equals(markerName(tag))) return true;
    if (!fileName.startsWith(".") || !fileName.endsWith(".tmp")) return false;
    String stem = fileName.substring(0, fileName.length() - ".tmp".length());
    int dot = stem.lastIndexOf('.');
    if (dot >= 0 && stem.length() - dot - 1 == NONCE_LENGTH && stem.substring(dot + 1).matches("[0-9a-f]+")
        && ownedBy(stem.substring(0, dot), tag)) {
      return true;
    }
    return ownedBy(stem, tag);
  }

  /** ".name.ferry-TAG" or ".ferry-DIGEST-TAG". */
  private static boolean ownedBy(String stem, String tag) {
    if (stem.endsWith(".ferry-" + tag) && stem.length() > ".ferry-".length() + tag.length() + 1) return true;
    String digested = ".ferry-" + "0".repeat(32) + "-" + tag;
    return stem.length() == digested.length() && stem.startsWith(".ferry-") && stem.endsWith("-" + tag)
        && stem.substring(7, 39).matches("[0-9a-f]{32}");
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
