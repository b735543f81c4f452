package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.listing.KeySpace;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ListObjectVersions pages read as whole key histories, against a table that pages as S3 does (key-marker,
 * version-id-marker, max-keys counting versions and markers): at every page size, every version is handed on once and
 * every history whole, including one longer than a page (S3Mock cannot tell this: it answers 1,001 versions and
 * "not truncated" for 1,100); and an answer read in its own order.
 */
class VersionPagesTest {
  record Entry(String key, String id, boolean marker, boolean latest, long millis) {}

  /** Keys with 1, 2 and 3 versions, a marker among them, and one key of 11 versions, as S3 orders them. */
  private static List<Entry> table() {
    List<Entry> t = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      String key = "k/%02d".formatted(k);
      int n = k == 6 ? 11 : k % 3 + 1;
      for (int v = n - 1; v >= 0; v--) t.add(new Entry(key, key + "#" + v, k % 4 == 1 && v == n - 1 && n > 1, v == n - 1, 1000 + v));
    }
    return t;
  }

  /** A store that pages {@code table} as S3 does. */
  private static S3Lister.VersionPages.Fetch store(List<Entry> table, int[] requests) {
    return (under, keyMarker, versionMarker, max, level) -> {
      requests[0]++;
      int from = 0;
      if (versionMarker != null) {
        while (!(table.get(from).key().equals(keyMarker) && table.get(from).id().equals(versionMarker))) from++;
        from++;
      } else if (!keyMarker.isEmpty()) {
        while (from < table.size() && table.get(from).key().compareTo(keyMarker) <= 0) from++;
      }
      int to = Math.min(table.size(), from + max);
      List<Entry> page = table.subList(from, to);
      boolean truncated = to < table.size();
      Entry last = page.isEmpty() ? null : page.get(page.size() - 1);
      return new VersionListing.Page(page.stream().map(e -> new VersionListing.Entry(e.key(), e.id(), e.marker(), e.latest(), e.millis(),
          e.marker() ? 0 : 1, e.marker() ? "" : "e")).toList(), List.of(), truncated, truncated && last != null ? last.key() : null,
          truncated && last != null ? last.id() : null, true);
    };
  }

  @ParameterizedTest(name = "pages of {0}")
  @CsvSource({"1", "2", "3", "4", "5", "7", "10", "11", "12", "1000"})
  void everyVersionOnceAndEveryHistoryWhole(int max) throws Exception {
    List<Entry> table = table();
    int[] requests = {0};
    S3Lister.VersionPages pages = new S3Lister.VersionPages(store(table, requests));
    List<String> seen = new ArrayList<>();
    String token = null;
    do {
      KeySpace.Page<S3Lister.History> page = pages.page("", "", token, max, false);
      for (S3Lister.History h : page.entries()) {
        h.versions("", new long[3], o -> seen.add(o.versionId()));
      }
      token = page.next();
    } while (token != null);
    assertThat(seen).containsExactlyElementsOf(table.stream().map(Entry::id).toList());
    assertThat(requests[0]).as("requests").isLessThan(table.size() * 3);
  }

  /**
   * A first page by delimiter that holds a folder and the start of a key whose versions fill it: the folder is listed
   * still, once the key's history is read to its end on the next page.
   */
  @Test
  void aFolderBesideALongHistoryIsKept() throws Exception {
    S3Lister.VersionPages.Fetch store = (under, keyMarker, versionMarker, max, level) -> {
      assertThat(level).isTrue();
      if (versionMarker == null) {
        return new VersionListing.Page(List.of(entry("b", "b4", true), entry("b", "b3", false)), List.of("a/"), true, "b", "b3", true);
      }
      return new VersionListing.Page(List.of(entry("b", "b2", false), entry("b", "b1", false)), List.of(), false, null, null, true);
    };
    KeySpace.Page<S3Lister.History> page = new S3Lister.VersionPages(store).page("", "", null, 3, true);
    assertThat(page.folders()).containsExactly("a/");
    assertThat(page.next()).isNull();
    assertThat(page.entries()).singleElement().satisfies(h -> assertThat(h.newestFirst()).extracting(VersionListing.Entry::versionId)
        .containsExactly("b4", "b3", "b2", "b1"));
  }

  private static VersionListing.Entry entry(String key, String id, boolean latest) {
    return new VersionListing.Entry(key, id, false, latest, 1, 1, "e");
  }

  /** The answer's own order between versions and markers of one time, which the SDK's model loses. */
  @Test
  void anAnswerIsReadInItsOwnOrderAndItsKeysDecoded() throws Exception {
    String xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
          <Name>b</Name><Prefix></Prefix><KeyMarker></KeyMarker><MaxKeys>1000</MaxKeys><EncodingType>url</EncodingType>
          <IsTruncated>true</IsTruncated><NextKeyMarker>a%20b%2Bc</NextKeyMarker><NextVersionIdMarker>v0</NextVersionIdMarker>
          <DeleteMarker><Key>a%20b%2Bc</Key><VersionId>m2</VersionId><IsLatest>true</IsLatest>
            <LastModified>2024-01-31T12:00:00.000Z</LastModified><Owner><ID>x</ID></Owner></DeleteMarker>
          <Version><Key>a%20b%2Bc</Key><VersionId>v1</VersionId><IsLatest>false</IsLatest>
            <LastModified>2024-01-31T12:00:00.000Z</LastModified><ETag>"0cc175b9c0f1b6a831c399e269772661"</ETag><Size>1</Size>
            <StorageClass>STANDARD</StorageClass></Version>
          <DeleteMarker><Key>a%20b%2Bc</Key><VersionId>m1</VersionId><IsLatest>false</IsLatest>
            <LastModified>2024-01-31T12:00:00.000Z</LastModified></DeleteMarker>
          <Version><Key>a%20b%2Bc</Key><VersionId>v0</VersionId><IsLatest>false</IsLatest>
            <LastModified>2024-01-31T12:00:00.000Z</LastModified><ETag>"e"</ETag><Size>7</Size></Version>
          <CommonPrefixes><Prefix>d%2F</Prefix></CommonPrefixes>
        </ListVersionsResult>
        """;
    VersionListing.Page page = VersionListing.parse(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(page.entries()).extracting(VersionListing.Entry::versionId).containsExactly("m2", "v1", "m1", "v0");
    assertThat(page.entries()).extracting(VersionListing.Entry::marker).containsExactly(true, false, true, false);
    assertThat(page.entries().get(0).key()).isEqualTo("a b+c");
    assertThat(page.entries().get(1).etag()).isEqualTo("0cc175b9c0f1b6a831c399e269772661");
    assertThat(page.entries().get(3).size()).isEqualTo(7);
    assertThat(page.prefixes()).containsExactly("d/");
    assertThat(page.truncated()).isTrue();
    assertThat(page.nextKeyMarker()).isEqualTo("a b+c");
    assertThat(page.nextVersionIdMarker()).isEqualTo("v0");
    assertThat(page.interleaved()).as("S3's answer: its order is the history's").isTrue();
    assertThat(VersionListing.parse(xml.replace("ListVersionsResult", "ListBucketResult").getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .interleaved()).as("S3Mock's").isFalse();
    List<String> ids = new ArrayList<>();
    new S3Lister.History("a b+c", page.entries()).versions("", new long[3], o -> ids.add(o.age() + ":" + o.versionId()));
    assertThat(ids).containsExactly("0:m2", "1:v1", "2:m1", "3:v0");
    // the kinds apart (S3Mock), each marker at the time of the version it covers: by time, a marker before its version
    List<VersionListing.Entry> apart = List.of(
        new VersionListing.Entry("k", "v2", false, true, 9000, 2, "e"),
        new VersionListing.Entry("k", "v1", false, false, 5000, 1, "e"),
        new VersionListing.Entry("k", "m", true, false, 5000, 0, ""));
    assertThat(S3Lister.newestFirst(apart, false)).extracting(VersionListing.Entry::versionId).containsExactly("v2", "m", "v1");
    assertThat(S3Lister.newestFirst(apart, true)).as("S3's order is kept as it is").extracting(VersionListing.Entry::versionId)
        .containsExactly("v2", "v1", "m");
  }
}
