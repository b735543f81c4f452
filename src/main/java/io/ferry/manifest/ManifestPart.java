package io.ferry.manifest;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A piece of a manifest that one executor reads: a byte range of a key list, or one data file of an S3 Inventory
 * report.
 *
 * @param location the file: {@code s3://bucket/key} or a local path
 * @param offset where a key list's range starts (its lines are those that start in it); 0 for a data file
 * @param length the range's length; the whole file for a data file
 * @param columns an inventory CSV file's columns, in the report's order (its {@code fileSchema}); empty otherwise
 */
public record ManifestPart(String location, Format format, long offset, long length, List<String> columns) implements Serializable {
  /** What the piece holds. */
  public enum Format { KEY_LIST, INVENTORY_CSV, INVENTORY_CSV_GZ, INVENTORY_PARQUET }

  public ManifestPart {
    Objects.requireNonNull(location, "location is null");
    Objects.requireNonNull(format, "format is null");
    columns = List.copyOf(columns);
  }
}
