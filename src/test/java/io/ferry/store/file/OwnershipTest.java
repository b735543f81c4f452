package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OwnershipTest {
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
    meta.put("mtime", "1700000000.000000000");
    Ownership o = Ownership.of(meta);
    assertThat(o).isEqualTo(new Ownership(wantMode, wantUid, wantGid));
    assertThat(Ownership.fromReceipts(List.of("", o.receipt()))).isEqualTo(o);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "unix mode=644 uid=1 gid=2 | 420 | 1 | 2",
      "unix mode=600             | 384 | -1 | -1",
      "\"9b2cf535f27731c974343645a3985328\" | -1 | -1 | -1", // a bucket's ETag is no receipt of these
      "unix                      | -1 | -1 | -1",
  })
  void aReceiptIsReadBack(String receipt, int mode, long uid, long gid) {
    assertThat(Ownership.fromReceipts(List.of(receipt.trim()))).isEqualTo(new Ownership(mode, uid, gid));
  }

  @org.junit.jupiter.api.Test
  void noneHasNoReceipt() {
    assertThat(Ownership.of(Map.of("mtime", "1.0")).receipt()).isEmpty();
    assertThat(Ownership.fromReceipts(List.of())).isEqualTo(Ownership.NONE);
  }
}
