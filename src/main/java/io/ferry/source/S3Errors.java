package io.ferry.source;

import java.io.IOException;
import java.io.InterruptedIOException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * Classifies failures once: fatal ones (access denied, a missing bucket or key, a bad request) stop at the first
 * attempt; throttling, server errors, resets and timeouts are retried. Also turns them into one-line messages that
 * carry the HTTP status and S3 error code but never credentials.
 */
public final class S3Errors {
  private S3Errors() {}

  public static boolean isRetryable(Throwable t) {
    if (t instanceof AwsServiceException e) {
      int status = e.statusCode();
      // 501 Not Implemented (a feature the store lacks, e.g. tagging) never succeeds on a retry.
      return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504
          || "SlowDown".equals(code(e)) || "RequestTimeout".equals(code(e)) || "RequestTimeTooSkewed".equals(code(e))
          || "RequestExpired".equals(code(e)); // both fixed by the signing clock's offset the answer sets (SignedRequests)
    }
    if (t instanceof SdkClientException e) {
      // Resets, timeouts and refused connections arrive as client exceptions wrapping an IOException.
      return e.getCause() == null || e.getCause() instanceof IOException || e.retryable();
    }
    if (t instanceof InterruptedIOException) return !Thread.currentThread().isInterrupted();
    return t instanceof IOException && !(t instanceof java.nio.file.FileSystemException);
  }

  /** One line for the report and the console: "NoSuchBucket (404): The specified bucket does not exist". */
  public static String describe(Throwable t) {
    if (t instanceof NoSuchBucketException e) return "NoSuchBucket (404): the bucket does not exist" + requestId(e);
    if (t instanceof NoSuchKeyException e) return "NoSuchKey (404): the object does not exist (deleted during the run?)" + requestId(e);
    if (t instanceof AwsServiceException e) {
      String code = code(e);
      String hint = switch (code == null ? "" : code) {
        case "SignatureDoesNotMatch" -> ": the secret access key is wrong for this access key id";
        case "InvalidAccessKeyId" -> ": the access key id is not known to this service";
        case "AccessDenied" -> ": these credentials may not do this";
        default -> "";
      };
      String message = e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
          ? e.awsErrorDetails().errorMessage() : "";
      return (code == null ? "HTTP" : code) + " (" + e.statusCode() + ")" + (hint.isEmpty() ? (message.isEmpty() ? "" : ": " + message) : hint)
          + requestId(e);
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String what = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (root != t && root.getMessage() != null && !what.contains(root.getMessage())) {
      what = what + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return what.replaceAll("\\s+", " ").trim();
  }

  private static String code(AwsServiceException e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }

  private static String requestId(AwsServiceException e) {
    return e.requestId() == null || e.requestId().isEmpty() ? "" : " [request id " + e.requestId() + "]";
  }
}
