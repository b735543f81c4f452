package io.ferry.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.store.ETags;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;

/**
 * Reads manifests: lists of the objects to copy that stand in for listing the bucket. Two kinds:
 *
 * <ul>
 *   <li>an <b>S3 Inventory report</b>, named by its {@code manifest.json}: its data files (CSV, CSV.gz or Parquet) are
 *       read one per task, each row an object with its size, ETag and modification time; rows of older versions and
 *       delete markers are left out. ORC reports are not read.
 *   <li>a <b>key list</b>: one key per line, optionally followed by a tab, its size, a tab and its ETag. Read in ranges of
 *       {@link #SPLIT} bytes, each the lines that start in it, so one large list spreads over the cluster.
 * </ul>
 * A local manifest's inventory data files are looked for beside it (in its directory, its {@code data/} or
 * {@code ../data/}), else in the report's bucket.
 */
public final class Manifests {
  /** Bytes of a key list one task reads (about a million keys). */
  public static final long SPLIT = 64L << 20;
  private static final String ARN = "arn:aws:s3:::";

  private Manifests() {}

  /** The pieces of the manifest at {@code location}, for the executors to read. */
  public static List<ManifestPart> parts(String location, ManifestFiles files) throws IOException {
    return parts(location, files, SPLIT);
  }

  static List<ManifestPart> parts(String location, ManifestFiles files, long split) throws IOException {
    if (location.endsWith(".json")) return inventory(location, files);
    long size = files.size(location);
    List<ManifestPart> parts = new ArrayList<>();
    for (long offset = 0; offset < size; offset += split) {
      parts.add(new ManifestPart(location, ManifestPart.Format.KEY_LIST, offset, Math.min(split, size - offset), List.of()));
    }
    return parts;
  }

  /**
   * What an S3 Inventory report's manifest.json says of it.
   *
   * @param sourceBucket the bucket it lists ("" where it does not say)
   * @param createdMillis when S3 made it (0 where it does not say)
   * @param fileSchema its data files' columns, as written
   */
  public record Report(String sourceBucket, long createdMillis, String fileSchema) {
    /** Whether its rows tell an overwrite of the same size: an ETag or a modification time. */
    public boolean showsOverwrites() {
      String columns = fileSchema.toLowerCase(Locale.ROOT);
      return columns.contains("etag") || columns.contains("e_tag") || columns.contains("lastmodifieddate")
          || columns.contains("last_modified_date");
    }
  }

  /** The report a manifest.json describes. */
  public static Report report(String location, ManifestFiles files) throws IOException {
    JsonNode manifest = manifestJson(location, files);
    return new Report(manifest.path("sourceBucket").asText(""), manifest.path("creationTimestamp").asLong(0),
        manifest.path("fileSchema").asText(""));
  }

  private static JsonNode manifestJson(String location, ManifestFiles files) throws IOException {
    try (InputStream in = files.open(location, 0)) {
      return new ObjectMapper().readTree(in);
    } catch (JsonProcessingException e) {
      throw new IOException(location + " is not an S3 Inventory manifest.json: " + e.getOriginalMessage());
    }
  }

  private static List<ManifestPart> inventory(String location, ManifestFiles files) throws IOException {
    JsonNode manifest = manifestJson(location, files);
    String format = manifest.path("fileFormat").asText("").toUpperCase(Locale.ROOT);
    if (!manifest.path("files").isArray() || format.isEmpty()) {
      throw new IOException(location + " is not an S3 Inventory manifest.json (it has no fileFormat and files)");
    }
    String bucket = manifest.path("destinationBucket").asText("");
    if (bucket.startsWith(ARN)) bucket = bucket.substring(ARN.length());
    List<String> columns = new ArrayList<>();
    for (String column : manifest.path("fileSchema").asText("").split(",")) columns.add(column.trim());
    List<ManifestPart> parts = new ArrayList<>();
    for (JsonNode file : manifest.path("files")) {
      String key = file.path("key").asText();
      String data = locate(location, bucket, key, files);
      ManifestPart.Format kind = switch (format) {
        case "CSV" -> key.endsWith(".gz") ? ManifestPart.Format.INVENTORY_CSV_GZ : ManifestPart.Format.INVENTORY_CSV;
        case "PARQUET" -> ManifestPart.Format.INVENTORY_PARQUET;
        default -> throw new IOException(location + ": inventory reports in " + format + " are not read; configure the"
            + " inventory to write CSV or Parquet");
      };
      if (kind != ManifestPart.Format.INVENTORY_PARQUET && !columns.contains("Key")) {
        throw new IOException(location + ": its fileSchema has no Key column: " + manifest.path("fileSchema").asText(""));
      }
      parts.add(new ManifestPart(data, kind, 0, file.path("size").asLong(-1), columns));
    }
    return parts;
  }

  private static String locate(String manifest, String bucket, String key, ManifestFiles files) {
    if (!manifest.startsWith("s3://")) {
      Path dir = Path.of(manifest).toAbsolutePath().getParent();
      String name = key.substring(key.lastIndexOf('/') + 1);
      for (Path candidate : List.of(dir.resolve(name), dir.resolve("data").resolve(name), dir.resolveSibling("data").resolve(name))) {
        if (Files.isRegularFile(candidate)) return candidate.toString();
      }
    }
    return files.inBucket(bucket, key);
  }

  /** Reads one piece, passing on each object it names. */
  public static void read(ManifestPart part, ManifestFiles files, Consumer<ManifestEntry> out) throws IOException {
    switch (part.format()) {
      case KEY_LIST -> keyList(part, files, out);
      case INVENTORY_CSV -> {
        try (InputStream in = files.open(part.location(), 0)) {
          csv(part, in, out);
        }
      }
      case INVENTORY_CSV_GZ -> {
        try (InputStream in = new GZIPInputStream(files.open(part.location(), 0), 1 << 16)) {
          csv(part, in, out);
        }
      }
      case INVENTORY_PARQUET -> parquet(part, files, out);
    }
  }

  private static void keyList(ManifestPart part, ManifestFiles files, Consumer<ManifestEntry> out) throws IOException {
    long start = Math.max(0, part.offset() - 1);
    try (Lines lines = new Lines(files.open(part.location(), start), start)) {
      if (part.offset() > 0) lines.next(); // through the end of the line that started before this piece (it is the piece before's)
      long end = part.offset() + part.length();
      while (lines.position() < end) {
        long at = lines.position();
        String line = lines.next();
        if (line == null) break;
        if (line.isEmpty()) continue;
        String[] fields = line.split("\t", -1);
        long size = -1;
        if (fields.length > 1 && !fields[1].isEmpty()) {
          try {
            size = Long.parseLong(fields[1].trim());
          } catch (NumberFormatException e) {
            throw new IOException(part.location() + " at byte " + at + ": '" + fields[1] + "' is not a size (a line is a key, or"
                + " key<TAB>size<TAB>etag)");
          }
        }
        out.accept(new ManifestEntry(fields[0], size, fields.length > 2 ? ETags.unquote(fields[2].trim()) : "", 0));
      }
    }
  }

  private static void csv(ManifestPart part, InputStream in, Consumer<ManifestEntry> out) throws IOException {
    List<String> columns = part.columns();
    int key = columns.indexOf("Key");
    int size = columns.indexOf("Size");
    int etag = columns.indexOf("ETag");
    int modified = columns.indexOf("LastModifiedDate");
    int latest = columns.indexOf("IsLatest");
    int deleteMarker = columns.indexOf("IsDeleteMarker");
    try (Lines lines = new Lines(in, 0)) {
      for (String line = lines.next(); line != null; line = lines.next()) {
        if (line.isEmpty()) continue;
        List<String> row = csvFields(line);
        if (row.size() <= key) throw new IOException(part.location() + ": a row has fewer columns than its fileSchema: " + line);
        if (latest >= 0 && latest < row.size() && "false".equalsIgnoreCase(row.get(latest))) continue;
        if (deleteMarker >= 0 && deleteMarker < row.size() && "true".equalsIgnoreCase(row.get(deleteMarker))) continue;
        out.accept(new ManifestEntry(URLDecoder.decode(row.get(key), StandardCharsets.UTF_8), field(row, size).isEmpty() ? -1
            : Long.parseLong(field(row, size)), ETags.unquote(field(row, etag)), field(row, modified).isEmpty() ? 0
            : Instant.parse(field(row, modified)).toEpochMilli()));
      }
    }
  }

  private static String field(List<String> row, int index) {
    return index >= 0 && index < row.size() ? row.get(index) : "";
  }

  /** The fields of a CSV line as S3 Inventory writes them: each quoted, a quote inside doubled. */
  static List<String> csvFields(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }

  private static void parquet(ManifestPart part, ManifestFiles files, Consumer<ManifestEntry> out) throws IOException {
    Path local = part.location().startsWith("s3://") ? null : Path.of(part.location());
    Path temp = null;
    if (local == null) {
      temp = Files.createTempFile("ferry-inventory-", ".parquet"); // a Parquet footer is read first: the file must be seekable
      try (InputStream in = files.open(part.location(), 0)) {
        Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
      }
      local = temp;
    }
    try (ParquetReader<Group> reader = new GroupReader(new LocalInputFile(local)).build()) {
      for (Group row = reader.read(); row != null; row = reader.read()) {
        GroupType type = row.getType();
        if (has(row, type, "is_latest") && !row.getBoolean("is_latest", 0)) continue;
        if (has(row, type, "is_delete_marker") && row.getBoolean("is_delete_marker", 0)) continue;
        out.accept(new ManifestEntry(row.getString("key", 0), has(row, type, "size") ? row.getLong("size", 0) : -1,
            has(row, type, "e_tag") ? ETags.unquote(row.getString("e_tag", 0)) : "",
            has(row, type, "last_modified_date") ? row.getLong("last_modified_date", 0) : 0));
      }
    } finally {
      if (temp != null) Files.deleteIfExists(temp);
    }
  }

  private static boolean has(Group row, GroupType type, String field) {
    return type.containsField(field) && row.getFieldRepetitionCount(field) > 0;
  }

  /** Rows of a Parquet file as Parquet's example {@link Group}s. */
  private static final class GroupReader extends ParquetReader.Builder<Group> {
    GroupReader(InputFile file) {
      super(file);
    }

    @Override
    protected ReadSupport<Group> getReadSupport() {
      return new GroupReadSupport();
    }
  }

  /** UTF-8 lines of a stream ('\n' or "\r\n"), with the byte position of the next one. */
  private static final class Lines implements AutoCloseable {
    private final InputStream in;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private long position;

    Lines(InputStream in, long position) {
      this.in = new BufferedInputStream(in, 1 << 16);
      this.position = position;
    }

    long position() {
      return position;
    }

    String next() throws IOException {
      line.reset();
      int b;
      while ((b = in.read()) >= 0) {
        position++;
        if (b == '\n') break;
        line.write(b);
      }
      if (b < 0 && line.size() == 0) return null;
      byte[] bytes = line.toByteArray();
      int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
      return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
