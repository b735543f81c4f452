package io.ferry.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.ledger.LocalFiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Writes a dataset the way Spark lays one out ({@code <run>/<name>.parquet/part-NNNNN.snappy.parquet} and
 * {@code <run>/<name>.csv/part-NNNNN.csv}, then {@code _SUCCESS}), with the Parquet library and a plain CSV writer
 * instead of Spark SQL: one pass over the rows writes both files, and the run does not pay Spark SQL's start-up in a
 * fresh JVM. Any Hadoop filesystem works
 * ({@code file:} through {@link LocalFiles}, {@code s3a:}, {@code hdfs:}); each part is written under a hidden name
 * and renamed into place, so readers never see half a part and a retried task replaces its earlier attempt.
 *
 * <p>CSV is RFC 4180: a header row; a field with a comma, quote or line break is quoted, quotes doubled; an empty
 * string is {@code ""} and a null is an empty field (so pandas and Spark, with {@code escape '"'}, tell them apart);
 * timestamps are ISO-8601 in UTC with milliseconds. A text that starts with {@code = + - @}, a tab or a carriage return
 * gets a {@code '} in front (OWASP's rule against CSV injection), so a spreadsheet shows it instead of running it;
 * Parquet keeps every text exact.
 */
public final class DatasetFiles {
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** What a spreadsheet takes a cell starting with for a formula. */
  private static final String FORMULA_FIRST = "=+-@\t\r";

  private DatasetFiles() {}

  /** The Parquet schema of a table: strings as UTF-8 binaries, timestamps as TIMESTAMP(MILLIS, adjusted to UTC). */
  public static MessageType parquetSchema(Datasets.Table<?> table) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (Datasets.Column<?> c : table.columns()) {
      Repetition repetition = c.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
      switch (c.type()) {
        case STRING -> message.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType()).named(c.name());
        case INT -> message.primitive(PrimitiveTypeName.INT32, repetition).named(c.name());
        case LONG -> message.primitive(PrimitiveTypeName.INT64, repetition).named(c.name());
        case DOUBLE -> message.primitive(PrimitiveTypeName.DOUBLE, repetition).named(c.name());
        case TIMESTAMP -> message.primitive(PrimitiveTypeName.INT64, repetition)
            .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MILLIS)).named(c.name());
      }
    }
    return message.named(table.name());
  }

  public static String csvHeader(Datasets.Table<?> table) {
    StringBuilder out = new StringBuilder();
    for (Datasets.Column<?> c : table.columns()) {
      if (out.length() > 0) out.append(',');
      out.append(csvField(Datasets.Type.STRING, c.name()));
    }
    return out.toString();
  }

  /** One CSV field (see the class comment for the rules). */
  public static String csvField(Datasets.Type type, Object value) {
    if (value == null) return "";
    return switch (type) {
      case TIMESTAMP -> TIMESTAMP.format(Instant.ofEpochMilli((Long) value));
      case STRING -> {
        String s = (String) value;
        if (s.isEmpty()) yield "\"\"";
        if (FORMULA_FIRST.indexOf(s.charAt(0)) >= 0) s = "'" + s; // a spreadsheet would run it as a formula
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        yield quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
      }
      default -> value.toString();
    };
  }

  /**
   * Writes part {@code part} of {@code table} under {@code runDirectory} from {@code rows} (read once), calling
   * {@code each} for every row; returns the number of rows. A part with no rows is still written (header and schema),
   * so an empty dataset can be read. {@code attempt} names this attempt's temp files, so concurrent attempts of one
   * task (speculation, an executor written off but still running) never share one; the first to finish places the
   * part (every attempt writes the same rows) and the others remove their temp files.
   */
  public static <T> long writePart(Datasets.Table<T> table, Iterator<T> rows, String runDirectory, int part, String attempt,
      Configuration conf, Consumer<T> each) throws IOException {
    Path parquetDir = new Path(runDirectory, table.name() + ".parquet");
    Path csvDir = new Path(runDirectory, table.name() + ".csv");
    String partName = String.format("part-%05d", part);
    Path parquetTemp = new Path(parquetDir, "." + partName + "-" + attempt + ".parquet.tmp");
    Path csvTemp = new Path(csvDir, "." + partName + "-" + attempt + ".csv.tmp");
    FileSystem fs = LocalFiles.of(URI.create(runDirectory), conf);
    try {
      OutputFile parquetFile = fs instanceof LocalFiles ? new FsOutputFile(fs, parquetTemp) : HadoopOutputFile.fromPath(parquetTemp, conf);
      long count = write(table, rows, parquetFile, fs.create(csvTemp, true), conf, each);
      promote(fs, parquetTemp, new Path(parquetDir, partName + ".snappy.parquet"));
      promote(fs, csvTemp, new Path(csvDir, partName + ".csv"));
      return count;
    } catch (IOException | RuntimeException e) {
      fs.delete(parquetTemp, false);
      fs.delete(csvTemp, false);
      throw e;
    }
  }

  private static <T> long write(Datasets.Table<T> table, Iterator<T> rows, OutputFile parquetFile, OutputStream csvFile,
      Configuration conf, Consumer<T> each) throws IOException {
    MessageType schema = parquetSchema(table);
    List<Datasets.Column<T>> columns = table.columns();
    long count = 0;
    try (Writer csv = new BufferedWriter(new OutputStreamWriter(csvFile, StandardCharsets.UTF_8), 1 << 16);
        ParquetWriter<Group> parquet = ExampleParquetWriter.builder(parquetFile).withType(schema).withConf(conf)
            .withCompressionCodec(CompressionCodecName.SNAPPY).withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            // most columns hold a value per row (keys, digests, times): a dictionary only costs a hash per value
            .withDictionaryEncoding(false).withSizeStatisticsEnabled(false).build()) {
      csv.write(csvHeader(table));
      csv.write('\n');
      while (rows.hasNext()) {
        T row = rows.next();
        Group group = new SimpleGroup(schema);
        for (int i = 0; i < columns.size(); i++) {
          Datasets.Column<T> c = columns.get(i);
          Object value = c.value().apply(row);
          if (i > 0) csv.write(',');
          csv.write(csvField(c.type(), value));
          if (value == null) continue;
          switch (c.type()) {
            // bytes: min and max compare them faster than the buffer a String is wrapped in
            case STRING -> group.add(i, Binary.fromConstantByteArray(((String) value).getBytes(StandardCharsets.UTF_8)));
            case INT -> group.add(i, (Integer) value);
            case LONG, TIMESTAMP -> group.add(i, (Long) value);
            case DOUBLE -> group.add(i, (Double) value);
          }
        }
        csv.write('\n');
        parquet.write(group);
        each.accept(row);
        count++;
      }
    }
    return count;
  }

  /**
   * The SHA-256 of a table's CSV parts concatenated in the order of their names (hex), what {@code cat
   * <name>.csv/part-*.csv | sha256sum} prints: a manifest's bytes, checkable without Ferry.
   */
  public static String sha256(Datasets.Table<?> table, String runDirectory, Configuration conf) throws IOException {
    FileSystem fs = LocalFiles.of(URI.create(runDirectory), conf);
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    // listed, not globbed: the run's directory is a path, and a '{' or '[' in it is no pattern
    List<FileStatus> parts = new ArrayList<>(Arrays.stream(fs.listStatus(new Path(runDirectory, table.name() + ".csv")))
        .filter(f -> f.getPath().getName().matches("part-\\d+\\.csv")).toList());
    parts.sort(Comparator.comparing(f -> f.getPath().getName()));
    byte[] buffer = new byte[1 << 16];
    for (FileStatus part : parts) {
      try (InputStream in = fs.open(part.getPath())) {
        for (int n; (n = in.read(buffer)) > 0;) digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Marks both directories of a table complete, as Spark does, once every part is in place. */
  public static void markDone(Datasets.Table<?> table, String runDirectory, Configuration conf) throws IOException {
    FileSystem fs = LocalFiles.of(URI.create(runDirectory), conf);
    for (String suffix : List.of(".parquet", ".csv", ".jsonl")) {
      Path dir = new Path(runDirectory, table.name() + suffix);
      if (suffix.equals(".jsonl") && !fs.exists(dir)) continue; // written only when asked for
      fs.mkdirs(dir);
      fs.create(new Path(dir, "_SUCCESS"), true).close();
    }
  }

  /**
   * A Parquet output file on a local {@code fs} (Parquet's own would open the path's cached Hadoop filesystem, which
   * forks chmod); other filesystems keep Parquet's, which also aligns row groups to HDFS blocks.
   */
  private record FsOutputFile(FileSystem fs, Path path) implements OutputFile {
    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
      return HadoopStreams.wrap(fs.create(path, false));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
      return HadoopStreams.wrap(fs.create(path, true));
    }

    @Override
    public boolean supportsBlockSize() {
      return false;
    }

    @Override
    public long defaultBlockSize() {
      return 0;
    }

    @Override
    public String getPath() {
      return path.toString();
    }
  }

  /**
   * Part {@code part} of {@code table} as JSON lines ({@code <name>.jsonl/part-NNNNN.jsonl}: one object per row, keys
   * the column names, timestamps ISO-8601): rows are written as they are given, and the part is placed at the close,
   * as {@link #writePart} places its files.
   */
  public static <T> JsonLines<T> jsonLines(Datasets.Table<T> table, String runDirectory, int part, String attempt, Configuration conf)
      throws IOException {
    FileSystem fs = LocalFiles.of(URI.create(runDirectory), conf);
    Path dir = new Path(runDirectory, table.name() + ".jsonl");
    String name = String.format("part-%05d", part);
    Path temp = new Path(dir, "." + name + "-" + attempt + ".jsonl.tmp");
    return new JsonLines<>(table, fs, temp, new Path(dir, name + ".jsonl"));
  }

  /** An open JSON-lines part. */
  public static final class JsonLines<T> implements Consumer<T>, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Datasets.Table<T> table;
    private final FileSystem fs;
    private final Path temp;
    private final Path target;
    private final Writer out;

    JsonLines(Datasets.Table<T> table, FileSystem fs, Path temp, Path target) throws IOException {
      this.table = table;
      this.fs = fs;
      this.temp = temp;
      this.target = target;
      this.out = new BufferedWriter(new OutputStreamWriter(fs.create(temp, true), StandardCharsets.UTF_8), 1 << 16);
    }

    @Override
    public void accept(T row) {
      ObjectNode line = JSON.createObjectNode();
      for (Datasets.Column<T> c : table.columns()) {
        Object value = c.value().apply(row);
        if (value == null) {
          line.putNull(c.name());
        } else {
          switch (c.type()) {
            case STRING -> line.put(c.name(), (String) value);
            case INT -> line.put(c.name(), (Integer) value);
            case LONG -> line.put(c.name(), (Long) value);
            case DOUBLE -> line.put(c.name(), (Double) value);
            case TIMESTAMP -> line.put(c.name(), TIMESTAMP.format(Instant.ofEpochMilli((Long) value)));
          }
        }
      }
      try {
        out.write(JSON.writeValueAsString(line));
        out.write('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws IOException {
      out.close();
      promote(fs, temp, target);
    }
  }

  private static void promote(FileSystem fs, Path temp, Path target) throws IOException {
    if (!fs.exists(target) && fs.rename(temp, target)) return;
    if (!fs.exists(target)) throw new IOException("cannot rename " + temp + " to " + target);
    fs.delete(temp, false);
  }
}
