package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/** Temporary keys (STS) sign as the SDK's client signs them: with their session token in a signed header. */
class SigV4Test {
  private static final SdkHttpRequest GET = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
      .uri(URI.create("https://s3.us-east-1.amazonaws.com/bucket/key")).build();

  @Test
  void aSessionsTokenTravelsSignedWithEveryRequest() {
    SigV4 signer = new SigV4(StaticCredentialsProvider.create(AwsSessionCredentials.create("AKID", "secret", "the-session-token")),
        "us-east-1", false, false, Clock.systemUTC());
    SignedRequest signed = signer.sign(GET, null, false);
    assertThat(signed.request().firstMatchingHeader("X-Amz-Security-Token")).contains("the-session-token");
    assertThat(signed.request().firstMatchingHeader("Authorization"))
        .hasValueSatisfying(a -> assertThat(a).contains("x-amz-security-token"));
  }

  @Test
  void longTermKeysSendNoToken() {
    SigV4 signer = new SigV4(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")), "us-east-1", false, false,
        Clock.systemUTC());
    assertThat(signer.sign(GET, null, false).request().firstMatchingHeader("X-Amz-Security-Token")).isEmpty();
  }
}
