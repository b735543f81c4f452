package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a job's delta passes from a queue keep between runs, in its ledger's folder ({@code events.json}).
 *
 * @param held receipts of messages a pass received and did not settle: the next run releases them at once
 * @param drainedMillis when the last pass that drained its queue began receiving; 0 for none yet
 */
public record DeltaState(List<String> held, long drainedMillis) {
  public static final DeltaState NONE = new DeltaState(List.of(), 0);
  private static final String FILE = "events.json";

  public DeltaState {
    held = List.copyOf(held);
  }

  /** The state as the ledger keeps it; {@link #NONE} before the first pass. */
  public static DeltaState read(Ledger ledger) throws IOException {
    JsonNode root = LedgerJson.read(ledger, FILE);
    if (root == null) return NONE;
    List<String> held = new ArrayList<>();
    root.path("held").forEach(n -> held.add(n.asText()));
    return new DeltaState(held, root.path("drained").asLong(0));
  }

  /** Replaces the state in the ledger. */
  public void write(Ledger ledger) throws IOException {
    ObjectNode root = LedgerJson.JSON.createObjectNode();
    held.forEach(root.putArray("held")::add);
    root.put("drained", drainedMillis);
    LedgerJson.write(ledger, FILE, root);
  }
}
