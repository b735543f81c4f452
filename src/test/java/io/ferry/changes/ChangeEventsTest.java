package io.ferry.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.changes.ChangeEvents.Change;
import io.ferry.changes.ChangeEvents.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Records as each server writes them (AWS's user guide, MinIO's and radosgw's sources), read into changes. */
class ChangeEventsTest {
  private static String record(String source, String name, String key, String object) {
    return """
        {"eventVersion": "2.1", "eventSource": "%s", "eventName": "%s",
         "s3": {"bucket": {"name": "media"}, "object": {"key": "%s"%s}}}""".formatted(source, name, key, object);
  }

  private static List<Change> read(String... records) throws ChangeEvents.Unreadable {
    return ChangeEvents.read("{\"Records\": [" + String.join(",", records) + "]}");
  }

  @Test
  void awsWritesAndRemovalsWithTheirVersionETagAndSequencer() throws Exception {
    List<Change> changes = read(
        record("aws:s3", "ObjectCreated:Put", "photos/red+flower%2B1.jpg",
            ", \"size\": 1024, \"eTag\": \"d41d8cd98f00b204e9800998ecf8427e\", \"versionId\": \"v1\","
                + " \"sequencer\": \"0A1B2C3D4E5F678901\""),
        record("aws:s3", "ObjectRemoved:DeleteMarkerCreated", "photos/old.jpg",
            ", \"versionId\": \"v2\", \"sequencer\": \"0A1B2C3D4E5F678902\""));
    assertThat(changes).containsExactly(
        new Change("media", "photos/red flower+1.jpg", Kind.WRITTEN, "v1", "d41d8cd98f00b204e9800998ecf8427e", 1024, "0A1B2C3D4E5F678901"),
        new Change("media", "photos/old.jpg", Kind.REMOVED, "v2", "", -1, "0A1B2C3D4E5F678902"));
  }

  @Test
  void minioPrefixesItsEventNamesAndOmitsSizeAndETagOnRemovals() throws Exception {
    assertThat(read(
        record("minio:s3", "s3:ObjectCreated:CompleteMultipartUpload", "a%2Fb+c", ", \"size\": 7, \"eTag\": \"abc-2\""),
        record("minio:s3", "s3:ObjectRemoved:Delete", "a%2Fb+c", "")))
        .containsExactly(new Change("media", "a/b c", Kind.WRITTEN, "", "abc-2", 7, ""),
            new Change("media", "a/b c", Kind.REMOVED, "", "", -1, ""));
  }

  @Test
  void radosgwKeysArePlainItsSizeIsTextAndItsETagLowerCase() throws Exception {
    assertThat(read(record("ceph:s3", "ObjectCreated:Put", "a+b%20c", ", \"size\": \"1024\", \"etag\": \"\\\"e1\\\"\"")))
        .containsExactly(new Change("media", "a+b%20c", Kind.WRITTEN, "", "e1", 1024, ""));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
      ObjectCreated:Put                       | WRITTEN
      ObjectCreated:Post                      | WRITTEN
      ObjectCreated:Copy                      | WRITTEN
      ObjectCreated:CompleteMultipartUpload   | WRITTEN
      s3:ObjectCreated:PutRetention           | WRITTEN
      ObjectRemoved:Delete                    | REMOVED
      ObjectRemoved:DeleteMarkerCreated       | REMOVED
      s3:ObjectRemoved:NoOP                   | REMOVED
      LifecycleExpiration:Delete              | REMOVED
      LifecycleExpiration:DeleteMarkerCreated | REMOVED
      ObjectRestore:Completed                 | none
      ObjectTagging:Put                       | none
      Replication:OperationFailedReplication  | none
      ''                                      | none
      """)
  void anEventNameIsAWriteARemovalOrNoChange(String name, Kind kind) {
    assertThat(ChangeEvents.kind(name == null ? "" : name)).isEqualTo(kind);
  }

  @Test
  void eventsThatChangeNoObjectAndTheTestEventNameNothing() throws Exception {
    assertThat(read(record("aws:s3", "ObjectRestore:Completed", "k", ""))).isEmpty();
    assertThat(ChangeEvents.read("""
        {"Service": "Amazon S3", "Event": "s3:TestEvent", "Time": "2026-12-06T10:00:00.000Z", "Bucket": "media"}""")).isEmpty();
  }

  @Test
  void aRecordListInsideAnSnsEnvelopeIsRead() throws Exception {
    String inner = "{\"Records\": [" + record("aws:s3", "ObjectCreated:Copy", "a+b", ", \"size\": 3") + "]}";
    String envelope = "{\"Type\": \"Notification\", \"TopicArn\": \"arn:aws:sns:us-east-1:1:t\", \"Message\": "
        + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(inner) + "}";
    assertThat(ChangeEvents.read(envelope)).containsExactly(new Change("media", "a b", Kind.WRITTEN, "", "", 3, ""));
  }

  @Test
  void aBodyThatIsNotARecordListSaysWhy() {
    assertThatThrownBy(() -> ChangeEvents.read("{\"Records\": [")).hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> ChangeEvents.read("[]")).hasMessage("not a JSON object");
    assertThatThrownBy(() -> ChangeEvents.read("{\"Message\": \"hello\"}")).hasMessage("no \"Records\" array");
    assertThatThrownBy(() -> read("{\"eventName\": \"ObjectCreated:Put\", \"s3\": {\"object\": {\"key\": \"k\"}}}"))
        .hasMessage("a record without s3.bucket.name or s3.object.key");
    assertThatThrownBy(() -> read(record("aws:s3", "ObjectCreated:Put", "100%", ""))).isInstanceOf(ChangeEvents.Unreadable.class)
        .hasMessageStartingWith("a key that is not form-encoded: 100%");
    assertThatThrownBy(() -> read(record("ceph:s3", "ObjectCreated:Put", "k", ", \"size\": \"99999999999999999999\"")))
        .isInstanceOf(ChangeEvents.Unreadable.class).hasMessage("a size that is not a count of bytes: 99999999999999999999");
  }

  @ParameterizedTest(name = "{0} vs {1} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      0055AED6DCD90281E5 | 0055AED6DCD90281E6 | -1
      0055AED6DCD90281E5 | 0055AED6DCD90281E5 | 0
      0055AED6DCD902     | 0055AED6DCD90281E5 | -1
      0055AED6DCD903     | 0055AED6DCD90281E5 | 1
      0055AED6DCD90281E5 | 0055AED6DCD9028100 | 1
      0055aed6dcd90281e6 | 0055AED6DCD90281E5 | 1
      0055AED6DCD90281   | 0055AED6DCD9028100 | 0
      """)
  void sequencersOfOneKeyCompareWithTheShorterPaddedWithZeros(String a, String b, int sign) {
    assertThat(Integer.signum(ChangeEvents.compareSequencers(a, b))).isEqualTo(sign);
    assertThat(Integer.signum(ChangeEvents.compareSequencers(b, a))).isEqualTo(-sign);
  }
}
