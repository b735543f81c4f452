package io.ferry.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger's entries are there as soon as written, on filesystems that flush and on object stores that do not. */
class LedgerTest {
  @TempDir Path dir;
  private final Configuration conf = new Configuration();

  private static Ledger.Opened opened(String key, String upload) {
    return new Ledger.Opened(key, key, 10, "e", 1, "ino=1", "/d/" + key, upload, 5, 2, "", "run-1");
  }

  @Test
  void anEntryWrittenByAWriterNeverClosedIsReadOneByOneOnAStoreThatPublishesFilesOnlyWhenClosed() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    // as on S3A: each entry a file of its own, published as it is closed; the writer itself never is (a killed run)
    Ledger.Writer writer = new Ledger.Writer(LocalFiles.of(URI.create(dir.toUri().toString()), conf), dir.toUri()
        + LedgerFile.opening("run-1", 0, 7).name(), false);
    writer.opened(opened("a", "u1"));
    writer.copied(new Ledger.Copied("a", "u1", 1, 0, 5, "etag-1", "00000000", ""));
    writer.opened(opened("b", "u2"));
    Ledger.State state = ledger.read();
    assertThat(state.opened()).containsOnlyKeys("a", "b");
    assertThat(state.copied().get("u1")).containsOnlyKeys(1);
    assertThat(ledger.read(LedgerFile.opening("run-1", 0, 9)).opened()).containsOnlyKeys("a", "b");
    assertThat(ledger.read(LedgerFile.opening("run-1", 1, 7)).opened()).isEmpty();
  }

  @Test
  void anEntryAppendedWhereTheFilesystemFlushesIsReadBeforeTheWriterCloses() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    Ledger.Writer writer = ledger.writer(LedgerFile.copying("run-1", 0, 3));
    writer.opened(opened("a", "u1"));
    assertThat(ledger.read().opened()).containsOnlyKeys("a");
    writer.close();
  }

  /** The versions a replay wrote are facts of the destination: read by key, and kept past the end of every run. */
  @Test
  void theVersionsAReplayWroteAreReadByKeyAndKeptPastTheEndOfARun() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    try (Ledger.Writer writer = ledger.writer(LedgerFile.writing("run-1", (3 << 20) + 1, 7))) {
      writer.written(new Ledger.Written("k1", "s0", "c0", "run-1"));
      writer.written(new Ledger.Written("k1", "s1", "c1", "run-1"));
      writer.written(new Ledger.Written("k2", "s0", "d0", "run-1"));
      writer.writing(new Ledger.Writing("k1", "s1", "run-1"));
      writer.writing(new Ledger.Writing("k1", "s2", "run-1"));
    }
    assertThat(ledger.read().writing()).as("an intent whose write was recorded is needed no more")
        .isEqualTo(java.util.Map.of("k1", java.util.Set.of("s2")));
    assertThat(ledger.read().written()).isEqualTo(java.util.Map.of("k1", java.util.Map.of("c0", "s0", "c1", "s1"), "k2",
        java.util.Map.of("d0", "s0")));
    ledger.keepOnly(java.util.List.of(), ledger.read());
    assertThat(ledger.read().written()).containsOnlyKeys("k1", "k2");
    assertThat(ledger.read().writing()).containsOnlyKeys("k1");
    assertThat(ledger.read().opened()).isEmpty();
  }

  @Test
  void aNameIsReadBackAsTheFileItWasBuiltFromAndNoOtherNameIsALedgers() {
    for (LedgerFile f : java.util.List.of(LedgerFile.opening("20261202T104046Z-31b8", 3, 17), LedgerFile.copying("r-1", 0, 0),
        LedgerFile.writing("r-2", (5 << 20) + 3, 9),
        LedgerFile.kept(1_700_000_000_000L))) {
      assertThat(LedgerFile.parse(f.name())).contains(f);
      assertThat(LedgerFile.parse(f.name() + ".000004")).as("an entry file on an object store").contains(f);
    }
    for (String other : java.util.List.of("lock", "run-open-x-1", "notes-open-1", "kept-", "kept-12x", "run-1-delete-0-1", "",
        "r-open-1-" + "9".repeat(40))) {
      assertThat(LedgerFile.parse(other)).as(other).isEmpty();
    }
    assertThat(LedgerFile.opening("r", 2, 5).ofEveryAttempt()).isEqualTo("r-open-2-").isEqualTo(LedgerFile.opening("r", 2,
        9).ofEveryAttempt());
  }

  @Test
  void theEndOfARunDeletesOnlyTheLedgersOwnFiles() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    try (Ledger.Writer w = ledger.writer(LedgerFile.opening("run-1", 0, 1))) {
      w.opened(opened("a", "u1"));
    }
    java.nio.file.Files.writeString(dir.resolve("notes.jsonl"), "{}\n");
    ledger.keepOnly(java.util.List.of(), ledger.read());
    assertThat(ledger.read().isEmpty()).isTrue();
    assertThat(dir.resolve("notes.jsonl")).exists();
  }

  @Test
  void anEarlyVersionsDriverOpeningsAreReadAndReplacedLikeTheRest() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    try (Ledger.Writer w = new Ledger.Writer(LocalFiles.of(URI.create(dir.toUri().toString()), conf), dir.toUri() + "run-0-open-driver",
        true)) {
      w.opened(opened("old", "u0"));
    }
    assertThat(ledger.read().opened()).containsOnlyKeys("old");
    ledger.keepOnly(java.util.List.of(), ledger.read());
    assertThat(ledger.read().isEmpty()).isTrue();
  }

  /**
   * A restore requested stays in the ledger across runs (and cleanups) until its copy may have expired, and only
   * covers the version it was sent for: a rerun does not pay for it twice, a changed object is restored anew.
   */
  @Test
  void aRestoreRequestedOutlivesTheRunUntilItsCopyMayHaveExpiredAndCoversOnlyItsVersion() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    long now = System.currentTimeMillis();
    try (Ledger.Writer w = ledger.writer(LedgerFile.restoring("run-1", 0, 1))) {
      w.restore(new Ledger.Restore("cold", 10, "e1", 5, "Bulk", 2, now, now + 3 * 86_400_000L, "run-1"));
      w.restore(new Ledger.Restore("expired", 10, "e1", 5, "Bulk", 2, now - 4 * 86_400_000L, now - 1, "run-0"));
      w.opened(opened("a", "u1"));
    }
    ledger.keepOnly(java.util.List.of(), ledger.read());
    Ledger.State kept = ledger.read();
    assertThat(kept.opened()).isEmpty();
    assertThat(kept.restores()).containsOnlyKeys("cold");
    Ledger.Restore r = kept.restores().get("cold");
    assertThat(r.covers(new io.ferry.store.StoreObject("cold", "cold", 10, "e1", 5), now)).isTrue();
    assertThat(r.covers(new io.ferry.store.StoreObject("cold", "cold", 10, "e2", 5), now)).as("another version").isFalse();
    assertThat(r.covers(new io.ferry.store.StoreObject("cold", "cold", 10, "e1", 5), now + 3 * 86_400_000L)).as("expired").isFalse();
    assertThat(LedgerFile.parse(LedgerFile.restoring("run-1", 4, 2).name())).contains(LedgerFile.restoring("run-1", 4, 2));
  }
}
