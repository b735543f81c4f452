package io.ferry.store;

import java.io.IOException;

/**
 * A failure a store classified where it happened: its message is one line for reports and consoles (the service's
 * status and error code, never a credential), its kind says whether to try again.
 */
public final class StoreFailure extends IOException {
  private static final long serialVersionUID = 1L;

  /** What a retry layer does with it. */
  public enum Kind {
    /** Try again after a backoff: a server error, a reset, a timeout. */
    RETRYABLE,
    /** Try again, and send less: the service asked to slow down (503 SlowDown, 429). */
    THROTTLED,
    /** Trying again cannot help: access denied, no such bucket or key, a changed source, a local write error. */
    FATAL
  }

  private final Kind kind;

  public StoreFailure(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public StoreFailure(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }
}
