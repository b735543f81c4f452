package io.ferry.store.s3;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/** Authorizes every request with an IBM IAM bearer token instead of a SigV4 signature (requests go unsigned). */
final class BearerTokenInterceptor implements ExecutionInterceptor {
  private final IbmIamTokens tokens;

  BearerTokenInterceptor(IbmIamTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
    return context.httpRequest().toBuilder().putHeader("Authorization", "Bearer " + tokens.token()).build();
  }
}
