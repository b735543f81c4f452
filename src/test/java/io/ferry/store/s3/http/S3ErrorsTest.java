package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3ErrorsTest {
  private static S3Exception service(int status, String code, String message) {
    return (S3Exception) S3Exception.builder().statusCode(status).requestId("REQ1")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).build();
  }

  @ParameterizedTest(name = "{0} {1} -> retryable {2}")
  @CsvSource({
      "500, InternalError,         true",
      "502, BadGateway,            true",
      "503, SlowDown,              true",
      "504, GatewayTimeout,        true",
      "429, TooManyRequests,       true",
      "400, RequestTimeout,        true",
      "403, RequestTimeTooSkewed,  true",
      "400, RequestExpired,        true",
      "501, NotImplemented,        false",
      "403, AccessDenied,          false",
      "403, SignatureDoesNotMatch, false",
      "404, NoSuchKey,             false",
      "412, PreconditionFailed,    false",
      "400, InvalidArgument,       false",
  })
  void serviceErrors(int status, String code, boolean retryable) {
    assertThat(S3Errors.isRetryable(service(status, code, "m"))).isEqualTo(retryable);
  }

  @Test
  void networkFailuresAreRetryableLocalFilesystemFailuresAreNot() {
    assertThat(S3Errors.isRetryable(SdkClientException.create("reset", new IOException("Connection reset")))).isTrue();
    assertThat(S3Errors.isRetryable(new SocketTimeoutException("Read timed out"))).isTrue();
    assertThat(S3Errors.isRetryable(new java.nio.file.AccessDeniedException("/x"))).isFalse();
  }

  @Test
  void descriptionsNameTheCodeStatusAndAHint() {
    assertThat(S3Errors.describe(service(403, "SignatureDoesNotMatch", "The request signature we calculated does not match")))
        .isEqualTo("SignatureDoesNotMatch (403): the secret access key is wrong for this access key id [request id REQ1]");
    assertThat(S3Errors.describe(service(503, "SlowDown", "Please reduce your request rate.")))
        .isEqualTo("SlowDown (503): Please reduce your request rate. [request id REQ1]");
  }
}
