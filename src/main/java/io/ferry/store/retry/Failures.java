package io.ferry.store.retry;

import io.ferry.store.StoreFailure;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;

/**
 * The one classification of failures the pipeline sees: a {@link StoreFailure} carries the kind its store gave it;
 * the network's own exceptions (resets, timeouts, a body that ended early) are retryable; local filesystem errors and
 * anything else (a bug, a server that ignores ranges) are fatal.
 */
public final class Failures {
  private Failures() {}

  public static StoreFailure.Kind classify(Throwable t) {
    if (t instanceof StoreFailure f) return f.kind();
    if (t instanceof UncheckedIOException u && u.getCause() != null) return classify(u.getCause());
    if (t instanceof InterruptedIOException) {
      return Thread.currentThread().isInterrupted() ? StoreFailure.Kind.FATAL : StoreFailure.Kind.RETRYABLE;
    }
    if (t instanceof FileSystemException) return StoreFailure.Kind.FATAL;
    return t instanceof IOException ? StoreFailure.Kind.RETRYABLE : StoreFailure.Kind.FATAL;
  }

  public static boolean isRetryable(Throwable t) {
    return classify(t) != StoreFailure.Kind.FATAL;
  }

  /** One line for the report and the console: the failure's message with its root cause, whitespace folded. */
  public static String describe(Throwable t) {
    if (t instanceof StoreFailure f && f.getMessage() != null) return f.getMessage();
    if (t instanceof UncheckedIOException u && u.getCause() != null) return describe(u.getCause());
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String what = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (root != t && root.getMessage() != null && !what.contains(root.getMessage())) {
      what = what + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return what.replaceAll("\\s+", " ").trim();
  }
}
