package io.ferry.support;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What the test servers in child JVMs (S3Proxy, S3Mock) share: waiting for the first answer, and stopping. */
final class ChildServers {
  private ChildServers() {}

  /**
   * Waits until {@code url} answers with a status {@code ready} accepts, or fails: the process exited (its log named),
   * or {@code timeout} passed.
   */
  static void awaitAnswer(String name, Process process, String url, java.util.function.IntPredicate ready, Duration timeout, Path log)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IOException(name + " exited with " + process.exitValue() + "; see " + log);
      try {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(2000);
        int code = c.getResponseCode();
        c.disconnect();
        if (ready.test(code)) return;
      } catch (IOException notYet) {
        // not listening yet
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + name, e);
      }
    }
    throw new IOException(name + " did not answer within " + timeout + "; see " + log);
  }

  /** Asks the process to stop, then kills it if it has not within 10 s. */
  static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
