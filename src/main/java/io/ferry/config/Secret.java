package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/** A credential value that never prints itself: {@code toString} is a mask, so logs, reports and exceptions stay clean. */
public final class Secret implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String value;

  public Secret(String value) {
    this.value = Objects.requireNonNull(value, "value is null");
  }

  /** The real value, for the one place that signs requests. */
  public String reveal() {
    return value;
  }

  public boolean isEmpty() {
    return value.isEmpty();
  }

  @Override
  public String toString() {
    return value.isEmpty() ? "<empty>" : "****";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && s.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }
}
