package io.ferry.ledger;

import io.ferry.copy.Opener;
import io.ferry.copy.RangeResult;
import io.ferry.plan.PartSizing;
import io.ferry.plan.RangeTask;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a run takes over from the job's earlier runs (their ledger): an object opened for a write in parts is reused
 * when the plan still has it unchanged (the same source size, ETag and modification time, the same parts) and the
 * destination still holds the upload; its parts the destination still holds as recorded are not copied again (they
 * join the commit as "resumed" ranges). Everything else the ledger names is aborted, before this run opens anything,
 * so nothing an earlier run opened stays behind.
 *
 * <p>The ledger holds only objects written in parts that were opened and not finished; the driver reads it whole and
 * broadcasts it, and each object is matched on the executor where its first part is planned.
 *
 * @param here entries written to this job's destination, by the key they are written at (relative to it)
 * @param elsewhere entries written to another destination (the job file changed): left for a cleanup with that file's
 */
public record Resumption(Map<String, Ledger.Opened> here, Map<String, Map<Integer, Ledger.Copied>> copied, List<Ledger.Opened> elsewhere,
    List<Ledger.Intent> intents) implements Serializable {

  /** An upload taken over: the object as opened, its parts already there (as ranges) and their numbers. */
  public record Resumed(Opener.Outcome opened, List<RangeResult> ranges, Set<Integer> done) {}

  public static Resumption of(Ledger.State state, Destination destination) {
    Map<String, Ledger.Opened> here = new HashMap<>();
    List<Ledger.Opened> elsewhere = new ArrayList<>();
    for (Ledger.Opened entry : state.opened().values()) {
      if (destination.location(LedgerRecords.object(entry)).equals(entry.location())) {
        here.put(entry.relativeKey(), entry);
      } else {
        elsewhere.add(entry);
      }
    }
    List<Ledger.Intent> intents = new ArrayList<>();
    for (Ledger.Intent i : state.intents().values()) {
      if (destination.location(new StoreObject(i.key(), i.relativeKey(), 0, "", 0)).equals(i.location())) intents.add(i);
    }
    return new Resumption(here, new HashMap<>(state.copied()), elsewhere, intents);
  }

  public boolean isEmpty() {
    return here.isEmpty();
  }

  /**
   * The uploads open at the destination at keys the ledger names (opened, or about to be) that it does not name
   * itself: a run killed between opening an upload and recording it, or an opening retried after its answer was lost,
   * left them (the uploads the ledger names are resumed or aborted by name). Uploads at keys the ledger does not name
   * are not this job's. Lists the destination's uploads only when the ledger names anything.
   */
  public List<Upload> lost(Destination destination, Retrier retrier) throws IOException {
    if (here.isEmpty() && intents.isEmpty()) return List.of();
    Set<String> named = new HashSet<>();
    Set<String> ledgerIds = new HashSet<>();
    for (Ledger.Opened e : here.values()) {
      named.add(e.relativeKey());
      ledgerIds.add(e.uploadId());
    }
    intents.forEach(i -> named.add(i.relativeKey()));
    List<Upload> lost = new ArrayList<>();
    for (Upload u : retrier.call(destination::openUploads)) {
      if (named.contains(u.object().relativeKey()) && !ledgerIds.contains(u.id())) lost.add(u);
    }
    return lost;
  }

  /**
   * What aborting earlier runs' uploads did.
   *
   * @param failures the aborts that failed
   * @param kept the ledger's entries whose abort failed: they stay in the ledger
   */
  public record Aborted(int aborted, List<Failure> failures, List<Ledger.Opened> kept) {}

  /** An abort that failed: what was opened (its key, and by which run where the ledger knows), and why. */
  public record Failure(String what, String why) {}

  /** Aborts the {@link #lost} uploads. */
  public Aborted abortLost(Destination destination, Retrier retrier) throws IOException {
    int aborted = 0;
    List<Failure> failures = new ArrayList<>();
    for (Upload u : lost(destination, retrier)) {
      try {
        retrier.run(() -> destination.abort(u));
        aborted++;
      } catch (IOException | RuntimeException e) {
        failures.add(new Failure("an upload at " + u.object().relativeKey() + " no ledger entry names", Failures.describe(e)));
      }
    }
    return new Aborted(aborted, failures, List.of());
  }

  /** Whether the plan's first part of a split object may take over an earlier run's upload of it. */
  public boolean matches(RangeTask first) {
    Ledger.Opened entry = here.get(first.object().relativeKey());
    return entry != null && LedgerRecords.same(entry, first);
  }

  /**
   * On an executor: the upload an earlier run opened for {@code first}'s object, with the recorded parts the
   * destination still holds; null when there is none to take over (the upload is gone: completed or aborted).
   */
  public Resumed resume(RangeTask first, Destination destination, Retrier retrier) throws IOException {
    if (!matches(first)) return null;
    Ledger.Opened entry = here.get(first.object().relativeKey());
    Upload upload = new Upload(first.object(), entry.uploadId());
    Map<Integer, Ledger.Copied> recorded = copied.getOrDefault(entry.uploadId(), Map.of());
    SortedMap<Integer, String> receipts = new TreeMap<>();
    recorded.forEach((n, c) -> receipts.put(n, c.receipt()));
    Set<Integer> still = retrier.call(() -> destination.partsStillThere(upload, receipts));
    if (still == null) {
      // gone, as far as the destination says: aborted once more all the same (idempotent), so nothing it holds stays open
      try {
        retrier.run(() -> destination.abort(upload));
      } catch (IOException | RuntimeException e) {
        // the fresh opening goes on; cleanup finds what the ledger names
      }
      return null;
    }
    Set<Integer> there = new TreeSet<>();
    List<RangeResult> ranges = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int part : still) {
      Ledger.Copied c = recorded.get(part);
      ByteRange planned = PartSizing.part(first.object().size(), first.range().length(), part);
      if (c.offset() != planned.offset() || c.length() != planned.length()) continue; // not this plan's part: copied again
      there.add(part);
      ranges.add(RangeResult.of(first.object(), destination.location(first.object())).part(part, first.partCount(), c.offset(), c.length())
          .bytes(c.length(), 0).times(now, now, -1, 0).by("resumed", "driver", "").digests(c.crc32c(), c.checksum(), entry.expected())
          .upload(entry.uploadId(), c.receipt()).build());
    }
    return new Resumed(new Opener.Outcome(first.object(), upload, Checksum.parse(entry.expected()), ""), ranges, there);
  }

  /** Aborts what earlier runs opened here that the plan does not take over ({@code matched}: the keys it may). */
  public Aborted abortUnused(Set<String> matched, Destination destination, Retrier retrier) {
    List<Ledger.Opened> unabortable = new ArrayList<>();
    List<Failure> failures = new ArrayList<>();
    int aborted = 0;
    for (Ledger.Opened entry : here.values()) {
      if (matched.contains(entry.relativeKey())) continue;
      try {
        retrier.run(() -> destination.abort(new Upload(LedgerRecords.object(entry), entry.uploadId())));
        aborted++;
      } catch (IOException | RuntimeException e) {
        unabortable.add(entry);
        failures.add(new Failure(entry.key() + " (opened by run " + entry.run() + ")", Failures.describe(e)));
      }
    }
    return new Aborted(aborted, failures, unabortable);
  }
}
