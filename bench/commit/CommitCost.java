import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What a durable commit costs per file on this machine's disk: N files of S bytes written into temp names, made
 * durable, renamed into place, their folder fsynced, on T threads. Modes: "fsync" (each file fsynced before its
 * rename, as FileDestination does), "syncfs" (the files written, then one `sync -f` of the filesystem, then the
 * renames), "fdatasync" (each file's data and size, not its other metadata, before its rename), "none" (no fsync: the
 * floor). Usage: java CommitCost.java DIR MODE FILES SIZE THREADS
 */
public class CommitCost {
  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    String mode = args[1];
    int files = Integer.parseInt(args[2]);
    int size = Integer.parseInt(args[3]);
    int threads = Integer.parseInt(args[4]);
    byte[] bytes = new byte[size];
    new Random(1).nextBytes(bytes);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long cpu0 = cpu();
    long t0 = System.nanoTime();
    int batch = 100; // a task's objects
    for (int from = 0; from < files; from += batch) {
      int start = from;
      int end = Math.min(files, from + batch);
      List<Future<?>> written = new ArrayList<>();
      for (int i = start; i < end; i++) {
        int n = i;
        written.add(pool.submit(() -> {
          Path temp = dir.resolve(".f" + n + ".tmp");
          try (FileChannel c = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(bytes));
            if (mode.equals("fsync")) c.force(true);
            if (mode.equals("fdatasync")) c.force(false);
          }
          if (!mode.equals("syncfs")) Files.move(temp, dir.resolve("f" + n), StandardCopyOption.ATOMIC_MOVE);
          return null;
        }));
      }
      for (Future<?> f : written) f.get();
      if (mode.equals("syncfs")) {
        Process p = new ProcessBuilder("sync", "-f", dir.toString()).inheritIO().start();
        if (p.waitFor() != 0) throw new IOException("sync -f failed");
        for (int i = start; i < end; i++) Files.move(dir.resolve(".f" + i + ".tmp"), dir.resolve("f" + i), StandardCopyOption.ATOMIC_MOVE);
      }
      if (!mode.equals("none")) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
          d.force(true);
        }
      }
    }
    long wall = System.nanoTime() - t0;
    long cpu = cpu() - cpu0;
    pool.shutdown();
    System.out.printf("%s,%d,%d,%d,%.3f,%.1f,%.3f%n", mode, files, size, threads, wall / 1e9, wall / 1e3 / files,
        cpu / 1e9);
  }

  /** This process's CPU time, user and system (the JVM's view of its threads misses the kernel's writeback). */
  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
