package io.ferry.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A folder that folds case, for tests of keys that differ only in case (this kernel has no casefold ext4, tmpfs or
 * vfat): {@code src/test/resources/fuse/casefold.py} on Debian's {@code python3-fusepy} and {@code fuse3}, mounted over
 * a folder and backed by another. {@link #available} says whether this machine can; {@code .ci/run} installs both.
 */
public final class CaseFoldingMount implements AutoCloseable {
  private static final Path SCRIPT = Path.of("src/test/resources/fuse/casefold.py");
  private final Process process;
  private final Path mount;

  private CaseFoldingMount(Process process, Path mount) {
    this.process = process;
    this.mount = mount;
  }

  /** Null when this machine can mount one; otherwise why not (for the test's loud skip). */
  public static String unavailable() {
    if (!Files.exists(Path.of("/dev/fuse"))) return "no /dev/fuse";
    if (!Files.isExecutable(Path.of("/usr/bin/fusermount3"))) return "no fusermount3 (Debian's fuse3)";
    try {
      Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import fusepy").redirectErrorStream(true).start();
      if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) return "no python3-fusepy (Debian's package)";
    } catch (IOException | InterruptedException e) {
      return "no /usr/bin/python3: " + e.getMessage();
    }
    return null;
  }

  /** Skips the calling test, loudly, where this machine cannot mount one. */
  public static void assumeAvailable() {
    String why = unavailable();
    if (why != null) System.err.println("WARNING: SKIPPED: no case-folding FUSE mount on this machine (" + why + ")");
    org.junit.jupiter.api.Assumptions.assumeTrue(why == null, "SKIPPED LOUDLY: no case-folding FUSE mount on this machine (" + why
        + "): .ci/run installs python3-fusepy and fuse3");
  }

  /** Mounts a case-folding view of {@code backing} (created) at {@code mount} (created, empty). */
  public static CaseFoldingMount at(Path mount, Path backing) throws Exception {
    Files.createDirectories(mount);
    Files.createDirectories(backing);
    Process p = new ProcessBuilder("/usr/bin/python3", SCRIPT.toAbsolutePath().toString(), backing.toString(), mount.toString())
        .redirectErrorStream(true).redirectOutput(backing.resolveSibling(backing.getFileName() + ".log").toFile()).start();
    for (int i = 0; i < 100; i++) {
      if (Files.readString(Path.of("/proc/mounts")).contains(" " + mount.toAbsolutePath() + " ")) return new CaseFoldingMount(p, mount);
      if (!p.isAlive()) break;
      Thread.sleep(100);
    }
    p.destroyForcibly();
    throw new IllegalStateException("the case-folding mount at " + mount + " did not come up");
  }

  @Override
  public void close() throws Exception {
    new ProcessBuilder("/usr/bin/fusermount3", "-u", "-z", mount.toString()).redirectErrorStream(true).start()
        .waitFor(20, TimeUnit.SECONDS);
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
  }
}
