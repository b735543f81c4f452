package io.ferry.store.s3;

import io.ferry.store.limits.Meters;
import io.ferry.store.limits.PrefixRates;
import io.ferry.store.limits.RateLimit;
import io.ferry.store.limits.Throttle;
import java.io.IOException;
import java.io.InterruptedIOException;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;

/**
 * Every request to an endpoint, through the SDK's client or sent directly, waits for room in the endpoint's
 * {@link Throttle} and tells it whether the endpoint answered by asking to slow down (503, 429). A permit is held
 * until the answer's head arrives: for an upload, after its body went out; for a GET, before its body is read. Each
 * request is counted by kind for the metrics ({@link Meters}) and first waits for the JVM's share of the endpoint's
 * request rate, if the job sets one, and of its key prefix's, once the prefix has asked to slow down ({@link
 * PrefixRates}).
 */
final class ThrottledHttpClient implements SdkHttpClient {
  private final SdkHttpClient delegate;
  private final Throttle throttle;
  private final RateLimit requests;
  private final boolean bucketInPath;

  /** @param bucketInPath whether requests name the bucket in their path (path-style), else in their host */
  ThrottledHttpClient(SdkHttpClient delegate, Throttle throttle, RateLimit requests, boolean bucketInPath) {
    this.delegate = delegate;
    this.throttle = throttle;
    this.requests = requests;
    this.bucketInPath = bucketInPath;
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest prepared = delegate.prepareRequest(request);
    Meters.Request kind = Meters.Request.of(request.httpRequest().method().name(), request.httpRequest().rawQueryParameters(),
        request.httpRequest().firstMatchingHeader("x-amz-copy-source").isPresent());
    String prefix = PrefixRates.of(request.httpRequest().host(), request.httpRequest().encodedPath(), bucketInPath);
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        requests.acquire(1);
        PrefixRates.acquire(prefix);
        try {
          throttle.acquire();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for room to send to the endpoint");
        }
        int status = 0;
        try {
          HttpExecuteResponse response = prepared.call();
          status = response.httpResponse().statusCode();
          return response;
        } finally {
          throttle.release(status == 503 || status == 429);
          PrefixRates.answered(prefix, status == 503 || status == 429);
          Meters.request(kind, status);
        }
      }

      @Override
      public void abort() {
        prepared.abort();
      }
    };
  }

  @Override
  public String clientName() {
    return delegate.clientName();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
