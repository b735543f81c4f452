package io.ferry.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One run of a job at a time, on the job's ledger folder. */
class RunLockTest {
  @TempDir Path dir;
  private final Configuration conf = new Configuration();

  private String directory() {
    return dir.toUri().toString();
  }

  private Path note() {
    return dir.resolve(RunLock.NOTE);
  }

  @Test
  void aSecondRunIsRefusedWhileTheFirstHoldsTheLockAndMayStartOnceItIsReleased() throws Exception {
    try (RunLock first = RunLock.take(directory(), conf, "job", "run-1")) {
      assertThatThrownBy(() -> RunLock.take(directory(), conf, "job", "run-2")).isInstanceOf(RunLock.Taken.class)
          .hasMessageContaining("another run of job job is running (run run-1 on").hasMessageNotContaining("#");
      assertThat(first.held()).isTrue();
    }
    assertThat(note()).doesNotExist();
    RunLock.take(directory(), conf, "job", "run-2").close();
  }

  @Test
  void aNoteOfADeadProcessOnThisHostOrOneNotRenewedIsACrashedRunsAndIsTakenOver() throws Exception {
    String host = java.net.InetAddress.getLocalHost().getHostName();
    long dead = ProcessHandle.current().pid() + 1_000_000; // no such process
    Files.writeString(note(), "run old on " + host + " (process " + dead + ") since 2026-01-01T00:00:00Z #1");
    RunLock.take(directory(), conf, "job", "run-2").close();

    Files.writeString(note(), "run old on another-host (process 1) since 2026-01-01T00:00:00Z #2");
    assertThatThrownBy(() -> RunLock.take(directory(), conf, "job", "run-3")).isInstanceOf(RunLock.Taken.class);
    // stale by the store's own clock (the note's time against a file written now), not this host's
    Files.setLastModifiedTime(note(), FileTime.fromMillis(System.currentTimeMillis() - RunLock.STALE_MILLIS - 5_000));
    RunLock.take(directory(), conf, "job", "run-3").close();
    assertThat(note()).doesNotExist();
    try (var files = Files.list(dir)) {
      assertThat(files.toList()).as("no clock probe left").isEmpty();
    }
  }

  @Test
  void aRunWhoseNoteWasTakenOverKnowsItAndNeverDeletesTheOthersNote() throws Exception {
    RunLock first = RunLock.take(directory(), conf, "job", "run-1", 50);
    Files.writeString(note(), "run run-2 on elsewhere (process 1) since now #3"); // another run took it for a crashed one
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (first.held() && System.nanoTime() < deadline) Thread.sleep(20);
    assertThat(first.held()).isFalse();
    first.close();
    assertThat(note()).hasContent("run run-2 on elsewhere (process 1) since now #3");
  }
}
