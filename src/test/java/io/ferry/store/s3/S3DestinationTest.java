package io.ferry.store.s3;

import io.ferry.store.retry.Retrier;
import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.BucketConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.config.S3EndpointConfig;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The headers of the writes Ferry signs itself: S3Proxy ignores unknown x-amz-* headers, so a misspelt one would pass there. */
class S3DestinationTest {
  private static final S3EndpointConfig ENDPOINT = S3EndpointConfig.withKeys("http://127.0.0.1:9", "us-east-1", "id", "secret");
  private static final StoreObject OBJECT = new StoreObject("in/a b+c.bin", "a b+c.bin", 10, "0123abcd", 0);

  private static S3Destination destination(String storageClass, String sse, String kmsKey, Map<String, String> tags) {
    return new S3Destination(null, null, new BucketConfig(ENDPOINT, "dst", "out/", new ObjectWrites(storageClass, sse, kmsKey, tags)),
        Retrier.once());
  }

  @Test
  void aPutCarriesTheSourcesContentHeadersMetadataAndTheWriteSettings() {
    S3Destination d = destination("STANDARD_IA", "aws:kms", "key-1", Map.of("team", "data eng", "tier", "a&b"));
    Map<String, String> headers = d.putHeaders(new ObjectMetadata("text/csv", "gzip", "attachment", "no-cache", Map.of("origin", "x")));
    assertThat(headers).containsExactlyInAnyOrderEntriesOf(Map.of(
        "Content-Type", "text/csv", "Content-Encoding", "gzip", "Content-Disposition", "attachment", "Cache-Control", "no-cache",
        "x-amz-meta-origin", "x", "x-amz-storage-class", "STANDARD_IA", "x-amz-server-side-encryption", "aws:kms",
        "x-amz-server-side-encryption-aws-kms-key-id", "key-1", "x-amz-tagging", "team=data+eng&tier=a%26b"));
  }

  @Test
  void aPutWithoutSettingsSendsOnlyAContentType() {
    assertThat(destination("", "", "", Map.of()).putHeaders(ObjectMetadata.NONE))
        .containsExactlyEntriesOf(Map.of("Content-Type", "application/octet-stream"));
  }

  @Test
  void aCopyNamesItsSourceAtItsEtagKeepsMetadataAndReplacesTagsOnlyWhenSet() {
    assertThat(destination("", "", "", Map.of()).copyHeaders(OBJECT, "src bucket"))
        .containsExactlyInAnyOrderEntriesOf(Map.of("x-amz-copy-source", "src%20bucket/in/a%20b%2Bc.bin",
            "x-amz-copy-source-if-match", "\"0123abcd\"", "x-amz-metadata-directive", "COPY"));
    assertThat(destination("GLACIER", "AES256", "", Map.of("k", "v")).copyHeaders(OBJECT, "src"))
        .containsEntry("x-amz-storage-class", "GLACIER").containsEntry("x-amz-server-side-encryption", "AES256")
        .containsEntry("x-amz-tagging", "k=v").containsEntry("x-amz-tagging-directive", "REPLACE")
        .doesNotContainKey("x-amz-server-side-encryption-aws-kms-key-id");
  }
}
