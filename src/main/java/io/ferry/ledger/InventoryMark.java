package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * How far a job's delta passes from inventory diffs have settled every key, in its ledger's folder ({@code
 * inventory.json}): the newer report of the last such pass. A later pass whose older report was made after it would
 * miss what changed between the two.
 *
 * @param report the newer report's manifest.json
 * @param createdMillis its creationTimestamp; 0 before the first pass that settled
 */
public record InventoryMark(String report, long createdMillis) {
  public static final InventoryMark NONE = new InventoryMark("", 0);
  private static final String FILE = "inventory.json";

  public static InventoryMark read(Ledger ledger) throws IOException {
    JsonNode root = LedgerJson.read(ledger, FILE);
    return root == null ? NONE : new InventoryMark(root.path("report").asText(""), root.path("created").asLong(0));
  }

  public void write(Ledger ledger) throws IOException {
    ObjectNode root = LedgerJson.JSON.createObjectNode();
    root.put("report", report);
    root.put("created", createdMillis);
    LedgerJson.write(ledger, FILE, root);
  }

  /** Whether a pass whose older report was made at {@code olderMillis} leaves changes out: it was made after this mark. */
  public boolean gapBefore(long olderMillis) {
    return createdMillis > 0 && olderMillis > createdMillis;
  }
}
