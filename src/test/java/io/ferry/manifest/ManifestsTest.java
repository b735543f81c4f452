package io.ferry.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key lists read in byte ranges (each line by exactly one piece, wherever the cuts fall) and inventory CSV rows. */
class ManifestsTest {
  @TempDir Path dir;

  /** Local files, as the executors read a local manifest. */
  private static final ManifestFiles LOCAL = new ManifestFiles() {
    @Override
    public InputStream open(String location, long offset) throws IOException {
      InputStream in = Files.newInputStream(Path.of(location));
      in.skipNBytes(offset);
      return in;
    }

    @Override
    public long size(String location) throws IOException {
      return Files.size(Path.of(location));
    }
  };

  private static List<ManifestEntry> read(List<ManifestPart> parts) throws IOException {
    List<ManifestEntry> out = new ArrayList<>();
    for (ManifestPart p : parts) Manifests.read(p, LOCAL, out::add);
    return out;
  }

  @Test
  void aReportSaysWhichBucketItListsWhenItWasMadeAndWhetherItsRowsShowAnOverwrite() throws Exception {
    Path manifest = Files.writeString(dir.resolve("manifest.json"), """
        {"sourceBucket": "media", "destinationBucket": "arn:aws:s3:::inventory", "fileFormat": "CSV",
         "creationTimestamp": "1764979200000", "fileSchema": "Bucket, Key, Size", "files": []}
        """);
    Manifests.Report report = Manifests.report(manifest.toString(), LOCAL);
    assertThat(report).isEqualTo(new Manifests.Report("media", 1_764_979_200_000L, "Bucket, Key, Size"));
    assertThat(report.showsOverwrites()).as("a size alone misses an overwrite of the same size").isFalse();
    assertThat(new Manifests.Report("", 0, "Bucket, Key, Size, ETag").showsOverwrites()).isTrue();
    assertThat(new Manifests.Report("", 0, "Bucket, Key, LastModifiedDate").showsOverwrites()).isTrue();
    assertThat(new Manifests.Report("", 0, "message s3.inventory { required binary key; optional binary e_tag; }").showsOverwrites())
        .isTrue();
  }

  @Test
  void everyLineIsReadByExactlyOnePieceWhereverTheCutsFall() throws IOException {
    String text = "a\nbb\t\tetag-b\n\nccc\t12\td41d8cd98f00b204e9800998ecf8427e\r\n\u00e9t\u00e9/\uD83D\uDE00\t3\n"
        + "a key with spaces\t\t\"etag\"\nlast-without-newline";
    Path list = Files.writeString(dir.resolve("keys.txt"), text);
    List<ManifestEntry> whole = read(Manifests.parts(list.toString(), LOCAL));
    assertThat(whole).containsExactly(
        new ManifestEntry("a", -1, "", 0), new ManifestEntry("bb", -1, "etag-b", 0),
        new ManifestEntry("ccc", 12, "d41d8cd98f00b204e9800998ecf8427e", 0), new ManifestEntry("\u00e9t\u00e9/\uD83D\uDE00", 3, "", 0),
        new ManifestEntry("a key with spaces", -1, "etag", 0), new ManifestEntry("last-without-newline", -1, "", 0));
  }

  @Test
  void piecesOfEverySizeGiveTheSameEntries() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 40; i++) text.append("k/").append("x".repeat(i % 7)).append(i).append('\t').append(i).append('\n');
    Path list = Files.writeString(dir.resolve("many.txt"), text);
    List<ManifestEntry> expected = read(Manifests.parts(list.toString(), LOCAL));
    assertThat(expected).hasSize(40);
    for (long split = 1; split <= text.length() + 1; split++) {
      assertThat(read(Manifests.parts(list.toString(), LOCAL, split))).as("pieces of %d bytes", split).isEqualTo(expected);
    }
  }

  @Test
  void aSizeThatIsNoNumberNamesTheByteAndTheForm() throws IOException {
    Path list = Files.writeString(dir.resolve("bad.txt"), "ok\t1\nbad\tten\n");
    assertThatThrownBy(() -> read(Manifests.parts(list.toString(), LOCAL)))
        .hasMessageContaining("at byte 5: 'ten' is not a size (a line is a key, or key<TAB>size<TAB>etag)");
  }

  @Test
  void csvFieldsAreQuotedWithDoubledQuotes() {
    assertThat(Manifests.csvFields("\"b\",\"a%2Fb\",\"12\",\"x\"\"y\",\"\"")).containsExactly("b", "a%2Fb", "12", "x\"y", "");
  }

  @Test
  void aManifestJsonThatIsNoInventorySaysSo() throws IOException {
    Path json = Files.writeString(dir.resolve("manifest.json"), "{\"hello\": 1}");
    assertThatThrownBy(() -> Manifests.parts(json.toString(), LOCAL)).hasMessageContaining("is not an S3 Inventory manifest.json");
    Path orc = Files.writeString(dir.resolve("orc.json"),
        "{\"fileFormat\": \"ORC\", \"fileSchema\": \"\", \"files\": [{\"key\": \"d/x.orc\"}]}");
    assertThatThrownBy(() -> Manifests.parts(orc.toString(), LOCAL)).hasMessageContaining("inventory reports in ORC are not read");
  }
}
