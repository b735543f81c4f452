package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestoredTest {
  @ParameterizedTest(name = "mode={0} uid={1} gid={2} -> {3} {4} {5}")
  @CsvSource(nullValues = "-", value = {
      // rclone's mode holds the file type; only the permission bits are kept, never set-id or sticky ones
      "100644, 1000, 1000, 420, 1000, 1000",
      "644,    -,    -,    420, -1,   -1",
      "4755,   0,    0,    493, 0,    0",
      "0,      -,    -,    0,   -1,   -1",
      "-,      7,    -,    -1,  7,    -1",
      "rw-r--r--, x, -5,   -1,  -1,   -1",
      "888,    4294967295, 4294967296, -1, 4294967295, -1",
  })
  void theMetadataIsReadAsTheSourcesToolWroteItAndWhatDoesNotParseIsAbsent(String mode, String uid, String gid, int wantMode,
      long wantUid, long wantGid) {
    Map<String, String> meta = new java.util.TreeMap<>();
    if (mode != null) meta.put("Mode", mode); // S3 lower-cases names, other tools may not
    if (uid != null) meta.put("uid", uid);
    if (gid != null) meta.put("gid", gid);
    meta.put("mtime", "1700000000.123456789");
    Restored o = Restored.of(meta);
    assertThat(o).isEqualTo(new Restored(wantMode, wantUid, wantGid, 1_700_000_000_123L));
    assertThat(Restored.fromReceipts(List.of("", o.receipt()))).isEqualTo(o);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "unix mode=644 uid=1 gid=2 | 420 | 1 | 2",
      "unix mode=600             | 384 | -1 | -1",
      "\"9b2cf535f27731c974343645a3985328\" | -1 | -1 | -1", // a bucket's ETag is no receipt of these
      "unix                      | -1 | -1 | -1",
  })
  void aReceiptIsReadBack(String receipt, int mode, long uid, long gid) {
    assertThat(Restored.fromReceipts(List.of(receipt.trim()))).isEqualTo(new Restored(mode, uid, gid, Restored.NO_TIME));
  }

  @org.junit.jupiter.api.Test
  void noneHasNoReceipt() {
    assertThat(Restored.of(Map.of("note", "1.0")).receipt()).isEmpty();
    assertThat(Restored.fromReceipts(List.of())).isEqualTo(Restored.NONE);
  }

  /** rclone's time (seconds with nine decimals, or whole) restored to the millisecond; a time that does not parse is none. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "1700000000.123456789 | 1700000000123",
      "1700000000           | 1700000000000",
      "-1.5                 | -1500",
      "soon                 | " + Long.MIN_VALUE})
  void theModificationTimeTravelsToTheCompletion(String mtime, long millis) {
    Restored r = Restored.of(Map.of("Mtime", mtime));
    assertThat(r.mtime()).isEqualTo(millis);
    assertThat(Restored.fromReceipts(List.of(r.receipt())).time(42)).isEqualTo(millis == Restored.NO_TIME ? 42 : millis);
  }
}
