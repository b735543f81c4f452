package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.BucketConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.config.S3EndpointConfig;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Retrier;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/** The headers of the writes Ferry signs itself: S3Proxy ignores unknown x-amz-* headers, so a misspelt one would pass there. */
class S3DestinationTest {
  private static final S3EndpointConfig ENDPOINT = S3EndpointConfig.withKeys("http://127.0.0.1:9", "us-east-1", "id", "secret");
  private static final StoreObject OBJECT = new StoreObject("in/a b+c.bin", "a b+c.bin", 10, "0123abcd", 0);

  private static S3Destination destination(String storageClass, String sse, String kmsKey, Map<String, String> tags) {
    return destination(new ObjectWrites(storageClass, sse, kmsKey, tags));
  }

  private static S3Destination destination(ObjectWrites writes) {
    return destination(writes, false);
  }

  private static S3Destination destination(ObjectWrites writes, boolean locked) {
    return new S3Destination(null, null, () -> null, new BucketConfig(ENDPOINT, "dst", "out/", writes), Retrier.once(), () -> locked);
  }

  private static WriteHeaders.SourceRead<HeadObjectResponse> head(String storageClass, Map<String, String> headers) {
    var http = software.amazon.awssdk.http.SdkHttpResponse.builder().statusCode(200);
    headers.forEach(http::putHeader);
    return () -> (HeadObjectResponse) HeadObjectResponse.builder().storageClass(storageClass).sdkHttpResponse(http.build()).build();
  }

  @Test
  void aPutCarriesTheSourcesContentHeadersMetadataAndTheWriteSettings() throws Exception {
    S3Destination d = destination("STANDARD_IA", "aws:kms", "key-1", Map.of("team", "data eng", "tier", "a&b"));
    ObjectMetadata source = new ObjectMetadata("text/csv", "gzip", "attachment", "no-cache", Map.of("origin", "x"));
    Map<String, String> headers = d.headers().put(OBJECT, source);
    assertThat(headers).containsExactlyInAnyOrderEntriesOf(Map.of(
        "Content-Type", "text/csv", "Content-Encoding", "gzip", "Content-Disposition", "attachment", "Cache-Control", "no-cache",
        "x-amz-meta-origin", "x", "x-amz-meta-mtime", "0.000000000", "x-amz-storage-class", "STANDARD_IA",
        "x-amz-server-side-encryption", "aws:kms", "x-amz-server-side-encryption-aws-kms-key-id", "key-1",
        "x-amz-tagging", "team=data+eng&tier=a%26b"));
  }

  @Test
  void aPutWithoutSettingsSendsAContentTypeAndTheSourcesModificationTime() throws Exception {
    StoreObject at = new StoreObject("k", "k", 1, "", 1_600_000_000_123L);
    assertThat(destination("", "", "", Map.of()).headers().put(at, ObjectMetadata.NONE))
        .containsExactlyInAnyOrderEntriesOf(Map.of("Content-Type", "application/octet-stream", "x-amz-meta-mtime", "1600000000.123000000"));
  }

  @Test
  void everySystemHeaderTheSourceHasIsCarriedAndItsOwnMtimeWins() throws Exception {
    Map<String, String> system = new java.util.TreeMap<>();
    for (String name : ObjectMetadata.HEADERS) system.put(name, "v-" + name);
    ObjectMetadata source = new ObjectMetadata(system, Map.of("Mtime", "12.5"), Map.of(), "", null);
    Map<String, String> headers = destination("", "", "", Map.of()).headers().put(OBJECT, source);
    assertThat(headers).containsAllEntriesOf(system).containsEntry("x-amz-meta-Mtime", "12.5").doesNotContainKey("x-amz-meta-mtime");
  }

  @Test
  void sourceTagsAreMergedUnderTheDestinationsAndTheSourceClassIsKeptWhereAsked() throws Exception {
    ObjectMetadata source = new ObjectMetadata(Map.of(), Map.of(), Map.of("team", "media", "year", "2018"), "STANDARD_IA", null);
    ObjectWrites keep = new ObjectWrites(ObjectWrites.KEEP, "", "", Map.of("team", "ops"), true);
    assertThat(destination(keep).headers().put(OBJECT, source))
        .containsEntry("x-amz-tagging", "team=ops&year=2018").containsEntry("x-amz-storage-class", "STANDARD_IA");
    ObjectWrites noTags = new ObjectWrites("", "", "", Map.of(), false);
    assertThat(destination(noTags).headers().put(OBJECT, source)).doesNotContainKeys("x-amz-tagging", "x-amz-storage-class");
    assertThat(destination(keep).headers().put(OBJECT, source.withTags(null))).containsEntry("x-amz-tagging", "team=ops");
  }

  @Test
  void aCopyNamesItsSourceAtItsEtagAndLetsTheServiceKeepMetadataAndTags() throws Exception {
    WriteHeaders.SourceRead<Map<String, String>> noRead = () -> {
      throw new AssertionError("no request needed");
    };
    assertThat(destination("", "", "", Map.of()).headers().copy(OBJECT, "src bucket", noRead, head("", Map.of())))
        .containsExactlyInAnyOrderEntriesOf(Map.of("x-amz-copy-source", "src%20bucket/in/a%20b%2Bc.bin",
            "x-amz-copy-source-if-match", "\"0123abcd\"", "x-amz-metadata-directive", "COPY"));
    // the website redirect, which a copy drops, is sent again from the source's HEAD
    assertThat(destination("", "", "", Map.of()).headers().copy(OBJECT, "src", noRead, head("", Map.of("x-amz-website-redirect-location",
        "/elsewhere.html")))).containsEntry("x-amz-website-redirect-location", "/elsewhere.html");
    assertThat(destination("GLACIER", "AES256", "", Map.of("k", "v")).headers().copy(OBJECT, "src", () -> Map.of("a", "1", "k", "old"),
        head("unused", Map.of())))
        .containsEntry("x-amz-storage-class", "GLACIER").containsEntry("x-amz-server-side-encryption", "AES256")
        .containsEntry("x-amz-tagging", "a=1&k=v").containsEntry("x-amz-tagging-directive", "REPLACE")
        .doesNotContainKey("x-amz-server-side-encryption-aws-kms-key-id");
  }

  /**
   * Object Lock goes only to a bucket that has it (one without refuses a write that names it), with the source's legal
   * hold and its retention where that has not ended (a date past is refused); a copy, which does not keep it, is given
   * it from the source's HEAD.
   */
  @Test
  void theSourcesObjectLockGoesOnlyToABucketWithObjectLockAndOnlyARetentionNotEnded() throws Exception {
    ObjectWrites none = new ObjectWrites("", "", "", Map.of(), true, "");
    Map<String, String> future = Map.of(ObjectMetadata.LOCK_MODE, "GOVERNANCE", ObjectMetadata.LOCK_UNTIL, "2099-01-01T00:00:00Z",
        ObjectMetadata.LEGAL_HOLD, "ON");
    Map<String, String> past = Map.of(ObjectMetadata.LOCK_MODE, "COMPLIANCE", ObjectMetadata.LOCK_UNTIL, "2001-01-01T00:00:00Z");
    ObjectMetadata locked = new ObjectMetadata(future, Map.of(), null, "", null);
    assertThat(destination(none, true).headers().put(OBJECT, locked)).containsAllEntriesOf(future);
    assertThat(destination(none, false).headers().put(OBJECT, locked))
        .doesNotContainKeys(ObjectMetadata.LOCK_HEADERS.toArray(String[]::new));
    assertThat(destination(none, true).headers().put(OBJECT, new ObjectMetadata(past, Map.of(), null, "", null)))
        .doesNotContainKeys(ObjectMetadata.LOCK_HEADERS.toArray(String[]::new));
    assertThat(destination(none, true).headers().copy(OBJECT, "src", () -> Map.of(), head("", future))).containsAllEntriesOf(future);
    assertThat(destination(none, false).headers().copy(OBJECT, "src", () -> Map.of(), head("", future)))
        .as("none for a bucket without Object Lock").doesNotContainKeys(ObjectMetadata.LOCK_HEADERS.toArray(String[]::new));
  }

  @Test
  void aCannedAclGoesOnEveryWholeWriteAndNoneWithoutOne() throws Exception {
    ObjectWrites acl = new ObjectWrites("", "", "", Map.of(), true, "bucket-owner-full-control");
    assertThat(destination(acl).headers().put(OBJECT, ObjectMetadata.NONE)).containsEntry("x-amz-acl", "bucket-owner-full-control");
    assertThat(destination(acl).headers().copy(OBJECT, "src", () -> Map.of(), head("", Map.of()))).containsEntry("x-amz-acl",
        "bucket-owner-full-control");
    assertThat(destination("", "", "", Map.of()).headers().put(OBJECT, ObjectMetadata.NONE)).doesNotContainKey("x-amz-acl");
  }

  @Test
  void aCopyWithoutTagsReplacesThemWithNoneAndKeepsTheClassReadFromTheSource() throws Exception {
    Map<String, String> headers = destination(new ObjectWrites(ObjectWrites.KEEP, "", "", Map.of(), false))
        .headers().copy(OBJECT, "src", () -> Map.of("a", "1"), head("DEEP_ARCHIVE", Map.of()));
    assertThat(headers).containsEntry("x-amz-tagging-directive", "REPLACE").doesNotContainKey("x-amz-tagging")
        .containsEntry("x-amz-storage-class", "DEEP_ARCHIVE");
  }

  @Test
  void theTimeIsAddedOnlyWhereItFitsBesideTheSourcesOwnMetadata() throws Exception {
    String nearlyFull = "x".repeat(WriteHeaders.MAX_USER_METADATA_BYTES - "note".length() - 10);
    ObjectMetadata full = new ObjectMetadata(Map.of(), Map.of("note", nearlyFull), null, "", null);
    assertThat(destination("", "", "", Map.of()).headers().put(OBJECT, full)).containsEntry("x-amz-meta-note", nearlyFull)
        .doesNotContainKey("x-amz-meta-mtime");
  }

  @Test
  void moreTagsThanS3TakesFailTheObjectBeforeAnyRequestSayingWhatToChange() {
    Map<String, String> ten = new java.util.TreeMap<>();
    for (int i = 0; i < 10; i++) ten.put("t" + i, "v");
    ObjectMetadata source = new ObjectMetadata(Map.of(), Map.of(), ten, "", null);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> destination("", "", "", Map.of("migrated-by", "ferry")).headers().put(OBJECT,
        source)).hasMessageContaining("make 11, over S3's 10").hasMessageContaining("copy-tags = false");
  }

  @Test
  void keptClassesAreNamedAsTheDestinationsKindOfServiceNamesThem() throws Exception {
    ObjectWrites fromOss = new ObjectWrites(ObjectWrites.KEEP, "", "", Map.of(), true).withClassesFrom(io.ferry.config.Provider.OSS);
    ObjectWrites fromAws = fromOss.withClassesFrom(io.ferry.config.Provider.AWS);
    // the destination here (loopback) is neither AWS, IBM COS nor OSS: a MinIO or Ceph, whose classes are its operator's
    ObjectMetadata archive = new ObjectMetadata(Map.of(), Map.of(), null, "Archive", null);
    ObjectMetadata reduced = new ObjectMetadata(Map.of(), Map.of(), null, "REDUCED_REDUNDANCY", null);
    assertThat(destination(fromOss).headers().put(OBJECT, archive)).doesNotContainKey("x-amz-storage-class");
    assertThat(destination(fromAws).headers().put(OBJECT, reduced)).containsEntry("x-amz-storage-class", "REDUCED_REDUNDANCY");
    assertThat(destination(new ObjectWrites(ObjectWrites.KEEP, "", "", Map.of(), true)).headers().put(OBJECT, archive))
        .as("a source of the destination's own kind").containsEntry("x-amz-storage-class", "Archive");
  }
}
