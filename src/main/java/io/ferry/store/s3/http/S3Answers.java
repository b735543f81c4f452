package io.ferry.store.s3.http;

import io.ferry.store.ByteRange;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** What S3 answers, read: an error's XML as the exception the SDK's client would throw, a range answer checked. */
public final class S3Answers {
  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");

  private S3Answers() {}

  /**
   * Fails unless the answer holds exactly {@code range}: a 206 whose Content-Range starts and ends where asked, or a
   * 200 (the whole object) only where the range is the whole object from byte 0.
   */
  public static void checkRange(ByteRange range, int status, String contentRange, String contentLength) {
    long last = range.offset() + range.length() - 1;
    if (status == 206) {
      Matcher m = CONTENT_RANGE.matcher(contentRange.trim());
      if (m.matches() && Long.parseLong(m.group(1)) == range.offset() && Long.parseLong(m.group(2)) == last) return;
      throw new IllegalStateException("asked for " + range.httpRange() + ", the server sent Content-Range '" + contentRange + "'");
    }
    if (status == 200 && range.offset() == 0 && contentLength.trim().equals(Long.toString(range.length()))) return;
    throw new IllegalStateException("asked for " + range.httpRange() + ", the server answered " + status
        + " with " + (contentLength.isEmpty() ? "no length" : contentLength + " bytes") + ": it does not serve byte ranges");
  }

  /** The exception the S3 client would throw for this error answer (its XML body parsed for code, message, request id). */
  public static S3Exception error(int status, String requestIdHeader, String body) {
    String code = element(body, "Code");
    String message = element(body, "Message");
    String requestId = requestIdHeader.isEmpty() ? element(body, "RequestId") : requestIdHeader;
    S3Exception.Builder builder = "NoSuchKey".equals(code) ? NoSuchKeyException.builder()
        : "NoSuchBucket".equals(code) ? NoSuchBucketException.builder() : S3Exception.builder();
    return (S3Exception) builder.statusCode(status)
        .requestId(requestId)
        .message((code == null ? "HTTP " + status : code) + (message == null ? "" : ": " + message))
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).serviceName("S3").build())
        .build();
  }

  /** The XML elements read from answers, compiled once (a copy's answer is read for every object copied). */
  private static final Map<String, Pattern> ELEMENTS = Map.of("Code", element("Code"), "Message", element("Message"),
      "RequestId", element("RequestId"), "ETag", element("ETag"));

  private static Pattern element(String name) {
    return Pattern.compile("<" + name + ">([^<]*)</" + name + ">");
  }

  public static String element(String xml, String name) {
    Matcher m = ELEMENTS.get(name).matcher(xml);
    if (!m.find()) return null;
    return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
        .replace("&amp;", "&");
  }
}
