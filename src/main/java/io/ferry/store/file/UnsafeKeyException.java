package io.ferry.store.file;

/** An object key that cannot be written under the destination directory as it stands. */
public final class UnsafeKeyException extends Exception {
  private static final long serialVersionUID = 1L;

  public UnsafeKeyException(String message) {
    super(message);
  }
}
