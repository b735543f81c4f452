package io.ferry.spark;

import io.ferry.store.retry.Failures;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/** A Spark action whose failure ends the job with what failed, from the tasks' own error. */
public final class Actions {
  private Actions() {}

  /** Runs {@code action}; a failure becomes a {@link JobFailure} "{@code what}: the tasks' error{@code hint}". */
  public static <T> T run(Supplier<T> action, String what, String hint) throws JobFailure {
    try {
      return action.get();
    } catch (Exception e) {
      throw new JobFailure(what + ": " + Failures.describe(root(e)) + hint);
    }
  }

  /** A task's own exception, under Spark's "Job aborted" wrappers (or the exception itself when there is none). */
  public static Throwable root(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t
        && (t.getClass().getName().startsWith("org.apache.spark.") || t instanceof UncheckedIOException)) {
      t = t.getCause();
    }
    return t;
  }
}
