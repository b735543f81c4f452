package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.StoreObject;
import io.ferry.store.listing.KeySpace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * ListObjectVersions pages read as whole key histories, against a table that pages as S3 does (key-marker,
 * version-id-marker, max-keys counting versions and markers): at every page size, every version is handed on once and
 * every history whole, including one longer than a page. S3Mock cannot tell this: it answers 1,001 versions and
 * "not truncated" for 1,100.
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
      var b = ListObjectVersionsResponse.builder().isTruncated(truncated)
          .versions(page.stream().filter(e -> !e.marker()).map(e -> ObjectVersion.builder().key(e.key()).versionId(e.id())
              .isLatest(e.latest()).lastModified(Instant.ofEpochMilli(e.millis())).size(1L).eTag("\"e\"").build()).toList())
          .deleteMarkers(page.stream().filter(Entry::marker).map(e -> DeleteMarkerEntry.builder().key(e.key()).versionId(e.id())
              .isLatest(e.latest()).lastModified(Instant.ofEpochMilli(e.millis())).build()).toList());
      if (truncated && !page.isEmpty()) {
        b.nextKeyMarker(page.get(page.size() - 1).key()).nextVersionIdMarker(page.get(page.size() - 1).id());
      }
      return b.build();
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

  @Test
  void aMarkerAndAVersionOfOneTimeAlternateAndTheLatestComesFirst() {
    Instant t = Instant.ofEpochMilli(5000);
    // written: v1, deleted (the marker has v1's time, as S3Mock gives it), v2 written again
    S3Lister.History back = new S3Lister.History("back", new ArrayList<>(List.of(
        ObjectVersion.builder().key("back").versionId("v2").isLatest(true).lastModified(Instant.ofEpochMilli(9000)).size(2L).build(),
        ObjectVersion.builder().key("back").versionId("v1").isLatest(false).lastModified(t).size(1L).build())),
        new ArrayList<>(List.of(DeleteMarkerEntry.builder().key("back").versionId("m").isLatest(false).lastModified(t).build())));
    assertThat(back.merged("").stream().map(StoreObject::versionId)).containsExactly("v2", "m", "v1");
    // written, then deleted within the store's second: the marker is the latest
    S3Lister.History gone = new S3Lister.History("gone", new ArrayList<>(List.of(
        ObjectVersion.builder().key("gone").versionId("v1").isLatest(false).lastModified(t).size(1L).build())),
        new ArrayList<>(List.of(DeleteMarkerEntry.builder().key("gone").versionId("m").isLatest(true).lastModified(t).build())));
    assertThat(gone.merged("").stream().map(StoreObject::versionId)).containsExactly("m", "v1");
  }
}
