package io.ferry.store.s3.http;

import io.ferry.store.StoreFailure;
import io.ferry.store.StoreFailure.Kind;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Classifies the S3 service's failures once, where they happen ({@link #failure}): throttling, server errors, resets
 * and timeouts are retried; access denied, a missing bucket or key, a bad request stop at the first attempt. Also
 * turns them into one-line messages that carry the HTTP status, S3 error code and request id, never credentials.
 */
public final class S3Errors {
  /** Codes by which the providers Ferry names ask a client to slow down. */
  private static final Set<String> THROTTLING = Set.of("SlowDown", "Throttling", "ThrottlingException", "TooManyRequests",
      "RequestLimitExceeded", "ServiceUnavailable");

  private S3Errors() {}

  /** An operation of the S3 SDK or of {@link SignedRequests}. */
  @FunctionalInterface
  public interface Call<T> {
    public T call() throws IOException;
  }

  /** Runs {@code call}, turning the SDK's failures into {@link StoreFailure}s (network IOExceptions pass as they are). */
  public static <T> T translated(Call<T> call) throws IOException {
    try {
      return call.call();
    } catch (SdkException | IllegalStateException e) {
      throw failure(e);
    }
  }

  /** What a service's answer other than success means to one call, where it means something; empty: a failure. */
  @FunctionalInterface
  public interface Meaning<T> {
    public Optional<T> of(SdkException answer) throws IOException;
  }

  /**
   * Runs {@code call}, an answer that {@code meaning} reads (a 404 that says "gone", a 412 that says "changed") giving
   * its value; every other failure a {@link StoreFailure}, as {@link #translated(Call)}.
   */
  public static <T> T translated(Call<T> call, Meaning<T> meaning) throws IOException {
    try {
      return call.call();
    } catch (SdkException e) {
      Optional<T> meant = meaning.of(e);
      if (meant.isPresent()) return meant.get();
      throw failure(e);
    } catch (IllegalStateException e) {
      throw failure(e);
    }
  }

  /** Whether {@code e} is the service's answer with one of these HTTP statuses. */
  public static boolean status(SdkException e, int... statuses) {
    if (!(e instanceof AwsServiceException a)) return false;
    for (int s : statuses) if (a.statusCode() == s) return true;
    return false;
  }

  /** Whether {@code e} is the service's answer with one of these S3 error codes. */
  public static boolean hasCode(SdkException e, String... codes) {
    if (!(e instanceof AwsServiceException a) || a.awsErrorDetails() == null) return false;
    for (String c : codes) if (c.equals(a.awsErrorDetails().errorCode())) return true;
    return false;
  }

  /** The HTTP answer behind {@code e}, where the service gave one. */
  public static Optional<SdkHttpResponse> response(SdkException e) {
    return e instanceof AwsServiceException a && a.awsErrorDetails() != null ? Optional.ofNullable(a.awsErrorDetails().sdkHttpResponse())
        : Optional.empty();
  }

  public static StoreFailure failure(Throwable t) {
    return t instanceof StoreFailure f ? f : new StoreFailure(kind(t), describe(t), t);
  }

  public static Kind kind(Throwable t) {
    if (t instanceof AwsServiceException e) {
      int status = e.statusCode();
      String code = code(e);
      if (status == 429 || (code != null && THROTTLING.contains(code))) return Kind.THROTTLED;
      // 501 Not Implemented (a feature the store lacks, e.g. tagging) never succeeds on a retry.
      boolean retryable = status == 408 || status == 500 || status == 502 || status == 503 || status == 504
          || "RequestTimeout".equals(code) || "InternalError".equals(code)
          // both fixed by the signing clock's offset the answer sets (SignedRequests)
          || "RequestTimeTooSkewed".equals(code) || "RequestExpired".equals(code);
      return retryable ? Kind.RETRYABLE : Kind.FATAL;
    }
    if (t instanceof SdkClientException e) {
      // Resets, timeouts and refused connections arrive as client exceptions wrapping an IOException.
      return e.getCause() == null || e.getCause() instanceof IOException || e.retryable() ? Kind.RETRYABLE : Kind.FATAL;
    }
    return Failures.classify(t);
  }

  public static boolean isRetryable(Throwable t) {
    return kind(t) != Kind.FATAL;
  }

  /** One line for the report and the console: "NoSuchBucket (404): the bucket does not exist [request id ...]". */
  public static String describe(Throwable t) {
    if (t instanceof NoSuchBucketException e) return "NoSuchBucket (404): the bucket does not exist" + requestId(e);
    if (t instanceof NoSuchKeyException e) return "NoSuchKey (404): the object does not exist (deleted during the run?)" + requestId(e);
    if (t instanceof AwsServiceException e) {
      String code = code(e);
      String hint = switch (code == null ? "" : code) {
        case "SignatureDoesNotMatch" -> ": the secret access key is wrong for this access key id";
        case "InvalidAccessKeyId" -> ": the access key id is not known to this service";
        case "AccessDenied" -> ": these credentials may not do this";
        case "InvalidObjectState" -> ": the object is archived and was not restored (see source.archived: restore restores it, then"
            + " copies it; skip leaves it)";
        default -> "";
      };
      String message = e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
          ? e.awsErrorDetails().errorMessage() : "";
      return (code == null ? "HTTP" : code) + " (" + e.statusCode() + ")" + (hint.isEmpty() ? (message.isEmpty() ? "" : ": " + message)
          : hint)
          + requestId(e);
    }
    return Failures.describe(t);
  }

  public static String code(AwsServiceException e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }

  private static String requestId(AwsServiceException e) {
    return e.requestId() == null || e.requestId().isEmpty() ? "" : " [request id " + e.requestId() + "]";
  }
}
