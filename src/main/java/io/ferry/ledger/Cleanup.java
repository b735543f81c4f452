package io.ferry.ledger;

import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ferry cleanup}: removes what the job's earlier runs left and nothing else: the uploads and temp files its
 * ledger names (aborted), uploads at keys it was opening that it never named, and, at a directory destination, the
 * temp files named for the job. With {@code dryRun}, only lists them. The caller holds the job's {@link RunLock}.
 */
public final class Cleanup {
  /** One thing the cleanup found, as it goes. */
  public record Event(Action action, String location, String why) {}

  /** What became of it: kept (opened at another destination), aborted or removed (or would be), or its abort failed. */
  public enum Action { KEEP, ABORT, REMOVE, FAILED }

  /** How many things were removed (or would be), and how many could not be (they stay in the ledger). */
  public record Result(int removed, int failed) {}

  private final Ledger ledger;
  private final Destination destination;
  private final Retrier retrier;
  private final boolean dryRun;
  private final Consumer<Event> events;
  private int removed;
  private int failed;

  /** @param events told of each thing as it is found and dealt with */
  public Cleanup(Ledger ledger, Destination destination, Retrier retrier, boolean dryRun, Consumer<Event> events) {
    this.ledger = ledger;
    this.destination = destination;
    this.retrier = retrier;
    this.dryRun = dryRun;
    this.events = events;
  }

  public Result run(String job) throws IOException {
    Ledger.State state = ledger.read();
    List<Ledger.Opened> left = new ArrayList<>();
    for (Ledger.Opened entry : state.opened().values()) {
      Upload upload = new Upload(LedgerRecords.object(entry), entry.uploadId());
      if (!destination.location(upload.object()).equals(entry.location())) {
        left.add(entry); // written to another destination (the job file changed): a cleanup with that job file's
        events.accept(new Event(Action.KEEP, entry.location(), "opened by run " + entry.run() + " at another destination than this job"
            + " file's"));
        continue;
      }
      if (!abort(upload, "opened for writing by run " + entry.run() + ": " + entry.uploadId())) left.add(entry);
    }
    for (Upload lost : Resumption.of(state, destination).lost(destination, retrier)) {
      abort(lost, "an upload at a key this job was opening, which its ledger never named: " + lost.id());
    }
    for (StoreObject stray : strays()) {
      events.accept(new Event(Action.REMOVE, destination.location(stray), "a temp file of job " + job));
      removed++;
      if (!dryRun) destination.removeStray(stray);
    }
    if (!dryRun) ledger.keepOnly(left, state);
    return new Result(removed, failed);
  }

  /** False when the abort failed. */
  private boolean abort(Upload upload, String why) {
    events.accept(new Event(Action.ABORT, destination.location(upload.object()), why));
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
      events.accept(new Event(Action.FAILED, destination.location(upload.object()), Failures.describe(e)));
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
