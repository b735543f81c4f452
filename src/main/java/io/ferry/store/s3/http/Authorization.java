package io.ferry.store.s3.http;

import java.io.IOException;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpRequest;

/** How a bulk request proves who sends it: a SigV4 signature ({@link SigV4}) or an IBM IAM bearer token ({@link BearerToken}). */
public sealed interface Authorization permits SigV4, BearerToken {
  /**
   * {@code request} as it goes, with what its body becomes ({@code chunked}: aws-chunked, signed per chunk where the
   * signature covers the body); a null {@code payload} is no body.
   */
  Authorized authorize(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked) throws IOException;

  /** The service answered that a request's time is off, at {@code date} (its Date header, RFC 1123). */
  default void serviceTimeIs(String date) {}

  record Authorized(SdkHttpRequest request, ContentStreamProvider content) {}
}
