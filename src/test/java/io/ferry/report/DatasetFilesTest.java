package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import io.ferry.store.StoreObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatasetFilesTest {
  @TempDir Path dir;

  private static RangeResult range(String key, long firstByteNanos, String error) {
    return RangeResult.of(new StoreObject(key, key, 100, "e", 0), "/d/" + key).task(3).part(2, 4, 25, 25).bytes(25, 0)
        .times(1_700_000_000_123L, 1_700_000_001_000L, firstByteNanos, 877_000_000).attempts(1).by("server-side-copy", "7", "host-a")
        .error(error).digests("0a0b0c0d", "crc64nvme:AAECAwQFBgc=", "crc64nvme:AAECAwQFBgc=").upload("", "\"etag-2\"").build();
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
      "STRING | plain/key.bin     | plain/key.bin",
      "STRING | a,b               | '\"a,b\"'",
      "STRING | say \"hi\"        | '\"say \"\"hi\"\"\"'",
      "STRING | ''                | '\"\"'",
      "INT    | 42                | 42",
      "DOUBLE | 0.5               | 0.5"})
  void csvFieldsFollowRfc4180(Datasets.Type type, String value, String expected) {
    Object typed = switch (type) {
      case INT -> Integer.valueOf(value);
      case DOUBLE -> Double.valueOf(value);
      default -> value;
    };
    assertThat(DatasetFiles.csvField(type, typed)).isEqualTo(expected);
  }

  /** OWASP's rule for CSV injection: a cell a spreadsheet would take for a formula starts with a quote instead. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      "=HYPERLINK(\"http://x\")  | ~\"'=HYPERLINK(\"\"http://x\"\")\"~",
      "+SUM(1+1)                 | '+SUM(1+1)",
      "-2+3                      | '-2+3",
      "@SUM(1)                   | '@SUM(1)",
      "=1,2                      | ~\"'=1,2\"~",
      "a=b                       | a=b",
      "dir/-x                    | dir/-x"})
  void cellsASpreadsheetWouldRunAreNeutralized(String value, String expected) {
    assertThat(DatasetFiles.csvField(Datasets.Type.STRING, value)).isEqualTo(expected);
  }

  @Test
  void aTabOrCarriageReturnFirstIsNeutralizedToo() {
    assertThat(DatasetFiles.csvField(Datasets.Type.STRING, "\tcmd")).isEqualTo("'\tcmd");
    assertThat(DatasetFiles.csvField(Datasets.Type.STRING, "\rcmd")).isEqualTo("\"'\rcmd\"");
    assertThat(DatasetFiles.csvField(Datasets.Type.LONG, -5L)).isEqualTo("-5"); // numbers are numbers
  }

  @Test
  void nullIsAnEmptyFieldAndTimestampsAreUtcWithMilliseconds() {
    assertThat(DatasetFiles.csvField(Datasets.Type.DOUBLE, null)).isEmpty();
    assertThat(DatasetFiles.csvField(Datasets.Type.TIMESTAMP, 1_700_000_000_000L)).isEqualTo("2023-11-14T22:13:20.000Z");
  }

  @Test
  void aPartIsWrittenOnceToParquetAndCsvWithTheSameRows() throws Exception {
    List<RangeResult> rows = List.of(range("a,1", 12_500_000, ""), range("b \"q\"", -1, "boom, twice"));
    List<RangeResult> seen = new ArrayList<>();
    String run = dir.toUri().toString();
    long n = DatasetFiles.writePart(Datasets.ranges("job", "run-1"), rows.iterator(), run, 3, "7", new Configuration(), seen::add);
    DatasetFiles.markDone(Datasets.ranges("job", "run-1"), run, new Configuration());

    assertThat(n).isEqualTo(2);
    assertThat(seen).isEqualTo(rows);
    Path csv = dir.resolve("ranges.csv/part-00003.csv");
    List<String> lines = Files.readAllLines(csv);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("job,run,key,destination,task,part,parts,offset,length,bytes,payload_bytes,started_at");
    assertThat(lines.get(1))
        .startsWith("job,run-1,\"a,1\",\"/d/a,1\",3,2,4,25,25,25,0,2023-11-14T22:13:20.123Z,2023-11-14T22:13:21.000Z,12.5,877.0,")
        .endsWith(",1,0,server-side-copy,7,host-a,0,OK,\"\",0a0b0c0d,crc64nvme:AAECAwQFBgc=,crc64nvme:AAECAwQFBgc=,\"\"\"etag-2\"\"\",100");
    assertThat(lines.get(2)).contains("\"b \"\"q\"\"\"", ",2023-11-14T22:13:21.000Z,,877.0,", ",FAILED,\"boom, twice\",");
    assertThat(dir.resolve("ranges.csv/_SUCCESS")).exists();
    assertThat(dir.resolve("ranges.parquet/_SUCCESS")).exists();
    try (var files = Files.list(dir.resolve("ranges.parquet"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "part-00003.snappy.parquet", "_SUCCESS"); // no temp part left behind, no Hadoop .crc side files
    }

    List<Group> read = new ArrayList<>();
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(dir.resolve("ranges.parquet/part-00003.snappy.parquet").toUri())).build()) {
      for (Group g; (g = reader.read()) != null; ) read.add(g);
    }
    assertThat(read).hasSize(2);
    Group first = read.get(0);
    assertThat(first.getString("key", 0)).isEqualTo("a,1");
    assertThat(first.getInteger("part", 0)).isEqualTo(2);
    assertThat(first.getLong("started_at", 0)).isEqualTo(1_700_000_000_123L);
    assertThat(first.getType().getType("started_at").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MILLIS));
    assertThat(first.getDouble("first_byte_ms", 0)).isEqualTo(12.5);
    assertThat(first.getString("etag", 0)).isEqualTo("\"etag-2\"");
    assertThat(read.get(1).getFieldRepetitionCount("first_byte_ms")).isZero(); // null, not 0
    assertThat(read.get(1).getString("error", 0)).isEqualTo("boom, twice");
  }

  @Test
  void anEmptyPartStillCarriesTheHeaderAndTheSchema() throws Exception {
    String run = dir.toUri().toString();
    DatasetFiles.writePart(Datasets.objects("job", "run-1"), List.<ObjectResult>of().iterator(), run, 0, "1", new Configuration(), o -> {});
    assertThat(Files.readAllLines(dir.resolve("objects.csv/part-00000.csv")))
        .containsExactly("job,run,key,destination,size,etag,last_modified,parts,bytes,status,error,verified,checksum,not_carried");
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(dir.resolve("objects.parquet/part-00000.snappy.parquet").toUri())).build()) {
      assertThat(reader.read()).isNull();
    }
  }

  @Test
  void aSecondAttemptOfATaskLeavesThePartInPlaceAndNoTempFile() throws Exception {
    String run = dir.toUri().toString();
    DatasetFiles.writePart(Datasets.ranges("job", "r"), List.of(range("first", 1, "")).iterator(), run, 0, "1", new Configuration(),
        r -> {});
    DatasetFiles.writePart(Datasets.ranges("job", "r"), List.of(range("second", 1, "")).iterator(), run, 0, "2", new Configuration(),
        r -> {});
    assertThat(Files.readString(dir.resolve("ranges.csv/part-00000.csv"))).contains(",first,").doesNotContain(",second,");
    try (var files = Files.list(dir.resolve("ranges.csv"))) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".tmp"))).isEmpty();
    }
  }

  @Test
  void aFailingAttemptRemovesItsTempFiles() throws Exception {
    String run = dir.toUri().toString();
    java.util.Iterator<RangeResult> failing = new java.util.Iterator<>() {
      int n;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public RangeResult next() {
        if (n++ == 3) throw new IllegalStateException("the executor lost its block");
        return range("k" + n, 1, "");
      }
    };
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DatasetFiles.writePart(Datasets.ranges("job", "r"), failing, run, 0, "9",
        new Configuration(), r -> {})).hasMessageContaining("lost its block");
    try (var files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).filter(f -> !f.endsWith(".crc"))).isEmpty();
    }
  }
}
