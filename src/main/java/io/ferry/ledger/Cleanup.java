package io.ferry.ledger;

import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ferry cleanup}: removes what the job's earlier runs left and nothing else: the uploads and temp files its
 * ledger names (aborted), uploads at keys it was opening that it never named, and, at a directory destination, the
 * temp files named for the job. With {@code dryRun}, only lists them. The caller holds the job's {@link RunLock}.
 */
public final class Cleanup {
  private final Ledger ledger;
  private final Destination destination;
  private final Retrier retrier;
  private final boolean dryRun;
  private final PrintStream out;
  private int removed;
  private int failed;

  public Cleanup(Ledger ledger, Destination destination, Retrier retrier, boolean dryRun, PrintStream out) {
    this.ledger = ledger;
    this.destination = destination;
    this.retrier = retrier;
    this.dryRun = dryRun;
    this.out = out;
  }

  /** Returns how many things could not be removed (they stay in the ledger for the next cleanup). */
  public int run(String job) throws IOException {
    Ledger.State state = ledger.read();
    List<Ledger.Opened> left = new ArrayList<>();
    for (Ledger.Opened entry : state.opened().values()) {
      Upload upload = new Upload(LedgerRecords.object(entry), entry.uploadId());
      if (!destination.location(upload.object()).equals(entry.location())) {
        left.add(entry); // written to another destination (the job file changed): a cleanup with that job file's
        out.printf("  keep   %s (opened by run %s at another destination than this job file's)%n", entry.location(), entry.run());
        continue;
      }
      if (!abort(upload, "opened for writing by run " + entry.run() + ": " + entry.uploadId())) left.add(entry);
    }
    for (Upload lost : Resumption.of(state, destination).lost(destination, retrier)) {
      abort(lost, "an upload at a key this job was opening, which its ledger never named: " + lost.id());
    }
    for (StoreObject stray : strays()) {
      out.printf("  %s  %s (a temp file of job %s)%n", dryRun ? "would remove" : "remove", destination.location(stray), job);
      removed++;
      if (!dryRun) destination.removeStray(stray);
    }
    if (!dryRun) ledger.keepOnly(left, state);
    out.printf("%s %d %s%s%n", dryRun ? "Would remove" : "Removed", removed, removed == 1 ? "thing" : "things",
        failed == 0 ? "" : "; " + failed + " could not be removed and stay in the ledger for the next cleanup");
    return failed;
  }

  /** False when the abort failed. */
  private boolean abort(Upload upload, String why) {
    out.printf("  %s  %s (%s)%n", dryRun ? "would abort" : "abort", destination.location(upload.object()), why);
    if (dryRun) {
      removed++;
      return true;
    }
    try {
      retrier.run(() -> destination.abort(upload));
      removed++;
      return true;
    } catch (IOException e) {
      failed++;
      out.printf("    failed: %s%n", Failures.describe(e));
      return false;
    }
  }

  private List<StoreObject> strays() throws IOException {
    List<StoreObject> strays = new ArrayList<>();
    try {
      destination.existing().list(o -> {
        if (destination.isStray(o)) strays.add(o);
      });
    } catch (NoSuchFileException | NotDirectoryException e) {
      // no destination yet: nothing left there
    }
    return strays;
  }
}
