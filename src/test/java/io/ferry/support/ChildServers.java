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

  /** One step of a start that may fail with an IOException. */
  @FunctionalInterface
  interface Step<T> {
    T apply() throws IOException;
  }

  /** A check of a launched server. */
  @FunctionalInterface
  interface Check<T> {
    void accept(T server) throws IOException;
  }

  /**
   * Launches a server until one answers, three times at most (a free port found may be taken before the server binds
   * it); each that does not is stopped.
   */
  static <T> T firstThatAnswers(Step<T> launch, Check<T> ready, java.util.function.Consumer<T> close) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      T server = launch.apply();
      try {
        ready.accept(server);
        return server;
      } catch (IOException e) {
        close.accept(server);
        last = e;
      }
    }
    throw last;
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
