package io.ferry.store.s3.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Authorizes requests with an IBM IAM bearer token instead of a SigV4 signature: the bulk requests directly, the S3
 * client's as its interceptor (its requests go unsigned).
 */
public final class BearerToken implements Authorization, ExecutionInterceptor {
  private final IbmIamTokens tokens;

  public BearerToken(IbmIamTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Authorized authorize(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked) throws IOException {
    try {
      return new Authorized(withToken(request), payload);
    } catch (UncheckedIOException e) {
      throw e.getCause(); // the token endpoint unreachable for now: retried like any network failure
    }
  }

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
    return withToken(context.httpRequest());
  }

  private SdkHttpRequest withToken(SdkHttpRequest request) {
    return request.toBuilder().putHeader("Authorization", "Bearer " + tokens.token()).build();
  }
}
