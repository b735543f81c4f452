package io.ferry.store.s3.http;

import java.io.FilterInputStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.SdkHttpResponse;

/** A response body that can be abandoned without draining it, with the response's headers. */
public final class ResponseBody extends FilterInputStream implements Abortable {
  private final SdkHttpResponse response;

  public ResponseBody(AbortableInputStream in, SdkHttpResponse response) {
    super(in);
    this.response = response;
  }

  public Optional<String> header(String name) {
    return response.firstMatchingHeader(name);
  }

  /** The object's user metadata: every {@code x-amz-meta-*} header, without the prefix. */
  public Map<String, String> userMetadata() {
    Map<String, String> metadata = new LinkedHashMap<>();
    response.forEachHeader((name, values) -> {
      if (name.toLowerCase(Locale.ROOT).startsWith("x-amz-meta-") && !values.isEmpty()) {
        metadata.put(name.substring("x-amz-meta-".length()), values.get(0));
      }
    });
    return metadata;
  }

  @Override
  public void abort() {
    ((Abortable) in).abort();
  }
}
