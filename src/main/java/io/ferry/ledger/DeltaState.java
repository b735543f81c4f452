package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a job's delta passes keep between runs, in its ledger's folder ({@code events.json}).
 *
 * @param held receipts of messages a pass received and did not settle: the next run releases them at once
 * @param drainedMillis when the last pass that drained its queue began receiving; 0 for none yet
 */
public record DeltaState(List<String> held, long drainedMillis) {
  public static final DeltaState NONE = new DeltaState(List.of(), 0);
  private static final String FILE = "events.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  public DeltaState {
    held = List.copyOf(held);
  }

  /** The state as the ledger keeps it; {@link #NONE} before the first pass. */
  public static DeltaState read(Ledger ledger) throws IOException {
    FileSystem fs = ledger.fs();
    Path file = new Path(ledger.directory() + "/" + FILE);
    if (!fs.exists(file)) file = new Path(ledger.directory() + "/" + FILE + ".next"); // written, the old one deleted, not renamed
    if (!fs.exists(file)) return NONE;
    try (InputStream in = fs.open(file)) {
      JsonNode root = JSON.readTree(in);
      List<String> held = new ArrayList<>();
      root.path("held").forEach(n -> held.add(n.asText()));
      return new DeltaState(held, root.path("drained").asLong(0));
    }
  }

  /** Replaces the state in the ledger: written beside it, then renamed over it. */
  public void write(Ledger ledger) throws IOException {
    FileSystem fs = ledger.fs();
    fs.mkdirs(new Path(ledger.directory()));
    Path file = new Path(ledger.directory() + "/" + FILE);
    Path next = new Path(ledger.directory() + "/" + FILE + ".next");
    ObjectNode root = JSON.createObjectNode();
    held.forEach(root.putArray("held")::add);
    root.put("drained", drainedMillis);
    try (FSDataOutputStream out = fs.create(next, true)) {
      out.write(JSON.writeValueAsBytes(root));
    }
    fs.delete(file, false);
    if (!fs.rename(next, file)) throw new IOException("cannot rename " + next + " to " + file);
  }
}
