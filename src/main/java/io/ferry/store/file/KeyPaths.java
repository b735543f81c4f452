package io.ferry.store.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Maps object keys to paths under a destination directory, safely: a key can never name a path outside it.
 * Rejected: NUL, a leading '/', empty segments ("a//b"), "." and ".." segments, and segments longer than a file
 * name may be. Each rejection is a per-object error that says why.
 */
public final class KeyPaths {
  /** The longest file name most filesystems (ext4, XFS, NFS) accept, in bytes. */
  static final int NAME_MAX = 255;

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
      if (segment.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
        throw new UnsafeKeyException("a path segment of the key is longer than " + NAME_MAX + " bytes");
      }
      resolved = resolved.resolve(segment);
    }
    Path normalizedRoot = root.toAbsolutePath().normalize();
    if (!resolved.toAbsolutePath().normalize().startsWith(normalizedRoot)) {
      throw new UnsafeKeyException("the key resolves outside the destination directory");
    }
    return resolved;
  }

  /**
   * The temp file an object is written into before its commit: beside the final file (so the rename is atomic on
   * one filesystem), named for the job ({@code tag}), and hidden. A name that would grow too long is replaced by a
   * digest.
   */
  public static Path tempPath(Path finalPath, String tag) {
    String name = finalPath.getFileName().toString();
    String temp = "." + name + ".ferry-" + tag + ".tmp";
    if (temp.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
      temp = ".ferry-" + sha256(name).substring(0, 32) + "-" + tag + ".tmp";
    }
    return finalPath.resolveSibling(temp);
  }

  /** True for names {@link #tempPath} makes, for any tag. */
  public static boolean isTempName(String fileName) {
    return fileName.startsWith(".") && fileName.endsWith(".tmp") && fileName.contains(".ferry-") || fileName.startsWith(".ferry-");
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
    return fileName.equals(markerName(tag)) || fileName.startsWith(".") && (fileName.endsWith(".ferry-" + tag + ".tmp")
        || fileName.startsWith(".ferry-") && fileName.endsWith("-" + tag + ".tmp") && fileName.length() == ".ferry-".length() + 33 + tag.length() + 4);
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
