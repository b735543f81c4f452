package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A small JSON document in the ledger's folder that a run replaces whole: what delta passes keep between runs. */
final class LedgerJson {
  static final ObjectMapper JSON = new ObjectMapper();

  private LedgerJson() {}

  /** The document, or null before the first is written. */
  static JsonNode read(Ledger ledger, String name) throws IOException {
    FileSystem fs = ledger.fs();
    Path file = new Path(ledger.directory() + "/" + name);
    if (!fs.exists(file)) file = new Path(ledger.directory() + "/" + name + ".next"); // written, the old one deleted, not renamed
    if (!fs.exists(file)) return null;
    try (InputStream in = fs.open(file)) {
      return JSON.readTree(in);
    }
  }

  /** Replaces the document: written beside it, then renamed over it. */
  static void write(Ledger ledger, String name, ObjectNode root) throws IOException {
    FileSystem fs = ledger.fs();
    fs.mkdirs(new Path(ledger.directory()));
    Path file = new Path(ledger.directory() + "/" + name);
    Path next = new Path(ledger.directory() + "/" + name + ".next");
    try (FSDataOutputStream out = fs.create(next, true)) {
      out.write(JSON.writeValueAsBytes(root));
    }
    fs.delete(file, false);
    if (!fs.rename(next, file)) throw new IOException("cannot rename " + next + " to " + file);
  }
}
