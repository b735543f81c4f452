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
    Ledger.Writer writer = new Ledger.Writer(LocalFiles.of(URI.create(dir.toUri().toString()), conf), dir.toUri() + "run-1-open-0-7", false);
    writer.opened(opened("a", "u1"));
    writer.copied(new Ledger.Copied("a", "u1", 1, 0, 5, "etag-1", "00000000", ""));
    writer.opened(opened("b", "u2"));
    Ledger.State state = ledger.read();
    assertThat(state.opened()).containsOnlyKeys("a", "b");
    assertThat(state.copied().get("u1")).containsOnlyKeys(1);
    assertThat(ledger.read("run-1-open-0-").opened()).containsOnlyKeys("a", "b");
    assertThat(ledger.read("run-1-open-1-").opened()).isEmpty();
  }

  @Test
  void anEntryAppendedWhereTheFilesystemFlushesIsReadBeforeTheWriterCloses() throws Exception {
    Ledger ledger = new Ledger(dir.toUri().toString(), conf);
    Ledger.Writer writer = ledger.writer("run-1-copy-0-3");
    writer.opened(opened("a", "u1"));
    assertThat(ledger.read().opened()).containsOnlyKeys("a");
    writer.close();
  }
}
