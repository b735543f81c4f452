package io.ferry.spark;

import io.ferry.copy.Opening;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.store.Checksum;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.Retrier;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a run takes over from the job's earlier runs (their ledger): an object opened for a write in parts is reused
 * when the plan still has it unchanged (the same source size, ETag and modification time, the same parts) and the
 * destination still holds the upload; its parts the destination still holds as recorded are not copied again (they
 * join the commit as "resumed" ranges). Everything else the ledger names is aborted, so nothing an earlier run opened
 * stays behind.
 */
record Resumption(Map<StoreObject, Upload> uploads, Map<StoreObject, Opening.Opened> opens, List<RangeResult> ranges,
    Set<String> doneParts, List<Ledger.Opened> unused, List<Ledger.Opened> unabortable, List<Ledger.Opened> elsewhere) {

  static Resumption of(Ledger.State state, CopyPlan plan, Destination destination, Retrier retrier, String runId) throws IOException {
    Map<StoreObject, Upload> uploads = new LinkedHashMap<>();
    Map<StoreObject, Opening.Opened> opens = new HashMap<>();
    List<RangeResult> ranges = new ArrayList<>();
    Set<String> done = new HashSet<>();
    List<Ledger.Opened> unused = new ArrayList<>();
    List<Ledger.Opened> elsewhere = new ArrayList<>(); // written to another destination: a cleanup with that job file's
    for (Ledger.Opened entry : state.opened().values()) {
      StoreObject object = LedgerRecords.object(entry);
      (destination.location(object).equals(entry.location()) ? unused : elsewhere).add(entry);
    }
    if (unused.isEmpty()) return new Resumption(uploads, opens, ranges, done, unused, new ArrayList<>(), elsewhere);
    Map<String, RangeTask> firstParts = new HashMap<>();
    for (CopyTask task : plan.tasks()) {
      RangeTask r = task.ranges().get(0);
      if (!r.wholeObject() && r.partNumber() == 1) firstParts.put(r.object().key(), r);
    }
    for (Ledger.Opened entry : new ArrayList<>(unused)) {
      RangeTask first = firstParts.get(entry.key());
      if (first == null || !LedgerRecords.same(entry, first.object(), first.partCount())) continue;
      Upload upload = new Upload(first.object(), entry.uploadId());
      Map<Integer, Ledger.Copied> copied = state.copied().getOrDefault(entry.uploadId(), Map.of());
      SortedMap<Integer, String> receipts = new TreeMap<>();
      copied.forEach((n, c) -> receipts.put(n, c.receipt()));
      Set<Integer> there = retrier.call(() -> destination.partsStillThere(upload, receipts));
      if (there == null) continue; // gone: completed by the commit of the run that crashed, or aborted
      unused.remove(entry);
      uploads.put(first.object(), upload);
      opens.put(first.object(), new Opening.Opened(first.object(), upload, Checksum.parse(entry.expected()), ""));
      long now = System.currentTimeMillis();
      for (int part : there) {
        Ledger.Copied c = copied.get(part);
        ranges.add(new RangeResult(first.object(), destination.location(first.object()), -1, part, first.partCount(), c.offset(),
            c.length(), c.length(), 0, now, now, -1, 0, 0, "resumed", "driver", "", RangeResult.Status.OK, "", c.crc32c(),
            c.checksum(), entry.expected(), entry.uploadId(), c.receipt()));
        done.add(first.object().key() + "#" + part);
      }
    }
    return new Resumption(uploads, opens, ranges, done, unused, new ArrayList<>(), elsewhere);
  }

  /** True for a part the resumed upload already holds. */
  boolean done(RangeTask range) {
    return doneParts.contains(range.object().key() + "#" + range.partNumber());
  }

  /** Aborts what earlier runs opened and this one does not reuse; what cannot be aborted now stays in the ledger. */
  void abortUnused(Destination destination, Retrier retrier, PrintStream out) {
    if (unused.isEmpty()) return;
    int aborted = 0;
    for (Ledger.Opened entry : unused) {
      try {
        retrier.call(() -> {
          destination.abort(new Upload(LedgerRecords.object(entry), entry.uploadId()));
          return null;
        });
        aborted++;
      } catch (IOException | RuntimeException e) {
        unabortable.add(entry);
        out.printf("ABORT of %s (opened by run %s) failed: %s%n", entry.key(), entry.run(), Failures.describe(e));
      }
    }
    out.printf("ABORT %d objects earlier runs opened and this one does not resume (the source changed, or they were done)%n", aborted);
  }
}
