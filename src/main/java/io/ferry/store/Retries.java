package io.ferry.store;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Whether a store method retries, said in code (S3A's {@code @Retries} is the model) and checked by
 * {@code RetriesTest}: every method of the store interfaces that can fail is marked one way or the other, so no
 * request is retried by two layers and none by none.
 */
public final class Retries {
  private Retries() {}

  /** Tries once: a failure is thrown as it came, and the caller retries through the job's {@code retry.Retrier} if it wants. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  public @interface Once {}

  /** Retries inside with the job's {@code retry.Retrier} where the store can fail transiently: callers must not retry it again. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  public @interface Retried {}
}
