package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The verdict of synthetic runs, one per limiting resource, and the boundaries between them. */
class VerdictTest {
  private static final long MB = 1_000_000;

  /** A run of 10 s, 9 of them copying 900 MB in 900 ranges with 16 streams busy throughout at 6.25 MB/s each. */
  private static Verdict.Evidence healthy() {
    return new Verdict.Evidence(10, Map.of("spark", 0.5, "list+plan", 0.5, "copy", 9.0), 9, 900 * MB, 900, 0, 144, 14.4, 16, 0.05,
        0.5, 16, 0, Set.of());
  }

  /** The same evidence, of a run whose ranges went by {@code methods}. */
  private static Verdict.Evidence by(Verdict.Evidence e, Set<String> methods) {
    return new Verdict.Evidence(e.wallSeconds(), e.stageSeconds(), e.copySeconds(), e.bytes(), e.ranges(), e.retries(), e.streamSeconds(),
        e.firstByteSeconds(), e.peakStreams(), e.tailShare(), e.slowestSeconds(), e.firstByteP50Ms(), e.limitMBps(), methods);
  }

  /**
   * The advice names only settings that act on the job's copy method: plan.copy-cutoff only where objects are copied
   * inside the service, where objects up to it are one CopyObject whatever plan.part-size is.
   */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "get+write        | stragglers    | a smaller plan.part-size     | plan.copy-cutoff",
      "get+upload       | stragglers    | a smaller plan.part-size     | plan.copy-cutoff",
      "read+upload      | stragglers    | a smaller plan.part-size     | plan.copy-cutoff",
      "read+write       | stragglers    | a smaller plan.part-size     | plan.copy-cutoff",
      "server-side-copy | stragglers    | a smaller plan.copy-cutoff   | ''",
      "get+write        | idle streams  | a smaller plan.part-size     | plan.copy-cutoff",
      "server-side-copy | idle streams  | a smaller plan.copy-cutoff   | ''",
      "get+write        | the commit stage | fsynced                   | upload completed",
      "get+upload       | the commit stage | each upload completed     | fsync",
      "server-side-copy | the commit stage | each upload completed     | fsync"})
  void theAdviceNamesOnlySettingsThatActOnTheJobsMethod(String method, String limit, String says, String never) {
    Verdict.Evidence h = healthy();
    Verdict.Evidence e = switch (limit) {
      case "stragglers" -> new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 4, 0, 60, 1, 16, 0.6, 8, 16, 0, Set.of());
      case "idle streams" -> new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 6, 0, 54, 1, 16, 0.2, 9, 16, 0, Set.of());
      default -> new Verdict.Evidence(30, Map.of("commit", 20.0, "copy", 9.0), 9, h.bytes(), 900, 0, 144, 14.4, 16, 0.05, 0.5, 16, 0,
          Set.of());
    };
    Verdict v = Verdict.of(by(e, Set.of(method)));
    assertThat(v.limit()).isEqualTo(limit);
    assertThat(v.advice()).contains(says);
    if (!never.isEmpty()) assertThat(v.advice()).doesNotContain(never);
  }

  private record Row(String name, Verdict.Evidence evidence, String limit, String says) {}

  @Test
  void eachRunIsToldWhatLimitedItAndTheEvidence() {
    Verdict.Evidence h = healthy();
    for (Row row : new Row[] {
        new Row("healthy", h, "per-stream rate", "16 streams averaged 6.3 MB/s each"),
        new Row("nothing moved", new Verdict.Evidence(3, Map.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Set.of()), "nothing to copy", ""),
        new Row("listing dominates", new Verdict.Evidence(30, Map.of("list", 20.0, "copy", 9.0), 9, h.bytes(), 900, 0, 144, 14.4,
            16, 0.05, 0.5, 16, 0, Set.of()), "the list stage", "it took 20.0 s of the run's 30.0 s (67%)"),
        new Row("planning dominates", new Verdict.Evidence(30, Map.of("list", 2.0, "plan", 18.0, "copy", 9.0), 9, h.bytes(), 900, 0, 144,
            14.4, 16, 0.05, 0.5, 16, 0, Set.of()), "the plan stage", "it took 18.0 s of the run's 30.0 s (60%)"),
        new Row("an older run's listing", new Verdict.Evidence(30, Map.of("list+plan", 20.0, "copy", 9.0), 9, h.bytes(), 900, 0, 144,
            14.4, 16, 0.05, 0.5, 16, 0, Set.of()), "the list+plan stage", "it took 20.0 s of the run's 30.0 s (67%)"),
        new Row("copy at 40% is the copy", new Verdict.Evidence(22.5, Map.of("list+plan", 13.5, "copy", 9.0), 9, h.bytes(), 900, 0,
            144, 14.4, 16, 0.05, 0.5, 16, 0, Set.of()), "per-stream rate", ""),
        new Row("at the bandwidth limit", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 900, 0, 144, 14.4, 16, 0.05, 0.5,
            16, 105, Set.of()), "limits.bandwidth", "100.0 MB/s against a limit of 105.0 MB/s"),
        new Row("under the bandwidth limit", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 900, 0, 144, 14.4, 16, 0.05,
            0.5, 16, 200, Set.of()), "per-stream rate", ""),
        new Row("throttled", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 900, 45, 144, 14.4, 16, 0.05, 0.5, 16, 0, Set.of()),
            "throttling and retries", "45 retries over 900 ranges (5%)"),
        new Row("a few retries", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 900, 44, 144, 14.4, 16, 0.05, 0.5, 16, 0,
            Set.of()),
            "per-stream rate", ""),
        new Row("a long tail", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 4, 0, 60, 1, 16, 0.6, 8, 16, 0, Set.of()),
            "stragglers", "for 60% of the copy fewer than half the 16 streams were busy"),
        new Row("a copy stage of its own is not early", new Verdict.Evidence(10, h.stageSeconds(), 9.5, h.bytes(), 4, 0, 60, 1, 16, 0.6,
            8, 16, 0, Set.of()), "stragglers", ""),
        new Row("too few ranges", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 6, 0, 54, 1, 16, 0.2, 9, 16, 0, Set.of()),
            "idle streams", "busy 38% of the copy: 6 ranges for 16 streams"),
        new Row("small objects far away", new Verdict.Evidence(10, h.stageSeconds(), 9, h.bytes(), 90_000, 0, 144, 80, 16, 0.05, 0.1,
            45, 0, Set.of()), "request latency", "took 56% of the streams' time (p50 45 ms)"),
    }) {
      Verdict v = Verdict.of(row.evidence());
      assertThat(v.limit()).as(row.name()).isEqualTo(row.limit());
      assertThat(v.evidence()).as(row.name()).contains(row.says());
      assertThat(v.line()).as(row.name()).startsWith(row.limit() + ": ");
    }
  }
}
