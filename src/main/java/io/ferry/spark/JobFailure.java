package io.ferry.spark;

/** The job cannot start or go on (the source cannot be listed, the destination cannot be written). Nothing was committed. */
public final class JobFailure extends Exception {
  private static final long serialVersionUID = 1L;

  public JobFailure(String message) {
    super(message);
  }
}
