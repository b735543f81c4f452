package io.ferry.ledger;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The filesystem of the reports and the ledger for {@code file:} paths: Hadoop's raw local filesystem, with permissions set through
 * {@code java.nio} instead of a {@code chmod} child process. Without Hadoop's native library (Spark ships none) every
 * file and directory Hadoop's local filesystem creates forks {@code chmod}: 37 processes for one run's report, and
 * their {@code .crc} side files besides. Not checksummed: the report's readers are pandas, Spark and a browser, none of
 * which reads Hadoop's side files. Any other filesystem ({@code s3a:}, {@code hdfs:}) is Hadoop's own.
 */
public final class LocalFiles extends RawLocalFileSystem {
  /**
   * The filesystem for {@code uri}: a new one of these for a local path ({@code file:}, or no scheme where
   * {@code fs.defaultFS} is local: on a cluster whose default is {@code hdfs:} a bare path stays there), Hadoop's
   * (cached) one for any other. Cheap to build: it holds nothing but {@code conf} (umask, buffer size).
   */
  public static FileSystem of(URI uri, Configuration conf) throws IOException {
    String scheme = uri.getScheme() != null ? uri.getScheme() : FileSystem.getDefaultUri(conf).getScheme();
    if (scheme != null && !scheme.equals("file")) return FileSystem.get(uri, conf);
    LocalFiles local = new LocalFiles();
    local.initialize(URI.create("file:///"), conf);
    return local;
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    java.nio.file.Path file = pathToFile(p).toPath();
    try {
      Files.setPosixFilePermissions(file, posix(permission.toShort()));
    } catch (UnsupportedOperationException e) {
      super.setPermission(p, permission); // not a POSIX filesystem: Hadoop's way
    }
  }

  /** The nine permission bits of {@code mode} (owner, group, others; read, write, execute). */
  static Set<PosixFilePermission> posix(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << i)) != 0) set.add(bits[i]);
    }
    return set;
  }
}
